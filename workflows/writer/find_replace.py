"""writer.find_replace: replace a name, word or phrase throughout a document, matching case or ignoring it.

"match" tasks plant look-alikes in another case that must survive (the surname "Bell" vs the fire bell, the
acronym "IT" vs the word "it", the department "Customer Service" vs good customer service); "ignore" tasks
plant the term typed inconsistently ("Falcon", "falcon", "FALCON"), all of which must change. The check
compares the whole text against the expected result and counts the old and new terms.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc
from workflows.writer.content import DEPTS, WEEKDAYS

NAME = "writer.find_replace"
Pair = tuple[str, str, tuple[str, ...]]  # old, new, look-alike sentences (match) or variants (ignore)
POOLS: dict[tuple[str, str], tuple[Pair, ...]] = {
    ("name", "match"): (
        ("Bell", "Carter", ("The fire bell will be tested on {weekday} morning.",)),
        ("Hall", "Morgan", ("Refreshments will be served in the main hall after the session.",)),
        ("Page", "Ellis", ("Further details are on page {small} of the staff handbook.",)),
        ("Field", "Parker", ("Please complete every field of the online form.",)),
        ("Young", "Fraser", ("The program is popular with young people in the area.",)),
        ("Wood", "Hayes", ("The new desks are made from recycled wood.",)),
    ),
    ("name", "ignore"): (
        ("McKenzie", "MacKenzie", ("Mckenzie", "MCKENZIE")), ("DeSouza", "De Souza", ("Desouza", "DESOUZA")),
        ("LaFontaine", "La Fontaine", ("Lafontaine", "LAFONTAINE")), ("VanDyke", "Van Dyke", ("Vandyke", "VANDYKE")),
        ("DiMarco", "Di Marco", ("Dimarco", "DIMARCO")), ("McAllister", "MacAllister", ("Mcallister", "MCALLISTER")),
    ),
    ("word", "match"): (
        ("IT", "Digital Services", ("Please read it carefully and keep it for reference.",)),
        ("US", "United States", ("Let us know if anything is unclear.",)),
        ("WHO", "World Health Organization", ("Staff who have questions may ask their manager.",)),
        ("AIM", "Alternative Investment Market", ("Our aim is to finish this work within the year.",)),
    ),
    ("word", "ignore"): (
        ("Falcon", "Osprey", ("falcon", "FALCON")), ("Meridian", "Summit", ("meridian", "MERIDIAN")),
        ("Beacon", "Compass", ("beacon", "BEACON")), ("Horizon", "Pioneer", ("horizon", "HORIZON")),
        ("Evergreen", "Lighthouse", ("evergreen", "EVERGREEN")),
    ),
    ("phrase", "match"): (
        ("Customer Service", "Client Support", ("Good customer service remains our first priority.",)),
        ("Human Resources", "People and Culture", ("The plan needs more human resources than expected.",)),
        ("Health and Safety", "Workplace Safety", ("Everyone shares responsibility for health and safety.",)),
        ("Quality Control", "Product Assurance", ("Strict quality control applies to every batch.",)),
    ),
    ("phrase", "ignore"): (
        ("Help Desk", "Service Desk", ("help desk", "HELP DESK")),
        ("Staff Portal", "Employee Hub", ("staff portal", "STAFF PORTAL")),
        ("Booking System", "Reservation Platform", ("booking system", "BOOKING SYSTEM")),
        ("Project Board", "Steering Group", ("project board", "PROJECT BOARD")),
    ),
}
CARRIERS = {
    "name": ("Ms {first} {t} will chair the follow up session.", "Please send your comments to Ms {t} by {weekday}.",
             "The final version will be approved by {t} and the {dept} team.",
             "Ms {t} has offered to collect feedback from each team."),
    "word": ("Progress on {t} will be reported at the next meeting.",
             "The {t} team has agreed to share its notes with {dept}.",
             "Questions about {t} should go to the project office.",
             "The budget for {t} is included in the figures above."),
    "phrase": ("Please log any issues with the {t} team.", "The {t} lead will attend the review on {weekday}.",
               "Updates from {t} will be shared every month.", "Requests should be approved by {t} first."),
}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and replace every occurrence of \"{old}\" with \"{new}\" {case}. Save the "
    "document in place as .docx.",
    "In the document {path}, \"{old}\" must become \"{new}\" everywhere {case}. Use Find & Replace, then save the "
    "file in Word format under the same name.",
    "Please update {path}: change all \"{old}\" to \"{new}\" {case}. Don't edit anything else, and keep the .docx "
    "format when saving.",
    "Using Find & Replace in Writer, replace \"{old}\" by \"{new}\" throughout {path} {case}. Type the new text "
    "exactly as given and save the file as .docx.",
    "Edit {path} so that \"{old}\" is replaced with \"{new}\" in the whole document {case}. Save it in place, "
    "keeping the Word format.",
)
NATURAL = (
    'Replace "{old}" with "{new}" throughout {path.file} {case}.',
    'Help me update {path.file}: replace every "{old}" with "{new}" {case}.',
    'Could you change "{old}" to "{new}" everywhere in my document {path.file} {case}?',
    'The name changed: please replace "{old}" by "{new}" in {path.file} {case}.',
    'I need all "{old}" in {path.file} replaced with "{new}" {case}.',
)


def replace_all(text: str, old: str, new: str, match_case: bool, first_only: bool = False) -> str:
    return re.sub(re.escape(old), lambda _: new, text, count=1 if first_only else 0,
                  flags=0 if match_case else re.IGNORECASE)


def _inject(rng: random.Random, layout: wc.Layout, sentences: list[str]) -> wc.Layout:
    """Append the sentences to distinct body paragraphs (in document order)."""
    body = [i for i, b in enumerate(layout.blocks) if isinstance(b, wc.Para) and b.role == "body"]
    chosen = sorted(rng.sample(body, min(len(sentences), len(body))))
    blocks = list(layout.blocks)
    for k, sentence in enumerate(sentences):
        i = chosen[k % len(chosen)]
        para = blocks[i]
        assert isinstance(para, wc.Para)
        blocks[i] = wc.Para(f"{para.text} {sentence}", para.role, para.style, para.fmt)
    return layout.with_blocks(blocks)


class Params(TypedDict):
    term: Literal["name", "word", "phrase"]
    case: Literal["match", "ignore"]


@dataclass(frozen=True)
class Target:
    old: str
    new: str
    match_case: bool
    expected: list[str]  # every paragraph's text after the replacement
    new_count: int  # how often `new` occurs afterwards


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    term, case = params["term"], params["case"]
    base = wc.compose(rng, document, plan)
    text = " ".join(base.texts())
    seen = text if case == "match" else text.lower()
    pairs = [p for p in POOLS[term, case]
             if (p[0] if case == "match" else p[0].lower()) not in seen and p[1].lower() not in text.lower()]
    old, new, extra = rng.choice(pairs or list(POOLS[term, case]))
    slots = {"weekday": rng.choice(WEEKDAYS), "dept": rng.choice(DEPTS), "small": str(rng.randint(3, 9)),
             "first": rng.choice(("Anna", "Laura", "Helen", "Clara", "Ruth", "Irene"))}
    carriers = rng.sample(CARRIERS[term], 3)
    if case == "match":
        spellings = [old] * 3
        sentences = [c.format(t=old, **slots) for c in carriers] + [e.format(**slots) for e in extra]
        case_text = f"(match case: only \"{old}\" written exactly like that; other capitalizations stay as they are)"
    else:
        spellings = [old, *extra]
        sentences = [c.format(t=s, **slots) for c, s in zip(carriers, spellings, strict=True)]
        case_text = (f"ignoring case, so variants such as \"{extra[0]}\" and \"{extra[1]}\" are replaced too")
    rng.shuffle(sentences)
    layout = _inject(rng, base, sentences)
    match_case = case == "match"
    expected = [replace_all(t, old, new, match_case) for t in layout.texts()]
    facts = {"path": layout.path, "old": old, "new": new, "case": case_text}
    return Goal(layout, facts, Target(old, new, match_case, expected, sum(t.count(new) for t in expected)))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    how = "exactly as written" if target.match_case else "in any capitalization"
    return [
        Check(id="text", criterion=f"{layout.path} reads as before except that \"{target.old}\" ({how}) is now "
                                   f"\"{target.new}\".",
              primitive="docx.body_text", args={"path": layout.path, "paragraphs": target.expected}),
        Check(id="old-gone", criterion=f"\"{target.old}\" ({how}) no longer occurs in {layout.path}.",
              primitive="docx.occurrences",
              args={"path": layout.path, "phrase": target.old, "count": 0, "match_case": target.match_case}),
        Check(id="new-count", criterion=f"\"{target.new}\" occurs {target.new_count} times, typed exactly.",
              primitive="docx.occurrences",
              args={"path": layout.path, "phrase": target.new, "count": target.new_count}),
    ]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.replace_text", "path": layout.path, "old": target.old}
    right = {**base, "new": target.new, "match_case": target.match_case}
    variant = target.new.upper() if target.new.upper() != target.new else target.new.lower()
    wrong_case = "ignores case, changing look-alikes too" if target.match_case else "matches case, missing variants"
    return Attempts(
        Attempt("Replace All with the asked case setting", [right]),
        [Attempt("replaces only the first occurrence", [{**right, "first_only": True}]),
         Attempt(wrong_case, [{**right, "match_case": not target.match_case}]),
         Attempt(f"types the replacement as {variant!r}", [{**right, "new": variant}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Find and replace a name, word or phrase in a Writer document, matching case or ignoring it.",
    knobs={"term": ("name", "word", "phrase"), "case": ("match", "ignore")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
