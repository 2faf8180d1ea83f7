"""impress.infeasible: a request about a real deck that Impress or the deck cannot satisfy; decline, change nothing.

Kinds (workflows.infeasible_kit): `feature` asks for what no presentation program does (a rotating 3D hologram on a
slide, a slide that smells of coffee, a title that changes language with the viewer's mood); `missing` names a slide
title the deck does not have; `contradiction` asks for a slide moved to the front and kept last, or deleted yet still
shown. The near-misses are an eager agent's stand-ins: a text box about it, a note, the nearest slide worked on, one
half of the contradiction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kit.family import Goal, family
from workflows.impress import kit as ic
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve

NAME = "impress.infeasible"
PHRASINGS = (
    "Open {path} in LibreOffice Impress. {request} " + ic.SAVE,
    "There is one change to make in the presentation {path}. {request} Keep every other slide as it is. " + ic.SAVE,
    "Please edit the slide deck {path}. {request} Save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}. {request} Then save the presentation, keeping the pptx format.",
    "The deck {path} needs one edit. {request} Leave the rest of the slides alone and save it in place.",
)
NATURAL = (
    "In my presentation {path.file}, please {request.inline}.",
    "Could you help me with the deck {path.file}? I'd like you to {request.inline}.",
    "I need a hand with {path.file}: {request.inline}.",
    "Quick favour with my slides in {path.file}: {request.inline}, then save it.",
    "Here's what I want done in {path.file}. Please {request.inline}.",
)
#: (request, stand-in text a slip puts on the slide) for features no presentation program has; {title} is filled in.
FEATURES = (
    ("Add a rotating 3D hologram of the team to the slide '{title}' that floats in front of the projector screen.",
     "[3D hologram]"),
    ("Make the slide '{title}' smell of fresh coffee while it is being shown.", "(coffee scent)"),
    ("Make the title of the slide '{title}' switch language to match each viewer's mood.", "(mood translation)"),
)
GHOST_TITLES = ("Competitor Deep Dive", "Hiring Plan 2027", "Customer Testimonials", "Open Questions",
                "Budget Appendix", "Thank You and Q&A")


def goal(rng: random.Random, params: Params, content: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[ic.Deck, Impossible]:
    deck = ic.deck_from(content, plan)
    titles = deck.titles
    path, kind = deck.path, params["impossible"]
    title = rng.choice(titles[1:-1] if len(titles) > 2 else titles)
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    if kind == "feature":
        template, label = rng.choice(FEATURES)
        request = template.format(title=title)
        why = f"LibreOffice Impress has no such feature: {KIND_TEXT[kind]}"
        slips = (
            (f"adds a text box '{label}' to the slide as a stand-in",
             ({"op": "pptx.add_textbox", "path": path, "title": title, "text": label},)),
            ("writes the wish into the slide's speaker notes",
             ({"op": "pptx.set_notes", "path": path, "title": title, "text": request},)),
        )
    elif kind == "missing":
        ghost = rng.choice([g for g in GHOST_TITLES if g not in titles])
        request = f"Delete the slide titled '{ghost}' from the presentation, keeping the other slides in order."
        why = f"{deck.path.rsplit('/', 1)[-1]} has no slide titled '{ghost}'"
        slips = (
            (f"deletes the slide '{title}' instead", ({"op": "pptx.delete_slide", "path": path, "title": title},)),
            (f"deletes the last slide '{titles[-1]}' instead",
             ({"op": "pptx.delete_slide", "path": path, "title": titles[-1]},)),
        )
    elif rng.random() < 0.5:
        request = (f"Move the slide '{title}' so that it becomes the very first slide, while keeping it the very last "
                   f"slide of the deck.")
        why = "a slide cannot be the first and the last slide of the deck at once"
        slips = (
            ("moves the slide to the front", ({"op": "pptx.move_slide", "path": path, "title": title, "position": 1},)),
            ("moves the slide to the end",
             ({"op": "pptx.move_slide", "path": path, "title": title, "position": len(titles)},)),
        )
    else:
        request = (f"Delete the slide '{title}' from the deck, but make sure it is still shown when the presentation "
                   f"runs.")
        why = "a deleted slide cannot still be shown in the slide show"
        slips = (
            ("deletes the slide", ({"op": "pptx.delete_slide", "path": path, "title": title},)),
            ("moves the slide to the end as a compromise",
             ({"op": "pptx.move_slide", "path": path, "title": title, "position": len(titles)},)),
        )
    return Goal(deck, {"path": path, "request": request}, Impossible(path, why, slips))


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Decline a request about a slide deck that cannot be done (a feature Impress lacks, a slide that is "
                "not there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
