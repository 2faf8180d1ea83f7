"""Run one agent command in the task's sandbox: the desktop home bound at /home/user and nothing else.

Every command is a fresh `bash -c` under bubblewrap with the same confinement as setup scripts (kit.sandbox):
read-only system, no network, its own PID namespace, CPU / memory / file-size / process / disk / output
limits and a wall timeout. The package folder is NOT bound, so the hidden solution/ and task.json (the rubric
and its expected values) are out of reach; only the state home is writable. The Python environment Forge
runs in is bound read-only and put first on PATH, so `python3` inside has openpyxl, python-docx and
python-pptx (an agent may edit an .xlsx the way a person at a terminal would).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from kit.errors import SandboxError
from kit.sandbox import HOME, SYSTEM_DIRS, Limits, RunResult, Sandbox

#: Characters of a command's output the model gets back (head and tail kept, the middle cut).
OUTPUT_CHARS = 4000
#: Linux's limit on one argument of a program (MAX_ARG_STRLEN, 32 pages, the terminating NUL included): the
#: command is one argument of bubblewrap, and one over it made exec fail and stopped the whole run.
MAX_ARG_BYTES = 32 * 4096
#: The exit status shown for a command that was refused, not run (bash's "cannot execute").
REFUSED = 126


@dataclass(frozen=True)
class CommandResult:
    """What one command did, and the text the model is shown for it."""

    command: str
    exit_code: int
    shown: str  # the observation: status line + truncated stdout/stderr
    timed_out: bool
    seconds: float
    violations: tuple[str, ...] = ()  # sandbox rules the command broke (a hostile command: `unsafe`)


def python_prefix() -> str:
    """The prefix of the interpreter running Forge (its bin/ and site-packages hold openpyxl & co.)."""
    return sys.prefix


def python_roots() -> list[str]:
    """Forge's Python prefix and, for a virtualenv, its base interpreter's: bound read-only for agent commands
    (those under the system folders are visible anyway)."""
    system = tuple(d + "/" for d in SYSTEM_DIRS)
    return sorted({p for p in (sys.prefix, sys.base_prefix) if p not in SYSTEM_DIRS and not p.startswith(system)})


def visible_roots() -> list[str]:
    """Host folders an agent command can read: the system folders and Forge's Python."""
    return [d for d in SYSTEM_DIRS if Path(d).exists()] + python_roots()


def refuse_visible(package: Path) -> None:
    """A package under a folder the agent can read would expose its solution: refuse to run it."""
    where = package.resolve()
    for root in visible_roots():
        if where == Path(root) or Path(root) in where.parents:
            raise SandboxError(f"{package}: the package lies under {root}, which agent commands can read, so its "
                               "hidden solution would be visible; copy the packages elsewhere (e.g. ./tasks)")


class AgentShell:
    """Runs commands for one run's agents; `run(home, command)` is thread-safe."""

    def __init__(self, sandbox: Sandbox, output_chars: int = OUTPUT_CHARS) -> None:
        if not sandbox.enabled:
            raise SandboxError("agent commands only run inside bubblewrap (an agent's command is untrusted); "
                               "install bubblewrap (apt-get install bubblewrap)")
        self.sandbox = sandbox
        self.output_chars = output_chars

    @property
    def limits(self) -> Limits:
        return self.sandbox.limits

    def run(self, home: Path, command: str) -> CommandResult:
        """Run `command` with bash in /home/user (= `home`); its files persist in `home` for the next step.

        A command the system cannot pass to a program (over MAX_ARG_BYTES, or holding a NUL byte) is not run: the
        model is told why, as the output of that step, and the episode goes on."""
        problem = refused(command)
        if problem:
            return CommandResult(command, REFUSED, f"not run: {problem}", False, 0.0)
        prefix = python_prefix()
        binds = [(str(home), HOME, True)] + [(root, root, False) for root in python_roots()]
        inner = f'{self.sandbox.ulimits()}; export PATH="{prefix}/bin:$PATH" TERM=dumb; exec bash -c "$1"'
        cmd = [*self.sandbox.bwrap_args(binds), "bash", "-c", inner, "forge-step", command]
        ran = self.sandbox.run(cmd, {"PATH": "/usr/bin:/bin"}, home)
        return CommandResult(command, ran.returncode, self.observe(ran), ran.timed_out, ran.seconds, ran.violations)

    def observe(self, ran: RunResult) -> str:
        """The text the model sees: how the command ended, then its stdout and stderr (truncated)."""
        if ran.timed_out:
            status = f"timed out after {self.limits.wall_seconds:g} s; the command was killed"
        elif ran.violations:
            status = "stopped: " + "; ".join(ran.violations)
        else:
            status = f"exit status {ran.returncode}"
        parts = [status]
        if ran.stdout:
            parts.append(ran.stdout)
        if ran.stderr:
            parts.append("[stderr]\n" + ran.stderr)
        return truncate("\n".join(parts), self.output_chars)


def refused(command: str) -> str:
    """Why the system cannot run `command` as one argument, or ''."""
    size = len(command.encode("utf-8", "surrogatepass"))
    if size + 1 > MAX_ARG_BYTES:
        return (f"the command is {size:,} bytes, over the system's limit of {MAX_ARG_BYTES - 1:,} bytes for one "
                "command; write long content in parts (e.g. several `cat >> FILE <<'EOF'` commands) or generate it "
                "with a short script")
    if "\0" in command:
        return "the command holds a NUL byte, which no program can take as an argument; remove it"
    return ""


def truncate(text: str, limit: int) -> str:
    """`text` cut to about `limit` characters: its head and tail, with what was left out counted."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4], text[-(limit // 4):]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters left out ...]\n{tail}"
