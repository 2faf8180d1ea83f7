"""Impress ops as python-pptx lines (one heredoc opens each deck once with `Presentation` and saves it at the end).

Slides are found by their title, as instructions name them (`titled`, a helper the heredoc defines first). python-pptx
has no API to reorder or delete slides: the lines use the slide-id list (`prs.slides._sldIdLst`), the recipe every
python-pptx user ends up with.
"""

from __future__ import annotations

from preparers.pptx import LAYOUTS
from preparers.teach import Language, language, snippet

language(Language(
    "pptx", imports=("from pptx import Presentation\n"
                     "def titled(prs, title):\n"
                     "    return next(s for s in prs.slides if s.shapes.title is not None "
                     "and s.shapes.title.text == title)"),
    open="VAR = Presentation(PATH)", save="VAR.save(PATH)", var="prs",
    peek=("from pptx import Presentation\n"
          "VAR = Presentation(PATH)\n"
          "for i, slide in enumerate(VAR.slides, 1):\n"
          "    print('--- slide', i, '|', slide.slide_layout.name)\n"
          "    for shape in slide.shapes:\n"
          "        if shape.has_text_frame:\n"
          "            print('  ', shape.name, '|', ' / '.join(p.text for p in shape.text_frame.paragraphs))\n"
          "        else:\n"
          "            print('  ', shape.name, '|', shape.shape_type)\n"
          "    if slide.has_notes_slide:\n"
          "        print('   notes |', slide.notes_slide.notes_text_frame.text)")))


def _slide(prs: str, title: str, name: str = "slide") -> str:
    return f"{name} = titled({prs}, {title!r})"


def _move(prs: str, slide: str, position: int) -> str:
    """Put `slide` at 1-based `position`: move its entry in the slide-id list."""
    return "\n".join([f"ids = {prs}.slides._sldIdLst  # python-pptx has no reorder API: move the slide's id",
                      f"entry = list(ids)[list({prs}.slides).index({slide})]",
                      "ids.remove(entry)",
                      f"ids.insert({position - 1}, entry)"])


def _fill(frame: str, lines: list[str], levels: list[int] | None = None, indent: str = "") -> str:
    out = [f"{frame}.text = {(lines[0] if lines else '')!r}"]
    if len(lines) > 1:
        out += [f"for line in {lines[1:]!r}:", f"    {frame}.add_paragraph().text = line"]
    if levels:
        out += [f"for para, level in zip({frame}.paragraphs, {levels!r}):", "    para.level = level"]
    return "\n".join(indent + line for line in out)


_BODY = "(PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT)"
_SUBTITLE = "sub = next(p for p in slide.placeholders if p.placeholder_format.type == PP_PLACEHOLDER.SUBTITLE)"


def _bodies(slide: str) -> str:
    return (f"sorted((p for p in {slide}.placeholders if p.placeholder_format.type in {_BODY}), "
            "key=lambda p: (p.left, p.top))")


@snippet("pptx.add_slide")
def add_slide(prs: str, path: str, layout: str, title: str, position: int, bullets: list[str] | None = None,
              subtitle: str | None = None, columns: list[list[str]] | None = None) -> str:
    lines = [f"layout = next(l for l in {prs}.slide_layouts if l.name == {LAYOUTS[layout]!r})",
             f"slide = {prs}.slides.add_slide(layout)",
             f"slide.shapes.title.text = {title!r}"]
    if layout == "title_slide":
        lines += ["from pptx.enum.shapes import PP_PLACEHOLDER",
                  _SUBTITLE,
                  _fill("sub.text_frame", [subtitle or ""])]
    elif layout == "title_content":
        lines += ["from pptx.enum.shapes import PP_PLACEHOLDER",
                  f"body = {_bodies('slide')}[0]", _fill("body.text_frame", list(bullets or []))]
    elif layout == "two_content":
        lines += ["from pptx.enum.shapes import PP_PLACEHOLDER",
                  f"for body, lines in zip({_bodies('slide')}, {columns or [[], []]!r}):",
                  "    body.text_frame.text = lines[0] if lines else ''",
                  "    for line in lines[1:]:",
                  "        body.text_frame.add_paragraph().text = line"]
    return "\n".join([*lines, _move(prs, "slide", position)])


@snippet("pptx.delete_slide")
def delete_slide(prs: str, path: str, title: str) -> str:
    return "\n".join([_slide(prs, title),
                      f"ids = {prs}.slides._sldIdLst",
                      f"entry = list(ids)[list({prs}.slides).index(slide)]",
                      f"{prs}.part.drop_rel(entry.rId)",
                      "ids.remove(entry)",
                      "# renumber the slide files, or a slide added later would reuse a live slide's name",
                      f"{prs}.part.rename_slide_parts([e.rId for e in ids])"])


@snippet("pptx.move_slide")
def move_slide(prs: str, path: str, title: str, position: int) -> str:
    return "\n".join([_slide(prs, title), _move(prs, "slide", position)])


