"""The agent loop of one task: the instruction, then commands and their outputs, until done or out of steps.

Two protocols. `tools`: the model gets one function tool, `shell(command)`, through the chat-completions
tool-calling API; every tool call runs one command (one step) and its output goes back as a `tool` message.
`text`, for servers without tool calling: the model answers with one ```bash block per turn and the output
comes back as a user message. In both, a reply that asks for no command ends the episode (the model says it
is done; `DONE` is the documented way), and so does the step budget. A model that ignores the tools and
writes a ```bash (or ```python) block, or a `<tool_call>` JSON the server did not parse, is understood in
either protocol. Malformed tool calls (arguments that are not JSON, an unknown tool, no command) cost a step
and get an error message back, never a crash. When the conversation outgrows `context_chars`, the oldest
command outputs are left out (small local models have small contexts).

`Episode.messages` is always the tool-call form of what happened (the SFT format of
`forge export trajectories`), whichever protocol the server spoke.

Every path starts from the same first turn (`first_turn`): the system prompt, then the task's instruction with a
listing of the home as the task starts (`observe_home`) and a first look at the spreadsheets it names
(`forge.agent.preview`). `run_episode` sends it to a server; `forge student prompts` writes it for offline batch
inference; `run_commands` replays commands written in advance (a batch answer, a teacher's solution) after it, one
step each, through the same shell.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from forge.agent.chat import ChatClient, ToolsUnsupported, Turn
from forge.agent.preview import preview_documents
from forge.agent.shell import AgentShell, CommandResult
from kit import bounded
from kit.errors import SandboxError
from kit.model import declare_command
from kit.sandbox import HOME

TOOL_NAME = "shell"
TOOL: dict[str, Any] = {"type": "function", "function": {
    "name": TOOL_NAME,
    "description": "Run one bash command in /home/user on the desktop and get back its exit status, stdout and "
                   "stderr (long output is cut in the middle).",
    "parameters": {"type": "object", "properties": {"command": {
        "type": "string", "description": "The bash command line, e.g. ls -la Desktop"}}, "required": ["command"]}}}

SYSTEM = """You are a computer-use agent working on a Linux desktop as the user `user` (home: /home/user).
The graphical applications are not available to you: you work through a terminal. Run shell commands with the
`shell` tool; each call runs `bash -c COMMAND` in /home/user (files persist between calls; the shell, current
folder and variables do not). There is no network. A command may run {seconds:g} seconds at most.
python3 has openpyxl, python-docx and python-pptx: edit .xlsx / .docx / .pptx files with them; Thunderbird's
profile and mail folders are plain files under /home/user. Do what the task asks, exactly, and nothing else.
When the task is done, reply with a short summary and no tool call (or just DONE). If the task asks for something
that cannot be done (a feature the application lacks, a file or item that is not there, wishes that contradict each
other), change nothing and reply INFEASIBLE: <the reason>, with no tool call. You have {steps} commands."""

TEXT_PROTOCOL = """

