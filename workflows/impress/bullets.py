"""impress.bullets: edit a slide's bullet list — replace it, append, insert after a bullet, remove, or indent.

The expected list is computed from the slide's current bullets; every bullet the instruction names is stated
verbatim. `demote` also checks indent levels (level 1 = one step in, a sub-point).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.bullets"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and go to the slide '{slide}'. {action} Do not change the slide title "
    "or any other slide. " + ic.SAVE,
    "In the presentation {path}, the bullet list on the slide '{slide}' needs an edit. {action} Everything else "
    "stays the same. " + ic.SAVE,
    "Please update the slide '{slide}' in {path}. {action} Type the text exactly as given. Then save the file "
    "in place as pptx.",
    "Using LibreOffice Impress, open {path} and edit the content box of the slide '{slide}'. {action} Leave the "
    "rest of the deck untouched. " + ic.SAVE,
    "The slide '{slide}' of {path} is out of date. {action} No other text should change. Then save the "
    "presentation in place, keeping the pptx format.",
)
NATURAL = (
    "On the '{slide}' slide of {path.file}: {action}",
    "Help me update the bullets on '{slide}' in my presentation {path.file}. {action}",
    "The '{slide}' slide in {path.file} needs a change. {action}",
    "Could you edit the '{slide}' slide of {path.file}? {action}",
    "Please fix the list on the '{slide}' slide in {path.file}. {action}",
)


Mode = Literal["replace", "append", "insert_after", "remove", "demote"]


class Params(TypedDict):
    mode: Mode
    count: Literal[1, 2, 3]


@dataclass(frozen=True)
class Target:
    mode: Mode
    slide: str  # title of the slide whose bullets change
    old: list[str]  # its bullets now
    new: list[str]  # the bullets the task brings in (replace, append, insert_after)
    expected: list[str]  # its bullets once edited
    named: list[str]  # the bullets the instruction names
    levels: list[int] | None = None  # demote: every bullet's indent level once edited
    anchor: int = -1  # insert_after: index of the bullet the new ones follow
    gone: tuple[int, ...] = ()  # remove: indexes of the removed bullets, ascending
    run: tuple[int, ...] = ()  # demote: indexes of the demoted bullets


def _new_bullets(content: Mapping[str, Any], slide: Mapping[str, Any], count: int, mode: str) -> list[str]:
    """Bullets on the slide's own topic first; a replaced list may keep some old points (a revised list), an
    added one takes spare slides' bullets when the topic runs out."""
    more = slide["bullets"] if mode == "replace" else [b for s in content["spare"] for b in s["bullets"]]
    return (list(slide["extra"]) + [b for b in more if b not in slide["extra"]])[:count]


def _plan(rng: random.Random, mode: Mode, count: int, slide: str, old: list[str], new: list[str]) -> tuple[Target, str]:
    """The target (expected bullets and levels, the bullets the instruction names) and the instruction's wording."""
    n = len(old)
    edit = Target(mode, slide, old, new, expected=old, named=[])
    if mode == "replace":
        return (replace(edit, expected=new, named=new),
                f"Replace all of its bullet points with these {len(new)}, in this order: {ic.listed(new)}.")
    if mode == "append":
        what = "this bullet point" if count == 1 else f"these {count} bullet points, in this order,"
        return (replace(edit, expected=old + new, named=new),
                f"Add {what} at the end of the list, after '{old[-1]}': {ic.listed(new)}.")
    if mode == "insert_after":
        i = rng.randrange(0, n - 1)
        what = "a new bullet point" if count == 1 else f"{count} new bullet points, in this order,"
        return (replace(edit, expected=old[:i + 1] + new + old[i + 1:], named=[old[i], *new], anchor=i),
                f"Insert {what} directly after the bullet '{old[i]}': {ic.listed(new)}.")
    if mode == "remove":
        gone = sorted(rng.sample(range(n), count))
        names = [old[i] for i in gone]
        what = "the bullet point" if count == 1 else f"these {count} bullet points:"
        return (replace(edit, expected=[b for i, b in enumerate(old) if i not in gone], named=names,
                        gone=tuple(gone)),
                f"Delete {what} {ic.listed(names)}.")
    start = rng.randint(1, n - count)
    run = list(range(start, start + count))
    names = [old[i] for i in run]
    what = "the bullet" if count == 1 else f"the {count} bullets"
    return (replace(edit, named=[old[start - 1], *names], run=tuple(run),
                    levels=[1 if i in run else 0 for i in range(n)]),
            f"Demote {what} {ic.listed(names)} one level (indent them once) so that they become "
            f"sub-points of '{old[start - 1]}'. All other bullets stay at the top level.")


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    mode, count = params["mode"], params["count"]
    deck = ic.deck_from(content, plan)
    index = rng.randrange(len(content["slides"]))
    slide = content["slides"][index]
    old = list(slide["bullets"])
    new = _new_bullets(content, slide, count + 1 if mode == "replace" else count, mode)
    target, action = _plan(rng, mode, count, slide["title"], old, new)
    facts = {"path": deck.path, "slide": slide["title"], "action": action}
    return Goal(deck, facts, target)


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": deck.path, "slide": target.slide, "paragraphs": target.expected,
                            "named": target.named}
    levels = ""
    if target.levels is not None:
        args["levels"] = target.levels
        levels = f" at indent levels {target.levels}"
    checks = [Check("bullets", f"The content box of '{target.slide}' holds {target.expected}{levels}.",
                    "pptx.body_text", args)]
    return checks


