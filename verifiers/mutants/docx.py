"""docx mutators: damage a Writer document the oracle wrote in ways no instruction allows, or rewrite it harmlessly.

The oracle's body paragraphs are matched to the initial ones by text (difflib): a pair with equal XML is out of
the task's scope, a pair with equal text but other XML was reformatted by the task, a pair with other text was
rewritten by it. Damaging mutants: the text of an out-of-scope paragraph edited, an out-of-scope paragraph
deleted, the task's formatting applied to every paragraph instead of its targets, the other paragraphs given a
third alignment or spacing, the placeholder left in place with the answer added beside it, a table row
deleted, an out-of-scope paragraph made italic (or no longer italic), an untouched run of paragraphs (list items
first) put in reverse order, a stray paragraph appended (issue 37: the frame refuses both). Neutral ones: the
document re-saved by
python-docx, a run split in two with the same formatting (LibreOffice does that freely), a new mtime.

Only .docx files the oracle created or changed are mutated. Mutants are evaluated in memory (the checks' parsed
`Doc` of the edited document) unless a check reads the file another way. The oracle's document is parsed once per
task: each mutant edits a deep copy of that parse that shares its styles part (see `_Docx.fresh`).
"""

from __future__ import annotations

import copy
import difflib
import io
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from kit.model import HOME
from verifiers.mutants import Kind, Mutant, MutationContext
from verifiers.mutants.tree import byte_fixed
from verifiers.readers.docx import Doc, W, index, list_info, norm, open_document, para_text
from verifiers.readers.docx import _load as load_doc  # the State cache key of a parsed docx

MTIME = 1_700_000_000
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
ALIGNMENTS = ("both", "right", "center", "left")


def _open(host: Path) -> Any:
    """The python-docx document of `host` as the checks parse it: its styles part is the one parse every document
    with those styles shares (nothing here edits styles; `_Docx.fresh` shares it between the mutants too)."""
    return open_document(io.BytesIO(host.read_bytes()))


def _xml(el: etree._Element | None) -> bytes:
    return b"" if el is None else etree.tostring(el)


def _body(document: Any) -> list[etree._Element]:
    return Doc(document).paragraphs()  # the body's paragraphs need no index of the styles


class _Docx:
    """One changed document: which oracle paragraphs are out of scope, reformatted or rewritten by the task."""

    def __init__(self, ctx: MutationContext, rel: str) -> None:
        self.rel, self.oracle, self.path = rel, ctx.oracle, f"{HOME}/{rel}"
        before = ctx.initial / rel
        a = _body(_open(before)) if before.is_file() else []
        # Never read nor edited, only copied: python-docx objects keep the child elements they once returned,
        # and a deep copy of those would be detached from the copied tree.
        self._pristine = _open(ctx.oracle / rel)
        self._shared = [r.target_part for r in self._pristine.part.rels.values()
                        if r.reltype == RT.STYLES and not r.is_external]
        self.document = self.fresh()  # the oracle's document, read by the mutators, never edited
        self.paras = _body(self.document)
        old = [para_text(p) for p in a]
        self.texts = [para_text(p) for p in self.paras]
        self.kept: list[int] = []
        self.formatted: list[tuple[etree._Element, int]] = []  # (initial paragraph, oracle index)
        self.rewritten: list[tuple[str, int]] = []  # (initial text, oracle index)
        matcher = difflib.SequenceMatcher(None, old, self.texts, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                    if _xml(a[i]) == _xml(self.paras[j]):
                        self.kept.append(j)
                    else:
                        self.formatted.append((a[i], j))
            elif tag == "replace" and i2 - i1 == j2 - j1:
                self.rewritten += [(old[i], j) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)]
        self.targets = {j for _, j in self.formatted} | {j for _, j in self.rewritten}

    def fresh(self) -> Any:
        """A python-docx document of the oracle's file, as a new parse of it reads: a deep copy of the one parse.

        The copies share one styles part (python-docx's template holds 9 in 10 of a document's elements there;
        parsing or copying and then freeing it made up most of the mutation stage): mutants edit the body only,
        and checks never write."""
        return copy.deepcopy(self._pristine, {id(part): part for part in self._shared})

    def mutant(self, name: str, kind: Kind, change: Callable[[Any], None]) -> Mutant:
        """A mutant editing this document through `change(python-docx document)`."""
        rel, path = self.rel, self.path

        def apply(root: Path) -> None:
            document = _open(root / rel)
            change(document)
            document.save(str(root / rel))

        def documents() -> dict[tuple[str, Any], Any]:
            document = self.fresh()
            change(document)
            return {(path, load_doc): index(document)}

        return Mutant(name, kind, apply, documents)


