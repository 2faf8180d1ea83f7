"""writer.infeasible: a request about a real document that Writer or the document cannot satisfy; decline it.

Kinds (workflows.infeasible_kit): `feature` asks for what no word processor does (a heading that plays a fanfare,
a paragraph that reads itself out in Morse code, ink that glows in the dark); `missing` names a section heading the
document does not have; `contradiction` asks for a paragraph aligned left and right at once, or a heading made bold
with no bold character in it. The near-misses are an eager agent's stand-ins: a note typed into the heading, a
format applied instead, the first heading edited, one half of the contradiction.
"""

from __future__ import annotations

import random
from typing import Any

from kit.family import Goal, family
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve
from workflows.writer import kit as wc

NAME = "writer.infeasible"
PHRASINGS = (
    "Open {path} in LibreOffice Writer. {request} Save the document in place as .docx.",
    "There is one change to make in the document {path}. {request} Keep the rest of the text as it is and save "
    "the file in Word format under the same name.",
    "Please edit {path}. {request} Save your changes to the same .docx file.",
    "Using LibreOffice Writer, open {path}. {request} Then save it, keeping the .docx format.",
    "The document {path} needs one edit. {request} Leave everything else alone and save it in place.",
)
NATURAL = (
    "In my document {path.file}, please {request.inline}.",
    "Could you help me with {path.file}? I'd like you to {request.inline}.",
    "I need a hand with the report {path.file}: {request.inline}.",
    "Quick favour with {path.file}: {request.inline}, then save it.",
    "Here's what I want done in {path.file}. Please {request.inline}.",
)
#: (request, stand-in a slip types after the heading) for features no word processor has; {heading}, {paragraph}.
FEATURES = (
    ("Make the heading {heading} play a short trumpet fanfare whenever a reader scrolls past it.", "fanfare"),
    ("Make the paragraph beginning {paragraph} read itself aloud in Morse code to whoever opens the file.",
     "Morse code"),
    ("Print the heading {heading} in ink that glows in the dark, so it can be read with the lights off.",
     "glow in the dark"),
)
GHOST_HEADINGS = ("Risk Register", "Appendix C: Glossary", "Budget Breakdown by Region", "Lessons Learned",
                  "Vendor Comparison", "Next Year's Roadmap")


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Impossible]:
    layout = wc.compose(rng, document, plan)
    path, kind = layout.path, params["impossible"]
    headings = [loc for _, loc in wc.targets(layout, "heading")]
    bodies = [loc for _, loc in wc.targets(layout, "body")]
    heading, paragraph = rng.choice(headings), rng.choice(bodies)
    chars = {"op": "docx.format_chars", "path": path}
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    if kind == "feature":
        template, label = rng.choice(FEATURES)
        request = template.format(heading=wc.quoted(heading), paragraph=wc.quoted(paragraph))
        target = paragraph if "{paragraph}" in template else heading
        why = f"LibreOffice Writer has no such feature: {KIND_TEXT[kind]}"
        slips = (
            (f"types '({label})' after the text as a stand-in",
             ({"op": "docx.replace_text", "path": path, "old": target, "new": f"{target} ({label})",
               "first_only": True},)),
            ("puts the text in italics as a stand-in", ({**chars, "paragraph_start": target, "italic": True},)),
        )
    elif kind == "missing":
        texts = {wc.norm(t) for t in layout.texts()}
        ghost = rng.choice([g for g in GHOST_HEADINGS if wc.norm(g) not in texts])
        request = f"Make the section heading {wc.quoted(ghost)} bold and underline it."
        why = f"{layout.filename} has no heading {wc.quoted(ghost)}"
        slips = (
            (f"underlines the heading {wc.quoted(heading)} instead",
             ({**chars, "paragraph_start": heading, "bold": True, "underline": True},)),
            (f"adds the heading {wc.quoted(ghost)} at the end",
             ({"op": "docx.replace_text", "path": path, "old": headings[-1], "new": f"{headings[-1]} {ghost}",
               "first_only": True},)),
        )
    elif rng.random() < 0.5:
        request = (f"Align the paragraph beginning {wc.quoted(paragraph)} to the left margin only, and at the same "
                   f"time to the right margin only.")
        why = "a paragraph cannot be aligned only left and only right at once"
        slips = (
            ("aligns the paragraph to the right only", ({"op": "docx.set_alignment", "path": path,
                                                         "paragraphs": [paragraph], "align": "right"},)),
            ("justifies the paragraph as a compromise", ({"op": "docx.set_alignment", "path": path,
                                                          "paragraphs": [paragraph], "align": "justify"},)),
        )
    else:
        request = f"Make the heading {wc.quoted(heading)} bold, but make sure not a single character of it is bold."
        why = "a heading cannot be bold with no bold character in it"
        slips = (
            ("takes the bold off the heading", ({**chars, "paragraph_start": heading, "bold": False},)),
            ("underlines the heading instead", ({**chars, "paragraph_start": heading, "underline": True},)),
        )
    return Goal(layout, {"path": path, "request": request}, Impossible(path, why, slips))


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Decline a request about a document that cannot be done (a feature Writer lacks, a heading that is "
                "not there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
