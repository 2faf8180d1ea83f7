"""The docx reader: a document parsed once per state and file (`Doc`), its styles part parsed once per content
and shared, and what the docx checks (`verifiers.checks.docx`, `docx_scope`), its mutators and families read
of it: paragraph text, style chains, numbering, effective run and paragraph formatting, sections, page breaks
and tables.

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
  section break.
"""

from __future__ import annotations

import hashlib
import io
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.part import PartFactory
from docx.oxml.parser import parse_xml
from lxml import etree

from preparers import docx as docxio
from verifiers.readers import Source, StateError

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Subtrees whose text is not the paragraph's visible text (properties, deletions, field codes, text boxes).
_SKIP = {W + t for t in ("pPr", "rPr", "delText", "instrText", "txbxContent", "drawing", "pict", "del", "moveFrom")
         } | {"{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent"}
_FALSE = ("0", "false", "off", "none")
ALIGN = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right", "both": "justify",
         "justify": "justify", "distribute": "justify"}


def norm(text: str) -> str:
    return " ".join(text.split())


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
            self._memo[key] = styles_root(self.document).find(path)
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


#: The styles of a document without a styles part: none (python-docx would build Word's defaults from a template
#: file, which a zipped checker cannot open, and which is not what the file holds).
_NO_STYLES = f'<w:styles xmlns:w="{W[1:-1]}"/>'


def styles_root(document: Any) -> etree._Element:
    """The document's `w:styles` element, or an empty one when the file has no styles part."""
    try:
        return document.part.part_related_by(RT.STYLES).element
    except KeyError:
        return parse_xml(_NO_STYLES)


def index(document: Any) -> Doc:
    """The `Doc` of an open python-docx document (styles, default paragraph style, numbering formats)."""
    unread = docxio.unread_styles(document)  # opened for edits, styles untouched: the shared parse of those bytes
    root = _styles_element(unread) if unread is not None and len(unread) < _STYLES_SHARED_BELOW else \
        styles_root(document)
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


def load(state: Source, path: str) -> Doc:
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


# --- formatting, as Word resolves it ------------------------------------------------------------------

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


def alignment(doc: Doc, p: etree._Element) -> str:
    el = doc.para_prop(p, "jc")
    value = el.get(W + "val", "left") if el is not None else "left"
    return ALIGN.get(value, value)


def line_spacing_of(doc: Doc, p: etree._Element) -> tuple[str, float]:
    """("multiple", 1.5) for proportional spacing, ("exact"|"atLeast", points) otherwise."""
    el = doc.para_prop(p, "spacing", "line")
    if el is None:
        return "multiple", 1.0
    line = float(el.get(W + "line", "240"))
    rule = el.get(W + "lineRule") or "auto"
    return ("multiple", line / 240) if rule == "auto" else (rule, line / 20)


PROPS = ("bold", "italic", "underline", "size", "font")


def run_formats(doc: Doc, p: etree._Element) -> list[list[Any]]:
    """The distinct [bold, italic, underline, size, font] of the runs of `p` that hold visible text, sorted."""
    seen = {tuple(char_value(doc, r, p, prop) for prop in PROPS) for r, text in runs(p) if text.strip()}
    return [list(s) for s in sorted(seen, key=repr)]


# --- page setup, page breaks, tables --------------------------------------------------------------------

def sections(doc: Doc) -> list[etree._Element]:
    return [s for s in doc.body.iter(W + "sectPr") if s.getparent().tag != W + "sectPrChange"]


def twips(el: etree._Element | None, attr: str) -> int | None:
    try:
        return round(float(el.get(W + attr))) if el is not None else None
    except (TypeError, ValueError):
        return None


def page_field(part: etree._Element) -> etree._Element | None:
    """The paragraph holding a PAGE field in a header/footer part, if any."""
    for el in part.iter(W + "fldSimple", W + "instrText"):
        instr = el.get(W + "instr") if el.tag == W + "fldSimple" else el.text
        if re.match(r"\s*PAGE\b", instr or ""):
            return next((a for a in el.iterancestors(W + "p")), None)
    return None


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


def tables(doc: Doc) -> list[etree._Element]:
    return [b for b in doc.blocks() if b.tag == W + "tbl"]


def grid(table: etree._Element) -> list[list[str]]:
    return [[norm(" ".join(para_text(p) for p in tc.iter(W + "p"))) for tc in tr.findall(W + "tc")]
            for tr in table.findall(W + "tr")]


def read_text(host: Path) -> str:
    return host.read_bytes().decode("utf-8-sig")


def body_paragraphs(doc: Doc) -> list[str]:
    return [text for text in map(doc.text, doc.paragraphs()) if text]


def vertical(doc: Doc, r: etree._Element, p: etree._Element) -> str:
    """A run's effective vertical position: "sub" (subscript or lowered), "super" (superscript or raised) or ""
    (on the baseline). Writer saves an automatic subscript or superscript as w:vertAlign, a set raise or lower as
    w:position (half-points)."""
    el = doc.run_prop(r, p, "vertAlign", "val")
    if el is not None:
        return {"subscript": "sub", "superscript": "super"}.get(el.get(W + "val") or "", "")
    el = doc.run_prop(r, p, "position", "val")
    try:
        shift = int(el.get(W + "val") or "0") if el is not None else 0
    except ValueError:
        shift = 0
    return "sub" if shift < 0 else "super" if shift > 0 else ""
