"""Writer ops as python-docx lines (one heredoc opens each document once and saves it at the end).

Paragraphs are found the way a person finds them: the first body paragraph whose text starts with the words the
instruction quotes. A text answer file (a `.txt` path of a `docx.write_text` op) is not opened as a document: its
snippet writes the file with pathlib.
"""

from __future__ import annotations

from preparers.docx import PAPERS
from preparers.teach import Language, language, snippet


class _ByFile(str):
    """A `Language` template that reads as `docx` for documents and as `txt` for text answer files.

    `preparers.teach` fills a template by `.replace("VAR", var)` then `.replace("PATH", repr(path))`; the second
    replace picks the text answer file's template when the path ends in `.txt` (there is no document to open)."""

    txt: str

    def __new__(cls, docx: str, txt: str) -> _ByFile:
        made = super().__new__(cls, docx)
        made.txt = txt
        return made

    def replace(self, old: str, new: str, count: int = -1) -> str:  # type: ignore[override]
        if old == "PATH" and new.rstrip("'\"").lower().endswith(".txt"):
            return self.txt.replace(old, new, count)
        filled = _ByFile(str.replace(self, old, new, count), self.txt.replace(old, new, count))
        return filled if old == "VAR" else str(filled)


language(Language(
    "docx", imports="from docx import Document",
    open=_ByFile("VAR = Document(PATH)", ""), save=_ByFile("VAR.save(PATH)", ""), var="doc",
    peek=_ByFile("from docx import Document\n"
                 "VAR = Document(PATH)\n"
                 "for i, p in enumerate(VAR.paragraphs):\n"
                 "    print(i, p.style.name, '|', p.text)\n"
                 "for t, table in enumerate(VAR.tables):\n"
                 "    print('== table', t)\n"
                 "    for row in table.rows:\n"
                 "        print([c.text for c in row.cells])",
                 "print(open(PATH).read())")))

_ALIGN = {"left": "LEFT", "center": "CENTER", "right": "RIGHT", "justify": "JUSTIFY"}


def _find(doc: str, selector: str, name: str = "p") -> str:
    return f"{name} = next(p for p in {doc}.paragraphs if p.text.startswith({selector!r}))"


def _each(doc: str, selectors: list[str], lines: list[str]) -> str:
    """`lines` for the paragraph `p` of each selector (a loop when there are several)."""
    if len(selectors) == 1:
        return "\n".join([_find(doc, selectors[0]), *lines])
    head = f"for start in {selectors!r}:\n    p = next(p for p in {doc}.paragraphs if p.text.startswith(start))"
    return "\n".join([head, *("    " + line for line in lines)])


def _set_text(p: str, text: str, indent: str = "") -> str:
    """Replace paragraph `p`'s text, keeping the formatting of its first run (the other runs go)."""
    lines = [f"if {p}.runs:",
             f"    {p}.runs[0].text = {text}",
             f"    for r in {p}.runs[1:]:",
             "        r._r.getparent().remove(r._r)",
             "else:",
             f"    {p}.add_run({text})"]
    return "\n".join(indent + line for line in lines)


@snippet("docx.write_text")
def write_text(doc: str, path: str, text: str) -> str:
    return f"from pathlib import Path\nPath({path!r}).write_text({text!r})"


@snippet("docx.set_style")
def set_style(doc: str, path: str, paragraphs: list[str], style: str) -> str:
    return _each(doc, paragraphs, [f"p.style = {doc}.styles[{style!r}]"])


@snippet("docx.replace_text")
def replace_text(doc: str, path: str, old: str, new: str, match_case: bool = True, whole_word: bool = False,
                 first_only: bool = False) -> str:
    pattern = f"re.escape({old!r})"
    if whole_word:
        pattern = f"r'(?<!\\w)' + {pattern} + r'(?!\\w)'"
    flags = "" if match_case else ", flags=re.IGNORECASE"
    count = ", count=1" if first_only else ""
    lines = ["import re",
             f"pattern = re.compile({pattern}{flags})",
             f"for p in {doc}.paragraphs:",
             f"    text, n = pattern.subn(lambda m: {new!r}, p.text{count})",
             "    if n:",
             _set_text("p", "text", "        ")]
    if first_only:
        lines.append("        break")
    return "\n".join(lines)


