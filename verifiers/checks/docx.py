"""docx primitives: paragraph styles, lists, character and paragraph formatting, page setup, headers and
footers, page breaks, tables, and plain-text answer files.

Written to accept what LibreOffice Writer saves as well as what python-docx writes:
- a paragraph's text is the concatenation of its runs (LibreOffice splits and merges runs freely);
  comparisons collapse whitespace;
- styles match by name or id, case and spacing ignored ("Heading 1" = styleId "Heading1" = "heading 1");
- formatting is resolved like Word does: run, character style, paragraph style chain (basedOn), defaults;
  booleans may be written "true"/"1"/"on" or with no value;
- list items are recognised by a List Bullet/List Number style or by numbering (numPr, on the paragraph
  or its style) whose level format is a bullet or a number;
- a page break is a `pageBreakBefore` (direct or from the style), a `<w:br w:type="page"/>` before the
  paragraph's text or after the previous paragraph's text (LibreOffice moves breaks there), or a new-page
  section break;
- sizes are in twips with a tolerance; font sizes in half-points.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.part import PartFactory
from docx.oxml.parser import parse_xml
from lxml import etree

from preparers import docx as docxio
from preparers.docx import PAPERS, TWIPS_PER
from verifiers.checks import Result, State, StateError, fail, ok, primitive

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Subtrees whose text is not the paragraph's visible text (properties, deletions, field codes, text boxes).
_SKIP = {W + t for t in ("pPr", "rPr", "delText", "instrText", "txbxContent", "drawing", "pict", "del", "moveFrom")
         } | {"{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent"}
_FALSE = ("0", "false", "off", "none")
ALIGN = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right", "both": "justify",
         "justify": "justify", "distribute": "justify"}
MARGIN_TOLERANCE = 20  # twips (~0.35 mm): LibreOffice stores 1/100 mm internally
PAPER_TOLERANCE = 60  # twips (~1 mm)


def norm(text: str) -> str:
    return " ".join(text.split())


def guarded(fn: Callable[..., Result]) -> Callable[..., Result]:
    """A check never raises on a strange file: unexpected content becomes a failure with evidence."""

    @functools.wraps(fn)
    def run(state: State, **args: Any) -> Result:
        try:
            return fn(state, **args)
        except StateError:
            raise
        except Exception as exc:  # untrusted XML: odd values (sz="big") must not crash the gate
            return fail(f"{args.get('path')}: cannot evaluate ({type(exc).__name__}: {exc})")

    return run


def _style_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _on(el: etree._Element | None) -> bool | None:
    if el is None:
        return None
    return (el.get(W + "val") or "true").lower() not in _FALSE


@dataclass
class Doc:
    """A parsed docx: the python-docx document plus indexes the checks need.

    What the checks compute again and again (the body's paragraphs, a paragraph's text, a style chain, a run's
    effective formatting) is remembered here, per parsed document: a `Doc` describes its document as it was
    indexed, and nothing edits it afterwards (checks never write; a mutant indexes its document once edited)."""

    document: Any
    styles: dict[str, etree._Element] = field(default_factory=dict)
    default_para: str | None = None
    numbering: dict[str, dict[int, str]] = field(default_factory=dict)  # numId -> ilvl -> numFmt
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def body(self) -> etree._Element:
        return self.document.element.body

    def blocks(self) -> Iterator[etree._Element]:
        """Body-level paragraphs and tables in order (content controls unwrapped)."""
        stack = list(self.body)[::-1]
        while stack:
            el = stack.pop()
            if el.tag in (W + "p", W + "tbl"):
                yield el
            elif el.tag in (W + "sdt", W + "sdtContent", W + "customXml"):
                stack.extend(list(el)[::-1])

    def paragraphs(self) -> list[etree._Element]:
        if "paragraphs" not in self._memo:
            self._memo["paragraphs"] = [b for b in self.blocks() if b.tag == W + "p"]
        return list(self._memo["paragraphs"])

    def text(self, p: etree._Element) -> str:
        """`norm(para_text(p))`, computed once per paragraph (`find` reads every paragraph's text per call)."""
        key = ("text", p)  # the key holds the element proxy, so it stays the one lxml returns for that node
        if key not in self._memo:
            self._memo[key] = norm(para_text(p))
        return self._memo[key]  # type: ignore[no-any-return]

    def chain(self, style_id: str | None) -> list[etree._Element]:
        key = ("chain", style_id)
        if key not in self._memo:
            out: list[etree._Element] = []
            sid = style_id
            while sid and sid in self.styles and len(out) < 20:
                style = self.styles[sid]
                if style in out:
                    break
                out.append(style)
                based = style.find(W + "basedOn")
                sid = based.get(W + "val") if based is not None else None
            self._memo[key] = out
        return list(self._memo[key])

    def _default(self, path: str) -> etree._Element | None:
        """The document defaults' `pPr` or `rPr` element (`path` under `docDefaults`), looked up once."""
        key = ("default", path)
        if key not in self._memo:
            self._memo[key] = self.document.styles.element.find(path)
        return self._memo[key]  # type: ignore[no-any-return]

    def para_style(self, p: etree._Element) -> str | None:
        ref = p.find(f"{W}pPr/{W}pStyle")
        return ref.get(W + "val") if ref is not None else self.default_para

    def style_is(self, style_id: str | None, wanted: str) -> bool:
        if not style_id:
            return False
        key = _style_key(wanted)
        return key in (_style_key(style_id), _style_key(self.style_name(style_id)))

    def style_name(self, style_id: str | None) -> str:
        chain = self.chain(style_id)
        name = chain[0].find(W + "name") if chain else None
        return name.get(W + "val", style_id or "") if name is not None else (style_id or "Normal")

    def para_prop(self, p: etree._Element, tag: str, attr: str | None = None) -> etree._Element | None:
        """The nearest `pPr/<tag>` (having `attr`, if given): paragraph, its style chain, then defaults."""
        sources = [p.find(W + "pPr")] + [s.find(W + "pPr") for s in self.chain(self.para_style(p))]
        sources.append(self._default(f"{W}docDefaults/{W}pPrDefault/{W}pPr"))
        for ppr in sources:
            el = ppr.find(W + tag) if ppr is not None else None
            if el is not None and (attr is None or el.get(W + attr) is not None):
                return el
        return None

    def run_prop(self, r: etree._Element, p: etree._Element, tag: str, attr: str | None = None
                 ) -> etree._Element | None:
        """The nearest `rPr/<tag>` for run `r`: run, character style chain, paragraph style chain, defaults."""
        own = r.find(W + "rPr")
        rstyle = own.find(W + "rStyle") if own is not None else None
        sources = [own] + [s.find(W + "rPr") for s in self.chain(rstyle.get(W + "val") if rstyle is not None
                                                                   else None)]
        sources += [s.find(W + "rPr") for s in self.chain(self.para_style(p))]
        sources.append(self._default(f"{W}docDefaults/{W}rPrDefault/{W}rPr"))
        for rpr in sources:
            el = rpr.find(W + tag) if rpr is not None else None
            if el is not None and (attr is None or el.get(W + attr) is not None):
                return el
        return None


#: Parsed styles parts by content hash, shared by the documents the checks read (read-only: checks never write).
#: python-docx's template, which every generated document and most re-saved ones carry, keeps 9 in 10 of a
#: document's elements in word/styles.xml: parsing it, and freeing it again, was most of reading a state.
_STYLES: OrderedDict[str, etree._Element] = OrderedDict()
_STYLES_KEPT = 8
_STYLES_SHARED_BELOW = 4 << 20  # bytes: a bigger styles part (a hand-made file) is parsed for its document only
_STYLES_LOCK = threading.Lock()  # the in-process gate reads states in several threads


def _styles_element(blob: bytes) -> etree._Element:
    key = hashlib.sha256(blob).hexdigest()
    with _STYLES_LOCK:
        element = _STYLES.get(key)
        if element is not None:
            _STYLES.move_to_end(key)
            return element
    element = parse_xml(blob)  # outside the lock: another thread parsing the same bytes only does it twice
    with _STYLES_LOCK:
        _STYLES[key] = element
        while len(_STYLES) > _STYLES_KEPT:
            _STYLES.popitem(last=False)
    return element


def _part(partname: Any, content_type: str, reltype: str, blob: bytes, package: Any) -> Any:
    """python-docx's part factory, except that the styles part's XML is parsed once per content (`_STYLES`)."""
    if content_type == CT.WML_STYLES and reltype == RT.STYLES and len(blob) < _STYLES_SHARED_BELOW:
        return PartFactory.part_type_for[content_type](partname, content_type, _styles_element(blob), package)
    return PartFactory(partname, content_type, reltype, blob, package)


def open_document(source: str | IO[bytes]) -> Any:
    """`docx.Document(source)`, the same objects and errors, with its styles part shared (`_part`)."""
    return docxio.open_document(source, _part)


def _load(host: Path) -> Doc:
    return index(open_document(str(host)))


def from_bytes(data: bytes) -> Doc:
    """The `Doc` of a docx file's bytes (for families that read their own initial document the checks' way)."""
    return index(open_document(io.BytesIO(data)))


#: {id(styles element): (element, its styles by id, default paragraph style)} for the last few styles parts
#: indexed: documents share their styles part (`_STYLES`, and the mutants' copies of one document), and nothing
#: edits a styles part once parsed. Entries hold their element, so an id is never reused while its entry lives.
_STYLE_INDEX: OrderedDict[int, tuple[etree._Element, dict[str, etree._Element], str | None]] = OrderedDict()


def _style_index(root: etree._Element) -> tuple[dict[str, etree._Element], str | None]:
    """{styleId: style element} and the default paragraph style of a styles part (computed once per part)."""
    with _STYLES_LOCK:
        hit = _STYLE_INDEX.get(id(root))
        if hit is not None and hit[0] is root:
            _STYLE_INDEX.move_to_end(id(root))
            return hit[1], hit[2]
    styles: dict[str, etree._Element] = {}
    default: str | None = None
    for style in root.findall(W + "style"):
        sid = style.get(W + "styleId")
        if sid:
            styles[sid] = style
            if style.get(W + "type") == "paragraph" and (style.get(W + "default") or "").lower() in ("1", "true"):
                default = sid
    with _STYLES_LOCK:
        _STYLE_INDEX[id(root)] = (root, styles, default)
        while len(_STYLE_INDEX) > _STYLES_KEPT:
            _STYLE_INDEX.popitem(last=False)
    return styles, default


def index(document: Any) -> Doc:
    """The `Doc` of an open python-docx document (styles, default paragraph style, numbering formats)."""
    unread = docxio.unread_styles(document)  # opened for edits, styles untouched: the shared parse of those bytes
    root = _styles_element(unread) if unread is not None and len(unread) < _STYLES_SHARED_BELOW else \
        document.styles.element
    styles, default = _style_index(root)
    doc = Doc(document, dict(styles), default)
    try:
        numbering = document.part.numbering_part.element
    except (NotImplementedError, KeyError):
        numbering = None
    if numbering is not None:
        abstract = {a.get(W + "abstractNumId"): {int(lvl.get(W + "ilvl", "0")): (
            lvl.find(W + "numFmt").get(W + "val", "decimal") if lvl.find(W + "numFmt") is not None else "decimal")
            for lvl in a.findall(W + "lvl")} for a in numbering.findall(W + "abstractNum")}
        for num in numbering.findall(W + "num"):
            ref = num.find(W + "abstractNumId")
            if ref is not None:
                doc.numbering[num.get(W + "numId", "")] = abstract.get(ref.get(W + "val"), {})
    return doc


def load(state: State, path: str) -> Doc:
    return state.read(path, _load, "docx document")


# --- text -------------------------------------------------------------------------------------------

def _walk(el: etree._Element) -> Iterator[etree._Element]:
    for child in el:
        if child.tag in _SKIP:
            continue
        yield child
        yield from _walk(child)


def runs(p: etree._Element) -> list[tuple[etree._Element, str]]:
    """(run, its text) in order; tabs as "\\t", line breaks as "\\n", page breaks as ""."""
    out = []
    for r in (el for el in _walk(p) if el.tag == W + "r"):
        parts = []
        for el in _walk(r):
            if el.tag == W + "t":
                parts.append(el.text or "")
            elif el.tag == W + "tab":
                parts.append("\t")
            elif el.tag in (W + "br", W + "cr") and el.get(W + "type") in (None, "textWrapping"):
                parts.append("\n")
            elif el.tag == W + "noBreakHyphen":
                parts.append("-")
        out.append((r, "".join(parts)))
    return out


def para_text(p: etree._Element) -> str:
    return "".join(t for _, t in runs(p))


def find(doc: Doc, selector: str) -> etree._Element:
    """The one body paragraph whose (whitespace-normalized) text starts with `selector`."""
    want = norm(selector)
    hits = [p for p in doc.paragraphs() if doc.text(p).startswith(want)]
    if not hits:
        raise StateError(f"no paragraph begins with {selector!r}")
    exact = [p for p in hits if doc.text(p) == want]
    if len(hits) > 1 and len(exact) != 1:
        raise StateError(f"{len(hits)} paragraphs begin with {selector!r}; expected one")
    return exact[0] if len(hits) > 1 else hits[0]


def _targets(doc: Doc, paragraph: str | None, paragraphs: Sequence[str]) -> list[tuple[str, etree._Element]]:
    selectors = ([paragraph] if paragraph else []) + list(paragraphs)
    return [(s, find(doc, s)) for s in selectors]


def _short(selector: str) -> str:
    return repr(selector if len(selector) <= 40 else selector[:37] + "...")


# --- paragraph styles and lists ------------------------------------------------------------------------

@primitive("docx.styled_paragraphs", grounded=("path", "style", "paragraph", "paragraphs"))
@guarded
def styled_paragraphs(state: State, path: str, style: str, paragraph: str | None = None,
                      paragraphs: Sequence[str] = (), exclusive: bool = True) -> Result:
    """The stated paragraph(s) use paragraph style `style`; with `exclusive`, no other paragraph does."""
    doc = load(state, path)
    targets = _targets(doc, paragraph, paragraphs)
    for selector, p in targets:
        if not doc.style_is(doc.para_style(p), style):
            return fail(f"paragraph {_short(selector)} has style {doc.style_name(doc.para_style(p))!r}, "
                        f"expected {style!r}")
    if exclusive:
        chosen = {id(p) for _, p in targets}
        extra = [para_text(p) for p in doc.paragraphs()
                 if id(p) not in chosen and doc.style_is(doc.para_style(p), style)]
        if extra:
            return fail(f"{len(extra)} other paragraph(s) also have style {style!r}: "
                        + ", ".join(_short(norm(t)) for t in extra[:3]))
    return ok(f"{len(targets)} paragraph(s) have style {style!r}" + (" and no others do" if exclusive else ""))


def list_info(doc: Doc, p: etree._Element) -> tuple[str, int] | None:
    """("bullet"|"number", level 1..9) when `p` is a list item, else None."""
    style_id = doc.para_style(p)
    name = _style_key(doc.style_name(style_id))
    match = re.fullmatch(r"list(bullet|number)(\d?)", name)
    style_level = int(match.group(2) or 1) if match else 1
    sources = [n for n in [p.find(f"{W}pPr/{W}numPr"), *(s.find(f"{W}pPr/{W}numPr") for s in doc.chain(style_id))]
               if n is not None]  # the paragraph's own numbering, then its style's
    num_id = next((n.find(W + "numId") for n in sources if n.find(W + "numId") is not None), None)
    ilvl_el = next((n.find(W + "ilvl") for n in sources if n.find(W + "ilvl") is not None), None)
    if num_id is not None and num_id.get(W + "val") not in (None, "0"):
        ilvl = int(ilvl_el.get(W + "val", "0")) if ilvl_el is not None else 0
        formats = doc.numbering.get(num_id.get(W + "val", ""))
        fmt = formats.get(ilvl, formats.get(0)) if formats else None
        if fmt == "none":
            return None
        if fmt is not None:
            return ("bullet" if fmt == "bullet" else "number"), max(ilvl + 1, style_level)
        if match:
            return match.group(1), max(ilvl + 1, style_level)
        return None
    if num_id is not None:  # numId 0 switches numbering off
        return None
    return (match.group(1), style_level) if match else None


@primitive("docx.list_paragraphs", grounded=("path", "kind"))
@guarded
def list_paragraphs(state: State, path: str, kind: str, items: Sequence[str], subitems: Sequence[str] = (),
                    exclusive: bool = True) -> Result:
    """`items` are `kind` (bullet|number) list items at level 1, `subitems` list items at level 2;
    with `exclusive`, no other paragraph is a list item."""
    doc = load(state, path)
    found = []  # keeps the element proxies alive, so their ids stay valid below
    for selector, level in [(s, 1) for s in items] + [(s, 2) for s in subitems]:
        p = find(doc, selector)
        found.append(p)
        info = list_info(doc, p)
        if info is None:
            return fail(f"paragraph {_short(selector)} is not a list item (style "
                        f"{doc.style_name(doc.para_style(p))!r}, no numbering)")
        got_kind, got_level = info
        if level == 1 and got_kind != kind:
            return fail(f"paragraph {_short(selector)} is a {got_kind} list item, expected {kind}")
        if got_level != level:
            return fail(f"paragraph {_short(selector)} is a list item at level {got_level}, expected level {level}")
    if exclusive:
        chosen = {id(p) for p in found}
        extra = [para_text(p) for p in doc.paragraphs() if id(p) not in chosen and list_info(doc, p) is not None]
        if extra:
            return fail(f"{len(extra)} other paragraph(s) are list items too: "
                        + ", ".join(_short(norm(t)) for t in extra[:3]))
    return ok(f"{len(items)} {kind} item(s) at level 1" + (f", {len(subitems)} at level 2" if subitems else ""))


# --- character formatting --------------------------------------------------------------------------

def char_value(doc: Doc, r: etree._Element, p: etree._Element, prop: str) -> Any:
    """The effective `prop` (bold|italic|underline|size|font) of run `r` in paragraph `p` (once per run: the
    checks ask it for every character)."""
    key = ("char", r, p, prop)
    if key not in doc._memo:
        doc._memo[key] = _char_value(doc, r, p, prop)
    return doc._memo[key]


def _char_value(doc: Doc, r: etree._Element, p: etree._Element, prop: str) -> Any:
    if prop in ("bold", "italic"):
        return bool(_on(doc.run_prop(r, p, "b" if prop == "bold" else "i")))
    if prop == "underline":
        el = doc.run_prop(r, p, "u")
        return el is not None and (el.get(W + "val") or "single").lower() not in _FALSE
    if prop == "size":
        el = doc.run_prop(r, p, "sz", "val")
        return int(el.get(W + "val")) / 2 if el is not None else None
    fonts = [doc.run_prop(r, p, "rFonts", a) for a in ("ascii", "asciiTheme")]
    nearest = next((f for f in fonts if f is not None), None)
    if nearest is None:
        return None
    return nearest.get(W + "ascii") or "(theme font)"


def _same(prop: str, got: Any, want: Any) -> bool:
    if prop == "size":
        return got is not None and abs(float(got) - float(want)) < 0.01
    if prop == "font":
        return isinstance(got, str) and got.strip().lower() == str(want).strip().lower()
    return bool(got) == bool(want)


def _chars(p: etree._Element) -> list[tuple[str, etree._Element]]:
    return [(c, r) for r, t in runs(p) for c in t]


@primitive("docx.char_format", grounded=("path", "paragraph", "phrase", "font", "size", "bold", "italic", "underline"))
@guarded
def char_format(state: State, path: str, paragraph: str, phrase: str | None = None, font: str | None = None,
                size: float | None = None, bold: bool | None = None, italic: bool | None = None,
                underline: bool | None = None, unchanged: Sequence[str] = ()) -> Result:
    """Every character of `phrase` (or of the whole stated paragraph) has the given font/size/bold/italic/
    underline; the rest of that paragraph and the `unchanged` paragraphs do not take the new value."""
    doc = load(state, path)
    wanted = {k: v for k, v in (("font", font), ("size", size), ("bold", bold), ("italic", italic),
                                ("underline", underline)) if v is not None}
    p = find(doc, paragraph)
    chars = _chars(p)
    full = "".join(c for c, _ in chars)
    start, end = 0, len(full)
    if phrase is not None:
        start = full.find(phrase)
        if start < 0:
            return fail(f"paragraph {_short(paragraph)} no longer contains {phrase!r}")
        end = start + len(phrase)
    where = repr(phrase) if phrase else f"paragraph {_short(paragraph)}"
    for prop, want in wanted.items():
        for i in range(start, end):
            c, r = chars[i]
            got = char_value(doc, r, p, prop)
            if not c.isspace() and not _same(prop, got, want):
                return fail(f"{where}: {prop} of {full[max(start, i - 10):i + 10]!r} is {got!r}, expected {want!r}")
    outside = [(c, r, p) for i, (c, r) in enumerate(chars) if not start <= i < end]
    for selector in unchanged:
        q = find(doc, selector)
        outside += [(c, r, q) for c, r in _chars(q)]
    for prop, want in wanted.items():
        hit = next((c for c, r, q in outside if not c.isspace() and _same(prop, char_value(doc, r, q, prop), want)),
                   None)
        if hit is not None:
            return fail(f"{prop} {want!r} was applied beyond {where} (also on text outside it)")
    return ok(f"{where}: " + ", ".join(f"{k} {v!r}" for k, v in wanted.items()) + "; nothing else changed")


# --- paragraph formatting --------------------------------------------------------------------------

def alignment(doc: Doc, p: etree._Element) -> str:
    el = doc.para_prop(p, "jc")
    value = el.get(W + "val", "left") if el is not None else "left"
    return ALIGN.get(value, value)


@primitive("docx.paragraph_alignment", grounded=("path", "align", "paragraph"))
@guarded
def paragraph_alignment(state: State, path: str, align: str, paragraph: str | None = None,
                        paragraphs: Sequence[str] = (), unchanged: Sequence[str] | Mapping[str, str] = ()
                        ) -> Result:
    """The target paragraphs are aligned `align` (left|center|right|justify); `unchanged` ones keep theirs.

    `unchanged` maps each other paragraph to its initial alignment, which it must still have (a list of
    paragraphs, from older packages, only says they must not be aligned `align`)."""
    doc = load(state, path)
    targets = _targets(doc, paragraph, paragraphs)
    for selector, p in targets:
        if alignment(doc, p) != align:
            return fail(f"paragraph {_short(selector)} is aligned {alignment(doc, p)}, expected {align}")
    if isinstance(unchanged, Mapping):
        for selector, was in unchanged.items():
            got = alignment(doc, find(doc, selector))
            if got != was:
                return fail(f"paragraph {_short(selector)} was aligned {was} and must stay so, but is aligned {got}")
    else:
        for selector in unchanged:
            if alignment(doc, find(doc, selector)) == align:
                return fail(f"paragraph {_short(selector)} should keep its alignment but is also aligned {align}")
    return ok(f"{len(targets)} paragraph(s) aligned {align}; {len(unchanged)} other(s) unchanged")


def line_spacing_of(doc: Doc, p: etree._Element) -> tuple[str, float]:
    """("multiple", 1.5) for proportional spacing, ("exact"|"atLeast", points) otherwise."""
    el = doc.para_prop(p, "spacing", "line")
    if el is None:
        return "multiple", 1.0
    line = float(el.get(W + "line", "240"))
    rule = el.get(W + "lineRule") or "auto"
    return ("multiple", line / 240) if rule == "auto" else (rule, line / 20)


@primitive("docx.line_spacing", grounded=("path", "rule", "value", "paragraph"))
@guarded
def line_spacing(state: State, path: str, rule: str, value: float, paragraph: str | None = None,
                 paragraphs: Sequence[str] = (), unchanged: Sequence[str] | Mapping[str, Sequence[Any]] = ()
                 ) -> Result:
    """Target paragraphs have line spacing `value` (a multiple of single, or points for exact|atLeast).

    `unchanged` maps each other paragraph to its initial spacing `[rule, value]`, which it must still have (a
    list of paragraphs, from older packages, only says they must not have the target spacing)."""
    doc = load(state, path)
    tolerance = 0.02 if rule == "multiple" else 0.25
    shown = f"{value:g}" + (" lines" if rule == "multiple" else f" pt ({rule})")
    for selector, p in _targets(doc, paragraph, paragraphs):
        got_rule, got = line_spacing_of(doc, p)
        if got_rule != rule or abs(got - value) > tolerance:
            return fail(f"paragraph {_short(selector)} has line spacing {got:g} ({got_rule}), expected {shown}")
    if isinstance(unchanged, Mapping):
        for selector, (was_rule, was) in unchanged.items():
            got_rule, got = line_spacing_of(doc, find(doc, selector))
            slack = 0.02 if was_rule == "multiple" else 0.25
            if got_rule != was_rule or abs(got - float(was)) > slack:
                return fail(f"paragraph {_short(selector)} had line spacing {float(was):g} ({was_rule}) and must keep "
                            f"it, but has {got:g} ({got_rule})")
    else:
        for selector in unchanged:
            got_rule, got = line_spacing_of(doc, find(doc, selector))
            if got_rule == rule and abs(got - value) <= tolerance:
                return fail(f"paragraph {_short(selector)} should keep its spacing but also has {shown}")
    return ok(f"target paragraph(s) have line spacing {shown}; {len(unchanged)} other(s) unchanged")


# --- page setup, headers and footers ----------------------------------------------------------------

def sections(doc: Doc) -> list[etree._Element]:
    return [s for s in doc.body.iter(W + "sectPr") if s.getparent().tag != W + "sectPrChange"]


def _twips(el: etree._Element | None, attr: str) -> int | None:
    try:
        return round(float(el.get(W + attr))) if el is not None else None
    except (TypeError, ValueError):
        return None


@primitive("docx.page_size", grounded=("path", "paper", "orientation"))
@guarded
def page_size(state: State, path: str, paper: str, orientation: str) -> Result:
    """Every section uses paper `paper` (A4, Letter, Legal, A5) in `orientation` (portrait|landscape)."""
    doc = load(state, path)
    width, height = PAPERS[paper]
    if orientation == "landscape":
        width, height = height, width
    for i, sect in enumerate(sections(doc), start=1):
        size = sect.find(W + "pgSz")
        w, h = _twips(size, "w"), _twips(size, "h")
        if w is None or h is None:
            return fail(f"section {i} has no page size")
        got = "landscape" if w > h else "portrait"
        if got != orientation:
            return fail(f"section {i} is {got} ({w}x{h} twips), expected {orientation}")
        if abs(w - width) > PAPER_TOLERANCE or abs(h - height) > PAPER_TOLERANCE:
            return fail(f"section {i} page is {w}x{h} twips, expected {paper} {orientation} ({width}x{height})")
    return ok(f"{len(sections(doc))} section(s) on {paper} {orientation}")


@primitive("docx.page_margins", grounded=("path", "unit", "top", "bottom", "left", "right"))
@guarded
def page_margins(state: State, path: str, unit: str, top: float | None = None, bottom: float | None = None,
                 left: float | None = None, right: float | None = None, keep: dict[str, int] | None = None
                 ) -> Result:
    """Every section's margins equal the stated values (in `unit`: cm, mm, in); `keep` sides (twips) stay."""
    doc = load(state, path)
    wanted = {side: round(v * TWIPS_PER[unit]) for side, v in
              (("top", top), ("bottom", bottom), ("left", left), ("right", right)) if v is not None}
    wanted.update(keep or {})
    for i, sect in enumerate(sections(doc), start=1):
        margins = sect.find(W + "pgMar")
        for side, want in wanted.items():
            got = _twips(margins, side)
            if got is None or abs(abs(got) - want) > MARGIN_TOLERANCE:
                shown = f"{got / TWIPS_PER[unit]:.2f} {unit}" if got is not None else "unset"
                return fail(f"section {i}: {side} margin is {shown}, expected {want / TWIPS_PER[unit]:.2f} {unit}")
    return ok(f"{len(sections(doc))} section(s): " + ", ".join(f"{s} {v / TWIPS_PER[unit]:.2f} {unit}"
                                                                for s, v in wanted.items()))


def _page_field(part: etree._Element) -> etree._Element | None:
    """The paragraph holding a PAGE field in a header/footer part, if any."""
    for el in part.iter(W + "fldSimple", W + "instrText"):
        instr = el.get(W + "instr") if el.tag == W + "fldSimple" else el.text
        if re.match(r"\s*PAGE\b", instr or ""):
            return next((a for a in el.iterancestors(W + "p")), None)
    return None


@primitive("docx.header_footer", grounded=("path", "part", "text", "page_number", "align"))
@guarded
def header_footer(state: State, path: str, part: str, text: str | None = None, page_number: bool = False,
                  align: str | None = None) -> Result:
    """The first section's default `part` (header|footer) holds `text` and/or a PAGE field, aligned `align`."""
    doc = load(state, path)
    section = doc.document.sections[0]
    hf = getattr(section, part)
    if hf.is_linked_to_previous:
        return fail(f"the document has no {part}")
    element = hf._element
    paragraphs = list(element.iter(W + "p"))
    shown = " | ".join(norm(para_text(p)) for p in paragraphs if norm(para_text(p))) or "empty"
    found: list[etree._Element] = []
    if text is not None:
        hits = [p for p in paragraphs if norm(text) in norm(para_text(p))]
        if not hits:
            return fail(f"the {part} does not contain {text!r} (it reads: {shown})")
        found.append(hits[0])
    if page_number:
        field_p = _page_field(element)
        if field_p is None:
            return fail(f"the {part} has no page number field (it reads: {shown})")
        found.append(field_p)
    if align is not None:
        for p in found:
            if alignment(doc, p) != align:
                return fail(f"the {part} paragraph {norm(para_text(p))!r} is aligned {alignment(doc, p)}, "
                            f"expected {align}")
    other = "footer" if part == "header" else "header"
    elsewhere = getattr(section, other)
    if text is not None and norm(text) and not elsewhere.is_linked_to_previous and any(
            norm(text) in norm(para_text(p)) for p in elsewhere._element.iter(W + "p")):
        return fail(f"the {part} reads: {shown}, but the {other} holds {text!r} as well")
    return ok(f"the {part} reads: {shown}" + (" (with a page field)" if page_number else ""))


# --- page breaks ------------------------------------------------------------------------------------

def _tokens(p: etree._Element) -> list[str | None]:
    """The paragraph as text pieces and None for each page break, in order."""
    out: list[str | None] = []
    for r, _ in runs(p):
        for el in _walk(r):
            if el.tag == W + "br" and el.get(W + "type") == "page":
                out.append(None)
            elif el.tag == W + "t" and el.text:
                out.append(el.text)
    return out


def page_starts(doc: Doc) -> list[tuple[str, etree._Element | None]]:
    """What each manual/new-page break makes start a new page: ("start", paragraph), ("middle", paragraph)
    for a break inside a paragraph's text, or ("table", None)."""
    starts: list[tuple[str, etree._Element | None]] = []
    pending = False
    for block in doc.blocks():
        if block.tag == W + "tbl":
            if pending:
                starts.append(("table", None))
            pending = False
            continue
        pending = pending or bool(_on(doc.para_prop(block, "pageBreakBefore")))
        tokens = _tokens(block)
        seen_text = False
        for i, token in enumerate(tokens):
            if token is None:
                if not seen_text:
                    pending = True
                elif any(t and t.strip() for t in tokens[i + 1:]):
                    starts.append(("middle", block))
                else:
                    pending = True
            elif token.strip() and not seen_text:
                seen_text = True
                if pending:
                    starts.append(("start", block))
                    pending = False
        kind = block.find(f"{W}pPr/{W}sectPr/{W}type")
        if block.find(f"{W}pPr/{W}sectPr") is not None and (kind is None or kind.get(W + "val") not in (
                "continuous", "nextColumn")):
            pending = True
    return starts


@primitive("docx.page_breaks", grounded=("path", "paragraph"))
@guarded
def page_breaks(state: State, path: str, paragraph: str | None = None, paragraphs: Sequence[str] = ()) -> Result:
    """Exactly the target paragraphs start on a new page (by a manual break, a page-break-before or a
    new-page section break), and no other break splits the text."""
    doc = load(state, path)
    targets = _targets(doc, paragraph, paragraphs)
    starts = page_starts(doc)
    shown = ", ".join(f"{how} {_short(norm(para_text(p))) if p is not None else ''}".strip()
                      for how, p in starts) or "none"
    begun = {id(p) for how, p in starts if how == "start"}
    for selector, p in targets:
        if id(p) not in begun:
            return fail(f"paragraph {_short(selector)} does not start a new page (page breaks: {shown})")
    if len(starts) != len(targets):
        return fail(f"{len(starts)} page break(s) found, expected {len(targets)} (page breaks: {shown})")
    return ok(f"page breaks: {shown}")


# --- tables -----------------------------------------------------------------------------------------

def tables(doc: Doc) -> list[etree._Element]:
    return [b for b in doc.blocks() if b.tag == W + "tbl"]


def grid(table: etree._Element) -> list[list[str]]:
    return [[norm(" ".join(para_text(p) for p in tc.iter(W + "p"))) for tc in tr.findall(W + "tc")]
            for tr in table.findall(W + "tr")]


def _grid_diff(got: list[list[str]], want: Sequence[Sequence[str]]) -> str | None:
    want_rows = [[norm(str(c)) for c in row] for row in want]
    if len(got) != len(want_rows):
        return f"the table has {len(got)} rows, expected {len(want_rows)} (rows: {[r[:1] for r in got]})"
    for r, (g, w) in enumerate(zip(got, want_rows, strict=True), start=1):
        if g != w:
            return f"row {r} reads {g}, expected {w}"
    return None


@primitive("docx.table_equals", grounded=("path", "expected"))
@guarded
def table_equals(state: State, path: str, expected: Sequence[Sequence[str]], index: int = 0,
                 count: int | None = None) -> Result:
    """The document's table number `index` (0-based, body level) holds exactly `expected`, cell by cell."""
    all_tables = tables(load(state, path))
    if count is not None and len(all_tables) != count:
        return fail(f"the document has {len(all_tables)} table(s), expected {count}")
    if index >= len(all_tables):
        return fail(f"the document has {len(all_tables)} table(s); table {index + 1} is missing")
    problem = _grid_diff(grid(all_tables[index]), expected)
    return fail(problem) if problem else ok(f"table {index + 1} holds the expected {len(expected)} rows")


def _next_block(doc: Doc, after: str | None) -> etree._Element | None:
    """The first non-empty block after the stated paragraph (or the last non-empty block, for None)."""
    blocks = [b for b in doc.blocks() if b.tag == W + "tbl" or doc.text(b)]
    if after is None:
        return blocks[-1] if blocks else None
    anchor = find(doc, after)
    index = next(i for i, b in enumerate(blocks) if b is anchor)
    return blocks[index + 1] if index + 1 < len(blocks) else None


@primitive("docx.table_inserted", grounded=("path", "rows", "after", "bold_header"))
@guarded
def table_inserted(state: State, path: str, rows: Sequence[Sequence[str]], after: str | None = None,
                   count: int | None = None, bold_header: bool = False) -> Result:
    """A table holding exactly `rows` follows the stated paragraph (or ends the document, for no `after`);
    with `bold_header`, all its first-row text is bold."""
    doc = load(state, path)
    all_tables = tables(doc)
    if count is not None and len(all_tables) != count:
        return fail(f"the document has {len(all_tables)} table(s), expected {count}")
    block = _next_block(doc, after)
    where = f"after paragraph {_short(after)}" if after else "at the end of the document"
    if block is None or block.tag != W + "tbl":
        seen = _short(norm(para_text(block))) if block is not None else "nothing"
        return fail(f"no table {where} (found {seen} there; {len(all_tables)} table(s) in the document)")
    problem = _grid_diff(grid(block), rows)
    if problem:
        return fail(f"table {where}: {problem}")
    if bold_header:
        first = block.find(W + "tr")
        for p in first.iter(W + "p") if first is not None else ():
            for r, t in runs(p):
                if t.strip() and not char_value(doc, r, p, "bold"):
                    return fail(f"table {where}: header text {t!r} is not bold")
    return ok(f"table {where} holds the expected {len(rows)} rows" + (", header bold" if bold_header else ""))


# --- text -------------------------------------------------------------------------------------------

def _read_text(host: Path) -> str:
    return host.read_bytes().decode("utf-8-sig")


@primitive("docx.answer_number", grounded=("path",), secret=("value",))
@guarded
def answer_number(state: State, path: str, value: int) -> Result:
    """The text file at `path` states exactly one number, equal to `value` (thousands commas allowed)."""
    content = state.read(path, _read_text, "UTF-8 text file")
    numbers = [int(n.replace(",", "")) for n in re.findall(r"\d+(?:,\d{3})*(?![\d,]*\d)", content)]
    shown = repr(content.strip()[:60])
    if len(numbers) != 1:
        return fail(f"{path} should hold one number but reads {shown}")
    if numbers[0] != value:
        return fail(f"{path} reads {numbers[0]}, which is not the right count")
    return ok(f"{path} reads {shown}, the right count")


def body_paragraphs(doc: Doc) -> list[str]:
    return [text for text in map(doc.text, doc.paragraphs()) if text]


@primitive("docx.body_text", grounded=("path",))
@guarded
def body_text(state: State, path: str, paragraphs: Sequence[str]) -> Result:
    """The body's non-empty paragraphs read exactly `paragraphs` (whitespace collapsed), in order."""
    got = body_paragraphs(load(state, path))
    want = [norm(t) for t in paragraphs]
    for i, (g, w) in enumerate(zip(got, want, strict=False), start=1):
        if g != w:
            at = next((k for k, (a, b) in enumerate(zip(g, w, strict=False)) if a != b), min(len(g), len(w)))
            return fail(f"paragraph {i} reads {g[max(0, at - 25):at + 25]!r} where {w[max(0, at - 25):at + 25]!r} "
                        "was expected")
    if len(got) != len(want):
        return fail(f"the body has {len(got)} non-empty paragraphs, expected {len(want)}")
    return ok(f"all {len(want)} paragraphs read as expected")


def _count(haystack: str, needle: str, match_case: bool, whole_word: bool) -> int:
    flags = 0 if match_case else re.IGNORECASE
    pattern = re.escape(needle)
    if whole_word:
        pattern = rf"(?<!\w){pattern}(?!\w)"
    return len(re.findall(pattern, haystack, flags))


@primitive("docx.occurrences", grounded=("path", "phrase", "match_case"))
@guarded
def occurrences(state: State, path: str, phrase: str, count: int, match_case: bool = True,
                whole_word: bool = False) -> Result:
    """`phrase` occurs exactly `count` times in the body text (case-sensitively unless `match_case` is off)."""
    got = sum(_count(t, norm(phrase), match_case, whole_word) for t in body_paragraphs(load(state, path)))
    how = ("" if match_case else "ignoring case, ") + ("as a whole word" if whole_word else "anywhere")
    if got != count:
        return fail(f"{phrase!r} occurs {got} time(s) ({how}), expected {count}")
    return ok(f"{phrase!r} occurs {count} time(s) ({how})")