def _misses(t: Target) -> list[tuple[str, list[str], list[int] | None]]:
    """(why, bullets, levels) of three plausible mistakes."""
    old, new, mode = t.old, t.new, t.mode
    if mode == "replace":
        return [("keeps the old bullets and adds the new ones after them", old + new, None),
                ("forgets the last new bullet", new[:-1], None),
                ("types the new bullets in reverse order", new[::-1], None)]
    if mode == "append":
        return [("adds the new bullets at the top instead of the end", new + old, None),
                ("replaces the existing bullets with the new ones", new, None),
                ("inserts the new bullets before the last existing one", old[:-1] + new + old[-1:], None)]
    if mode == "insert_after":
        i = t.anchor
        return [("inserts before the named bullet instead of after it", old[:i] + new + old[i:], None),
                ("appends the new bullets at the end of the list", old + new, None),
                ("overwrites the bullet after the anchor instead of inserting", old[:i + 1] + new + old[i + 2:], None)]
    if mode == "remove":
        gone = list(t.gone)
        shifted = [g + 1 if g + 1 < len(old) and g + 1 not in gone else g - 1 for g in gone[:1]] + gone[1:]
        extra = next(i for i in range(len(old) - 1, -1, -1) if i not in gone)
        fewer = gone[:-1] if len(gone) > 1 else [next(i for i in range(len(old)) if i not in gone)]
        return [(f"removes bullet {shifted[0] + 1} instead of {gone[0] + 1}",
                 [b for i, b in enumerate(old) if i not in shifted], None),
                ("also removes one bullet too many", [b for i, b in enumerate(old) if i not in gone + [extra]], None),
                ("removes the wrong set of bullets", [b for i, b in enumerate(old) if i not in fewer], None)]
    run = list(t.run)
    after = run[-1] + 1 if run[-1] + 1 < len(old) else run[0] - 1
    return [("demotes one bullet too few" if len(run) > 1 else "demotes the next bullet instead",
             old, [1 if i in (run[:-1] if len(run) > 1 else [after]) else 0 for i in range(len(old))]),
            ("indents two levels instead of one", old, [2 if i in run else 0 for i in range(len(old))]),
            ("also demotes a neighbouring bullet", old, [1 if i in run or i == after else 0 for i in range(len(old))])]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    base = {"op": "pptx.set_bullets", "path": deck.path, "title": target.slide}
    oracle = {**base, "bullets": target.expected,
              **({"levels": target.levels} if target.levels is not None else {})}
    return Attempts(
        Attempt(f"{target.mode} bullets on '{target.slide}'", [oracle]),
        [Attempt(why, [{**base, "bullets": bullets, **({"levels": levels} if levels else {})}])
         for why, bullets, levels in _misses(target)],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Edit a slide's bullet list: replace it, append or insert stated bullets, remove or demote bullets.",
    knobs={"mode": ("replace", "append", "insert_after", "remove", "demote"), "count": (1, 2, 3)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
