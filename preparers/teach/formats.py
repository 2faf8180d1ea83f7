"""Format ops (preparers/ops/formats.py) as the shell lines a person types: LibreOffice converts headless
(`soffice --headless --convert-to ...` into a scratch folder, then the file is moved to the asked name), poppler's
`pdfunite` / `pdfseparate` merge and split PDFs."""

from __future__ import annotations

import json
import shlex

from preparers.ops.formats import DELIMITERS
from preparers.teach import HOME, Language, language, q, snippet

language(Language("fmt", shell=True))

#: The field-delimiter token of LibreOffice's CSV filter options, per knob value.
_TOKEN = {"comma": 44, "semicolon": 59, "tab": 9}


def _mkparent(path: str) -> str:
    parent = path.rsplit("/", 1)[0]
    return "" if parent == HOME else f"mkdir -p {q(parent)} && "


def _convert(path: str, target: str, dest: str) -> str:
    """Convert `path` with soffice into a scratch folder and move the one file it writes to `dest`."""
    return (f"out=$(mktemp -d) && soffice --headless --convert-to {shlex.quote(target)} --outdir \"$out\" {q(path)} "
            f"&& {_mkparent(dest)}mv \"$out\"/* {q(dest)} && rmdir \"$out\"")


@snippet("fmt.export_csv")
def export_csv(path: str, sheet: str, dest: str, delimiter: str = "comma", header: bool = True,
               as_xlsx: bool = False) -> str:
    if delimiter not in DELIMITERS:
        raise ValueError(f"delimiter {delimiter!r}")
    if as_xlsx:  # a near-miss: the workbook copied under the new name
        return f"{_mkparent(dest)}cp {q(path)} {q(dest)}"
    # Calc's CSV filter: delimiter, quote ("), UTF-8 (76), first line 1, cell formats, ..., sheet number (token 12)
    find = (f"n=$(python3 -c \"from openpyxl import load_workbook; "
            f"print(load_workbook({path!r}, read_only=True).sheetnames.index({sheet!r}) + 1)\")")
    options = f"csv:Text - txt - csv (StarCalc):{_TOKEN[delimiter]},34,76,1,,0,false,true,true,false,false,"
    line = (f"{find} && out=$(mktemp -d) && soffice --headless --convert-to \"{options}$n\" --outdir \"$out\" "
            f"{q(path)} && {_mkparent(dest)}mv \"$out\"/*.csv {q(dest)} && rmdir \"$out\"")
    if not header:  # a near-miss: the header line dropped
        line += f" && sed -i 1d {q(dest)}"
    return line


@snippet("fmt.export_pdf")
def export_pdf(path: str, dest: str, part: float = 1.0, blank: bool = False, as_copy: bool = False) -> str:
    if as_copy:  # a near-miss: the document copied under the new name
        return f"{_mkparent(dest)}cp {q(path)} {q(dest)}"
    if part < 1 or blank:
        raise ValueError("a partial or blank export is a near-miss the terminal does not teach")
    return _convert(path, "pdf:writer_pdf_Export", dest)


@snippet("fmt.slides_pdf")
def slides_pdf(path: str, dest: str, first: int = 0, last: int = 0, per_page: int = 1, first_only: bool = False,
               as_copy: bool = False) -> str:
    if as_copy:  # a near-miss: the deck copied under the new name
        return f"{_mkparent(dest)}cp {q(path)} {q(dest)}"
    if per_page != 1 or first_only:
        raise ValueError("handouts and a one-slide export are near-misses the terminal does not teach")
    if first or last:  # the PDF export's page range, as JSON filter options (LibreOffice 7.4+)
        pages = f"{max(first, 1)}-{last}" if last else f"{max(first, 1)}-"
        options = json.dumps({"PageRange": {"type": "string", "value": pages}}, separators=(",", ":"))
        return _convert(path, f"pdf:impress_pdf_Export:{options}", dest)
    return _convert(path, "pdf:impress_pdf_Export", dest)


@snippet("fmt.merge_pdf")
def merge_pdf(path: str, sources: list[str]) -> str:
    return f"{_mkparent(path)}pdfunite {' '.join(q(s) for s in sources)} {q(path)}"


@snippet("fmt.split_pdf")
def split_pdf(path: str, dest: str, first: int, last: int, cut: bool = False) -> str:
    if cut:
        raise ValueError("cutting the pages out of the source is a near-miss the terminal does not teach")
    # poppler: one file per page into a scratch folder, then those pages joined in order
    return (f"out=$(mktemp -d) && pdfseparate -f {first} -l {last} {q(path)} \"$out/p-%03d.pdf\" && "
            f"{_mkparent(dest)}pdfunite \"$out\"/p-*.pdf {q(dest)} && rm -r \"$out\"")


@snippet("fmt.save_odt")
def save_odt(path: str, dest: str, as_copy: bool = False, moved: bool = False) -> str:
    if as_copy:  # a near-miss: the docx copied under the new name
        return f"{_mkparent(dest)}cp {q(path)} {q(dest)}"
    return _convert(path, "odt", dest) + (f" && rm {q(path)}" if moved else "")
