"""docx primitives for character effects (strikethrough, highlight, font colour) and letter case.

`docx.char_effect` asks whether a stated phrase (or paragraph) carries an effect and the rest of its paragraph does
not; the frame (verifiers/frame/docx.py) already refuses the effect anywhere else, as it reads strike, colour,
highlight and shading of every run. `docx.text_case` asks whether a stated paragraph reads in the asked letter case
as a person sees it: the characters typed in that case (Format > Text) or shown so by the Uppercase font effect.
"""

from __future__ import annotations

import colorsys
import re

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import Doc, W, load, norm, runs

#: Word's named highlight colours (w:highlight/@w:val) as RGB.
HIGHLIGHTS = {"yellow": "FFFF00", "green": "00FF00", "cyan": "00FFFF", "magenta": "FF00FF", "blue": "0000FF",
              "red": "FF0000", "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000",
              "darkMagenta": "800080", "darkRed": "800000", "darkYellow": "808000", "darkGray": "808080",
              "lightGray": "C0C0C0", "black": "000000", "white": "FFFFFF"}
#: colour name -> hue ranges in degrees: what a person calls that colour (LibreOffice's "Red" is C9211E, Word's
#: FF0000; both are red).
HUES = {"red": ((0, 15), (340, 360)), "yellow": ((45, 68),), "green": ((75, 165),), "blue": ((195, 255),)}
EFFECTS = ("strike", "highlight", "color")


