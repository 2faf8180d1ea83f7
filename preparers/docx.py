"""docx preparer: a document spec in, deterministic docx bytes out (python-docx).

Spec (plain, JSON-compatible data):
    {"blocks": [{"text": "Quarterly Report", "style": "Title"},            # a paragraph
                {"text": "Sales rose.", "align": "justify", "bold": True,  # optional direct formatting:
                 "line_spacing": 1.5, "font": "Liberation Serif", "size": 12},  # align/bold/italic/font/size
                {"table": [["Item", "Owner"], ["Venue", "Ana"]], "bold_header": True}],
     "page": {"paper": "A4", "orientation": "portrait",                     # optional
              "margins": {"top": 1440, "bottom": 1440, "left": 1440, "right": 1440}},  # twips
     "header": {"text": "Northwind | Minutes", "align": "center"},         # optional, also "footer"
     "author": "Maria Lopez"}
Sizes are in twips (1/20 pt, 1/1440 inch) because that is what docx stores; `PAPERS` names paper sizes.
The output goes through `preparers.office_zip.normalize`, so the same spec always gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import IO, Any

import docx
from docx.document import Document
from docx.enum.section import WD_ORIENT
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.oxml import serialize_part_xml
from docx.opc.package import Unmarshaller
from docx.opc.packuri import PackURI
from docx.opc.part import Part, PartFactory
from docx.opc.pkgreader import PackageReader
from docx.oxml.parser import parse_xml
from docx.package import Package
from docx.parts.styles import StylesPart
from docx.shared import Pt, Twips
from docx.styles.styles import Styles
from docx.text.paragraph import Paragraph

from preparers.office_zip import normalize

#: Paper sizes in twips, portrait (width, height).
PAPERS: dict[str, tuple[int, int]] = {
    "A4": (11906, 16838),
    "Letter": (12240, 15840),
    "Legal": (12240, 20160),
    "A5": (8391, 11906),
}
ALIGNMENTS = {
    "left": WD_ALIGN_PARAGRAPH.LEFT,
    "center": WD_ALIGN_PARAGRAPH.CENTER,
    "right": WD_ALIGN_PARAGRAPH.RIGHT,
    "justify": WD_ALIGN_PARAGRAPH.JUSTIFY,
}
EPOCH = dt.datetime(2024, 1, 1)
TWIPS_PER = {"in": 1440.0, "cm": 1440 / 2.54, "mm": 144 / 2.54, "pt": 20.0}


def twips(value: float, unit: str) -> int:
    """`value` in `unit` (in, cm, mm, pt) as whole twips."""
    return round(value * TWIPS_PER[unit])


def format_paragraph(paragraph: Paragraph, block: dict[str, Any]) -> None:
    """Apply the optional direct formatting keys of a paragraph block (shared with the edit ops)."""
    if block.get("align"):
        paragraph.alignment = ALIGNMENTS[block["align"]]
    if block.get("line_spacing"):
        paragraph.paragraph_format.line_spacing = float(block["line_spacing"])
    for run in paragraph.runs:
        if "bold" in block:
            run.bold = block["bold"]
        if "italic" in block:
            run.italic = block["italic"]
        if block.get("size"):
            run.font.size = Pt(block["size"])
        if block.get("font"):
            run.font.name = block["font"]


def _add_table(document: Document, block: dict[str, Any]) -> None:
    rows = block["table"]
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = document.styles["Table Grid"]
    for r, (row, values) in enumerate(zip(table.rows, rows, strict=True)):  # `table.cell` walks the whole table
        for cell, value in zip(row.cells, values, strict=False):  # a short row leaves its last cells empty
            run = cell.paragraphs[0].add_run(str(value))
            if r == 0 and block.get("bold_header"):
                run.bold = True


def _page(document: Document, page: dict[str, Any]) -> None:
    section = document.sections[0]
    width, height = PAPERS[page.get("paper", "A4")]
    if page.get("orientation") == "landscape":
        section.orientation = WD_ORIENT.LANDSCAPE
        width, height = height, width
    section.page_width, section.page_height = Twips(width), Twips(height)
    for side, value in page.get("margins", {}).items():
        setattr(section, f"{side}_margin", Twips(value))


def _header_footer(document: Document, spec: dict[str, Any]) -> None:
    for part in ("header", "footer"):
        if spec.get(part):
            target = getattr(document.sections[0], part)
            paragraph = target.paragraphs[0]
            paragraph.add_run(spec[part]["text"])
            format_paragraph(paragraph, spec[part])


def build_document(spec: dict[str, Any]) -> Document:
    """The python-docx document for `spec` (exposed for tests)."""
    document = docx.Document()
    for block in spec["blocks"]:
        if "table" in block:
            _add_table(document, block)
            continue
        paragraph = document.add_paragraph(style=block.get("style") or None)
        paragraph.add_run(block["text"])
        format_paragraph(paragraph, block)
    _page(document, spec.get("page", {}))
    _header_footer(document, spec)
    props = document.core_properties
    props.author = props.last_modified_by = spec.get("author", "Office User")
    props.title = spec.get("title", "")
    props.created = props.modified = EPOCH
    props.revision = 1
    return document


def build(spec: dict[str, Any]) -> bytes:
    """docx bytes for `spec`, byte-reproducible."""
    out = io.BytesIO()
    build_document(spec).save(out)
    return normalize(out.getvalue())


# --- reading ------------------------------------------------------------------------------------------

#: How a docx's parts are made from its zip: python-docx's `PartFactory` signature.
MakePart = Callable[[PackURI, str, str, bytes, Package], Any]


def open_document(source: str | IO[bytes], make_part: MakePart = PartFactory) -> Document:
    """`docx.Document(source)` - the same objects and errors - with its parts made by `make_part`."""
    package = Package()
    Unmarshaller.unmarshal(PackageReader.from_file(source), package, make_part)
    document_part = package.main_document_part
    if document_part.content_type != CT.WML_DOCUMENT_MAIN:
        raise ValueError(f"file '{source}' is not a Word file, content type is '{document_part.content_type}'")
    return document_part.document


class LazyStylesPart(StylesPart):
    """A styles part parsed only when something reads or edits it, else saved as the very bytes it was read from.

    python-docx's template, which every generated document carries, keeps 9 in 10 of a document's XML in
    word/styles.xml (350 KB: 6.5 ms to parse, more to write back), and most edits never look at it."""

    def __init__(self, partname: PackURI, content_type: str, blob: bytes, package: Package) -> None:
        Part.__init__(self, partname, content_type, blob, package)
        self._parsed: Any = None

    @property  # type: ignore[override]
    def _element(self) -> Any:
        if self._parsed is None:
            self._parsed = parse_xml(self._blob or b"")
        return self._parsed

    @_element.setter
    def _element(self, element: Any) -> None:
        self._parsed = element

    @property
    def blob(self) -> bytes:
        return self._blob if self._parsed is None else serialize_part_xml(self._parsed)  # type: ignore[return-value]

    @property
    def unread_blob(self) -> bytes | None:
        """The bytes the part was read from while nothing has parsed it (so nothing has changed it), else None."""
        return self._blob if self._parsed is None else None


def _lazy_styles(partname: PackURI, content_type: str, reltype: str, blob: bytes, package: Package) -> Any:
    if content_type == CT.WML_STYLES and reltype == RT.STYLES:
        return LazyStylesPart(partname, content_type, blob, package)
    return PartFactory(partname, content_type, reltype, blob, package)


def open_for_edit(source: str | IO[bytes]) -> Document:
    """`docx.Document(source)` for edits: its styles part is parsed only if an edit reads it (`LazyStylesPart`)."""
    return open_document(source, _lazy_styles)


def unread_styles(document: Document) -> bytes | None:
    """The bytes of the document's styles part if it was opened lazily (`open_for_edit`) and nothing has read it
    since: it holds exactly what those bytes say. None otherwise."""
    part = next((rel.target_part for rel in document.part.rels.values()
                 if rel.reltype == RT.STYLES and not rel.is_external), None)
    return part.unread_blob if isinstance(part, LazyStylesPart) else None


#: {(digest of an unread styles part, style name, style type): python-docx's answer, a style id, None or the
#: error} for `style_id`
_STYLE_IDS: OrderedDict[tuple[bytes, str, WD_STYLE_TYPE], str | None | Exception] = OrderedDict()
_STYLE_IDS_KEPT = 64
_style_ids_lock = threading.Lock()


def style_id(document: Document, name: str, style_type: WD_STYLE_TYPE) -> str | None:
    """What python-docx gives for `document.part.get_style_id(document.styles[name], style_type)`: the id an element
    names the style `name` by (None for the type's default style; its KeyError or ValueError for a style missing or
    of another type). A styles part opened lazily and still unread stays unread (python-docx's template keeps 350 KB
    of styles: 6-9 ms to parse in every document an op styles): the answer comes from python-docx's own lookup on
    a separate parse of the same bytes, made once per bytes, name and type, so what the document saves never
    depends on what was looked up before."""
    blob = unread_styles(document)
    if blob is None:
        return document.part.get_style_id(document.styles[name], style_type)  # type: ignore[no-any-return]
    key = (hashlib.blake2b(blob, digest_size=20).digest(), name, style_type)
    with _style_ids_lock:
        found = _STYLE_IDS.get(key, _STYLE_IDS)
        if found is not _STYLE_IDS:
            _STYLE_IDS.move_to_end(key)
    if found is _STYLE_IDS:
        styles = Styles(parse_xml(blob))
        try:
            found = styles.get_style_id(styles[name], style_type)
        except (KeyError, ValueError) as exc:
            found = exc
        with _style_ids_lock:
            _STYLE_IDS[key] = found
            while len(_STYLE_IDS) > _STYLE_IDS_KEPT:
                _STYLE_IDS.popitem(last=False)
    if isinstance(found, Exception):
        raise type(found)(*found.args)
    return found  # type: ignore[return-value]
