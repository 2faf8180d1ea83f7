"""impress.multi_edit: several edits of one presentation in one request ("give the 'Budget' slide a light blue
background, add the note 'APP' to it and put slide numbers on every slide").

Users of Impress rarely ask for one change at a time (OSWorld's Impress tasks pair a note with a background, a
title's format with its notes, a slide's background with its text). Every goal of a task edits the same deck: one
asset, one instruction listing the goals, one rubric holding each goal's own check and ONE frame over the combined
change set (the kit's pptx frame diffs the initial deck against the oracle's, which applies every goal's op in
turn). The goals come from a pool of edits the Impress families already check, each on its own property, so their
order never matters and no check reads another goal's change:

- `title`: a slide's title bold, italic, underlined or in a colour (`pptx.format_text`, `pptx.text_format`);
- `background`: one slide's solid background colour (`pptx.set_background`, `pptx.background`);
- `align`: every bullet of a slide's content box centred, right-aligned or justified (`pptx.align_paragraphs`,
  `pptx.paragraph_align`);
- `note`: a speaker note on a slide without one, a stated sentence or the slide's own title (`pptx.set_notes`,
  `pptx.notes_text`);
- `numbers`: slide numbers on every slide, or every slide but the title slide (`pptx.set_slide_numbers`,
  `pptx.slide_numbers`);
- `footer`: a footer text on the same slides (`pptx.set_footer`, `pptx.footer_text`);
- `hide`: a slide hidden in the show, kept in the file (`pptx.set_hidden`, `pptx.slide_hidden`).

The knob `goals` says how many (2-4); which ones, and on which slides, the task's seeded RNG draws. The per-slide
goals share one slide half the time (as "on slide 2, add a note and make the background purple" does), else each
has a slide of its own; a hidden slide is never one another goal edits (nobody styles a slide they hide) nor the
deck's last. A title's font colour is never drawn beside a background colour: the grounding holds every colour word
of a request against each checked colour, so two colours in one request read as a contradiction.

Near-misses, each with every other goal done right: one goal left undone; one goal done on the wrong slide (or, for
a deck-wide goal, on the wrong slides); one goal done in a way its check or the frame refuses (a note typed on the
slide, a footer in a text box, a number typed as text, the neighbour's bullets aligned or its slide hidden as well,
the background applied to every slide, the whole content box formatted with the title).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.impress import kit as ic
from workflows.impress.background import COLOURS
from workflows.impress.footer import _texts as footer_texts
from workflows.impress.notes import NOTES
from workflows.impress.text_format import COLORS

NAME = "impress.multi_edit"
#: the goals a task draws from, in the order its instruction lists them
POOL = ("title", "background", "align", "note", "numbers", "footer", "hide")
ON_SLIDE = ("title", "background", "align", "note")  # goals on one named slide
STYLES = ("bold", "italic", "underline", "color")
ALIGN = {"center": "centred", "right": "right-aligned", "justify": "justified"}
WHERE = {True: "every slide including the title slide", False: "every slide except the title slide"}
COUNT = {2: "two", 3: "three", 4: "four"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and make these {count} changes:\n{goals}\nLeave everything else as it "
    "is. " + ic.SAVE,
    "The presentation {path} needs {count} edits, all in this one file:\n{goals}\nDo not change anything else; "
    "save it in place as pptx.",
    "Please do all of the following in {path}:\n{goals}\nKeep the other slides, texts and settings unchanged. "
    + ic.SAVE,
    "Using LibreOffice Impress, carry out these {count} edits on {path}:\n{goals}\nThen save the presentation "
    "in place, keeping the pptx format.",
    "I have {count} things to fix in the deck {path}:\n{goals}\nNothing else should change. Keep the pptx format "
    "when saving.",
)
NATURAL = (
    "A few changes to my slides in {path.file}, please: {said}.",
    "Could you polish {path.file} for me? Please {said}.",
    "Help me with my presentation {path.file}: {said}.",
    "In {path.file}, please {said}. Then save it.",
    "Before I present {path.file}, could you {said}?",
)


class Params(TypedDict):
    goals: Literal[2, 3, 4]


@dataclass(frozen=True)
class Target:
    goals: tuple[str, ...]
    slides: dict[str, str]  # goal -> the slide it edits (per-slide goals and `hide`)
    neighbours: dict[str, str]  # goal -> the slide a wrong-slide slip edits instead
    style: dict[str, Any] = field(default_factory=dict)  # `title`: the format, as pptx.format_text takes it
    color: str = ""  # `background`: hex
    align: str = ""  # `align`: center, right or justify
    note: str = ""  # `note`: the notes text once written
    note_is_title: bool = False  # `note`: the slide's own title goes into its notes
    title_slide: bool = True  # `numbers` / `footer`: the title slide shows them too
    footer: str = ""  # `footer`: its text
    cover: str = ""  # the title slide's title
    first: str = ""  # the first content slide's title
    first_bullet: dict[str, str] = field(default_factory=dict)  # slide -> its first bullet


def _bulleted(deck: ic.Deck, titles: list[str], least: int) -> list[str]:
    return [t for t in titles if len(deck.slide(t).get("bullets", [])) >= least]


def _neighbour(deck: ic.Deck, slide: str, avoid: set[str]) -> str:
    """The content slide next to `slide` (after it, else before), skipping slides in `avoid` where it can."""
    listed = _bulleted(deck, deck.content_titles, 2)
    i = deck.content_titles.index(slide)
    order = deck.content_titles[i + 1:] + deck.content_titles[:i][::-1]
    return next((t for t in order if t in listed and t not in avoid), next(t for t in order if t in listed))


def goal(rng: random.Random, params: Params, content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    drawn = set(rng.sample(POOL, params["goals"]))
    goals = tuple(g for g in POOL if g in drawn)
    # the hidden slide first: never the last one, and never a slide another goal edits
    hidden = rng.choice(deck.content_titles[:-1]) if "hide" in goals else None
    usable = [t for t in _bulleted(deck, deck.content_titles, 2) if t != hidden]
    slides: dict[str, str] = {}
    on_slide = [g for g in goals if g in ON_SLIDE]
    if on_slide and (rng.random() < 0.5 or len(usable) < len(on_slide)):  # every per-slide goal on one slide
        slides = dict.fromkeys(on_slide, rng.choice(usable))
    else:
        slides = dict(zip(on_slide, rng.sample(usable, len(on_slide)), strict=True))
    if hidden is not None:
        slides["hide"] = hidden
    neighbours = {g: _neighbour(deck, s, set(slides.values())) for g, s in slides.items()}
    # a font colour beside a background colour: the grounding reads every colour word of the request against each
    # checked colour (verifiers/roundtrip._colours), so "dark red" and "navy blue" in one request contradict
    style_name = rng.choice([s for s in STYLES if s != "color" or "background" not in goals])
    style: dict[str, Any] = ({"color": rng.choice(sorted(COLORS))} if style_name == "color"
                             else {style_name: True})
    color = rng.choice(sorted(COLOURS))
    align = rng.choice(sorted(ALIGN))
    note_is_title = rng.random() < 0.4
    note = slides.get("note", "") if note_is_title else rng.choice(NOTES).format(author=deck.author)
    if "note" in goals:
        deck = deck.with_slide(slides["note"], notes="")  # a slide without notes yet
    title_slide = rng.random() < 0.5
    footer = rng.choice(footer_texts(content))
    target = Target(goals, slides, neighbours, style, color, align, note if "note" in goals else "", note_is_title,
                    title_slide, footer, deck.titles[0], deck.content_titles[0],
                    {t: deck.slide(t)["bullets"][0] for t in deck.content_titles if deck.slide(t).get("bullets")})
    listed = "\n".join(f"{n}. {_said(g, target, False)}" for n, g in enumerate(goals, start=1))
    facts = {"path": deck.path, "count": COUNT[len(goals)], "goals": listed,
             "said": _join([_said(g, target, True) for g in goals])}
    return Goal(deck, facts, target)


def _join(clauses: list[str]) -> str:
    return ", ".join(clauses[:-1]) + f" and {clauses[-1]}" if len(clauses) > 1 else clauses[0]


def _style_words(style: dict[str, Any], what: str) -> str:
    if "color" in style:
        return f"change the font color of {what} to {COLORS[style['color']]} (hex {style['color']})"
    if style.get("underline"):
        return f"underline {what} (single underline)"
    return f"make {what} {'bold' if style.get('bold') else 'italic'}"


def _said(goal: str, t: Target, natural: bool) -> str:
    """One goal in words: a sentence of the explicit list, or a short clause of a user's request."""
    slide = t.slides.get(goal, "")
    if goal == "title":
        words = _style_words(t.style, f"the title of the '{slide}' slide" if natural
                             else f"the title of the slide '{slide}'")
        return words if natural else f"{words[0].upper()}{words[1:]}; the rest of that slide keeps its formatting."
    if goal == "background":
        return (f"give '{slide}' a {COLOURS[t.color]} background ({t.color})" if natural else
                f"Give the slide '{slide}' a solid {COLOURS[t.color]} background (hex {t.color}); the other slides "
                f"keep theirs.")
    if goal == "align":
        return (f"make the bullet points on '{slide}' {ALIGN[t.align]}" if natural else
                f"Make every bullet point in the content box of the slide '{slide}' {ALIGN[t.align]}.")
    if goal == "note":
        if t.note_is_title:
            return (f"put the title '{slide}' into that slide's speaker notes" if natural else
                    f"The slide '{slide}' has no speaker notes yet: add its own title, '{slide}', as its note.")
        return (f"add the speaker note '{t.note}' to '{slide}'" if natural else
                f"The slide '{slide}' has no speaker notes yet: add the note '{t.note}'.")
    if goal == "numbers":
        return (f"add slide numbers to {WHERE[t.title_slide]}" if natural else  # never "show slide": that unhides
                f"Add slide numbers to {WHERE[t.title_slide]} (Insert > Header and Footer, Slide number).")
    if goal == "footer":
        return (f"add the footer \"{t.footer}\" on {WHERE[t.title_slide]}" if natural else
                f"Add the footer text \"{t.footer}\" to {WHERE[t.title_slide]} (Insert > Header and Footer).")
    return (f"hide the '{slide}' slide so the show skips it" if natural else
            f"Hide the slide '{slide}' in the slide show; keep it in the file.")