@snippet("pptx.duplicate_slide")
def duplicate_slide(prs: str, path: str, title: str, position: int, new_title: str | None = None) -> str:
    lines = ["import copy",
             "from pptx.opc.constants import RELATIONSHIP_TYPE as RT",
             _slide(prs, title, "source"),
             f"slide = {prs}.slides.add_slide(source.slide_layout)",
             "for shape in list(slide.shapes):  # the layout's empty placeholders: the copy gets the source's shapes",
             "    shape._element.getparent().remove(shape._element)",
             "for element in source.shapes._spTree.iterchildren():",
             "    if element.tag.rsplit('}', 1)[-1] in ('sp', 'grpSp', 'graphicFrame', 'cxnSp', 'pic', 'contentPart'):",
             "        clone = copy.deepcopy(element)",
             "        for blip in clone.iter('{*}blip'):  # pictures: relate the copy to the same image",
             "            rid = blip.get('{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed')",
             "            if rid:",
             "                blip.set('{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed',",
             "                         slide.part.relate_to(source.part.related_part(rid), RT.IMAGE))",
             "        slide.shapes._spTree.append(clone)",
             "if source.has_notes_slide:",
             "    slide.notes_slide.notes_text_frame.text = source.notes_slide.notes_text_frame.text"]
    if new_title is not None:
        lines.append(f"slide.shapes.title.text_frame.text = {new_title!r}")
    return "\n".join([*lines, _move(prs, "slide", position)])


@snippet("pptx.set_title")
def set_title(prs: str, path: str, title: str, new: str) -> str:
    return f"titled({prs}, {title!r}).shapes.title.text_frame.text = {new!r}"


@snippet("pptx.set_subtitle")
def set_subtitle(prs: str, path: str, title: str, text: str) -> str:
    return "\n".join(["from pptx.enum.shapes import PP_PLACEHOLDER", _slide(prs, title),
                      _SUBTITLE,
                      f"sub.text_frame.text = {text!r}"])


@snippet("pptx.set_bullets")
def set_bullets(prs: str, path: str, title: str, bullets: list[str], levels: list[int] | None = None,
                column: int = 0) -> str:
    return "\n".join(["from pptx.enum.shapes import PP_PLACEHOLDER", _slide(prs, title),
                      f"body = {_bodies('slide')}[{column}]{'  # left to right' if column else ''}",
                      _fill("body.text_frame", bullets, levels)])


@snippet("pptx.set_notes")
def set_notes(prs: str, path: str, title: str, text: str) -> str:
    return f"titled({prs}, {title!r}).notes_slide.notes_text_frame.text = {text!r}"


@snippet("pptx.add_textbox")
def add_textbox(prs: str, path: str, title: str, text: str, left_cm: float = 2, top_cm: float = 15) -> str:
    return "\n".join(["from pptx.util import Cm", _slide(prs, title),
                      f"box = slide.shapes.add_textbox(Cm({left_cm}), Cm({top_cm}), Cm(20), Cm(2))",
                      f"box.text_frame.text = {text!r}"])


@snippet("pptx.format_text")
def format_text(prs: str, path: str, title: str, text: str, bold: bool | None = None, italic: bool | None = None,
                underline: bool | None = None, size: float | None = None, color: str | None = None,
                whole_shape: bool = False, strike: bool | None = None) -> str:
    style = [f"run.font.{attr} = {value!r}" for attr, value in (("bold", bold), ("italic", italic),
                                                               ("underline", underline)) if value is not None]
    head = []
    if size is not None:
        head.append("from pptx.util import Pt")
        style.append(f"run.font.size = Pt({size!r})")
    if color is not None:
        head.append("from pptx.dml.color import RGBColor")
        style.append(f"run.font.color.rgb = RGBColor.from_string({color.lstrip('#').upper()!r})")
    if strike is not None:  # python-pptx has no API for strikethrough: set the run's rPr attribute
        style.append(f"run.font._rPr.set('strike', {'sngStrike' if strike else 'noStrike'!r})")
    pick = ("paras if any(p.text == text for p in paras) else []" if whole_shape
            else "[p for p in paras if p.text == text]")
    return "\n".join([*head, _slide(prs, title), f"text = {text!r}",
                      "for shape in slide.shapes:",
                      "    if not shape.has_text_frame:",
                      "        continue",
                      "    paras = shape.text_frame.paragraphs",
                      f"    for para in {pick}:",
                      "        for run in para.runs:",
                      *("            " + line for line in style or ["pass"])])


@snippet("pptx.add_table")
def add_table(prs: str, path: str, title: str, rows: list[list[str]], left_cm: float = 2, top_cm: float = 5,
              width_cm: float = 21) -> str:
    return "\n".join(["from pptx.util import Cm", _slide(prs, title),
                      f"rows = {rows!r}",
                      "cols = len(rows[0])",
                      f"table = slide.shapes.add_table(len(rows), cols, Cm({left_cm}), Cm({top_cm}), Cm({width_cm}), "
                      "Cm(1.2 * len(rows))).table",
                      "for r, row in enumerate(rows):",
                      "    for c in range(cols):",
                      "        table.cell(r, c).text = row[c] if c < len(row) else ''"])


@snippet("pptx.add_image")
def add_image(prs: str, path: str, title: str, image: str, left_cm: float, top_cm: float,
              width_cm: float | None = None) -> str:
    width = f", width=Cm({width_cm})" if width_cm is not None else ""
    return "\n".join(["from pptx.util import Cm", _slide(prs, title),
                      f"slide.shapes.add_picture({image!r}, Cm({left_cm}), Cm({top_cm}){width})"])