def colour_name(rgb: str | None) -> str | None:
    """The colour name of HUES a hex RGB value is (saturated and not dark), else None."""
    if not rgb or not re.fullmatch(r"[0-9A-Fa-f]{6}", rgb):
        return None
    r, g, b = (int(rgb[i:i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    if s < 0.45 or v < 0.35:
        return None
    deg = h * 360
    return next((name for name, spans in HUES.items() if any(lo <= deg < hi for lo, hi in spans)), None)


def _on(el: etree._Element | None) -> bool:
    return el is not None and (el.get(W + "val") or "true").lower() not in ("0", "false", "off", "none")


def effect_of(doc: Doc, r: etree._Element, p: etree._Element, effect: str) -> str | bool | None:
    """A run's effective `effect`: strike -> True/False; highlight and color -> the colour name (HUES), "other"
    for a colour of no listed name, None for none. Character shading counts as highlighting (LibreOffice may
    save highlighting as shading)."""
    if effect == "strike":
        return _on(doc.run_prop(r, p, "strike")) or _on(doc.run_prop(r, p, "dstrike"))
    if effect == "color":
        el = doc.run_prop(r, p, "color", "val")
        value = (el.get(W + "val") or "") if el is not None else ""
        if value.lower() in ("", "auto"):
            return None
        return colour_name(value) or "other"
    el = doc.run_prop(r, p, "highlight", "val")
    value = (el.get(W + "val") or "none") if el is not None else "none"
    if value != "none":
        return colour_name(HIGHLIGHTS.get(value, value)) or "other"
    shade = doc.run_prop(r, p, "shd", "fill")
    fill = (shade.get(W + "fill") or "").upper() if shade is not None else ""
    if fill in ("", "AUTO", "FFFFFF"):
        return None
    return colour_name(fill) or "other"


def _find_any_case(doc: Doc, selector: str) -> etree._Element | None:
    """The one body paragraph whose text starts with `selector`, ignoring letter case (None when not one)."""
    want = norm(selector).lower()
    hits = [p for p in doc.paragraphs() if doc.text(p).lower().startswith(want)]
    exact = [p for p in hits if doc.text(p).lower() == want]
    if len(hits) == 1:
        return hits[0]
    return exact[0] if len(exact) == 1 else None


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


@primitive("docx.char_effect", grounded=("path", "paragraph", "phrase", "effect", "color"),
           meaning=Meaning(action=r"strike|struck|cross|highlight|colou?r",
                           args={"effect": Said("effect"), "color": Said("colour")}))
@guarded
def char_effect(state: State, path: str, paragraph: str, effect: str, phrase: str | None = None,
                color: str | None = None) -> Result:
    """Every visible character of `phrase` in the stated paragraph (or of the whole paragraph) carries `effect`
    ("strike", "highlight" or "color"; the last two in a colour called `color`), and no other character of that
    paragraph carries that effect at all."""
    if effect not in EFFECTS:
        return fail(f"check misconfigured: effect={effect!r}, but must be one of {list(EFFECTS)}")
    doc = load(state, path)
    p = _find_any_case(doc, paragraph)
    if p is None:
        return fail(f"no single paragraph begins with {_short(paragraph)}")
    chars = [(c, r) for r, t in runs(p) for c in t]
    full = "".join(c for c, _ in chars)
    start, end = 0, len(full)
    if phrase is not None:
        start = full.find(phrase)
        if start < 0:
            return fail(f"paragraph {_short(paragraph)} no longer contains {phrase!r}")
        end = start + len(phrase)
    want: str | bool = True if effect == "strike" else (color or "")
    name = "strikethrough" if effect == "strike" else f"{effect} {color}"
    where = repr(phrase) if phrase else f"paragraph {_short(paragraph)}"
    for i in range(start, end):
        c, r = chars[i]
        got = effect_of(doc, r, p, effect)
        if not c.isspace() and got != want:
            seen = "none" if got in (None, False) else got
            return fail(f"{where}: {full[max(start, i - 10):i + 10]!r} has {effect} {seen}, expected {name}")
    for i, (c, r) in enumerate(chars):
        if not start <= i < end and not c.isspace() and effect_of(doc, r, p, effect) not in (None, False):
            return fail(f"{effect} reaches beyond {where}: {full[max(0, i - 10):i + 10]!r} has it too")
    return ok(f"{where} is {name}; the rest of its paragraph is not")


CASES = ("upper", "lower", "title", "sentence")


def shown_text(doc: Doc, p: etree._Element) -> str:
    """The paragraph's text as it shows: runs with the Uppercase font effect (w:caps) in capitals."""
    out = []
    for r, text in runs(p):
        out.append(text.upper() if _on(doc.run_prop(r, p, "caps")) else text)
    return norm("".join(out))


def cased(text: str, case: str) -> str:
    """`text` in `case` the way Writer's Format > Text does it (Capitalize Every Word: each word's first letter a
    capital, the rest small; Sentence case: the first letter of each sentence a capital, the rest small)."""
    if case == "upper":
        return text.upper()
    if case == "lower":
        return text.lower()
    if case == "title":
        return re.sub(r"\S+", lambda m: _cap(m.group().lower()), text)
    out, start = [], True
    for c in text.lower():
        if start and c.isalpha():
            out.append(c.upper())
            start = False
        else:
            out.append(c)
            start = start or c in ".!?"
    return "".join(out)


def _cap(word: str) -> str:
    i = next((k for k, c in enumerate(word) if c.isalnum()), None)
    return word if i is None else word[:i] + word[i].upper() + word[i + 1:]


def _title_ok(got: str, want: str) -> bool:
    """Capitalize Every Word, with the letter after an apostrophe or hyphen in either case ("Don't"/"Don'T",
    "Follow-up"/"Follow-Up": Writer's word boundaries differ by version)."""
    if len(got) != len(want) or got.lower() != want.lower():
        return False
    return all(g == w or (i and got[i - 1] in "'’-") for i, (g, w) in enumerate(zip(got, want, strict=True)))


@primitive("docx.text_case", grounded=("path", "paragraph", "case"),
           meaning=Meaning(action=r"case|capitali[sz]|capitals?|caps|upper|lower",
                           args={"case": Said("letter_case")}))
@guarded
def text_case(state: State, path: str, paragraph: str, case: str, text: str) -> Result:
    """The paragraph that began with `paragraph` (found ignoring case) reads `text` (its initial wording) in letter
    case `case` ("upper", "lower", "title": Capitalize Every Word, "sentence"), as it shows on the page."""
    if case not in CASES:
        return fail(f"check misconfigured: case={case!r}, but must be one of {list(CASES)}")
    doc = load(state, path)
    p = _find_any_case(doc, paragraph)
    if p is None:
        return fail(f"no single paragraph begins with {_short(paragraph)} (in any case)")
    got, want = shown_text(doc, p), cased(norm(text), case)
    if got.lower() != want.lower():
        return fail(f"paragraph {_short(paragraph)} no longer has the same words: reads {_short(got)}")
    if got == want or (case == "title" and _title_ok(got, want)):
        return ok(f"paragraph {_short(paragraph)} reads {_short(got)} ({case} case)")
    at = next(i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b)
    return fail(f"paragraph {_short(paragraph)} is not in {case} case: {got[max(0, at - 15):at + 15]!r} where "
                f"{want[max(0, at - 15):at + 15]!r} was expected")


@primitive("docx.duplicates_removed", grounded=("path",),
           meaning=Meaning(action=r"duplicat|repeat|twice|copies|copy"))
@guarded
def duplicates_removed(state: State, path: str, paragraphs: list[str], repeated: list[str]) -> Result:
    """The body's non-empty paragraphs read exactly `paragraphs` (the document with each repeated paragraph kept
    once, where it first stood): each text of `repeated` occurs once, in its first place, and nothing else went."""
    from verifiers.readers.docx import body_paragraphs

    got = body_paragraphs(load(state, path))
    want = [norm(t) for t in paragraphs]
    for text in repeated:
        n = got.count(norm(text))
        if n != 1:
            return fail(f"the paragraph {_short(norm(text))} occurs {n} times, expected once")
    if got != want:
        i = next((k for k, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        seen = _short(got[i]) if i < len(got) else "the end of the document"
        return fail(f"paragraph {i + 1} is {seen} where {_short(want[i]) if i < len(want) else 'nothing'} was "
                    f"expected ({len(got)} paragraphs, expected {len(want)})")
    return ok(f"each of the {len(repeated)} repeated paragraphs is kept once, in its first place; "
              f"{len(want)} paragraphs read as expected")
