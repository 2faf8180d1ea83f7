"""os.text_process: shell text processing — filter a log, extract a CSV column, list unique values, count values —
into a stated output file.

Inputs are realistic and long enough that nobody retypes them: an application log (`2024-03-12 10:15:32 ERROR
[payments] ...`, some INFO lines mention an "error" in lower case), a customer CSV export whose name column is
quoted ("Okafor, Aisha", so `cut -d,` splits it), and a web server access log. Knob `op`: `filter` the lines of
one level, `column` the emails of the CSV, `unique` its cities once each and sorted, `frequency` how many requests
got each HTTP status ("<count> <status>", most frequent first; `uniq -c` spacing is free).

The rubric reads the output's lines (verifiers/checks/os_text.py); the frame keeps the input as it was.
Near-misses: a case-insensitive grep, WARN lines too, a naive `cut` on the quoted CSV, the header kept, the
neighbouring column, values in first-seen order or with repeats, counts in status order, `uniq -c` without
`sort` (one count per run), the columns swapped.
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.calc.content import FIRST_NAMES, LAST_NAMES
from workflows.os import kit as oc

NAME = "os.text_process"
CITIES = ("Leeds", "Porto", "Lyon", "Krakow", "Dublin", "Malmo", "Ghent", "Bilbao", "Graz", "Turin", "Aarhus",
          "Brno")
COMPONENTS = ("payments", "auth", "sync", "mailer", "scheduler", "api")
MESSAGES = {
    "INFO": ("request served in {n} ms", "user {n} signed in", "job {n} finished", "retried after a transient "
             "error (attempt {k})", "cache warmed with {n} keys", "no error in nightly check {n}"),
    "WARN": ("slow query took {n} ms", "disk usage at {k}0%", "retrying upstream call {n}"),
    "ERROR": ("card declined for order {n}", "connection reset by peer (job {n})", "timeout after {n} ms",
              "could not write invoice {n}.pdf"),
}
PATHS = ("/", "/login", "/api/orders", "/api/orders/{n}", "/static/app.js", "/static/logo.png", "/cart",
         "/search?q=shoes", "/account", "/api/stock")
STATUSES = ("200", "304", "404", "500", "301", "403")
PHRASINGS = (
    "From {src}, {task}, and write the result to {out}. Leave {src} unchanged.",
    "Using shell tools (grep, cut, sort, uniq, awk or similar), take {src} and {task}. Save the output as {out}, "
    "and don't modify the input file.",
    "Create the file {out}: it should contain exactly this, from {src}: {task_noun}. {format}",
    "Process {src} on the command line: {task}. Put the result into {out} and nothing else into it.",
    "I need a text file {out} built from {src}: {task_noun}. {format} The original file stays as it is.",
)
NATURAL = (
    "Could you go through {src} and {task}? Please save it to {out}.",
    "From {src}, I need {task_noun}, written to {out}. {format}",
    "Please {task} from {src} and put it in {out}.",
    "Can you pull this out of {src} into a new file, {out}: {task_noun}? {format}",
    "Help me out with {src}: {task}, saved as {out}.",
)


class Params(TypedDict):
    op: Literal["filter", "column", "unique", "frequency"]


@dataclass(frozen=True)
class Target:
    op: str
    src: str
    out: str
    text: str  # the input file
    expected: tuple[str, ...]  # the output's lines
    ordered: bool
    level: str  # the level to keep (filter)
    misses: tuple[tuple[str, tuple[str, ...]], ...]  # (what the slip does, the lines it writes)


def _stamp(day: int, second: int) -> str:
    return f"2024-03-{day:02d} {second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"


def _app_log(rng: random.Random) -> tuple[list[str], str]:
    """An application log of 60-90 lines and the level to filter (ERROR or WARN)."""
    day, second = rng.randint(4, 27), rng.randint(6 * 3600, 9 * 3600)
    lines = []
    for _ in range(rng.randint(60, 90)):
        level = rng.choices(("INFO", "WARN", "ERROR"), (12, 3, 2))[0]
        second += rng.randint(3, 400)
        message = rng.choice(MESSAGES[level]).format(n=rng.randint(100, 9999), k=rng.randint(2, 9))
        lines.append(f"{_stamp(day, second)} {level:<5} [{rng.choice(COMPONENTS)}] {message}")
    return lines, rng.choice(("ERROR", "WARN"))


def _customers(rng: random.Random) -> list[list[str]]:
    """A customer export: id, "Last, First", email, city, orders (50-70 rows, cities repeating)."""
    cities = rng.sample(CITIES, rng.randint(6, 9))
    rows = [["customer_id", "name", "email", "city", "orders"]]
    used = set()
    for i in range(rng.randint(50, 70)):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        email = f"{first.lower()}.{last.lower()}@example.{rng.choice(('com', 'org', 'net'))}"
        if email in used:
            email = email.replace("@", f"{i}@")
        used.add(email)
        rows.append([str(10400 + i * rng.randint(1, 3)), f"{last}, {first}", email, rng.choice(cities),
                     str(rng.randint(1, 40))])
    return rows


def _access_log(rng: random.Random) -> list[str]:
    """An access log of 80-120 requests whose status counts all differ."""
    while True:
        weights = rng.sample((40, 14, 9, 5, 3, 2), 6)
        lines, second = [], rng.randint(8 * 3600, 10 * 3600)
        for _ in range(rng.randint(80, 120)):
            second += rng.randint(1, 90)
            status = rng.choices(STATUSES, weights)[0]
            path = rng.choice(PATHS).format(n=rng.randint(1000, 9999))
            method = "POST" if path == "/login" and rng.random() < 0.5 else "GET"
            ip = f"{rng.choice(('203.0.113', '198.51.100', '192.0.2'))}.{rng.randint(2, 254)}"
            stamp = f"{rng.randint(10, 28)}/Mar/2024:{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"
            size = rng.randint(180, 48000) if status == "200" else rng.randint(120, 900)
            lines.append(f'{ip} - - [{stamp} +0000] "{method} {path} HTTP/1.1" {status} {size}')
        counts = Counter(line.split()[8] for line in lines)
        if len(set(counts.values())) == len(counts) and len(counts) >= 3:
            return lines


def _csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    kind = params["op"]
    project = rng.choice(pool["projects"])
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}", f"work/{project}"))),
                      params)
    misses: list[tuple[str, tuple[str, ...]]]
    level = ""
    if kind == "filter":
        lines, level = _app_log(rng)
        src, out = f"{folder}/app.log", f"{folder}/{'errors' if level == 'ERROR' else 'warnings'}.txt"
        text = "\n".join(lines) + "\n"
        expected = tuple(x for x in lines if x.split()[2] == level)
        other = "WARN" if level == "ERROR" else "ERROR"
        misses = [("matches the level case-insensitively anywhere in the line (grep -i)",
                   tuple(x for x in lines if level.lower() in x.lower())),
                  (f"also keeps the {other} lines", tuple(x for x in lines if x.split()[2] in (level, other))),
                  ("keeps every line except those of the level (grep -v)",
                   tuple(x for x in lines if x.split()[2] != level)),
                  ("writes only the messages, cutting off the time stamp and level",
                   tuple(x.split(None, 3)[3] for x in lines if x.split()[2] == level))]
        task = f"keep only the log lines whose level is {level} (the third field), in their original order"
        noun = f"every line of level {level}, in the original order"
        fmt = "Each line must be copied whole, exactly as it is in the log."
        ordered = True
    elif kind in ("column", "unique"):
        rows = _customers(rng)
        src = f"{folder}/customers.csv"
        text = _csv_text(rows)
        col = 2 if kind == "column" else 3
        values = [r[col] for r in rows[1:]]
        naive = [line.split(",")[col] for line in text.splitlines()[1:]]
        if kind == "column":
            out = f"{folder}/emails.txt"
            expected = tuple(values)
            misses = [("splits the quoted names on their comma (cut -d, -f3)", tuple(naive)),
                      ("keeps the header line", ("email", *values)),
                      ("takes the name column instead", tuple(r[1] for r in rows[1:]))]
            task = "extract the email column (without its header), one address per line in the file's row order"
            noun = "the email addresses of the email column, one per line in row order, without the header"
            fmt = "No header line, nothing but the addresses."
        else:
            out = f"{folder}/cities.txt"
            expected = tuple(sorted(set(values)))
            first_seen = tuple(dict.fromkeys(values))
            if first_seen == expected:
                first_seen = tuple(reversed(expected))
            misses = [("lists the cities in the order they first appear, unsorted", first_seen),
                      ("sorts the cities but keeps the repeats (sort without -u)", tuple(sorted(values))),
                      ("keeps the header", ("city", *expected))]
            task = ("list every distinct city of the city column once, sorted alphabetically (A to Z), without the "
                    "header")
            noun = "each distinct value of the city column exactly once, sorted A to Z"
            fmt = "One city per line, no header."
        ordered = True
    else:
        lines = _access_log(rng)
        src, out = f"{folder}/access.log", f"{folder}/status_counts.txt"
        text = "\n".join(lines) + "\n"
        counts = Counter(x.split()[8] for x in lines)
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        expected = tuple(f"{n} {s}" for s, n in ranked)
        by_code = tuple(f"{counts[s]} {s}" for s in sorted(counts))
        if by_code == expected:
            by_code = tuple(reversed(expected))
        runs: list[list[Any]] = []
        for x in lines:
            if runs and runs[-1][1] == x.split()[8]:
                runs[-1][0] += 1
            else:
                runs.append([1, x.split()[8]])
        misses = [("orders the counts by status code, not by count", by_code),
                  ("counts runs of the same status (uniq -c without sort)", tuple(f"{n} {s}" for n, s in runs)),
                  ("writes the status before its count", tuple(f"{s} {n}" for s, n in ranked))]
        task = ("count how many requests got each HTTP status code (the status field after the quoted request) "
                "and list them most frequent first")
        noun = "one line per HTTP status code with the number of requests that got it, most frequent first"
        fmt = "Each line: the count, a space, then the status code (like `uniq -c` prints it)."
        ordered = True
    spec = [FileSpec(src, "text", text), FileSpec(f"{folder}/README.md", "text",
                                                   f"# {project}\n\nRaw exports and logs for {project}.\n")]
    facts = {"src": src, "out": out, "task": task, "task_noun": noun, "format": fmt}
    target = Target(kind, src, out, text, expected, ordered, level,
                    tuple((what, got) for what, got in misses if got != expected))
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check("output", f"{t.out} holds exactly the {len(t.expected)} expected line(s), in order.", "text.lines",
                  {"path": t.out, "lines": list(t.expected), "ordered": t.ordered})]


def solve(target: Target) -> Attempts:
    t = target
    base = {"path": t.src, "out": t.out}
    ops: dict[str, dict[str, Any]] = {
        "filter": {"op": "fs.filter_field", "field": 3, "value": t.level},
        "column": {"op": "fs.csv_column", "column": "email"},
        "unique": {"op": "fs.csv_unique", "column": "city"},
        "frequency": {"op": "fs.count_field", "field": 9},
    }
    oracle = ops[t.op]
    misses = [Attempt(what, [{"op": "fs.write_text", "path": t.out, "text": "".join(f"{x}\n" for x in got)}])
              for what, got in t.misses]
    return Attempts(Attempt("computes the output from the input file", [{**oracle, **base}]), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Shell text processing into a stated file: filter a log by level, extract a CSV column, list a "
                "column's unique values sorted, or count each HTTP status of an access log.",
    knobs={"op": ("filter", "column", "unique", "frequency")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
