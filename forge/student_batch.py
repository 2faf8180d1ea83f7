"""The offline batch student: `forge student prompts` writes what the agent is shown, your own batch inference
(e.g. vLLM's offline mode) answers every task at once, `forge student answers` runs and scores the answers.

Prompts, one JSON line per task, sorted by task id (the same packages give the same bytes):

    {"task_id", "custom_id" (= task_id), "domain", "messages": [system, user], "tools": [the shell tool]}

`messages` is exactly the first turn of `forge student run` (forge.agent.episode.first_turn): the same system
prompt (for the same --max-steps, --step-timeout and --protocol) and the instruction with the listing of the home
that the task's setup.sh builds, run in the sandbox as student run runs it.

Answers, one JSON line per task, in any of these forms (decided here, one reader for all):

    {"task_id": ID, "script": "mkdir -p Documents/papers && mv ..."}   one command (any bash, heredocs included)
    {"task_id": ID, "commands": ["mkdir -p Documents/papers", "mv ..."]}   one step each, in order
    {"task_id": ID, "content": "I will ... ```bash\\n...\\n```"}          a model's reply as plain text
    {"task_id": ID, "infeasible": true, "reason": "the workbook has no sheet 'Q5'"}   the task cannot be done
    {"custom_id": ID, "response": {"body": {"choices": [{"message": {"content": ..., "tool_calls": [...]}}]}}}

The last is the OpenAI batch output that `vllm run-batch` writes (`task_id` may stand for `custom_id`); `prompts
--batch-model NAME` writes its input, one request a line ({"custom_id", "method", "url", "body": {"model",
"messages", "tools"}}). In a
reply (`content`, or a response's message), every shell tool call is one step; without tool calls, every closed
```bash (or ```sh, or unlabelled) block is one step and a ```python block runs as a python3 script, in order; a
reply with no command is an answer that does nothing (scored). A reply whose first word is INFEASIBLE declines the
task (the rest is the reason), as `"infeasible": true` does (with "script" or "commands" too, they run first): the
runner records the declaration in the home (forge.agent.episode.declare), where an infeasible task's rubric reads
it. A line that is not JSON, not one of the forms,
names a task that is not selected, or answers a task twice is a one-line problem naming its line number; the
other lines still run.

Each answer runs like an episode of `forge student run` (forge.student_run.attempt): a fresh home from setup.sh,
every command through the same AgentShell (bubblewrap, limits, no access to the package), at most --max-steps of
them, then the rubric (forge.solve.check_state); the result folder is the same,
`<out>/shell/terminal/<model>/<domain>/<task_id>/{traj.jsonl,checks.json,messages.json,result.txt}` (protocol
`batch`; messages.json: the first turn, one assistant tool call and its output per command, then `DONE`), and the
run is a `runs` row of kind 'student' (backend `batch`), so `forge feedback ingest`, `forge skills stats`, rounds
and `forge export trajectories` read it unchanged. A finished task (result.txt) is skipped: rerunning is safe.

`run_answers` is the runner as a function, for any caller that has commands per task (teacher solutions).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from forge.agent.episode import (
    TOOL,
    Episode,
    Step,
    block_commands,
    first_turn,
    parse_command,
    run_commands,
    tool_command,
)
from forge.agent.shell import AgentShell, refuse_visible
from forge.catalog import Catalog
from forge.student_run import StudentRunError, attempt, finished, prepare_home, result_folder
from kit import bounded, scratch
from kit.package import Package, load_package
from kit.sandbox import Sandbox

#: Characters of an answers line read at most (a line is one task's whole answer).
MAX_LINE = 4 << 20


@dataclass(frozen=True)
class Answer:
    """One task's answer: the commands to run, one step each, and the reply's own text (kept in messages.json)."""

    commands: tuple[str, ...]
    content: str = ""
    line: int = 0  # where it came from in the answers file (0: not from a file)


@dataclass(frozen=True)
class Problem:
    """An answers line that was not run: its number and a one-line message saying what to do."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


# ---- prompts ---------------------------------------------------------------------------------------------------