You cannot call tools here. To run a command, answer with exactly one fenced block:
```bash
COMMAND
```
and nothing after it; the next message gives you its output. When the task is done, answer DONE."""

#: Entries of the initial home listed in the first message; the rest are counted (`ls` and `find` show them).
HOME_ENTRIES = 200
#: Entries walked at most to count what the listing leaves out (a home is made by setup.sh, but may be large).
HOME_WALK = 20_000

#: Characters of conversation sent per turn before old outputs are left out (~15K tokens; small local models
#: need less: --context-chars).
CONTEXT_CHARS = 60_000
ELIDED = "[output left out to fit the context]"
#: Fenced-block languages that run as a shell command ("" is a block without a language) or as a python3 script;
#: a block in any other language (```sql, ```json, ```text ...) is shown, never run.
SHELL_LANGUAGES = frozenset({"", "bash", "sh", "shell", "console", "zsh"})
PYTHON_LANGUAGES = frozenset({"python", "python3", "py"})
#: A CommonMark parser (markdown-it-py): fences pair as Markdown pairs them, so a block's closing fence can never
#: be taken for the opening of the next (a hand-written pattern ran the prose between two blocks).
_MARKDOWN = MarkdownIt("commonmark")
#: A final reply that declines the task: its first word is INFEASIBLE (Markdown emphasis allowed), the rest the reason.
_INFEASIBLE = re.compile(r"[\s*_`#>]*INFEASIBLE\b[\s*_`:.,;\u2013\u2014-]*(.*)", re.S)
#: Tool calls some models write into the text when the server does not parse them (Qwen / Hermes style).
_TEXT_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


@dataclass
class Step:
    """One line of traj.jsonl: a command and what it gave (or, for the last line, the model's final word)."""

    step_num: int
    action: str
    response: str
    output: str = ""
    exit_code: int | None = None
    timed_out: bool = False
    seconds: float = 0.0
    llm_seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    done: bool = False
    error: str = ""
    declared: str = ""  # the final step of an episode whose last reply declared the task infeasible: the reason

    def as_json(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for optional in ("error", "declared"):
            if not data[optional]:
                del data[optional]
        return data


@dataclass
class Episode:
    protocol: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    ended: str = ""  # done | step budget | llm problem
    error: str = ""  # set when the model could not be reached: infrastructure, not a score
    declared: str = ""  # the reason, when the last reply declared the task infeasible (recorded in the home)


class ProtocolSwitch(Exception):
    """The server refused tool calling before any command ran: start over with the text protocol."""


def system_prompt(step_seconds: float, max_steps: int, protocol: str) -> str:
    text = SYSTEM.format(seconds=step_seconds, steps=max_steps)
    return text + TEXT_PROTOCOL if protocol == "text" else text


def observe_home(home: Path, limit: int = HOME_ENTRIES) -> str:
    """What the agent is shown of its home as the task starts: every folder and file under /home/user in sorted
    order, files with their sizes, links with their targets (a bounded walk: no link followed). Past `limit`
    entries the rest are counted. Deterministic: the same package gives the same text."""
    lines: list[str] = []
    more, cut = 0, False
    try:
        for entry in bounded.walk(home, max_depth=32, max_entries=HOME_WALK):
            if len(lines) >= limit:
                more += 1
                continue
            path = f"{HOME}/{entry.rel}"
            if entry.is_dir:
                lines.append(path + "/")
            elif entry.is_link:
                lines.append(f"{path} -> {entry.readlink()}")
            elif entry.is_file:
                lines.append(f"{path} ({entry.info.st_size:,} bytes)")
            else:
                lines.append(f"{path} (special file)")
    except (bounded.LimitExceeded, OSError):
        cut = True
    if not lines and not cut:
        return f"Your home folder {HOME} is empty."
    if cut:
        lines.append("[... the listing stops here: the tree is too large or too deep; `ls` and `find` show the rest]")
    elif more:
        lines.append(f"[... {more:,} more entries; `ls` and `find` list them]")
    return "The files in your home folder as the task starts:\n" + "\n".join(lines)


def task_message(instruction: str, home: Path) -> str:
    """The first user message: the instruction, the listing of the home (`observe_home`), then a first look at the
    spreadsheets it names (`forge.agent.preview`), when there are any."""
    preview = preview_documents(instruction, home)
    return f"{instruction}\n\n{observe_home(home)}" + (f"\n\n{preview}" if preview else "")


def first_turn(instruction: str, home: Path, *, step_seconds: float, max_steps: int, protocol: str = "tools"
               ) -> list[dict[str, Any]]:
    """The messages an agent starts from: the system prompt (for `protocol`) and the task (`task_message`).
    `forge student run` sends them at its first turn; `forge student prompts` writes them."""
    return [{"role": "system", "content": system_prompt(step_seconds, max_steps, protocol)},
            {"role": "user", "content": task_message(instruction, home)}]


def parse_command(content: str) -> str | None:
    """The command of a plain-text reply, or None (the model is done): a `<tool_call>` the server left in the
    text, else the first fenced block (a ```python block runs as a python3 script)."""
    call = _TEXT_CALL.search(content or "")
    if call:
        try:
            data = json.loads(call.group(1), strict=False)
        except json.JSONDecodeError:
            data = None
        args = data.get("arguments") if isinstance(data, dict) else None
        if isinstance(args, str):
            with contextlib.suppress(json.JSONDecodeError):
                args = json.loads(args, strict=False)
        if isinstance(args, dict) and isinstance(args.get("command"), str) and args["command"].strip():
            return str(args["command"]).strip()
    blocks = block_commands(content or "")
    return blocks[0] if blocks else None


def block_commands(content: str) -> list[str]:
    """The command of every closed shell or python fenced block of `content`, in order (a ```python block runs as
    a python3 script; blocks in other languages are never run)."""
    commands = []
    for language, body in fenced_blocks(content):
        if not body.strip() or language not in SHELL_LANGUAGES | PYTHON_LANGUAGES:
            continue
        if language in PYTHON_LANGUAGES:
            commands.append(f"python3 - <<'FORGE_PY'\n{body.strip()}\nFORGE_PY")
        else:
            commands.append(body.strip())
    return commands


def fenced_blocks(content: str) -> list[tuple[str, str]]:
    """(language, text) of every closed fenced code block of a Markdown reply, in order, as a CommonMark parser
    reads them. A block left open at the end (a reply cut off mid-command) is not a block: it is never run."""
    lines = content.splitlines()
    blocks = []
    for token in _MARKDOWN.parse(content):
        if token.type != "fence" or token.map is None:
            continue
        last = lines[token.map[1] - 1].strip().lstrip(">").strip() if token.map[1] - 1 < len(lines) else ""
        closed = token.map[1] - token.map[0] >= 2 and last.startswith(token.markup) and not last.strip(token.markup[0])
        if closed:
            blocks.append(((token.info.split() or [""])[0].lower(), token.content))
    return blocks


def run_episode(instruction: str, home: Path, shell: AgentShell, chat: ChatClient, *, max_steps: int, seed: int,
                protocol: str = "tools", context_chars: int = CONTEXT_CHARS,
                on_step: Callable[[Step], None] | None = None) -> Episode:
    """Work on one task until the model is done or `max_steps` commands ran. Raises `ProtocolSwitch` (tools
    refused before anything ran) and `LLMConfigError` (the endpoint refuses this model: stop the run).
    Older command outputs are left out (oldest first) while the conversation exceeds `context_chars`."""
    seconds = shell.limits.wall_seconds
    episode = Episode(protocol)
    canonical = episode.messages
    canonical += first_turn(instruction, home, step_seconds=seconds, max_steps=max_steps)
    sent: list[dict[str, Any]] = [{"role": "system", "content": system_prompt(seconds, max_steps, protocol)},
                                  dict(canonical[1])]
    tools = [TOOL] if protocol == "tools" else None

    def record(step: Step) -> None:
        episode.steps.append(step)
        if on_step is not None:
            on_step(step)

    while True:
        fit_context(sent, canonical, context_chars)
        try:
            turn = chat.turn(sent, tools, seed)
        except ToolsUnsupported as exc:
            if not episode.steps:
                raise ProtocolSwitch() from None
            episode.ended = f"llm problem: the server rejected the request: {exc}"  # commands ran: score the state
            return episode
        episode.turns.append(turn)
        if not turn.ok:
            episode.ended, episode.error = "llm problem", turn.problem
            return episode
        message = turn.message
        content = message.get("content") or ""
        calls = list(message.get("tool_calls") or [])
        fallback = None if calls else parse_command(content)
        if not calls and fallback is None:
            canonical.append({"role": "assistant", "content": content})
            last = _step(len(episode.steps) + 1, "DONE", content, turn, done=True, error=turn.problem)
            try:
                declare(episode, last, shell, home)
            except MachineFailure as exc:
                episode.ended, episode.error = "machine failure", str(exc)
                return episode
            record(last)
            episode.ended = "done" if not turn.problem else f"llm problem: {turn.problem}"
            chat.keep(turn)
            return episode
        if len(episode.steps) >= max_steps:
            episode.ended = "step budget"
            chat.keep(turn)
            return episode
        try:
            _act(turn, calls, fallback, content, episode, shell, home, max_steps, sent, record)
        except MachineFailure as exc:  # infrastructure, not the model: the task is retried, the turn not cached
            episode.ended, episode.error = "machine failure", str(exc)
            return episode
        chat.keep(turn)
        if len(episode.steps) >= max_steps:
            episode.ended = "step budget"
            return episode


def run_commands(instruction: str, home: Path, shell: AgentShell, commands: Sequence[str], *, max_steps: int,
                 content: str = "", on_step: Callable[[Step], None] | None = None) -> Episode:
    """An episode of commands written in advance (an offline batch answer, a teacher's solution): the first turn
    `run_episode` would send, then each command one step through the same shell, recorded in the same tool-call
    form (one assistant message with one call per command, then its output) and ended by an assistant `DONE`.
    `content` (the answer's own text, e.g. the model's reply holding the blocks) goes on the first assistant
    message; with no command it is the only one. Commands past `max_steps` are not run (ended 'step budget'); a
    command the sandbox cannot start ends the episode as a machine failure (`error` set: not a score)."""
    episode = Episode("batch", messages=first_turn(instruction, home, step_seconds=shell.limits.wall_seconds,
                                                   max_steps=max_steps))

    def record(step: Step) -> None:
        episode.steps.append(step)
        if on_step is not None:
            on_step(step)

    for number, command in enumerate(commands, start=1):
        if number > max_steps:
            episode.ended = "step budget"
            return episode
        said = content if number == 1 else ""
        call_id = f"call_{number}"
        episode.messages.append({"role": "assistant", "content": said, "tool_calls": [{
            "id": call_id, "type": "function",
            "function": {"name": TOOL_NAME, "arguments": json.dumps({"command": command})}}]})
        step = Step(number, command, said)
        try:
            shown = _fill(step, _run(shell, home, command, number))
        except MachineFailure as exc:
            episode.ended, episode.error = "machine failure", str(exc)
            return episode
        record(step)
        episode.messages.append({"role": "tool", "tool_call_id": call_id, "content": shown})
    reason = declaration(content)
    final = content if not commands else f"INFEASIBLE: {reason}" if reason is not None else "DONE"
    episode.messages.append({"role": "assistant", "content": final})
    last = Step(len(commands) + 1, "DONE", final, done=True)
    try:
        declare(episode, last, shell, home)
    except MachineFailure as exc:
        episode.ended, episode.error = "machine failure", str(exc)
        return episode
    record(last)
    episode.ended = "done"
    return episode


def declaration(content: str) -> str | None:
    """The reason of a reply that declares the task infeasible (`INFEASIBLE: <why>`, the documented way; its first
    word, Markdown emphasis allowed), '' for one that gives none; None for any other reply."""
    match = _INFEASIBLE.match(content or "")
    if match is None:
        return None
    return " ".join(match.group(1).replace("*", " ").replace("`", " ").split())


def declare(episode: Episode, last: Step, shell: AgentShell, home: Path) -> None:
    """When the final reply `last` declares the task infeasible, record it in the home as the agent itself could
    (`kit.model.declare_command`, through the same sandboxed shell: the home may be hostile) so the rubric reads it
    (`agent.declared_infeasible`); raises `MachineFailure` when the sandbox cannot run it."""
    reason = declaration(last.response)
    if reason is None:
        return
    reason = reason or "the task cannot be done as asked"
    done = _run(shell, home, declare_command(reason), last.step_num)
    if done.exit_code != 0:
        last.error = f"the declaration could not be recorded: {done.shown}"[:500]
        return
    episode.declared = last.declared = reason


class MachineFailure(Exception):
    """The sandbox could not run a command (bubblewrap failed to start, the machine is out of something)."""


def _run(shell: AgentShell, home: Path, command: str, number: int) -> CommandResult:
    try:
        return shell.run(home, command)
    except (SandboxError, OSError, ValueError) as exc:
        raise MachineFailure(f"the sandbox could not run step {number}: {type(exc).__name__}: {exc}"[:500]) from None


def _act(turn: Turn, calls: list[dict[str, Any]], fallback: str | None, content: str, episode: Episode,
         shell: AgentShell, home: Path, max_steps: int, sent: list[dict[str, Any]],
         record: Callable[[Step], None]) -> None:
    """Run what one turn asked for and add its outputs to both conversations (raises `MachineFailure`)."""
    canonical = episode.messages
    if calls:
        sent.append(turn.message)
        canonical.append(turn.message)
        for number, call in enumerate(calls):
            command, problem = tool_command(call)
            step = _step(len(episode.steps) + 1, command or "", content, turn, first=number == 0)
            if len(episode.steps) >= max_steps:
                shown = "not run: the step budget is used up"
            elif command is None:
                shown, step.error = f"error: {problem}", problem
                record(step)
            else:
                shown = _fill(step, _run(shell, home, command, step.step_num))
                record(step)
            reply = {"role": "tool", "tool_call_id": call.get("id", ""), "content": shown}
            sent.append(reply)
            canonical.append(reply)
        return
    assert fallback is not None
    call_id = f"call_{len(episode.steps) + 1}"
    canonical.append({"role": "assistant", "content": content, "tool_calls": [{
        "id": call_id, "type": "function",
        "function": {"name": TOOL_NAME, "arguments": json.dumps({"command": fallback})}}]})
    step = _step(len(episode.steps) + 1, fallback, content, turn)
    shown = _fill(step, _run(shell, home, fallback, step.step_num))
    record(step)
    canonical.append({"role": "tool", "tool_call_id": call_id, "content": shown})
    sent.extend([{"role": "assistant", "content": content}, {"role": "user", "content": f"Output:\n{shown}"}])


def fit_context(sent: list[dict[str, Any]], canonical: list[dict[str, Any]], limit: int) -> None:
    """Replace the oldest command outputs by a note until the conversation is at most `limit` characters (the
    latest output always stays). `canonical` gets the same change at the same index, so the exported episode
    is what the model saw (after the first two, both lists grow by the same number of messages each turn)."""
    size = sum(len(str(m.get("content") or "")) + len(json.dumps(m.get("tool_calls", ""))) for m in sent)
    for index, message in enumerate(sent[2:-1], start=2):
        if size <= limit:
            return
        content = str(message.get("content") or "")
        is_output = message.get("role") == "tool" or (message.get("role") == "user" and content.startswith("Output:"))
        if not is_output or content.endswith(ELIDED):
            continue
        short = ("Output:\n" if message.get("role") == "user" else "") + ELIDED
        size -= len(content) - len(short)
        sent[index] = {**message, "content": short}
        if index < len(canonical) and canonical[index].get("role") in ("tool", "user"):
            canonical[index] = {**canonical[index], "content": ELIDED}


def _step(number: int, action: str, response: str, turn: Turn, *, first: bool = True, done: bool = False,
          error: str = "") -> Step:
    """A step of `turn`; the turn's reply, tokens and latency go on its first step only (a turn may run several:
    a long reply is stored once)."""
    return Step(number, action, response if first else "", prompt_tokens=turn.prompt_tokens if first else 0,
                completion_tokens=turn.completion_tokens if first else 0, cached=turn.cached,
                llm_seconds=round(turn.latency_s, 3) if first else 0.0, done=done, error=error)


def tool_command(call: Any) -> tuple[str | None, str]:
    """(command, problem) of one tool call; the command is None when the call is malformed."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        return None, "the tool call has no function"
    name = function.get("name")
    if name != TOOL_NAME:
        return None, f"unknown tool {str(name)[:60]!r}; the only tool is {TOOL_NAME!r}"
    try:
        args = json.loads(function.get("arguments") or "{}", strict=False)  # a raw newline in a command is common
    except json.JSONDecodeError as exc:
        return None, f"the arguments are not JSON ({exc.msg}); send {{\"command\": \"...\"}}"
    command = (args.get("command") or args.get("cmd")) if isinstance(args, dict) else None  # "cmd": a common slip
    if not isinstance(command, str) or not command.strip():
        return None, "the arguments have no \"command\" string; send {\"command\": \"...\"}"
    return command, ""


def _fill(step: Step, result: CommandResult) -> str:
    step.output, step.exit_code, step.timed_out = result.shown, result.exit_code, result.timed_out
    step.seconds = round(result.seconds, 3)
    return result.shown