def _check(goal: str, deck: ic.Deck, t: Target) -> Check:
    slide = t.slides.get(goal, "")
    if goal == "title":
        return Check("title", f"On '{slide}', the title (all of it) has {t.style} and no other text there does.",
                     "pptx.text_format", {"path": deck.path, "slide": slide, "text": slide, **t.style})
    if goal == "background":
        return Check("background", f"The slide '{slide}' shows a solid {COLOURS[t.color]} ({t.color}) background, "
                                   "and no other slide does.",
                     "pptx.background", {"path": deck.path, "color": t.color, "slide": slide})
    if goal == "align":
        return Check("align", f"Every paragraph of the content box on the slide '{slide}' is {ALIGN[t.align]}.",
                     "pptx.paragraph_align", {"path": deck.path, "slide": slide, "align": t.align})
    if goal == "note":
        return Check("note", f"The speaker notes of '{slide}' read '{t.note}'.", "pptx.notes_text",
                     {"path": deck.path, "slide": slide, "text": t.note, "named": [t.note]})
    where = "Every slide" if t.title_slide else "Every slide but the title slide (which shows none)"
    if goal == "numbers":
        return Check("numbers", f"{where} of {deck.path} shows its slide number (a slide-number field).",
                     "pptx.slide_numbers", {"path": deck.path, "title_slide": t.title_slide})
    if goal == "footer":
        return Check("footer", f"{where} of {deck.path} shows the footer \"{t.footer}\".", "pptx.footer_text",
                     {"path": deck.path, "text": t.footer, "title_slide": t.title_slide})
    return Check("hide", f"The slide '{slide}' is hidden in the slide show and still in the file.",
                 "pptx.slide_hidden", {"path": deck.path, "slide": slide, "hidden": True})


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    """Each goal's check, in the instruction's order (the kit appends the one frame over all their changes)."""
    return [_check(g, deck, target) for g in target.goals]