def prompt_row(package: Package, sandbox: Sandbox, work: Path, *, max_steps: int, protocol: str = "tools"
               ) -> dict[str, Any]:
    """One prompts line: the task's first turn as `forge student run` shows it (its home built by setup.sh in
    `work`, a scratch folder removed here). Raises `StudentRunError` when setup.sh fails."""
    task = package.task
    home = work / "home"
    home.mkdir(parents=True)
    try:
        problem = prepare_home(package, sandbox, home)
        if problem:
            raise StudentRunError(f"{package.id}: {problem}")
        messages = first_turn(str(task.get("instruction", "")), home, step_seconds=sandbox.limits.wall_seconds,
                              max_steps=max_steps, protocol=protocol)
    finally:
        with contextlib.suppress(OSError):
            bounded.rmtree(work)
    row: dict[str, Any] = {"task_id": package.id, "custom_id": package.id, "domain": str(task.get("app", "unknown")),
                           "messages": messages}
    if protocol == "tools":
        row["tools"] = [TOOL]
    return row


def write_prompts(packages: Sequence[Path], out: Path, sandbox: Sandbox, *, max_steps: int = 30,
                  protocol: str = "tools", concurrency: int = 1, request_model: str | None = None
                  ) -> tuple[int, list[str]]:
    """Write the prompts of `packages` to `out` (JSON Lines sorted by task id, replaced atomically); returns
    (lines written, one message per task whose setup failed: those tasks have no line). With `request_model`,
    each line is an OpenAI batch request instead (`batch_request`)."""
    if protocol not in ("tools", "text"):
        raise StudentRunError(f"--protocol {protocol!r}: use tools or text")
    loaded = sorted((load_package(p) for p in packages), key=lambda p: p.id)
    seen: dict[str, Path] = {}
    for package in loaded:
        if package.id in seen:
            raise StudentRunError(f"task {package.id} is selected twice ({seen[package.id]} and {package.root}); "
                                  "give each package once")
        seen[package.id] = package.root
    problems: list[str] = []

    def one(item: tuple[int, Package]) -> dict[str, Any] | None:
        index, package = item
        try:
            return prompt_row(package, sandbox, workdir / f"task-{index}", max_steps=max_steps, protocol=protocol)
        except StudentRunError as exc:
            problems.append(str(exc))
            return None

    count = 0
    with _atomic(out) as sink, scratch.owned_folder("prompts") as workdir, \
            ThreadPoolExecutor(max(1, concurrency), thread_name_prefix="prompts") as pool:
        for row in pool.map(one, enumerate(loaded)):
            if row is not None:
                line = batch_request(row, request_model) if request_model else row
                sink.write(json.dumps(line, ensure_ascii=False) + "\n")
                count += 1
    return count, sorted(problems)


def batch_request(row: Mapping[str, Any], model: str) -> dict[str, Any]:
    """A prompts line as an OpenAI batch request (`vllm run-batch -i` reads these): custom_id = the task id."""
    body: dict[str, Any] = {"model": model, "messages": row["messages"]}
    if row.get("tools"):
        body["tools"] = row["tools"]
    return {"custom_id": row["task_id"], "method": "POST", "url": "/v1/chat/completions", "body": body}


