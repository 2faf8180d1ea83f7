"""writer.find_replace: replace a name, word or phrase throughout a document, matching case or ignoring it.

"match" tasks plant look-alikes in another case that must survive (the surname "Bell" vs the fire bell, the
acronym "IT" vs the word "it", the department "Customer Service" vs good customer service); "ignore" tasks
plant the term typed inconsistently ("Falcon", "falcon", "FALCON"), all of which must change. The check
compares the whole text against the expected result and counts the old and new terms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


def replace_all(text: str, old: str, new: str, match_case: bool, first_only: bool = False) -> str:
    return re.sub(re.escape(old), lambda _: new, text, count=1 if first_only else 0,
                  flags=0 if match_case else re.IGNORECASE)


def _inject(rng: Any, layout: wc.Layout, sentences: list[str]) -> wc.Layout:
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


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    term, case = values["params"]["term"], values["params"]["case"]
    base = wc.compose(rng, values["document"], values["plan"])
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
    target = {"old": old, "new": new, "match_case": match_case, "expected": expected,
              "new_count": sum(t.count(new) for t in expected)}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    how = "exactly as written" if t["match_case"] else "in any capitalization"
    return {"rubric": [
        Check(id="text", criterion=f"{layout.path} reads as before except that \"{t['old']}\" ({how}) is now "
                                   f"\"{t['new']}\".",
              primitive="docx.body_text", args={"path": layout.path, "paragraphs": t["expected"]}),
        Check(id="old-gone", criterion=f"\"{t['old']}\" ({how}) no longer occurs in {layout.path}.",
              primitive="docx.occurrences",
              args={"path": layout.path, "phrase": t["old"], "count": 0, "match_case": t["match_case"]}),
        Check(id="new-count", criterion=f"\"{t['new']}\" occurs {t['new_count']} times, typed exactly.",
              primitive="docx.occurrences", args={"path": layout.path, "phrase": t["new"], "count": t["new_count"]}),
    ]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    base = {"op": "docx.replace_text", "path": layout.path, "old": t["old"]}
    right = {**base, "new": t["new"], "match_case": t["match_case"]}
    variant = t["new"].upper() if t["new"].upper() != t["new"] else t["new"].lower()
    wrong_case = "ignores case, changing look-alikes too" if t["match_case"] else "matches case, missing variants"
    return {"solutions": [
        Solution("oracle", "Replace All with the asked case setting", [right]),
        Solution("near-miss-1", "replaces only the first occurrence", [{**right, "first_only": True}]),
        Solution("near-miss-2", wrong_case, [{**right, "match_case": not t["match_case"]}]),
        Solution("near-miss-3", f"types the replacement as {variant!r}", [{**right, "new": variant}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Find and replace a name, word or phrase in a Writer document, matching case or ignoring it.",
    knobs={"term": ("name", "word", "phrase"), "case": ("match", "ignore")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
