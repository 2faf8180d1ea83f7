"""The PDF reader: a PDF file's pages as text, read bounded (issue 38: every new format is read by a bounded reader).

An end state's PDF is untrusted: it is loaded into memory through `kit.bounded.read_file` (at most `MAX_BYTES`),
must start with the PDF header, may have at most `MAX_PAGES` pages and `MAX_CHARS` characters of text, and is
parsed by pdfminer.six (pure Python, no network, no external program) page by page under a wall-clock deadline
(`DEADLINE_S`): a limit hit raises `kit.bounded.LimitExceeded`, which a check turns into a failed check. The check
worker's own CPU and memory limits stay the last line.
"""

from __future__ import annotations

import io
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from kit import bounded
from verifiers.readers import Source

MAX_BYTES = 16 << 20
MAX_PAGES = 300
MAX_CHARS = 2_000_000
DEADLINE_S = 20.0


@dataclass(frozen=True)
class PdfText:
    """The text of each page, in page order (pdfminer's layout analysis: lines top-down)."""

    pages: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.pages)


def flat(text: str) -> str:
    """Text compared without its layout: NFKC (ligatures split), every whitespace run removed, casefolded quotes
    and dashes kept as they are."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def load_pdf(host: Path) -> PdfText:
    """The page texts of the PDF at `host` (bounded; see the module docstring)."""
    from pdfminer.converter import TextConverter
    from pdfminer.layout import LAParams
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    data = bounded.read_file(host, MAX_BYTES)
    if not data.lstrip()[:5] == b"%PDF-":
        raise ValueError(f"{host.name} does not start with a PDF header ({data[:8]!r})")
    start = time.monotonic()
    document = PDFDocument(PDFParser(io.BytesIO(data)))
    manager = PDFResourceManager(caching=True)
    pages: list[str] = []
    total = 0
    for page in PDFPage.create_pages(document):
        if len(pages) >= MAX_PAGES:
            raise bounded.LimitExceeded(f"{host.name} has more than {MAX_PAGES} pages")
        out = io.StringIO()
        device = TextConverter(manager, out, laparams=LAParams())
        try:
            PDFPageInterpreter(manager, device).process_page(page)
        finally:
            device.close()
        text = out.getvalue()
        total += len(text)
        pages.append(text)
        if total > MAX_CHARS:
            raise bounded.LimitExceeded(f"{host.name} holds more than {MAX_CHARS} characters of text")
        if time.monotonic() - start > DEADLINE_S:
            raise bounded.LimitExceeded(f"{host.name} took more than {DEADLINE_S:g} s to read "
                                        f"({len(pages)} pages read)")
    return PdfText(tuple(pages))


def load(state: Source, path: str) -> PdfText:
    return state.read(path, load_pdf, "PDF document")
