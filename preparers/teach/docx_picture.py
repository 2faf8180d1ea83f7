"""Snippet of the picture op (preparers/ops/docx_picture.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import _find


@snippet("docx.add_picture")
def add_picture(doc: str, path: str, image: str, after: str | None = None, width_cm: float | None = None,
                height_cm: float | None = None) -> str:
    lines = ["from docx.shared import Cm"]
    if after is None:
        lines.append(f"holder = {doc}.add_paragraph()")
    else:
        lines += ["from docx.oxml import OxmlElement", "from docx.text.paragraph import Paragraph", _find(doc, after),
                  "new = OxmlElement('w:p')", "p._p.addnext(new)", "holder = Paragraph(new, p._parent)"]
    size = "".join(f", {name}=Cm({value!r})" for name, value in (("width", width_cm), ("height", height_cm))
                   if value is not None)
    lines.append(f"holder.add_run().add_picture({image!r}{size})")
    return "\n".join(lines)