def _last_text(p: etree._Element) -> etree._Element | None:
    found = [t for t in p.iter(W + "t") if t.text]
    return found[-1] if found else None


def _set_text(p: etree._Element, text: str) -> None:
    """The paragraph's text replaced by `text` in its first text element (its formatting kept)."""
    ts = list(p.iter(W + "t"))
    ts[0].text = text
    ts[0].set(XML_SPACE, "preserve")
    for t in ts[1:]:
        t.text = ""


def _edited(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    kept = [j for j in book.kept if norm(book.texts[j]) and _last_text(book.paras[j]) is not None]
    if not kept:
        return []
    j = ctx.rng.choice(kept)

    def edit(document: Any) -> None:
        t = _last_text(_body(document)[j])
        assert t is not None
        t.text = f"{t.text} (edited)"

    gone = ctx.rng.choice(kept)

    def delete(document: Any) -> None:
        p = _body(document)[gone]
        p.getparent().remove(p)

    return [book.mutant(f"docx.text_out_of_scope:paragraph {j + 1}", "damaging", edit),
            book.mutant(f"docx.paragraph_deleted:paragraph {gone + 1}", "damaging", delete)]


def _changed_props(old: etree._Element | None, new: etree._Element | None) -> list[etree._Element]:
    """The children of property element `new` (pPr, rPr) that `old` lacks or holds differently."""
    if new is None:
        return []
    before = {child.tag: _xml(child) for child in (old if old is not None else [])}
    return [child for child in new if before.get(child.tag) != _xml(child)]


def _put(parent: etree._Element, props: list[etree._Element], first: str) -> None:
    """Set each of `props` in property element `parent`, replacing a child of the same tag."""
    for prop in props:
        old = parent.find(prop.tag)
        new = copy.deepcopy(prop)
        if old is not None:
            parent.replace(old, new)
        elif prop.tag == first:
            parent.insert(0, new)
        else:
            parent.append(new)


def _props(el: etree._Element, tag: str) -> etree._Element:
    found = el.find(W + tag)
    if found is None:
        found = etree.SubElement(el, W + tag)
        el.remove(found)
        el.insert(0, found)
    return found


def _reformatted(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    """The task's formatting applied to every paragraph; the other paragraphs given a third alignment/spacing."""
    if not book.formatted:
        return []
    old, j = book.formatted[0]
    target = book.paras[j]
    para = _changed_props(old.find(W + "pPr"), target.find(W + "pPr"))
    old_runs, new_runs = old.findall(W + "r"), target.findall(W + "r")
    run: list[etree._Element] = []
    for r_old, r_new in zip(old_runs, new_runs, strict=False):
        run = _changed_props(r_old.find(W + "rPr"), r_new.find(W + "rPr"))
        if run:
            break
    others = [k for k in range(len(book.paras)) if k not in book.targets and norm(book.texts[k])]
    if not others or not (para or run):
        return []

    def everywhere(document: Any) -> None:
        paras = _body(document)
        for k in others:
            if para:
                _put(_props(paras[k], "pPr"), para, W + "pStyle")
            for r in paras[k].findall(W + "r") if run else []:
                _put(_props(r, "rPr"), run, W + "rStyle")

    tags = ",".join(etree.QName(e).localname for e in para + run)
    out = [book.mutant(f"docx.format_everywhere:{tags}", "damaging", everywhere)]
    jc = next((e for e in para if e.tag == W + "jc"), None)
    spacing = next((e for e in para if e.tag == W + "spacing" and e.get(W + "line")), None)
    if jc is not None or spacing is not None:
        want_jc = jc.get(W + "val") if jc is not None else None
        want_line = spacing.get(W + "line") if spacing is not None else None

        def third(document: Any) -> None:
            paras = _body(document)
            for k in others:
                ppr = _props(paras[k], "pPr")
                if want_jc is not None:
                    now = ppr.find(W + "jc")
                    current = now.get(W + "val") if now is not None else "left"
                    value = next(v for v in ALIGNMENTS if v not in (want_jc, current))
                    _put(ppr, [etree.fromstring(f'<w:jc xmlns:w="{W[1:-1]}" w:val="{value}"/>')], "")
                if want_line is not None:
                    line = "300" if want_line != "300" else "420"
                    _put(ppr, [etree.fromstring(f'<w:spacing xmlns:w="{W[1:-1]}" w:line="{line}" '
                                                'w:lineRule="auto"/>')], "")

        out.append(book.mutant("docx.others_reformatted:" + ("jc" if jc is not None else "spacing"), "damaging",
                               third))
    return out


def _emphasised(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    """An out-of-scope paragraph's runs made italic (or no longer italic): character formatting changed where
    the task asks for nothing ("leave the rest unchanged" covers fonts and emphasis too).

    Offered only where the rubric checks character formatting out of scope (the document's frame, `docx.frame`,
    or the older `docx.chars_kept` of packages made before it): measured on every knob combination, 100 of 157
    Writer and multi-app docx tasks accepted it while only two Writer families carried a check of it."""
    if not any(c.get("primitive") in ("docx.frame", "docx.chars_kept") and c.get("args", {}).get("path") == book.path
               for c in ctx.task.get("rubric", []) if isinstance(c, dict)):
        return []
    kept = [j for j in book.kept if norm(book.texts[j]) and book.paras[j].find(W + "r") is not None]
    if not kept:
        return []
    j = ctx.rng.choice(kept)
    italic = any(r.find(f"{W}rPr/{W}i") is not None for r in book.paras[j].findall(W + "r"))
    value = "0" if italic else "1"

    def toggle(document: Any) -> None:
        for r in _body(document)[j].findall(W + "r"):
            _put(_props(r, "rPr"), [etree.fromstring(f'<w:i xmlns:w="{W[1:-1]}" w:val="{value}"/>')], W + "rStyle")

    return [book.mutant(f"docx.chars_out_of_scope:paragraph {j + 1} italic={value}", "damaging", toggle)]


def _placeholder_kept(book: _Docx) -> list[Mutant]:
    """A rewritten paragraph whose old words stay, with the new words added beside them ("TBD 95.5")."""
    for old, j in book.rewritten:
        a, b = old.split(), book.texts[j].split()
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "replace":
                both = [*b[:j1], *a[i1:i2], *b[j1:j2], *b[j2:]]
                text = " ".join(both)
                if norm(text) == norm(book.texts[j]) or not list(book.paras[j].iter(W + "t")):
                    continue
                return [book.mutant(f"docx.placeholder_kept:paragraph {j + 1}", "damaging",
                                    partial(_retext, j=j, text=text))]
    return []


def _retext(document: Any, j: int, text: str) -> None:
    _set_text(_body(document)[j], text)


def _row_deleted(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    tables = [t for t in index(book.document).blocks() if t.tag == W + "tbl"]
    found = [(n, len(t.findall(W + "tr"))) for n, t in enumerate(tables) if len(t.findall(W + "tr")) >= 2]
    if not found:
        return []
    n, rows = ctx.rng.choice(found)
    row = ctx.rng.randrange(1, rows)

    def delete(document: Any) -> None:
        table = [t for t in index(document).blocks() if t.tag == W + "tbl"][n]
        table.remove(table.findall(W + "tr")[row])

    return [book.mutant(f"docx.table_row_deleted:table {n + 1} row {row + 1}", "damaging", delete)]


def _reversed(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    """An untouched run of 2-6 consecutive paragraphs with distinct texts put in reverse order: bullets or list
    items when there are such, else body paragraphs (order is a fact no goal check of another paragraph reads)."""
    kept = set(book.kept)
    doc = index(book.document)
    runs: list[list[int]] = []
    for j, text in enumerate(book.texts):
        if j in kept and norm(text):
            if runs and runs[-1][-1] == j - 1:
                runs[-1].append(j)
            else:
                runs.append([j])
    runs = [r[:6] for r in runs if len(r) >= 2 and len({norm(book.texts[j]) for j in r[:6]}) == len(r[:6])]
    if not runs:
        return []
    listed = [r for r in runs if all(list_info(doc, book.paras[j]) for j in r)]
    span = ctx.rng.choice(listed or runs)

    def reverse(document: Any) -> None:
        paras = _body(document)
        anchor = paras[span[-1]]
        for j in span[:-1]:  # each one after the last, in turn: a b c d -> d c b a
            anchor.addnext(paras[j])
            anchor = paras[j]

    return [book.mutant(f"docx.order_reversed:paragraphs {span[0] + 1}-{span[-1] + 1}", "damaging", reverse)]


def _appended(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    """A stray paragraph after the last one, formatted like it (a note left behind, a pasted line)."""
    last = max((j for j, text in enumerate(book.texts) if norm(text) and list(book.paras[j].iter(W + "t"))),
               default=None)
    if last is None:
        return []
    words = ctx.rng.choice(("Checked.", "See the attached notes.", "Draft - do not circulate", "TODO"))

    def append(document: Any) -> None:
        p = _body(document)[last]
        twin = copy.deepcopy(p)
        for el in list(twin):
            if el.tag not in (W + "pPr", W + "r"):
                twin.remove(el)
        p.addnext(twin)
        _set_text(twin, words)

    return [book.mutant(f"docx.stray_paragraph:after paragraph {last + 1}", "damaging", append)]


def _neutral(book: _Docx, ctx: MutationContext) -> list[Mutant]:
    """The document re-saved by python-docx (an edit that changes nothing: on disk, opened and saved; in memory, the
    checks read what every mutant's copy is, the oracle's parse, which is what parsing the re-saved bytes gives:
    python-docx writes each part's tree as it read it; tests/verifiers/test_fast_path.py compares), a new mtime,
    and a run split in two."""
    rel = book.rel
    out = [book.mutant(f"docx.resaved:{rel}", "neutral", lambda document: None),
           Mutant(f"docx.touched:{rel}", "neutral", lambda root: os.utime(root / rel, (MTIME, MTIME)),
                  touches=(rel,))]
    where = next(((j, k) for j in [*sorted(book.targets), *range(len(book.paras))]
                  for k, r in enumerate(book.paras[j].findall(W + "r")) if _splittable(r)), None)
    if where is None:
        return out
    j, k = where

    def split(document: Any) -> None:
        r = _body(document)[j].findall(W + "r")[k]
        twin = copy.deepcopy(r)
        r.addnext(twin)
        t, tail = r.find(W + "t"), twin.find(W + "t")
        cut = len(t.text) // 2
        t.text, tail.text = t.text[:cut], t.text[cut:]
        t.set(XML_SPACE, "preserve")
        tail.set(XML_SPACE, "preserve")

    out.append(book.mutant(f"docx.runs_split:paragraph {j + 1}", "neutral", split))
    return out


def _splittable(r: etree._Element) -> bool:
    """A run holding formatting and one text of 2+ characters, nothing else: split in two, it reads the same."""
    kids = [c for c in r if c.tag != W + "rPr"]
    return len(kids) == 1 and kids[0].tag == W + "t" and len(kids[0].text or "") >= 2


def mutants(ctx: MutationContext) -> list[Mutant]:
    """The damaging and neutral mutants of every .docx document the oracle created or changed."""
    out: list[Mutant] = []
    for rel in ctx.changed():
        if not rel.lower().endswith(".docx") or byte_fixed(ctx.task, rel):  # moved files keep their bytes
            continue
        book = _Docx(ctx, rel)
        if not book.paras:
            continue
        out += _edited(book, ctx)
        out += _reformatted(book, ctx)
        out += _placeholder_kept(book)
        out += _emphasised(book, ctx)
        out += _row_deleted(book, ctx)
        out += _reversed(book, ctx)
        out += _appended(book, ctx)
        out += _neutral(book, ctx)
    return out
