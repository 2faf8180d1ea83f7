"""impress.notes: write speaker notes for one or two slides — new notes, replaced notes, or an added sentence."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic

NAME = "impress.notes"
NOTES = ("Pause here for questions before moving on.", "Spend about two minutes on this slide.",
         "Mention that the full numbers are in the appendix.", "Hand over to {author} for this part.",
         "Keep this brief because most people have seen it before.", "Ask the room for a quick show of hands.",
         "Point to the handout for the details.", "Stress the first point, it matters most.",
         "Share the link to the recording after the meeting.", "Check the time and skip this slide if late.")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and edit the speaker notes (View > Notes). {action} Do not change "
    "the slides themselves. " + ic.SAVE,
    "In the presentation {path}, update the presenter notes. {action} The slide content stays as it is. "
    + ic.SAVE,
    "Please work on the speaker notes of {path}. {action} Type the text exactly as given, in the notes area "
    "below the slide, not on the slide. Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path} and switch to the Notes view. {action} Leave every slide and all "
    "other notes untouched. " + ic.SAVE,
    "The speaker of {path} needs better notes. {action} Nothing else in the deck should change. Then save "
    "the presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Help me with the speaker notes in {path.file}. {action}",
    "In the speaker notes of my presentation {path.file}: {action}",
    "I'm presenting {path.file} soon. {action}",
    "Could you update the notes of {path.file}? {action}",
    "Please edit the speaker notes in {path.file}. {action}",
)

Mode = Literal["add", "replace", "append"]


class Params(TypedDict):
    mode: Mode
    slides: Literal[1, 2]


@dataclass(frozen=True)
class Note:
    """One slide's notes edit."""

    slide: str  # the slide's title
    old: str  # its notes now ('' for `add`)
    new: str  # the text the instruction gives
    expected: str  # its notes once edited


@dataclass(frozen=True)
class Target:
    mode: Mode
    items: list[Note]  # in slide order


def _action(mode: str, title: str, old: str, new: str) -> str:
    if mode == "add":
        return f"The slide '{title}' has no notes yet: add the note '{new}'."
    if mode == "replace":
        return f"Replace the notes of the slide '{title}' (now '{old}') with '{new}'."
    return f"Keep the current notes of the slide '{title}' and add the sentence '{new}' after them."


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    mode, count = params["mode"], params["slides"]
    deck = ic.deck_from(content, plan)
    content_notes = {s["title"]: s["notes"] for s in content["slides"]}
    chosen = sorted(rng.sample(deck.content_titles, count), key=deck.position)
    texts = [n.format(author=deck.author) for n in rng.sample(NOTES, count)]
    items = []
    for title, new in zip(chosen, texts, strict=True):
        old = "" if mode == "add" else content_notes[title]
        deck = deck.with_slide(title, notes=old)
        expected = new if mode != "append" else f"{old} {new}"
        items.append(Note(title, old, new, expected))
    action = " ".join(_action(mode, i.slide, i.old, i.new) for i in items)
    return Goal(deck, {"path": deck.path, "action": action}, Target(mode, items))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    checks = [
        Check(f"notes-{n}", f"The speaker notes of '{i.slide}' read '{i.expected}'.", "pptx.notes_text",
              {"path": deck.path, "slide": i.slide, "text": i.expected, "named": [i.new]})
        for n, i in enumerate(target.items, start=1)]
    return checks


def solve(deck: ic.Deck, target: Target) -> Attempts:
    items = target.items

    def notes(pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        return [{"op": "pptx.set_notes", "path": deck.path, "title": s, "text": x} for s, x in pairs]

    oracle = [(i.slide, i.expected) for i in items]
    first = items[0].slide
    titles = deck.titles
    pos = titles.index(first)
    neighbour = next(x for x in (titles[pos + 1:] + titles[1:pos][::-1]) if x not in {i.slide for i in items})
    wrong_slide = [(neighbour, items[0].expected), *oracle[1:]]
    if target.mode == "add":
        second = Attempt("types the note on the slide (a text box) instead of in the notes",
                         [{"op": "pptx.add_textbox", "path": deck.path, "title": s, "text": i.new}
                          for (s, _), i in zip(oracle, items, strict=True)])
    elif target.mode == "replace":
        second = Attempt("adds the new note after the old one instead of replacing it",
                         notes([(i.slide, f"{i.old} {i.new}") for i in items]))
    else:
        second = Attempt("replaces the notes instead of adding to them", notes([(i.slide, i.new) for i in items]))
    if len(items) > 1:
        third = Attempt("edits the notes of the first slide only", notes(oracle[:1]))
    else:
        cut = items[0].expected.rsplit(" ", 1)[0]
        third = Attempt("stops typing before the last word", notes([(first, cut)]))
    return Attempts(
        Attempt("write the asked notes", notes(oracle)),
        [Attempt(f"writes the notes of '{first}' on '{neighbour}'", notes(wrong_slide)), second, third],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Add, replace or extend the speaker notes of one or two slides named by title.",
    knobs={"mode": ("add", "replace", "append"), "slides": (1, 2)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
