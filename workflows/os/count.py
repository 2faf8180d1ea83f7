"""os.count: count or list things and write the answer into a stated file.

Queries: files of an extension directly in a folder (subfolders hold more that must not count) or in the whole
tree, lines of a log, log lines with ERROR, total lines of every .csv in a folder, the sorted names of all files
or of one type, and the name of the largest file. The answer is computed from the tree and is `secret`: the
instruction states only the question and the output path. Listed names are drawn until byte order and locale
order (`ls`, `sort`, a file manager in en_US) agree. Near-misses: off by one, the other depth, the wrong lines,
an unsorted or over-inclusive list, full paths, the runner-up.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import tree
from preparers.teach import q
from preparers.tree import FileSpec
from verifiers.grounding import leaks
from workflows.os import kit as oc

NAME = "os.count"
EXTS = ("pdf", "jpg", "csv", "txt", "png", "docx", "mp3")
OUT_NAMES = ("count", "answer", "result", "summary", "tally", "findings")
PHRASINGS = (
    "{question} Write {answer_form} into the file {out} (create it).",
    "Please find out the following and save it in {out}: {question_lc} Put {answer_form} in that file.",
    "Using the terminal, answer this: {question_lc} Store {answer_form} in {out}.",
    "I need a quick check. {question} Create {out} containing {answer_form}.",
    "{question} Save {answer_form} to {out}, nothing else.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{question} Put {answer_form} in {out}.",
    "I'd like to know something: {question_lc} Write {answer_form} to {out}.",
    "Can you find this out for me? {question} Save {answer_form} as {out}.",
    "Please answer this in {out}, with {answer_form}: {question_lc}",
    "{question} I need {answer_form} written into a new file {out}.",
)


class Params(TypedDict):
    query: Literal["count_ext", "count_recursive", "count_lines", "count_matching", "total_lines", "list_names",
                   "list_ext", "largest"]


#: a count, a file name or a sorted list of names
Answer = int | str | list[str]


@dataclass(frozen=True)
class Target:
    out: str  # the file the answer goes into
    answer: Answer
    misses: list[tuple[Answer, str]]  # (plausible wrong answer, why it is wrong)
    pipeline: str = ""  # how a person at a terminal works the answer out (the teacher's command, before `> out`)


def _pipeline(query: str, folder: str, ext: str, log: str = "") -> str:
    """The shell pipeline that answers `query` about `folder` (files of `ext`; the `log` file)."""
    top = f"find {q(folder)} -maxdepth 1 -type f"
    return {
        "count_ext": f"{top} -name '*.{ext}' | wc -l",
        "count_recursive": f"find {q(folder)} -type f -name '*.{ext}' | wc -l",
        "count_lines": f"wc -l < {q(log)}",
        "count_matching": f"grep -c ERROR {q(log)}",
        "total_lines": f"cat {q(folder)}/*.csv | wc -l",
        "largest": f"{top} -printf '%s %f\\n' | sort -n | tail -n 1 | cut -d' ' -f2-",
        "list_ext": f"{top} -name '*.{ext}' -printf '%f\\n' | LC_ALL=C sort",
        "list_names": f"{top} -printf '%f\\n' | LC_ALL=C sort",
    }[query]


def _sortable(names: list[str]) -> bool:
    """True when byte order, case-insensitive order and punctuation-blind locale order (`ls` in en_US) agree."""
    loose = [re.sub(r"[^a-z0-9]", "", n.lower()) for n in names]
    return len(set(loose)) == len(loose) and sorted(names) == [n for _, n in sorted(zip(loose, names, strict=True))]


def _plan(query: str, files: oc.Files, rng: random.Random, pool: Mapping[str, Any], params: Mapping[str, Any]
          ) -> tuple[list[FileSpec], dict[str, Any], Answer | None, list[tuple[Answer, str]], str]:
    """(tree, facts, answer, near-miss answers with why, the pipeline that works the answer out) for one query; the
    answer is None when the draw has no single answer (a tie, names whose orders disagree)."""
    project = rng.choice(pool["projects"])
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}", f"work/{project}"))), params)
    sub = f"{folder}/{rng.choice(('archive', 'older', 'extra', 'drafts'))}"
    ext = rng.choice(EXTS)
    if query in ("count_ext", "count_recursive"):
        top = [files.new(folder, ext) for _ in range(rng.randint(3, 9))]
        deep = [files.new(sub, ext) for _ in range(rng.randint(1, 4))]
        others = [files.new(folder, e) for e in rng.sample([e for e in EXTS if e != ext], 3)]
        spec = top + deep + others + [files.new(sub, "md")]
        right, wrong = (len(top), len(top) + len(deep)) if query == "count_ext" else (len(top) + len(deep), len(top))
        where = f"directly in {folder} (not in its subfolders)" if query == "count_ext" else \
            f"in {folder} and all of its subfolders"
        question = f"How many .{ext} files are there {where}?"
        return spec, {"question": question, "answer_form": "just the number"}, right, [
            (wrong, "counts at the wrong depth"), (right + 1, "off by one")], _pipeline(query, folder, ext)
    if query in ("count_lines", "count_matching"):
        logs = pool["logs"]
        lines = sorted(line for log in logs for line in log["lines"])
        service = logs[0]["service"]
        spec = [FileSpec(f"{folder}/{service}.log", "text", "\n".join(lines) + "\n"), files.new(folder, "txt")]
        errors = sum("ERROR" in line for line in lines)
        pipeline = _pipeline(query, folder, ext, f"{folder}/{service}.log")
        if query == "count_lines":
            question = f"How many lines does the log file {folder}/{service}.log have?"
            return spec, {"question": question, "answer_form": "just the number"}, len(lines), [
                (len(lines) - 1, "off by one"), (len(lines) + 1, "counts one line too many")], pipeline
        warns = sum("WARN" in line for line in lines)
        question = f"How many lines of the log file {folder}/{service}.log contain the word ERROR?"
        return spec, {"question": question, "answer_form": "just the number"}, errors, [
            (errors + warns, "counts WARN lines too"), (len(lines), "counts every line")], pipeline
    if query == "total_lines":
        tables = [files.new(folder, "csv") for _ in range(rng.randint(2, 4))]
        spec = tables + [files.new(folder, e) for e in ("txt", "md")] + [files.new(sub, "csv")]
        counts = [tree.render(t).count(b"\n") for t in tables]
        question = f"What is the total number of lines in all the .csv files directly in {folder}, added together?"
        return spec, {"question": question, "answer_form": "just the total"}, sum(counts), [
            (sum(counts) - len(counts), "leaves out the header lines"), (counts[0], "counts only one file")], \
            _pipeline(query, folder, ext)
    if query == "largest":
        spec = [files.new(folder, e) for e in rng.sample(EXTS, 5)]
        by_size = sorted(spec, key=lambda s: (len(tree.render(s)), s.name), reverse=True)
        unique = len(tree.render(by_size[0])) != len(tree.render(by_size[1]))
        spec.append(files.new(sub, "pdf"))
        question = f"Which file directly in {folder} is the largest (in bytes)?"
        answer = by_size[0].name if unique else None  # a tie has no single answer: the caller redraws
        return spec, {"question": question, "answer_form": "just its file name (no path)"}, answer, [
            (by_size[1].name, "picks the second largest"), (by_size[-1].name, "picks the smallest")], \
            _pipeline(query, folder, ext)
    if query == "list_ext":
        ext = rng.choice(("pdf", "jpg", "docx", "txt", "png"))
        hits = [files.new(folder, ext) for _ in range(rng.randint(3, 6))]
        spec = hits + [files.new(folder, e) for e in rng.sample([e for e in EXTS if e != ext], 2)]
        spec.append(files.new(sub, ext))
        names = sorted(h.name for h in hits)
        question = f"List the names of the .{ext} files directly in {folder}, sorted alphabetically."
        return spec, {"question": question, "answer_form": "one file name per line (names only, no paths)"}, \
            names if _sortable(names) else None, [
                ([f"{folder}/{n}" for n in names], "writes full paths"), (names[::-1], "sorts in reverse")], \
            _pipeline(query, folder, ext)
    spec = [files.new(folder, e) for e in rng.sample(EXTS, rng.randint(4, 6))]
    names = sorted(s.name for s in spec)
    spec.append(files.new(sub, "txt"))
    question = f"List the names of all files directly in {folder} (files only, not folders), sorted alphabetically."
    return spec, {"question": question, "answer_form": "one file name per line"}, \
        names if _sortable(names + [sub.rsplit("/", 1)[1]]) else None, [
            (sorted([*names, sub.rsplit("/", 1)[1]]), "includes the subfolder's name"),
            (names[::-1], "sorts in reverse")], _pipeline("list_names", folder, ext)


def _no_leak(facts: Mapping[str, Any], answer: Answer) -> bool:
    """True when no fact (hence no phrasing, which carry no digits) reveals the secret `answer`."""
    return not leaks(" ".join(str(v) for v in facts.values()), answer)


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    query = params["query"]
    for _ in range(20):  # redraw until no stated path happens to reveal the answer (e.g. a date part "-12-")
        files = oc.Files(pool, rng)
        spec, facts, answer, misses, pipeline = _plan(query, files, rng, pool, params)
        out = oc.home(f"{rng.choice(('Desktop', 'Documents'))}/{rng.choice(OUT_NAMES)}.txt")
        facts |= {"out": out, "question_lc": facts["question"][0].lower() + facts["question"][1:]}
        if answer is not None and _no_leak(facts, answer) and all(wrong != answer for wrong, _ in misses):
            folder = spec[0].path.rsplit("/", 1)[0]  # every query's first file is in the asked folder
            return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts,
                        Target(out, answer, misses, pipeline))
    raise ValueError(f"{NAME}: every draw states the answer {answer!r}")


def rubric(target: Target) -> list[Check]:
    return [Check("answer", f"{target.out} holds the correct answer.", "fs.answer_equals",
                  {"path": target.out, "answer": target.answer})]


def _text(answer: Answer) -> str:
    return "\n".join(answer) + "\n" if isinstance(answer, list) else f"{answer}\n"


def solve(target: Target) -> Attempts:
    write = {"op": "fs.write_text", "path": target.out}
    return Attempts(Attempt("writes the correct answer", [{**write, "text": _text(target.answer)}]),
                    [Attempt(why, [{**write, "text": _text(wrong)}]) for wrong, why in target.misses])


def teach(target: Target) -> str:
    """The answer worked out at the terminal, not typed: find / wc / grep / sort into the answer file."""
    folder = target.out.rsplit("/", 1)[0]
    return f"mkdir -p {q(folder)} && {target.pipeline} > {q(target.out)}"


WORKFLOW = family(
    NAME, oc.OS,
    description="Count files or lines, or list file names, and write the answer into a stated file.",
    knobs={"query": ("count_ext", "count_recursive", "count_lines", "count_matching", "total_lines", "list_names",
                     "list_ext", "largest")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, teach=teach,
)
