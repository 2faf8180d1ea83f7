"""Failure mining (issue 39 item 1): which task features fail more than the round's base rate, beyond chance.

Each attempt is a task's feature record (`forge.features.features`: a set of `name=value` strings) and whether it
failed. For every feature, and every pair of the most suspicious features, the attempts split into those with it
and those without; a one-sided Fisher's exact test (the hypergeometric tail: as many failures among the tasks
with the feature, or more, if failures fell on tasks at random) gives a p-value, and Benjamini-Hochberg over every
test made controls the false discovery rate. A pattern is significant when its adjusted p-value is at most
`ALPHA`. Features that split the attempts the same way (a family and its only knob value) are one pattern, named by
the shortest of them; a pair is kept only when it splits them differently from both its parts and fails more often
than either. The effect sizes: the failure rate with and without the pattern and the odds ratio (Haldane's 0.5
added to every cell, so a pattern with no success still has a finite ratio).

Pure functions over records; `round_records` reads a round's attempts and packages from the catalog.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from forge.catalog import Catalog

#: The false discovery rate a mined pattern is held to (Benjamini-Hochberg).
ALPHA = 0.05
#: A feature seen on fewer attempts than this (or on all but fewer) is not tested: too few to tell anything.
MIN_SUPPORT = 5
#: Pairs are made of at most this many single features (the most significant ones that fail above the base rate).
PAIR_POOL = 40


@dataclass(frozen=True)
class Record:
    """One attempt: the task, its features and whether it failed."""

    task_id: str
    features: frozenset[str]
    failed: bool
    failed_checks: tuple[str, ...] = ()
    instruction: str = ""


@dataclass(frozen=True)
class Pattern:
    """A feature (or a pair) tested against the base rate; `aliases` split the attempts the same way."""

    features: tuple[str, ...]
    n_with: int
    failed_with: int
    n_without: int
    failed_without: int
    p: float
    q: float = 1.0
    aliases: tuple[str, ...] = ()
    checks: Mapping[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return " & ".join(self.features)

    @property
    def rate_with(self) -> float:
        return self.failed_with / self.n_with if self.n_with else 0.0

    @property
    def rate_without(self) -> float:
        return self.failed_without / self.n_without if self.n_without else 0.0

    @property
    def odds_ratio(self) -> float:
        a, b = self.failed_with + 0.5, self.n_with - self.failed_with + 0.5
        c, d = self.failed_without + 0.5, self.n_without - self.failed_without + 0.5
        return (a * d) / (b * c)

    @property
    def significant(self) -> bool:
        return self.q <= ALPHA

    def as_dict(self) -> dict[str, Any]:
        return {"pattern": self.name, "features": list(self.features), "aliases": list(self.aliases),
                "tasks_with": self.n_with, "failed_with": self.failed_with, "fail_rate_with": round(self.rate_with, 4),
                "tasks_without": self.n_without, "failed_without": self.failed_without,
                "fail_rate_without": round(self.rate_without, 4), "odds_ratio": round(self.odds_ratio, 3),
                "p": self.p, "q": self.q, "significant": self.significant, "failed_checks": dict(self.checks)}


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_greater(failed_with: int, n_with: int, failed: int, total: int) -> float:
    """One-sided Fisher's exact test: P(X >= failed_with) for X hypergeometric (`total` attempts of which `failed`
    failed, `n_with` drawn)."""
    lo, hi = max(failed_with, n_with + failed - total, 0), min(n_with, failed)
    if lo > hi:
        return 0.0 if failed_with > hi else 1.0
    denominator = _log_comb(total, n_with)
    terms = [_log_comb(failed, x) + _log_comb(total - failed, n_with - x) - denominator for x in range(lo, hi + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def benjamini_hochberg(ps: Sequence[float]) -> list[float]:
    """Adjusted p-values (q) in the order given."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    q = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m / rank)
        q[i] = running
    return q


