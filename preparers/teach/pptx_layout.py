"""Impress layout ops as python-pptx lines: python-pptx has no API to change a slide's layout, so the lines point
the slide's layout relationship at the new layout and add the placeholders it has and the slide lacks."""

from __future__ import annotations

from preparers.pptx import LAYOUTS
from preparers.teach import snippet


@snippet("pptx.set_layout")
def set_layout(prs: str, path: str, title: str, layout: str) -> str:
    return "\n".join([
        "from pptx.enum.shapes import PP_PLACEHOLDER",
        "from pptx.opc.constants import RELATIONSHIP_TYPE as RT",
        f"slide = titled({prs}, {title!r})",
        f"new = next(l for l in {prs}.slide_layouts if l.name == {LAYOUTS[layout]!r})",
        "for rid, rel in list(slide.part.rels.items()):  # no layout API: relink the slide to the new layout",
        "    if rel.reltype == RT.SLIDE_LAYOUT:",
        "        slide.part.drop_rel(rid)",
        "slide.part.relate_to(new.part, RT.SLIDE_LAYOUT)",
        "have = {p.placeholder_format.idx for p in slide.placeholders}",
        "for p in new.placeholders:  # the boxes the new layout adds (e.g. the second content box)",
        "    if p.placeholder_format.idx not in have and p.placeholder_format.type in "
        "(PP_PLACEHOLDER.TITLE, PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT):",
        "        slide.shapes.clone_placeholder(p)",
    ])
