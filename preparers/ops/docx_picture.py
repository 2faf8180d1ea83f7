"""docx op for a picture inserted from a file of the state (writer.insert_image)."""

from __future__ import annotations

from pathlib import Path

from docx.document import Document
from docx.oxml import OxmlElement
from docx.shared import Cm
from docx.text.paragraph import Paragraph

from preparers.ops import OpError, op, resolve
from preparers.ops.docx import paragraph


@op("docx.add_picture")
def add_picture(document: Document, image: str, after: str | None = None, width_cm: float | None = None,
                height_cm: float | None = None) -> None:
    """Insert the picture file `image` (a path under /home/user) in a new paragraph of its own directly after the
    paragraph beginning `after`, or at the end of the document when None, as Insert > Image on an empty line
    does; `width_cm` scales it with its proportions kept (`height_cm` too: a stretched picture, for near-misses)."""
    root = getattr(document, "_forge_root", None)
    if not isinstance(root, Path):
        raise OpError("docx.add_picture: the document was not opened from a state")
    host = resolve(root, image)
    if not host.is_file():
        raise OpError(f"docx.add_picture: {image} does not exist")
    if after is None:
        holder = document.add_paragraph()
    else:
        anchor = paragraph(document, after)
        p = OxmlElement("w:p")
        anchor._p.addnext(p)
        holder = Paragraph(p, anchor._parent)
    holder.add_run().add_picture(str(host), width=None if width_cm is None else Cm(width_cm),
                                 height=None if height_cm is None else Cm(height_cm))
