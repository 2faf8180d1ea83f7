"""Format ops: a document saved or exported as another format (CSV from a sheet, PDF from a document or a deck,
PDFs merged or split), written at once to a new file beside the source (issue 38's office-formats cluster).

The document kind "fmt" is a handle on the op's `path` (the file read, never changed); the file written is `dest`.
The oracle computes each export itself, in pure Python: a sheet's rows as delimited text; a document's or a deck's
text laid out on PDF pages by `pdf_pages`, a small deterministic PDF writer (Helvetica, WinAnsi text, A4), which
the preparers also use for the PDFs a task starts with. The checks read PDFs by their page texts
(verifiers/readers/pdf.py), so the oracle's pages need the asked text in the asked order, not LibreOffice's
typesetting; the teacher (preparers/teach/formats.py) converts with `soffice --convert-to` and poppler's
`pdfunite` / `pdfseparate`, as a person at a terminal would.

Example: `{"op": "fmt.export_csv", "path": "/home/user/Documents/q3.xlsx", "sheet": "Sales",
"dest": "/home/user/Documents/q3_sales.csv", "delimiter": "semicolon"}`.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preparers.ops import document_kind, op, resolve

#: The delimiter each knob value names.
DELIMITERS = {"comma": ",", "semicolon": ";", "tab": "\t"}
#: Page geometry of `pdf_pages` (A4, points) and the text it fits on a line and a page.
PAGE_W, PAGE_H, MARGIN, LEADING, FONT_SIZE = 595, 842, 56, 15, 11
LINE_CHARS = 88
PAGE_LINES = (PAGE_H - 2 * MARGIN) // LEADING


@dataclass(frozen=True)
class Handle:
    """The state `root` (standing for /home/user) and the host path of the op's `path`."""

    root: Path
    host: Path

    def target(self, dest: str) -> Path:
        out = resolve(self.root, dest)
        out.parent.mkdir(parents=True, exist_ok=True)
        return out


def _load(host: Path, root: Path) -> Handle:
    return Handle(root, host)


def _save(handle: Handle, host: Path) -> None:
    """Nothing to write back: every fmt op wrote its output already, and the source is never changed."""


document_kind("fmt", load=_load, save=_save)


# --- a small PDF writer -----------------------------------------------------------------------------------

def _esc(line: str) -> bytes:
    data = line.encode("cp1252", "replace")
    return data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def wrap(paragraphs: Sequence[str], width: int = LINE_CHARS) -> list[str]:
    """The lines `paragraphs` take on a page (a blank line after each), long ones wrapped at spaces."""
    lines: list[str] = []
    for text in paragraphs:
        lines += textwrap.wrap(" ".join(text.split()), width) or [""]
        lines.append("")
    return lines[:-1] if lines else lines


def paginate(lines: Sequence[str], per_page: int = PAGE_LINES) -> list[list[str]]:
    """`lines` cut into pages of `per_page` lines (at least one page)."""
    pages = [list(lines[i:i + per_page]) for i in range(0, len(lines), per_page)]
    return pages or [[]]


def pdf_pages(pages: Sequence[Sequence[str]], title: str = "") -> bytes:
    """A PDF 1.4 with one page per item of `pages`, each showing its lines top-down (Helvetica 11 pt, WinAnsi text,
    A4, uncompressed, a correct xref table): small, valid and the same bytes for the same input."""
    count = max(len(pages), 1)
    font = 3 + 2 * count
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(count))
        + b"] /Count %d >>" % count,
    ]
    for i in range(count):
        lines = pages[i] if i < len(pages) else []
        shown = b" T* ".join(b"(" + _esc(line) + b") Tj" for line in lines)
        stream = b"BT /F1 %d Tf %d TL %d %d Td " % (FONT_SIZE, LEADING, MARGIN, PAGE_H - MARGIN) + shown + b" ET"
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (PAGE_W, PAGE_H, 4 + 2 * i, font))
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    info = b""
    if title:
        objects.append(b"<< /Title (" + _esc(title) + b") /Producer (Forge) >>")
        info = b" /Info %d 0 R" % len(objects)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, info, xref)
    return bytes(out)


def text_pdf(paragraphs: Sequence[str], title: str = "") -> bytes:
    """A PDF showing `paragraphs` in order, wrapped and paginated."""
    return pdf_pages(paginate(wrap(paragraphs)), title)


# --- exports -------------------------------------------------------------------------------------------------

