"""writer.paragraph_spacing: set the space above or below one body paragraph, or every body paragraph, to a stated
number of points; the title, the headings and the other paragraphs keep theirs.

The check reads the effective space before and after (paragraph, style chain, defaults) and carries the initial
spacing of every other paragraph, which the docx frame does not read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from verifiers.checks.docx_para_space import space_of
from workflows.writer import kit as wc

NAME = "writer.paragraph_spacing"
SIZES = (6.0, 12.0, 18.0, 24.0)
HOW = {"before": "{pt} pt of space above the paragraph (Spacing: Above paragraph)",
       "after": "{pt} pt of space below the paragraph (Spacing: Below paragraph)"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and give {what} {how}. Leave the spacing of the title, the headings and all "
    "other paragraphs unchanged. Save the document in place as .docx.",
    "In the document {path}, set {what} to have {how}. Nothing else should change; save the file in Word format "
    "under the same name.",
    "Please use Format > Paragraph > Indents & Spacing in Writer to give {what} of {path} {how}. Other paragraphs "
    "keep their current spacing. Keep the .docx format when saving.",
    "Edit {path}: {what} needs {how}. Don't modify the paragraph styles or any other paragraph, and save it as .docx "
    "in place.",
    "Change the paragraph spacing of {what} in {path} to {how}, then save your changes to the same .docx file.",
)
NATURAL = (
    "In {path.file}, give {what.bare} {how}.",
    "Help me space out {path.file}: {what.bare} should have {how}.",
    "Could you set {how} for {what.bare} in my document {path.file}? Leave the rest alone.",
    "I'd like {what.bare} of {path.file} to have {how}.",
    "Please change the paragraph spacing of {what.bare} in {path.file}: {how}.",
)


class Params(TypedDict):
    side: Literal["before", "after"]
    target: Literal["paragraph", "body"]


@dataclass(frozen=True)
class Target:
    side: str
    pt: float
    where: str  # the `target` knob: paragraph | body
    targets: list[str]  # locators of the paragraphs to respace
    others: list[str]  # locators of body paragraphs left alone (paragraph target)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    side, where = params["side"], params["target"]
    layout = wc.compose(rng, document, plan)
    body = wc.targets(layout, "body")
    pt = rng.choice(SIZES)
    if where == "paragraph":
        para, paragraph = rng.choice(body)
        targets = [paragraph]
        what = f"the paragraph beginning {wc.quoted(paragraph)}"
    else:
        para = None
        targets = [loc for _, loc in body]
        what = (f"every body paragraph (the {len(body)} paragraphs of running text under the section headings; not "
                "the title, the headings or the short lines at the top and bottom)")
    others = [loc for p, loc in body if p is not para and loc not in targets]
    facts = {"path": layout.path, "what": what, "how": HOW[side].format(pt=f"{pt:g}")}
    return Goal(layout, facts, Target(side, pt, where, targets, others))


def rubric(layout: wc.Layout, target: Target, assets: list[Asset]) -> list[Check]:
    # every other paragraph keeps the spacing it had: the docx frame does not read paragraph spacing
    kept = wc.kept_paragraphs(layout, assets, target.targets, space_of)
    was = wc.kept_paragraphs(layout, assets, [], space_of)
    args: dict[str, Any] = {"path": layout.path, "side": target.side, "pt": target.pt,
                            "targets": {t: was[t] for t in target.targets}, "unchanged": kept}
    if target.where == "paragraph":
        args["paragraph"] = target.targets[0]
    how = HOW[target.side].format(pt=f"{target.pt:g}").split(" (")[0]
    return [Check(id="space", criterion=f"In {layout.path}, the {target.where} target has {how}; the title, the "
                                        "headings and the other paragraphs keep their spacing.",
                  primitive="docx.paragraph_space", args=args)]


def _set(side: str, pt: float) -> dict[str, float]:
    return {"before_pt": pt} if side == "before" else {"after_pt": pt}


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.set_paragraph_space", "path": layout.path, "paragraphs": target.targets}
    other = "after" if target.side == "before" else "before"
    right = _set(target.side, target.pt)
    near = [Attempt(f"sets the space {'below' if other == 'after' else 'above'} instead",
                    [{**base, **_set(other, target.pt)}]),
            Attempt("sets the space on both sides", [{**base, **right, **_set(other, target.pt)}]),
            Attempt(f"uses {target.pt / 2:g} pt instead of {target.pt:g} pt", [{**base, **_set(target.side,
                                                                                               target.pt / 2)}])]
    if target.where == "body":
        near.append(Attempt("misses the last body paragraph", [{**base, "paragraphs": target.targets[:-1], **right}]))
    else:
        near.append(Attempt("respaces the next paragraph too",
                            [{**base, "paragraphs": target.targets + target.others[:1], **right}]))
    near.append(Attempt("respaces every paragraph, title and headings included",
                        [{**base, "paragraphs": [wc.norm(p) for p in layout.texts()], **right}]))
    return Attempts(Attempt("the stated space on the target paragraphs", [{**base, **right}]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Set the space above or below one body paragraph or every body paragraph to a stated number of "
                "points, leaving the other paragraphs' spacing alone.",
    knobs={"side": ("before", "after"), "target": ("paragraph", "body")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
