"""pptx mutators: damage an Impress deck the oracle wrote in ways no instruction allows, or rewrite it harmlessly.

The oracle's slides are matched to the initial ones by their XML (difflib): a slide with the same XML is out of
the task's scope, a slide matched by position with other XML was edited by the task. Damaging mutants: the
text of an out-of-scope slide edited, an out-of-scope slide deleted, two out-of-scope slides swapped, the
placeholder text of an edited shape left with the answer added beside it, a table row deleted, the task's
run formatting applied to every run of the deck, the bullets of an out-of-scope slide reversed, an out-of-scope
slide moved to the far end, an empty text box left on a slide (the first and the last only the frame catches).
Neutral ones: the deck re-saved by python-pptx, its shapes renumbered and renamed with new document properties
(what a LibreOffice save does to them), a new mtime.

Only .pptx files the oracle created or changed are mutated. Mutants are evaluated in memory (the checks' parsed
presentation) unless a check reads the file another way. The oracle's deck is parsed once per task: each mutant
edits a copy of that parse that shares its masters, layouts and themes (`preparers.pptx.copy_deck`).
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from lxml import etree
from pptx.util import Cm

from kit.model import HOME
from preparers import pptx as deckio
from verifiers.mutants import Kind, Mutant, MutationContext
from verifiers.mutants.tree import byte_fixed
from verifiers.readers.pptx import Deck
from verifiers.readers.pptx import _load as load_deck  # the State cache key of a parsed presentation

MTIME = 1_700_000_000
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
RUN_FORMAT = ("b", "i", "u", "sz")


def _open(host: Path) -> Any:
    return deckio.read_deck(host.read_bytes())


def _xml(slide: Any) -> bytes:
    return etree.tostring(slide._element)


def _texts(slide: Any) -> list[etree._Element]:
    """The slide's text runs' <a:t> elements holding text, in document order."""
    return [t for t in slide._element.iter(A + "t") if t.text]


class _Deck:
    """One changed deck: which oracle slides the task left alone and which it edited."""

    def __init__(self, ctx: MutationContext, rel: str) -> None:
        self.rel, self.oracle, self.path = rel, ctx.oracle, f"{HOME}/{rel}"
        before = ctx.initial / rel
        old = list(_open(before).slides) if before.is_file() else []
        # Never read nor edited, only copied: python-pptx objects keep the child elements they once returned
        # (`prs.slides` its slide list), and a deep copy of those would be detached from the copied tree.
        self._pristine = _open(ctx.oracle / rel)
        self.prs = self.fresh()  # the oracle's deck, read by the mutators, never edited
        self.slides = list(self.prs.slides)
        self.kept: list[int] = []
        self.edited: list[tuple[Any, int]] = []  # (initial slide, oracle index)
        matcher = difflib.SequenceMatcher(None, [_xml(s) for s in old], [_xml(s) for s in self.slides],
                                          autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                self.kept += range(j1, j2)
            elif tag == "replace" and i2 - i1 == j2 - j1:
                self.edited += [(old[i], j) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)]

    def fresh(self) -> Any:
        """A python-pptx presentation of the oracle's file, as a new parse of it reads (`deckio.copy_deck` of the
        one parse)."""
        return deckio.copy_deck(self._pristine)

    def mutant(self, name: str, kind: Kind, change: Callable[[Any], None]) -> Mutant:
        """A mutant editing this deck through `change(python-pptx presentation)`."""
        rel, path = self.rel, self.path

        def apply(root: Path) -> None:
            prs = _open(root / rel)
            change(prs)
            prs.save(str(root / rel))

        def documents() -> dict[tuple[str, Any], Any]:
            prs = self.fresh()
            change(prs)
            return {(path, load_deck): Deck(prs)}

        return Mutant(name, kind, apply, documents)


def _edit_text(prs: Any, n: int) -> None:
    _texts(prs.slides[n])[-1].text += " (edited)"


def _delete(prs: Any, n: int) -> None:
    ids = prs.slides._sldIdLst
    entry = list(ids)[n]
    prs.part.drop_rel(entry.rId)
    ids.remove(entry)


def _swap(prs: Any, n: int) -> None:
    ids = prs.slides._sldIdLst
    entry = list(ids)[n + 1]
    ids.remove(entry)
    ids.insert(n, entry)


def _hide(prs: Any, n: int) -> None:
    prs.slides[n]._element.set("show", "0")


def _hidden(deck: _Deck) -> list[Mutant]:
    """The last slide hidden in the show (still in the file, so a text-only comparison misses it): no task
    asks to hide a slide."""
    if not deck.slides:
        return []
    n = len(deck.slides) - 1
    return [deck.mutant(f"pptx.slide_hidden:slide {n + 1}", "damaging", partial(_hide, n=n))]


def _out_of_scope(deck: _Deck, ctx: MutationContext) -> list[Mutant]:
    with_text = [n for n in deck.kept if _texts(deck.slides[n])]
    out = []
    if with_text:
        n = ctx.rng.choice(with_text)
        out.append(deck.mutant(f"pptx.text_out_of_scope:slide {n + 1}", "damaging", partial(_edit_text, n=n)))
    if deck.kept and len(deck.slides) > 1:
        n = ctx.rng.choice(deck.kept)
        out.append(deck.mutant(f"pptx.slide_deleted:slide {n + 1}", "damaging", partial(_delete, n=n)))
    pairs = [n for n in deck.kept if n + 1 in deck.kept
             and deckio.slide_title(deck.slides[n]) != deckio.slide_title(deck.slides[n + 1])]
    if pairs:
        n = ctx.rng.choice(pairs)
        out.append(deck.mutant(f"pptx.slides_reordered:slides {n + 1}<->{n + 2}", "damaging", partial(_swap, n=n)))
    return out


def _set_shape_text(prs: Any, n: int, shape_id: int, text: str) -> None:
    shape = next(s for s in prs.slides[n].shapes if s.shape_id == shape_id)
    ts = [t for t in shape._element.iter(A + "t")]
    ts[0].text = text
    for t in ts[1:]:
        t.text = ""


def _placeholder_kept(deck: _Deck) -> list[Mutant]:
    """An edited shape whose old words stay, with the new words added beside them."""
    for old_slide, n in deck.edited:
        before = {s.shape_id: deckio.norm(s.text_frame.text) for s in old_slide.shapes if s.has_text_frame}
        for shape in deck.slides[n].shapes:
            if not shape.has_text_frame or shape.shape_id not in before:
                continue
            a, b = before[shape.shape_id].split(), deckio.norm(shape.text_frame.text).split()
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
                if tag == "replace" and list(shape._element.iter(A + "t")):
                    text = " ".join([*b[:j1], *a[i1:i2], *b[j1:j2], *b[j2:]])
                    return [deck.mutant(f"pptx.placeholder_kept:slide {n + 1}", "damaging",
                                        partial(_set_shape_text, n=n, shape_id=shape.shape_id, text=text))]
    return []


def _tables(prs: Any) -> list[tuple[int, etree._Element]]:
    return [(n, tbl) for n, slide in enumerate(prs.slides) for tbl in slide._element.iter(A + "tbl")]


def _row_deleted(deck: _Deck, ctx: MutationContext) -> list[Mutant]:
    found = [(k, len(tbl.findall(A + "tr"))) for k, (_, tbl) in enumerate(_tables(deck.prs))
             if len(tbl.findall(A + "tr")) >= 2]
    if not found:
        return []
    k, rows = ctx.rng.choice(found)
    row = ctx.rng.randrange(1, rows)

    def delete(prs: Any) -> None:
        tbl = _tables(prs)[k][1]
        tbl.remove(tbl.findall(A + "tr")[row])

    return [deck.mutant(f"pptx.table_row_deleted:table {k + 1} row {row + 1}", "damaging", delete)]


def _format_everywhere(deck: _Deck) -> list[Mutant]:
    """The run formatting the task changed (bold, italic, underline, size) applied to every run of the deck."""
    for old_slide, n in deck.edited:
        old_runs = [r.find(A + "rPr") for r in old_slide._element.iter(A + "r")]
        new_runs = [r.find(A + "rPr") for r in deck.slides[n]._element.iter(A + "r")]
        for old, new in zip(old_runs, new_runs, strict=False):
            attrs = {k: new.get(k) for k in RUN_FORMAT if new is not None and new.get(k) is not None
                     and (old is None or old.get(k) != new.get(k))}
            if attrs:
                def everywhere(prs: Any, attrs: dict[str, str] = attrs) -> None:
                    for slide in prs.slides:
                        for r in slide._element.iter(A + "r"):
                            rpr = r.find(A + "rPr")
                            if rpr is None:
                                rpr = etree.Element(A + "rPr")
                                r.insert(0, rpr)
                            for key, value in attrs.items():
                                rpr.set(key, value)

                return [deck.mutant(f"pptx.format_everywhere:{','.join(sorted(attrs))}", "damaging", everywhere)]
    return []


def _reverse_bullets(prs: Any, n: int, shape_id: int) -> None:
    body = next(s for s in prs.slides[n].shapes if s.shape_id == shape_id).text_frame._txBody
    paragraphs = body.findall(A + "p")
    for para in paragraphs:
        body.remove(para)
    body.extend(reversed(paragraphs))


def _bullets_reversed(deck: _Deck, ctx: MutationContext) -> list[Mutant]:
    """The bullets of a slide the task leaves alone, in reverse order (each still there, so a check comparing the
    slide's texts as a set misses it)."""
    found = [(n, shape.shape_id) for n in deck.kept for shape in deck.slides[n].shapes
             if deckio.role(shape) == "body" and len({deckio.norm(p.text) for p in shape.text_frame.paragraphs
                                                      if deckio.norm(p.text)}) >= 2]
    if not found:
        return []
    n, shape_id = ctx.rng.choice(found)
    return [deck.mutant(f"pptx.bullets_reversed:slide {n + 1}", "damaging",
                        partial(_reverse_bullets, n=n, shape_id=shape_id))]


def _move_to(prs: Any, n: int, position: int) -> None:
    ids = prs.slides._sldIdLst
    entry = list(ids)[n]
    ids.remove(entry)
    ids.insert(position, entry)


def _slide_moved(deck: _Deck, ctx: MutationContext) -> list[Mutant]:
    """A slide the task leaves alone moved to the far end of the deck (the last place, or the first after the
    cover when it is the last): a move, not the swap of two neighbours `slides_reordered` makes."""
    titles = [deckio.slide_title(s) for s in deck.slides]
    movable = [n for n in deck.kept if titles.count(titles[n]) == 1 and len(deck.slides) >= 4]
    if not movable:
        return []
    n = ctx.rng.choice(movable)
    position = len(deck.slides) - 1 if n < len(deck.slides) - 2 else 1
    return [deck.mutant(f"pptx.slide_moved:slide {n + 1}->{position + 1}", "damaging",
                        partial(_move_to, n=n, position=position))]


def _add_empty_box(prs: Any, n: int) -> None:
    prs.slides[n].shapes.add_textbox(Cm(3), Cm(16), Cm(8), Cm(1.5))


def _stray_textbox(deck: _Deck, ctx: MutationContext) -> list[Mutant]:
    """An empty text box left on a slide (what a click with the text tool leaves): it shows nothing, so a check of
    the slide's texts misses it."""
    if not deck.slides:
        return []
    n = ctx.rng.choice(deck.kept or range(len(deck.slides)))
    return [deck.mutant(f"pptx.stray_textbox:slide {n + 1}", "damaging", partial(_add_empty_box, n=n))]


def _renumber(prs: Any) -> None:
    """What LibreOffice's save does to ids and names: every shape a new id and a generic name; new properties."""
    next_id = 1000
    for slide in prs.slides:
        for props in slide._element.iter(P + "cNvPr"):
            next_id += 1
            props.set("id", str(next_id))
            if props.get("name"):
                props.set("name", f"Shape {next_id}")
    core = prs.core_properties
    core.revision = (core.revision or 1) + 1
    core.modified = dt.datetime(2026, 1, 2, 3, 4, 5)
    core.last_modified_by = "user"


def _neutral(deck: _Deck) -> list[Mutant]:
    """The deck re-saved by python-pptx (an edit that changes nothing: on disk, opened and saved; in memory, the
    checks read what every mutant's copy is, the oracle's parse, which is what parsing the re-saved bytes gives:
    python-pptx writes each part's tree as it read it; tests/verifiers/test_fast_path.py compares), and a new mtime."""
    rel = deck.rel
    return [deck.mutant(f"pptx.resaved:{rel}", "neutral", lambda prs: None),
            deck.mutant(f"pptx.ids_renumbered:{rel}", "neutral", _renumber),
            Mutant(f"pptx.touched:{rel}", "neutral", lambda root: os.utime(root / rel, (MTIME, MTIME)),
                   touches=(rel,))]


def mutants(ctx: MutationContext) -> list[Mutant]:
    """The damaging and neutral mutants of every .pptx deck the oracle created or changed."""
    out: list[Mutant] = []
    for rel in ctx.changed():
        if not rel.lower().endswith(".pptx") or byte_fixed(ctx.task, rel):  # moved files keep their bytes
            continue
        deck = _Deck(ctx, rel)
        out += _out_of_scope(deck, ctx)
        out += _placeholder_kept(deck)
        out += _row_deleted(deck, ctx)
        out += _format_everywhere(deck)
        out += _hidden(deck)
        out += _bullets_reversed(deck, ctx)
        out += _slide_moved(deck, ctx)
        out += _stray_textbox(deck, ctx)
        out += _neutral(deck)
    return out
