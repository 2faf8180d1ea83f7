"""draft: a model (or its offline stand-in) drafts a new workflow family from a capability gap (issue 39 item 4).

A gap (`forge.mining.gaps`) is a group of failures no mined pattern explains: a failed check (or a family) with
the instruction words its failures share and example tasks. No operator can turn it into skills, since no family
has the capability; a person can, and `forge skills failures --gaps --llm ...` gives that person a first draft:
the family's name and app, its goal, an instruction it would generate, the checks (registered primitives where
one fits, else a new one named for the author to write), its knobs and the near-misses its rubric must reject.

Drafts are proposals for review, never code: they are validated (a known app, a family name that is new, knob
values as lists, registered primitives marked as such) and recorded as round N's `taxonomy_changes` rows
(operator `draft`, action `draft`, the draft in `stats`), so `forge skills history` and SQL show them next to
what the loop did. Offline, the stand-in drafts from the gap's own words and the failed check, deterministically.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from forge.mining import Gap
from kit.ids import TaskId, derive_seed
from kit.llm import Backend, LLMRequest, OfflineBackend

OPERATOR = "draft"
NODE = "family_draft"
_NAME = re.compile(r"^[a-z]+\.[a-z][a-z0-9_]{2,40}$")
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["drafts"],
    "properties": {"drafts": {"type": "array", "items": {
        "type": "object", "additionalProperties": False,
        "required": ["gap", "name", "app", "goal", "instruction", "checks", "knobs", "near_misses"],
        "properties": {
            "gap": {"type": "string"},
            "name": {"type": "string"},
            "app": {"type": "string"},
            "goal": {"type": "string"},
            "instruction": {"type": "string"},
            "checks": {"type": "array", "items": {
                "type": "object", "additionalProperties": False, "required": ["primitive", "what"],
                "properties": {"primitive": {"type": "string"}, "what": {"type": "string"}}}},
            "knobs": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
            "near_misses": {"type": "array", "items": {"type": "string"}}}}}},
}
PROMPT = ("A student agent fails these desktop tasks, and no variant of an existing workflow family explains the "
          "failures (capability gaps: the failed check or family, how many failures, the instruction words they "
          "share, an example instruction; JSON): {gaps}\nFor each gap, draft ONE new workflow family that would "
          "teach the missing capability: a name '<app prefix>.<snake_case>' that is not one of the existing "
          "families, its app (one of {apps}), the goal in one sentence, one instruction the family would "
          "generate (a realistic user request, new wording), the rubric's checks (a registered primitive from "
          "this list where one fits, else a new primitive name 'kind.what' for the author to write: {primitives}), "
          "knobs (name -> the values that change what is checked) and at least three near-misses (plausible wrong "
          "end states the rubric must reject). Existing families: {families}\n"
          'Answer as JSON: {{"drafts": [{{"gap": ..., "name": ..., "app": ..., "goal": ..., "instruction": ..., '
          '"checks": [{{"primitive": ..., "what": ...}}], "knobs": {{...}}, "near_misses": [...]}}]}}')


@dataclass(frozen=True)
class Draft:
    """One drafted family, validated: `notes` say what a reviewer must do about it (a new primitive to write, a
    name that clashes ...); `source` is the backend that wrote it."""

    gap: str
    name: str
    app: str
    goal: str
    instruction: str
    checks: tuple[tuple[str, str, bool], ...]  # (primitive, what it checks, registered already)
    knobs: dict[str, list[str]]
    near_misses: tuple[str, ...]
    source: str
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"gap": self.gap, "name": self.name, "app": self.app, "goal": self.goal,
                "instruction": self.instruction,
                "checks": [{"primitive": p, "what": w, "registered": r} for p, w, r in self.checks],
                "knobs": self.knobs, "near_misses": list(self.near_misses), "source": self.source,
                "notes": list(self.notes)}


def _app_of(gap: Gap, families: dict[str, Any]) -> str:
    """The app of the gap's failing tasks (the most common prefix of their families), else of its key."""
    prefixes: list[str] = []
    for example in gap.examples:
        try:
            prefixes.append(TaskId.parse(example).skill_id.split(".")[0])
        except ValueError:
            continue
    key = gap.key.split("=", 1)[-1]
    prefixes = prefixes or [key.split(".")[0]]
    best = max(sorted(set(prefixes)), key=prefixes.count)
    known = {name.split(".")[0] for name in families}
    return best if best in known else "os"