def restyled(doc: str, paragraph_start: str, phrase: str | None, style: list[str], *,
             imports: tuple[str, ...] = ()) -> str:
    """Lines that split the paragraph's runs around `phrase` (the whole paragraph when None), keeping its own run
    formatting, and apply `style` (lines over `run`) to the phrase's run: how a person formats a stated phrase."""
    where = ("start, end = 0, len(text)" if phrase is None else
             f"start = text.index({phrase!r})\nend = start + len({phrase!r})")
    return "\n".join([
        "import copy",
        *imports,
        _find(doc, paragraph_start),
        "text = p.text",
        where,
        "rpr = p.runs[0]._r.rPr if p.runs else None  # keep the paragraph's own run formatting",
        "for r in p.runs:",
        "    r._r.getparent().remove(r._r)",
        "for piece, target in ((text[:start], False), (text[start:end], True), (text[end:], False)):",
        "    if not piece:",
        "        continue",
        "    run = p.add_run(piece)",
        "    if rpr is not None:",
        "        run._r.insert(0, copy.deepcopy(rpr))",
        "    if target:",
        *("        " + line for line in style or ["pass"])])


@snippet("docx.format_chars")
def format_chars(doc: str, path: str, paragraph_start: str, phrase: str | None = None, font: str | None = None,
                 size: float | None = None, bold: bool | None = None, italic: bool | None = None,
                 underline: bool | None = None) -> str:
    style = []
    if font is not None:
        style.append(f"run.font.name = {font!r}")
    if size is not None:
        style.append(f"run.font.size = Pt({size!r})")
    for attr, value in (("bold", bold), ("italic", italic), ("underline", underline)):
        if value is not None:
            style.append(f"run.{attr} = {value!r}")
    return restyled(doc, paragraph_start, phrase, style, imports=("from docx.shared import Pt",))


@snippet("docx.set_alignment")
def set_alignment(doc: str, path: str, paragraphs: list[str], align: str) -> str:
    return "\n".join(["from docx.enum.text import WD_ALIGN_PARAGRAPH",
                      _each(doc, paragraphs, [f"p.alignment = WD_ALIGN_PARAGRAPH.{_ALIGN[align]}"])])


@snippet("docx.set_line_spacing")
def set_line_spacing(doc: str, path: str, paragraphs: list[str], rule: str, value: float) -> str:
    if rule == "multiple":
        return _each(doc, paragraphs, [f"p.paragraph_format.line_spacing = {float(value)!r}"])
    which = "EXACTLY" if rule == "exact" else "AT_LEAST"
    return "\n".join(["from docx.enum.text import WD_LINE_SPACING", "from docx.shared import Pt",
                      _each(doc, paragraphs, [f"p.paragraph_format.line_spacing = Pt({value!r})",
                                              f"p.paragraph_format.line_spacing_rule = WD_LINE_SPACING.{which}"])])


@snippet("docx.set_page")
def set_page(doc: str, path: str, paper: str, orientation: str, swap: bool = True) -> str:
    width, height = PAPERS[paper]
    landscape = orientation == "landscape"
    if landscape and swap:
        width, height = height, width
    return "\n".join([
        "from docx.enum.section import WD_ORIENT",
        "from docx.shared import Twips",
        f"for section in {doc}.sections:",
        f"    section.orientation = WD_ORIENT.{'LANDSCAPE' if landscape else 'PORTRAIT'}",
        f"    section.page_width, section.page_height = Twips({width}), Twips({height})  # {paper}, in twips"])


@snippet("docx.set_margins")
def set_margins(doc: str, path: str, top: int | None = None, bottom: int | None = None, left: int | None = None,
                right: int | None = None) -> str:
    sides = [(side, value) for side, value in (("top", top), ("bottom", bottom), ("left", left), ("right", right))
             if value is not None]
    return "\n".join(["from docx.shared import Twips", f"for section in {doc}.sections:",
                      *(f"    section.{side}_margin = Twips({value})  # {value / 1440 * 2.54:.2f} cm"
                        for side, value in sides)])