def shown(value: Any) -> str:
    """A cell value as a CSV export writes it: numbers plainly (12, 12.5), dates in ISO, empty cells empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@op("fmt.export_csv")
def export_csv(h: Handle, sheet: str, dest: str, delimiter: str = "comma", header: bool = True,
               as_xlsx: bool = False) -> None:
    """Save sheet `sheet` of the workbook at `path` as delimited text at `dest` (Calc: File > Save As, Text CSV,
    the field delimiter `delimiter`: comma, semicolon or tab), UTF-8, the workbook itself unchanged.

    Two slips, for near-misses: `header=False` leaves the header row out; `as_xlsx` writes the workbook's own
    bytes under the new name (the file renamed, not converted)."""
    from openpyxl import load_workbook

    if delimiter not in DELIMITERS:
        raise ValueError(f"delimiter={delimiter!r}, but must be one of {list(DELIMITERS)}")
    out = h.target(dest)
    if as_xlsx:
        out.write_bytes(h.host.read_bytes())
        return
    wb = load_workbook(h.host, read_only=True)
    try:
        rows = [[shown(v) for v in row] for row in wb[sheet].iter_rows(values_only=True)]
    finally:
        wb.close()
    while rows and not any(rows[-1]):
        rows.pop()
    if not header:
        rows = rows[1:]
    width = max((max((i + 1 for i, v in enumerate(r) if v), default=0) for r in rows), default=0)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=DELIMITERS[delimiter], lineterminator="\n")
    writer.writerows([r[:width] + [""] * (width - len(r)) for r in rows])
    out.write_bytes(buffer.getvalue().encode("utf-8"))


def docx_blocks(host: Path) -> list[str]:
    """The text of a docx in body order: each paragraph, and each table row as its cells joined by ' | '."""
    from docx import Document

    doc = Document(str(host))
    out: list[str] = []
    for child in doc.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            out.append("".join(t.text or "" for t in child.iter() if t.tag.endswith("}t")))
        elif tag == "tbl":
            for tr in (e for e in child.iter() if e.tag.endswith("}tr")):
                cells = [" ".join("".join(t.text or "" for t in tc.iter() if t.tag.endswith("}t")).split())
                         for tc in tr if tc.tag.endswith("}tc")]
                out.append(" | ".join(cells))
    return [text for text in out if text.strip()]


@op("fmt.export_pdf")
def export_pdf(h: Handle, dest: str, part: float = 1.0, blank: bool = False, as_copy: bool = False) -> None:
    """Export the document at `path` (docx) as a PDF at `dest` (Writer: File > Export as PDF), the document
    unchanged. Slips, for near-misses: `part` < 1 exports only that leading share of the text (a page range or a
    selection), `blank` writes one empty page, `as_copy` copies the document's bytes under the .pdf name."""
    out = h.target(dest)
    if as_copy:
        out.write_bytes(h.host.read_bytes())
        return
    blocks = [] if blank else docx_blocks(h.host)
    blocks = blocks[:max(1, int(len(blocks) * part))] if blocks and part < 1 else blocks
    out.write_bytes(text_pdf(blocks, title=h.host.stem))


def pptx_slides(host: Path) -> list[list[str]]:
    """Each slide's texts: the title first, then every other text frame's paragraphs in shape order."""
    from pptx import Presentation

    deck = Presentation(str(host))
    slides: list[list[str]] = []
    for slide in deck.slides:
        title = slide.shapes.title
        texts = [title.text_frame.text] if title is not None and title.has_text_frame else []
        for shape in slide.shapes:
            if shape.has_text_frame and (title is None or shape.shape_id != title.shape_id):
                texts += [p.text for p in shape.text_frame.paragraphs if p.text.strip()]
        slides.append([t for t in texts if t.strip()])
    return slides


@op("fmt.slides_pdf")
def slides_pdf(h: Handle, dest: str, first: int = 0, last: int = 0, per_page: int = 1, first_only: bool = False,
               as_copy: bool = False) -> None:
    """Export the presentation at `path` (pptx) as a PDF at `dest`, one page per slide (Impress: File > Export as
    PDF), the deck unchanged; with `first` and `last` (1-based, inclusive) only that range of slides (the dialog's
    Pages field). Slips, for near-misses: `per_page` > 1 puts that many slides on a page (handouts), `first_only`
    exports the current slide alone (Selection), `as_copy` copies the deck's bytes under the .pdf name."""
    out = h.target(dest)
    if as_copy:
        out.write_bytes(h.host.read_bytes())
        return
    slides = pptx_slides(h.host)
    if first or last:
        slides = slides[max(first, 1) - 1:last or len(slides)]
    if first_only:
        slides = slides[:1]
    pages = [[line for slide in slides[i:i + per_page] for line in wrap(slide)]
             for i in range(0, len(slides), max(per_page, 1))]
    out.write_bytes(pdf_pages(pages, title=h.host.stem))


def pdf_page_lines(host: Path, limit: int = 500) -> list[list[str]]:
    """The text lines of each page of the PDF at `host` (pdfminer.six; at most `limit` pages), for the ops that
    lay pages out again: a merge, a split."""
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage

    with host.open("rb") as handle:
        count = sum(1 for _ in PDFPage.get_pages(handle, maxpages=limit + 1))
    if count > limit:
        raise ValueError(f"{host.name} has more than {limit} pages")
    return [[line for line in extract_text(str(host), page_numbers=[i]).splitlines() if line.strip()]
            for i in range(count)]


