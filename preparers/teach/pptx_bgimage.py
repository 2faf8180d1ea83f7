"""Impress background-picture op as python-pptx lines: python-pptx has no picture fill for a background, so the
lines add the picture as an image part of the slide (or master) and write `<p:bg>` with lxml."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("pptx.set_background_image")
def set_background_image(prs: str, path: str, image: str, title: str | None = None, master: bool = False,
                         skip: list[str] | None = None) -> str:
    lines = [
        "from lxml import etree",
        "P = 'http://schemas.openxmlformats.org/presentationml/2006/main'",
        "A = 'http://schemas.openxmlformats.org/drawingml/2006/main'",
        "R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'",
        "def picture_background(owner, image):  # python-pptx has no picture fill for backgrounds",
        "    _, rid = owner.part.get_or_add_image_part(image)",
        "    bg = etree.fromstring(",
        "        f'<p:bg xmlns:p=\"{P}\" xmlns:a=\"{A}\" xmlns:r=\"{R}\"><p:bgPr>'",
        "        f'<a:blipFill dpi=\"0\" rotWithShape=\"1\">'",
        "        f'<a:blip r:embed=\"{rid}\"/><a:srcRect/><a:stretch><a:fillRect/></a:stretch></a:blipFill>'",
        "        f'<a:effectLst/></p:bgPr></p:bg>')",
        "    csld = owner._element.find('{%s}cSld' % P)",
        "    for old in csld.findall('{%s}bg' % P):",
        "        csld.remove(old)",
        "    csld.insert(0, bg)",
    ]
    if master:
        return "\n".join([*lines, f"picture_background({prs}.slide_master, {image!r})"])
    if title is not None:
        return "\n".join([*lines, f"picture_background(titled({prs}, {title!r}), {image!r})"])
    lines.append(f"for slide in {prs}.slides:")
    if skip:
        lines += [f"    if slide.shapes.title is not None and slide.shapes.title.text in {skip!r}:", "        continue"]
    return "\n".join([*lines, f"    picture_background(slide, {image!r})"])