_PAGE_FIELD = """\
field = OxmlElement('w:fldSimple')  # a PAGE field: Writer shows the page number there
field.set(qn('w:instr'), ' PAGE ')
r = OxmlElement('w:r')
t = OxmlElement('w:t')
t.text = '1'
r.append(t)
field.append(r)
p._p.append(field)"""


@snippet("docx.set_header_footer")
def set_header_footer(doc: str, path: str, part: str, text: str | None = None, page_number: bool = False,
                      align: str | None = None, literal_number: bool = False) -> str:
    lines = [f"{part} = {doc}.sections[0].{part}", f"{part}.is_linked_to_previous = False",
             f"p = {part}.paragraphs[0]", _set_text("p", repr(text or ""))]
    if page_number:
        if text:
            lines.append("p.add_run(' ')")
        if literal_number:
            lines.append("p.add_run('1')")
        else:
            lines = ["from docx.oxml import OxmlElement", "from docx.oxml.ns import qn", *lines, _PAGE_FIELD]
    if align:
        lines = ["from docx.enum.text import WD_ALIGN_PARAGRAPH", *lines,
                 f"p.alignment = WD_ALIGN_PARAGRAPH.{_ALIGN[align]}"]
    return "\n".join(lines)


@snippet("docx.page_break")
def page_break(doc: str, path: str, paragraph_start: str, how: str = "run") -> str:
    if how == "property":
        return "\n".join([_find(doc, paragraph_start), "p.paragraph_format.page_break_before = True"])
    return "\n".join([
        "from docx.oxml import OxmlElement",
        "from docx.oxml.ns import qn",
        _find(doc, paragraph_start),
        "r = OxmlElement('w:r')  # a run holding a page break, before the paragraph's text",
        "br = OxmlElement('w:br')",
        "br.set(qn('w:type'), 'page')",
        "r.append(br)",
        "first = p._p.find(qn('w:r'))",
        "if first is not None:",
        "    first.addprevious(r)",
        "else:",
        "    p._p.append(r)"])


@snippet("docx.insert_table")
def insert_table(doc: str, path: str, rows: list[list[str]], after: str | None = None,
                 bold_header: bool = False) -> str:
    fill = ["        run = cell.paragraphs[0].add_run(value)"]
    if bold_header:
        fill += ["        if r == 0:", "            run.bold = True"]
    lines = [f"rows = {[[str(v) for v in row] for row in rows]!r}",
             f"table = {doc}.add_table(rows=len(rows), cols=len(rows[0]))",
             f"table.style = {doc}.styles['Table Grid']",
             "for r, (row, values) in enumerate(zip(table.rows, rows)):",
             "    for cell, value in zip(row.cells, values):",
             *fill]
    if after is not None:
        lines += [_find(doc, after), "p._p.addnext(table._tbl)"]
    return "\n".join(lines)


@snippet("docx.set_cell")
def set_cell(doc: str, path: str, row: int, column: int, text: str, index: int = 0) -> str:
    return "\n".join([f"p = {doc}.tables[{index}].cell({row}, {column}).paragraphs[0]", _set_text("p", repr(text))])


@snippet("docx.add_row")
def add_row(doc: str, path: str, values: list[str], index: int = 0, position: int | None = None) -> str:
    lines = [f"table = {doc}.tables[{index}]", "row = table.add_row()",
             f"for cell, value in zip(row.cells, {values!r}):", "    p = cell.paragraphs[0]",
             _set_text("p", "value", "    ")]
    if position is not None:
        lines.append(f"table.rows[{position}]._tr.addprevious(row._tr)")
    return "\n".join(lines)


@snippet("docx.delete_row")
def delete_row(doc: str, path: str, row: int, index: int = 0) -> str:
    return f"tr = {doc}.tables[{index}].rows[{row}]._tr\ntr.getparent().remove(tr)"


@snippet("docx.add_column")
def add_column(doc: str, path: str, values: list[str], index: int = 0) -> str:
    return "\n".join(["from docx.shared import Inches",
                      f"column = {doc}.tables[{index}].add_column(Inches(1.25))",
                      f"for cell, value in zip(column.cells, {values!r}):", "    p = cell.paragraphs[0]",
                      _set_text("p", "value", "    ")])