def _test(features: tuple[str, ...], members: frozenset[int], records: Sequence[Record], failed: int,
          aliases: tuple[str, ...] = ()) -> Pattern:
    failed_with = sum(records[i].failed for i in members)
    checks: dict[str, int] = {}
    for i in members:
        for check in records[i].failed_checks:
            checks[check] = checks.get(check, 0) + 1
    top = dict(sorted(checks.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
    return Pattern(features, len(members), failed_with, len(records) - len(members), failed - failed_with,
                   fisher_greater(failed_with, len(members), failed, len(records)), aliases=aliases, checks=top)


def mine(records: Sequence[Record], *, pairs: bool = True, min_support: int = MIN_SUPPORT) -> list[Pattern]:
    """Every tested pattern with its adjusted p-value, the significant ones first (then by p, odds ratio, name).
    No failure, or nothing but failures: nothing to explain, no pattern."""
    total, failed = len(records), sum(r.failed for r in records)
    if total == 0 or failed in (0, total):
        return []
    members: dict[str, set[int]] = {}
    for i, record in enumerate(records):
        for feature in record.features:
            members.setdefault(feature, set()).add(i)
    by_split: dict[frozenset[int], list[str]] = {}
    for feature, idx in members.items():
        if min_support <= len(idx) <= total - min_support:
            by_split.setdefault(frozenset(idx), []).append(feature)
    singles = []
    for split, names in by_split.items():
        names.sort(key=lambda n: (len(n), n))
        singles.append((split, _test((names[0],), split, records, failed, tuple(names[1:]))))
    tested = [p for _, p in singles]
    if pairs:
        base = failed / total
        pool = sorted((s for s in singles if s[1].rate_with > base), key=lambda s: (s[1].p, s[1].name))[:PAIR_POOL]
        seen = set(by_split)
        for (a, pa), (b, pb) in combinations(pool, 2):
            split = a & b
            if len(split) < min_support or split in seen:
                continue
            seen.add(split)
            pair = _test(tuple(sorted((pa.features[0], pb.features[0]))), split, records, failed)
            if pair.rate_with > max(pa.rate_with, pb.rate_with):
                tested.append(pair)
    qs = benjamini_hochberg([p.p for p in tested])
    out = [Pattern(p.features, p.n_with, p.failed_with, p.n_without, p.failed_without, p.p, q, p.aliases, p.checks)
           for p, q in zip(tested, qs, strict=True)]
    return sorted(out, key=lambda p: (not p.significant, p.p, -p.odds_ratio, len(p.features), p.name))


def significant(patterns: Iterable[Pattern]) -> list[Pattern]:
    return [p for p in patterns if p.significant]


def primary(records: Sequence[Record], patterns: Iterable[Pattern]) -> tuple[list[Pattern], set[str]]:
    """The significant patterns that explain failures the ones ranked above them do not (a pattern whose failed
    tasks are mostly those of a stronger one is its echo: a correlated feature), and the ids of the failed tasks
    they explain. Greedy, in rank order: a pattern is kept when at least half of its failed tasks, and at least
    MIN_SUPPORT, are not explained yet."""
    kept: list[Pattern] = []
    covered: set[str] = set()
    for pattern in significant(patterns):
        need = set(pattern.features)
        tasks = {r.task_id for r in records if r.failed and need <= r.features}
        fresh = tasks - covered
        if len(fresh) >= max(MIN_SUPPORT, len(tasks) / 2):
            kept.append(pattern)
            covered |= tasks
    return kept, covered


def round_records(catalog: Catalog, round_n: int) -> list[Record]:
    """A record per attempt of round `round_n` that ran (infrastructure failures left out) at a task the code
    knows: the features of the task's view and rubric (from its package when it is still on disk)."""
    from forge.expand import catalog_taxonomy
    from forge.features import features, rubric_primitives, task_view

    taxonomy = catalog_taxonomy(catalog)
    rows = catalog.round_task_attempts(round_n)
    cache: dict[str, frozenset[str]] = {}
    texts: dict[str, str] = {}
    out = []
    for task_id, skill_id, app, path, instruction, success, checks in rows:
        skill = taxonomy.get(skill_id)
        if skill is None:
            continue
        if task_id not in cache:
            package = Path(path) if path else None
            view = task_view(task_id, skill, package=package, app=app, instruction=instruction or "")
            cache[task_id] = features(view, rubric_primitives(package))
            texts[task_id] = view.instruction
        out.append(Record(task_id, cache[task_id], not success, tuple(checks or ()), texts.get(task_id, "")))
    return out


def mine_round(catalog: Catalog, round_n: int) -> list[Pattern]:
    return mine(round_records(catalog, round_n))


# --- issue 39 item 4: capability gaps ---------------------------------------------------------------------------

#: Words too common in instructions to say what a group of failures shares.
_STOP = frozenset(["a", "an", "and", "are", "as", "at", "be", "by", "each", "every", "file", "files", "folder",
                   "for", "from", "in", "into", "is", "it", "its", "of", "on", "only", "or", "that", "the", "their",
                   "then", "there", "this", "to", "under", "with", "without", "your", "you", "all", "not", "new",
                   "name", "named", "called", "keep", "make", "save", "sure"])


@dataclass(frozen=True)
class Gap:
    """Failures no significant pattern explains, grouped by a failed rubric check (or, for a student that reports
    none, by family): a candidate capability the taxonomy lacks, for a person or a model to turn into a family."""

    key: str
    unexplained: int
    tasks: int
    failed: int
    p: float
    words: tuple[str, ...]
    examples: tuple[str, ...]
    instruction: str

    def as_dict(self) -> dict[str, Any]:
        return {"gap": self.key, "unexplained_failures": self.unexplained, "tasks": self.tasks, "failed": self.failed,
                "fail_rate": round(self.failed / self.tasks, 4) if self.tasks else None, "p": self.p,
                "shared_words": list(self.words), "examples": list(self.examples), "instruction": self.instruction}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z-]{3,}", text.lower()) if w not in _STOP}


def gaps(records: Sequence[Record], patterns: Iterable[Pattern] | None = None, *, least: int = 2) -> list[Gap]:
    """The failures of `records` that no primary significant pattern explains (`primary`; `patterns`: the mined
    ones, mined here when not given), grouped by failed check (else by family), ranked by how many failures each
    group leaves unexplained and then by how far its failure rate is above the round's (one-sided Fisher p). A
    group's `words` are the instruction words at least half of its unexplained failures share."""
    if not records:
        return []
    _, explained = primary(records, mine(records) if patterns is None else patterns)
    total, failed = len(records), sum(r.failed for r in records)
    # a failed check's group: the tasks whose rubric has it (a check primitive) or that failed it; a family's: its
    # tasks (a failure that names no failed check counts there)
    failed_checks = {c for r in records if r.failed for c in r.failed_checks}
    groups: dict[str, list[Record]] = {}
    for r in records:
        for key in {f"check={c}" for c in failed_checks if f"check={c}" in r.features or c in r.failed_checks} | {
                f for f in r.features if f.startswith("family=")}:
            groups.setdefault(key, []).append(r)
    out = []
    for key, members in groups.items():
        by_check = key.startswith("check=")
        left = [r for r in members if r.failed and r.task_id not in explained
                and (key.removeprefix("check=") in r.failed_checks if by_check else not r.failed_checks)]
        if len(left) < least:
            continue
        counts: dict[str, int] = {}
        for r in left:
            for w in _words(r.instruction):
                counts[w] = counts.get(w, 0) + 1
        shared = tuple(w for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if n * 2 >= len(left))
        n_failed = sum(r.failed for r in members)
        out.append(Gap(key, len(left), len(members), n_failed, fisher_greater(n_failed, len(members), failed, total),
                       shared[:8], tuple(sorted(r.task_id for r in left)[:3]), left[0].instruction))
    return sorted(out, key=lambda g: (-g.unexplained, g.p, g.key))
