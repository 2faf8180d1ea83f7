"""writer.hyperlink: turn the mentions of an intranet resource in a document ("the staff portal") into links to
its address, every mention or only the first (Insert > Hyperlink on the selected words).

The document mentions the resource two or three times, in different paragraphs, so "every" and "the first" are
different tasks. The check reads each link's target (relationship or HYPERLINK field) and the words it covers.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.hyperlink"
#: (the resource's name as the text says it, its path on the intranet, sentences that mention it)
RESOURCES = (
    ("staff portal", "/portal", ("Forms for this are available on the staff portal.",
                                 "Progress updates will be posted on the staff portal.",
                                 "Questions can be raised at any time through the staff portal.")),
    ("policy library", "/policies", ("The full wording is kept in the policy library.",
                                     "Earlier versions remain available in the policy library.",
                                     "Any later change will be published in the policy library.")),
    ("training calendar", "/training/calendar", ("Session dates are listed in the training calendar.",
                                                 "Places can be booked through the training calendar.",
                                                 "New dates will be added to the training calendar.")),
    ("room booking system", "/facilities/rooms", ("Meeting rooms must be reserved in the room booking system.",
                                                  "Cancelled slots are released in the room booking system.",
                                                  "The room booking system shows which rooms are free.")),
    ("supplier handbook", "/procurement/supplier-handbook", (
        "The approval steps are set out in the supplier handbook.",
        "Contract templates can be found in the supplier handbook.",
        "Please check the supplier handbook before contacting a new supplier.")),
    ("project tracker", "/projects/tracker", ("Each action has an owner in the project tracker.",
                                              "Deadlines are kept up to date in the project tracker.",
                                              "Finished tasks should be closed in the project tracker.")),
)
SCOPE = {"all": "every mention of", "first": "only the first mention of"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and make {scope} the words {phrase} a hyperlink to {url}. Do not change "
    "the text, and save the document in place as .docx.",
    "In the document {path}, turn {scope} {phrase} into a link pointing to {url}. Keep the wording as it is and "
    "save the file in Word format under the same name.",
    "Please add a hyperlink to {url} on {scope} the phrase {phrase} in {path}. Leave everything else untouched "
    "and keep the .docx format when saving.",
    "Using LibreOffice Writer (Insert > Hyperlink), link {scope} {phrase} in {path} to the address {url}. Save "
    "your changes to the same .docx file.",
    "The report {path} should let readers click through: make {scope} {phrase} a hyperlink with the target {url}. "
    "Don't edit any text; save it as .docx in place.",
)
NATURAL = (
    "Could you make {scope} {phrase} in {path.file} a link to {url}?",
    "Please link {scope} {phrase} in my document {path.file} to {url}.",
    "In {path.file}, {scope} {phrase} should be a hyperlink to {url}.",
    "Help me add a hyperlink to {url} on {scope} {phrase} in {path.file}.",
    "I'd like {scope} {phrase} in {path.file} to link to {url}, please.",
)


class Params(TypedDict):
    scope: Literal["all", "first"]


@dataclass(frozen=True)
class Target:
    phrase: str
    url: str
    mentions: int


def _host(org: str) -> str:
    return "intranet." + re.sub(r"[^a-z0-9]+", "-", org.lower()).strip("-") + ".com"


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    text = " ".join(layout.texts()).lower()
    choices = [r for r in RESOURCES if r[0] not in text] or list(RESOURCES[:1])
    phrase, where, sentences = rng.choice(choices)
    body = [i for i, b in enumerate(layout.blocks) if isinstance(b, wc.Para) and b.role == "body"
            and layout.locate(b.text) is not None]
    count = min(len(body), rng.choice((2, 3)))
    chosen = sorted(rng.sample(body, count))
    said = rng.sample(sentences, count)
    blocks = list(layout.blocks)
    for i, sentence in zip(chosen, said, strict=True):
        para = blocks[i]
        assert isinstance(para, wc.Para)
        blocks[i] = wc.Para(f"{para.text.rstrip()} {sentence}", para.role, para.style, para.fmt)
    layout = layout.with_blocks(blocks)
    url = f"https://{_host(str(document.get('org') or 'office'))}{where}"
    facts = {"path": layout.path, "phrase": wc.quoted(phrase), "url": url, "scope": SCOPE[params["scope"]]}
    return Goal(layout, facts, Target(phrase, url, count))


def rubric(params: Params, layout: wc.Layout, target: Target) -> list[Check]:
    which = "Every mention" if params["scope"] == "all" else "The first mention (only)"
    return [Check("link", f"{which} of {wc.quoted(target.phrase)} in {layout.path} is a hyperlink to {target.url} "
                          "covering exactly those words, and no other text is a link.",
                  "docx.hyperlink", {"path": layout.path, "phrase": target.phrase, "url": target.url,
                                     "scope": params["scope"]})]


def solve(params: Params, layout: wc.Layout, target: Target) -> Attempts:
    scope = params["scope"]
    base = {"op": "docx.add_hyperlink", "path": layout.path, "phrase": target.phrase, "url": target.url,
            "scope": scope}
    root = target.url.split("/", 3)
    misses = [
        Attempt("links only the first mention" if scope == "all" else "links every mention",
                [{**base, "scope": "first" if scope == "all" else "all"}]),
        Attempt("links to the intranet's home page instead of the page asked", [{**base, "url": "/".join(root[:3])}]),
        Attempt("links the whole paragraph instead of the words", [{**base, "whole_paragraph": True}]),
        Attempt("types the address after the words instead of making a link",
                [{"op": "docx.replace_text", "path": layout.path, "old": target.phrase,
                  "new": f"{target.phrase} ({target.url})"}]),
    ]
    return Attempts(Attempt(f"link {SCOPE[scope]} the words to {target.url}", [base]), misses)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Turn every mention, or only the first, of a stated phrase in a Writer document into a hyperlink "
                "to a stated address, changing no text.",
    knobs={"scope": ("all", "first")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