@op("fmt.merge_pdf")
def merge_pdf(h: Handle, sources: list[str]) -> None:
    """Write the PDF at `path` holding every page of `sources` (PDFs, home paths), one after the other in that
    order (pdfunite a.pdf b.pdf out.pdf); the sources stay as they are. Each page shows its source page's text
    lines (the checks read page texts)."""
    if not sources:
        raise ValueError("no source PDF to merge")
    pages = [page for source in sources for page in pdf_page_lines(resolve(h.root, source))]
    h.host.parent.mkdir(parents=True, exist_ok=True)
    h.host.write_bytes(pdf_pages(pages))


@op("fmt.split_pdf")
def split_pdf(h: Handle, dest: str, first: int, last: int, cut: bool = False) -> None:
    """Write pages `first` to `last` (1-based, inclusive) of the PDF at `path` as a new PDF at `dest`; the source
    stays as it is. A slip, for a near-miss: `cut` also rewrites the source without those pages (moved, not
    copied)."""
    pages = pdf_page_lines(h.host)
    if not 1 <= first <= last <= len(pages):
        raise ValueError(f"pages {first}-{last} of a {len(pages)}-page PDF")
    h.target(dest).write_bytes(pdf_pages(pages[first - 1:last]))
    if cut:
        h.host.write_bytes(pdf_pages(pages[:first - 1] + pages[last:]))


ODT_MIMETYPE = "application/vnd.oasis.opendocument.text"
_ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"')


def odf_package(mimetype: str, content: str) -> bytes:
    """An OpenDocument file around `content` (content.xml's text): the mimetype member stored first, a manifest
    naming it, then content.xml. Deterministic (fixed member times); odt_bytes, odp_bytes and ods_bytes use it."""
    import zipfile

    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
                '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                f'<manifest:file-entry manifest:full-path="/" manifest:version="1.2" manifest:media-type='
                f'"{mimetype}"/><manifest:file-entry manifest:full-path="content.xml" '
                'manifest:media-type="text/xml"/></manifest:manifest>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, method in (("mimetype", mimetype, zipfile.ZIP_STORED),
                                   ("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED),
                                   ("content.xml", content, zipfile.ZIP_DEFLATED)):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = method
            archive.writestr(info, data.encode("utf-8"))
    return buffer.getvalue()


def odt_bytes(blocks: Sequence[str | Sequence[Sequence[str]]]) -> bytes:
    """A minimal OpenDocument text file (mimetype stored first, manifest, content.xml): each str of `blocks` a
    paragraph, each sequence of rows a table. Deterministic (fixed member times)."""
    from xml.sax.saxutils import escape

    body: list[str] = []
    for n, block in enumerate(blocks, start=1):
        if isinstance(block, str):
            body.append(f"<text:p>{escape(block)}</text:p>")
            continue
        width = max((len(r) for r in block), default=1)
        rows = "".join("<table:table-row>" + "".join(
            f'<table:table-cell office:value-type="string"><text:p>{escape(c)}</text:p></table:table-cell>'
            for c in row) + "</table:table-row>" for row in block)
        body.append(f'<table:table table:name="Table{n}"><table:table-column table:number-columns-repeated='
                    f'"{width}"/>{rows}</table:table>')
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_ODF_NS} office:version="1.2">'
               f'<office:body><office:text>{"".join(body)}</office:text></office:body></office:document-content>')
    return odf_package(ODT_MIMETYPE, content)


def docx_body(host: Path) -> list[str | list[list[str]]]:
    """A docx's body in order: each paragraph's text, each table as its rows of cell texts."""
    from docx import Document

    def text(element: Any) -> str:
        return "".join(t.text or "" for t in element.iter() if t.tag.endswith("}t"))

    out: list[str | list[list[str]]] = []
    for child in Document(str(host)).element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            out.append(text(child))
        elif tag == "tbl":
            out.append([[" ".join(text(tc).split()) for tc in tr if tc.tag.endswith("}tc")]
                        for tr in child.iter() if tr.tag.endswith("}tr")])
    return out


@op("fmt.save_odt")
def save_odt(h: Handle, dest: str, as_copy: bool = False, moved: bool = False) -> None:
    """Save the document at `path` (docx) as OpenDocument text at `dest` (Writer: File > Save As, ODF Text
    Document), the docx unchanged. Slips, for near-misses: `as_copy` copies the docx bytes under the .odt name,
    `moved` deletes the docx afterwards."""
    out = h.target(dest)
    out.write_bytes(h.host.read_bytes() if as_copy else odt_bytes(docx_body(h.host)))
    if moved:
        h.host.unlink()