@contextlib.contextmanager
def _atomic(out: Path) -> Iterator[IO[str]]:
    tmp = out.with_name(out.name + ".tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        sink = tmp.open("w", encoding="utf-8")
    except OSError as exc:
        raise StudentRunError(f"--out {out}: cannot write here ({exc.strerror or exc}); choose another file") from None
    try:
        with sink:
            yield sink
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


# ---- answers ---------------------------------------------------------------------------------------------------

FORMS = ('"script" (a string), "commands" (a list of strings), "content" (a reply), an OpenAI batch "response" or '
         '"infeasible": true with a "reason"')


def read_answers(path: Path) -> tuple[dict[str, Answer], list[Problem]]:
    """The answers of a JSON Lines file by task id, and the lines that are not answers (each a `Problem`).
    Blank lines are skipped; the first answer to a task wins (a second is a problem)."""
    answers: dict[str, Answer] = {}
    problems: list[Problem] = []
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise StudentRunError(f"{path}: cannot read ({exc.strerror or exc}); give the answers file") from None
    with handle:
        number = 0
        while True:
            raw = handle.readline(MAX_LINE + 1)
            if not raw:
                break
            number += 1
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of an overlong line
                    raw = handle.readline(MAX_LINE)
                problems.append(Problem(number, f"longer than {MAX_LINE:,} bytes; write a shorter answer"))
                continue
            if not raw.strip():
                continue
            answer, task_id, problem = parse_answer(raw, number)
            if problem:
                problems.append(Problem(number, problem))
            elif task_id in answers:
                problems.append(Problem(number, f"task {task_id} is already answered on line "
                                                f"{answers[task_id].line}; give one answer per task"))
            else:
                assert answer is not None
                answers[task_id] = answer
    return answers, problems


def parse_answer(raw: bytes | str, number: int = 0) -> tuple[Answer | None, str, str]:
    """(answer, task id, '') of one answers line, or (None, task id or '', what is wrong and what to do)."""
    try:
        data = json.loads(raw, strict=False)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        return None, "", f"not JSON ({why}); write one JSON object per line"
    if not isinstance(data, dict):
        return None, "", "not a JSON object; write {\"task_id\": ..., \"script\": ...} per line"
    task_id = data.get("task_id", data.get("custom_id"))
    if not isinstance(task_id, str) or not task_id:
        return None, "", "no \"task_id\" (or \"custom_id\") string; name the task each answer is for"
    if "infeasible" in data:
        return _declared(data, task_id, number)
    if "script" in data:
        script = data["script"]
        if not isinstance(script, str):
            return None, task_id, f"task {task_id}: \"script\" must be a string (one bash script)"
        return Answer((script,) if script.strip() else (), line=number), task_id, ""
    if "commands" in data:
        commands = data["commands"]
        if not isinstance(commands, list) or not all(isinstance(c, str) for c in commands):
            return None, task_id, f"task {task_id}: \"commands\" must be a list of strings"
        return Answer(tuple(c for c in commands if c.strip()), line=number), task_id, ""
    if "content" in data:
        if not isinstance(data["content"], str):
            return None, task_id, f"task {task_id}: \"content\" must be a string (the model's reply)"
        return reply_answer({"content": data["content"]}, number), task_id, ""
    if "response" in data:
        message, why = _batch_message(data)
        if message is None:
            return None, task_id, f"task {task_id}: {why}"
        return reply_answer(message, number), task_id, ""
    if data.get("error"):
        return None, task_id, f"task {task_id}: the batch request failed ({str(data['error'])[:200]}); rerun it"
    return None, task_id, f"task {task_id}: no answer; give {FORMS}"


def _declared(data: dict[str, Any], task_id: str, number: int) -> tuple[Answer | None, str, str]:
    """The answer of a line with "infeasible": its "script" or "commands" (if any) then, when true, the declaration
    `INFEASIBLE: <reason>` as the reply's text."""
    declared, reason = data["infeasible"], data.get("reason", "")
    if not isinstance(declared, bool) or not isinstance(reason, str):
        return None, task_id, f"task {task_id}: \"infeasible\" must be true or false and \"reason\" a string"
    rest = {k: v for k, v in data.items() if k not in ("infeasible", "reason", "content", "response")}
    answer, _, problem = parse_answer(json.dumps(rest), number) if set(rest) & {"script", "commands"} else (
        Answer((), line=number), task_id, "")
    if answer is None:
        return None, task_id, problem
    if not declared:
        return answer, task_id, ""
    text = " ".join(reason.split())
    return Answer(answer.commands, f"INFEASIBLE: {text}" if text else "INFEASIBLE", number), task_id, ""


def _batch_message(data: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The assistant message of an OpenAI batch output line, or (None, why)."""
    if data.get("error"):
        return None, f"the batch request failed ({str(data['error'])[:200]}); rerun it"
    response = data.get("response")
    body = response.get("body", response) if isinstance(response, dict) else None  # vLLM: body; some: inline
    status = response.get("status_code", 200) if isinstance(response, dict) else 200
    choices = body.get("choices") if isinstance(body, dict) else None
    if status != 200 or not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None, (f"\"response\" holds no choices (status {status}); expected "
                      "{\"response\": {\"body\": {\"choices\": [{\"message\": {\"content\": ...}}]}}}")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return None, "\"response\"'s first choice has no message"
    return message, ""


def reply_answer(message: Mapping[str, Any], number: int = 0) -> Answer:
    """The commands of a model's reply: one per shell tool call; without tool calls, one per closed shell or
    python block of its text (or a `<tool_call>` the server left in the text). Malformed tool calls run nothing."""
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    calls = message.get("tool_calls")
    commands: list[str] = []
    if isinstance(calls, list) and calls:
        for call in calls:
            command, _ = tool_command(call)
            if command is not None:
                commands.append(command)
    else:
        single = parse_command(text)  # a `<tool_call>` left in the text, else the first block
        commands = block_commands(text) or ([single] if single else [])
    return Answer(tuple(commands), text, number)


def run_answers(packages: Sequence[Path | Package], answers: Mapping[str, Sequence[str] | Answer], *, model: str,
                out: Path, sandbox: Sandbox, catalog: Catalog | None, max_steps: int = 30, concurrency: int = 1,
                selection: Mapping[str, Any] | None = None,
                progress: Callable[[str, str], None] | None = None) -> Counter[str]:
    """Run each task's commands (`answers`: task id -> commands, or an `Answer`) on the package of that id, score
    it and write `forge student run`'s result layout under `out` for `model`; `packages`: folders or loaded
    packages. Returns the counts (passed, failed,
    infra, already). Tasks of `packages` without an answer are not run; an answer whose task is not in `packages`
    is refused before anything runs (StudentRunError). With a catalog the run is a `runs` row of kind 'student'
    (backend 'batch', `selection` recorded). `progress(task_id, outcome)` is called per task.

    Example (teacher solutions): run_answers(paths, {task_id: ["cd Documents", "mv a.txt b/"]}, model="teacher",
    out=Path("results"), sandbox=Sandbox(Limits(wall_seconds=60)), catalog=Catalog(db))"""
    loaded = {package.id: package for package in (p if isinstance(p, Package) else load_package(p) for p in packages)}
    missing = sorted(set(answers) - set(loaded))
    if missing:
        raise StudentRunError(f"{len(missing)} answer(s) name no given package, e.g. {missing[0]!r}; give their "
                              "package folders")
    work_on = [(loaded[task_id], _as_answer(answers[task_id])) for task_id in sorted(answers)]
    for package, _ in work_on:
        refuse_visible(package.root)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StudentRunError(f"--out {out}: cannot create this folder ({exc.strerror or exc}); "
                              "choose another") from None
    shell = AgentShell(sandbox)
    run_id = None
    if catalog is not None:
        chosen = dict(selection or {})
        run_id = catalog.start_run(seed=0, requested=len(work_on), out_dir=str(out), backend="batch",
                                   selection={**chosen, "model": model, "max_steps": max_steps},
                                   kind="student", round=chosen.get("round"))
    counts: Counter[str] = Counter()
    status = "failed"

    def one(item: tuple[int, tuple[Package, Answer]]) -> str:
        index, (package, answer) = item
        folder = result_folder(out, model, str(package.task.get("app", "unknown")), package.id)
        if finished(folder):
            outcome = "already"
        else:
            def act(home: Path, log: Callable[[Step], None]) -> Episode:
                return run_commands(str(package.task.get("instruction", "")), home, shell, answer.commands,
                                    max_steps=max_steps, content=answer.content, on_step=log)

            outcome = attempt(package, folder, sandbox, workdir / f"task-{index}", act, model=model)
        if progress is not None:
            progress(package.id, outcome)
        return outcome

    try:
        with scratch.owned_folder("answers") as workdir, \
                ThreadPoolExecutor(max(1, concurrency), thread_name_prefix="answers") as pool:
            for outcome in pool.map(one, enumerate(work_on)):
                counts[outcome] += 1
        status = "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        if catalog is not None and run_id is not None:
            catalog.finish_run(run_id, dict(counts), status)
    return counts


def _as_answer(answer: Sequence[str] | Answer) -> Answer:
    if isinstance(answer, Answer):
        return answer
    if isinstance(answer, str):
        raise StudentRunError("an answer is a list of commands, not one string; wrap a script in a list")
    return Answer(tuple(answer))