Way = Literal["right", "elsewhere", "unframed"]


def _ops(goal: str, deck: ic.Deck, t: Target, way: Way = "right") -> list[dict[str, Any]]:
    """One goal's ops: done right, done on the wrong slide(s) (`elsewhere`), or done in a way its check or the
    frame refuses (`unframed`)."""
    path = deck.path
    slide = t.slides.get(goal, "")
    other = t.neighbours.get(goal, "")
    on = other if way == "elsewhere" else slide
    if goal == "title":
        base = {"op": "pptx.format_text", "path": path, "title": on, "text": on, **t.style}
        if way == "unframed":  # the title and the whole content box under it
            return [base, {**base, "text": t.first_bullet[slide], "whole_shape": True}]
        return [base]
    if goal == "background":
        base = {"op": "pptx.set_background", "path": path, "color": t.color}
        return [{**base, "master": True}] if way == "unframed" else [{**base, "title": on}]
    if goal == "align":
        base = {"op": "pptx.align_paragraphs", "path": path, "title": on, "align": t.align}
        return [base, {**base, "title": other}] if way == "unframed" else [base]
    if goal == "note":
        if way == "unframed":  # typed on the slide, in a text box, instead of in the notes
            return [{"op": "pptx.add_textbox", "path": path, "title": slide, "text": t.note}]
        return [{"op": "pptx.set_notes", "path": path, "title": on, "text": t.note}]
    skip = None if t.title_slide else [t.cover]
    if goal == "numbers":
        base = {"op": "pptx.set_slide_numbers", "path": path, "skip": skip}
        if way == "elsewhere":  # the title slide flipped: numbered when it should not be, or left out
            return [{**base, "skip": [t.cover] if t.title_slide else None}]
        return [{**base, "typed": True}] if way == "unframed" else [base]
    if goal == "footer":
        base = {"op": "pptx.set_footer", "path": path, "text": t.footer, "skip": skip}
        if way == "elsewhere":  # on the first content slide only
            return [{**base, "skip": None, "only": [t.first]}]
        return [{**base, "textbox": True}] if way == "unframed" else [base]
    base = {"op": "pptx.set_hidden", "path": path, "title": on}
    return [base, {**base, "title": other}] if way == "unframed" else [base]