def offline_draft(gap: Gap, families: dict[str, Any], primitives: set[str]) -> dict[str, Any]:
    """A deterministic draft from the gap alone: named by its app and its two most telling shared words, checked
    by the failed check when it is a registered primitive (else a new one named after the words)."""
    app = _app_of(gap, families)
    words = [w.replace("-", "_") for w in gap.words[:2]] or ["new_capability"]
    name, suffix = f"{app}.{'_'.join(words)}", 2
    while name in families:
        name, suffix = f"{app}.{'_'.join(words)}_{suffix}", suffix + 1
    key = gap.key.split("=", 1)[-1]
    primitive = key if key in primitives else f"{app}.{'_'.join(words)}_done"
    said = ", ".join(gap.words) or "the failed tasks' request"
    return {"gap": gap.key, "name": name, "app": app,
            "goal": f"Practise what {gap.unexplained} unexplained failures share: {said}.",
            "instruction": gap.instruction or f"A request about {said}.",
            "checks": [{"primitive": primitive, "what": f"the end state shows {said} done as asked"}],
            "knobs": {}, "near_misses": []}


def _validate(raw: Any, families: dict[str, Any], primitives: set[str], apps: set[str], source: str
              ) -> Draft | str:
    """A `Draft` from one answer item, or the one-line reason it cannot be one."""
    if not isinstance(raw, dict):
        return f"not an object: {str(raw)[:80]!r}"
    name, app = str(raw.get("name", "")).strip(), str(raw.get("app", "")).strip()
    if not _NAME.match(name):
        return f"name {name!r} is not '<app prefix>.<snake_case>'"
    notes = []
    if name in families:
        notes.append(f"{name} exists already: extend that family instead")
    if app not in apps:
        return f"{name}: app {app!r} is not one of {sorted(apps)}"
    checks = []
    for item in raw.get("checks") or []:
        if isinstance(item, dict) and str(item.get("primitive", "")).strip():
            primitive = str(item["primitive"]).strip()
            checks.append((primitive, str(item.get("what", "")).strip(), primitive in primitives))
    if not checks:
        return f"{name}: no check"
    notes += [f"new primitive {p} to write" for p, _, registered in checks if not registered]
    knobs = {str(k): [str(v) for v in vs] for k, vs in (raw.get("knobs") or {}).items() if isinstance(vs, list)}
    misses = tuple(str(m) for m in raw.get("near_misses") or [] if str(m).strip())
    if len(misses) < 3:
        notes.append(f"{len(misses)} near-misses: a family needs at least 3")
    return Draft(str(raw.get("gap", "")), name, app, str(raw.get("goal", "")).strip(),
                 str(raw.get("instruction", "")).strip(), tuple(checks), knobs, misses, source, tuple(notes))


def draft_families(found: Sequence[Gap], *, round_n: int, seed: int = 0, backend: Backend | None = None
                   ) -> tuple[list[Draft], list[str]]:
    """One draft per gap of `found` (answered in one request), plus refusals: one line per answer item that could
    not be a draft."""
    from verifiers.checks import registry
    from workflows import families

    if not found:
        return [], []
    known = families()
    primitives = set(registry())
    apps = {name.split(".")[0] for name in known}
    gaps_json = [{"gap": g.key, "unexplained_failures": g.unexplained, "shared_words": list(g.words),
                  "instruction": g.instruction} for g in found]
    request = LLMRequest(NODE, PROMPT.format(gaps=json.dumps(gaps_json, sort_keys=True), apps=sorted(apps),
                                             primitives=sorted(primitives), families=sorted(known)), SCHEMA,
                         lambda _rng: {"drafts": [offline_draft(g, known, primitives) for g in found]},
                         random.Random(derive_seed(seed, round_n, OPERATOR)))
    chosen = backend or OfflineBackend()
    response = chosen.complete(request)
    try:
        items = json.loads(response.text)["drafts"]
        if not isinstance(items, list):
            raise TypeError("'drafts' is not a list")
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        return [], [f"{NODE}: the answer is not the drafts JSON ({exc}); raw: {response.text[:200]!r}"]
    drafts, refusals = [], []
    for i, item in enumerate(items[:len(found)]):
        made = _validate(item, known, primitives, apps, chosen.name)
        if isinstance(made, Draft):
            drafts.append(made)
        else:
            refusals.append(f"draft {i}: {made}")
    return drafts, refusals


def record(catalog: Any, round_n: int, drafts: Sequence[Draft]) -> int:
    """Keep the drafts for review as round N's taxonomy_changes rows (operator draft); returns how many."""
    from forge.tables import TaxonomyChangeRow

    return catalog.record_changes(round_n, [
        TaxonomyChangeRow(round=round_n, operator=OPERATOR, action="draft", skill_id=d.name, parent=None,
                          reason=f"drafted by {d.source} from the gap {d.gap}: {d.goal}"[:2000], stats=d.as_dict())
        for d in drafts])