SLIPS = {
    "title": ("formats the title of '{other}' instead", "formats the whole content box along with the title"),
    "background": ("colours '{other}' instead", "applies the background to every slide (the master)"),
    "align": ("aligns the bullets of '{other}' instead", "aligns the bullets of '{other}' as well"),
    "note": ("writes the note on '{other}' instead", "types the note on the slide in a text box"),
    "numbers": ("gets the title slide wrong", "types each number as plain text instead of the field"),
    "footer": ("puts the footer on the first content slide only", "types the footer in a text box on each slide"),
    "hide": ("hides '{other}' instead", "hides '{other}' as well"),
}


def solve(deck: ic.Deck, target: Target) -> Attempts:
    goals = target.goals

    def but(wrong: str, way: Way | None) -> list[dict[str, Any]]:
        return [op for g in goals for op in (_ops(g, deck, target) if g != wrong else
                                            _ops(g, deck, target, way) if way else [])]

    misses = [Attempt(f"does every goal but '{g}'", but(g, None)) for g in goals]
    slips: tuple[Way, Way] = ("elsewhere", "unframed")
    for index, way in enumerate(slips):
        misses += [Attempt(f"every goal done, but '{g}' " + SLIPS[g][index].format(other=target.neighbours.get(g)),
                           but(g, way)) for g in goals]
    oracle = [op for g in goals for op in _ops(g, deck, target)]
    return Attempts(Attempt("carry out every goal on the one presentation: " + ", ".join(goals), oracle), misses)


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Make 2-4 edits of one presentation in one request (a title's format, a slide background, bullet "
                "alignment, a speaker note, slide numbers, a footer, a hidden slide), changing nothing else.",
    knobs={"goals": (2, 3, 4)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
