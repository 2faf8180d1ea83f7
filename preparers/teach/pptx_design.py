"""Impress design ops as python-pptx lines: backgrounds (`slide.background.fill`, or the slide master's) and
transitions (python-pptx has none: the `<p:transition>` element, written with lxml)."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("pptx.set_background")
def set_background(prs: str, path: str, color: str, title: str | None = None, master: bool = False,
                   skip: list[str] | None = None) -> str:
    rgb = color.lstrip("#").upper()
    head = ["from pptx.dml.color import RGBColor"]
    paint = ["fill = {owner}.background.fill", "fill.solid()", f"fill.fore_color.rgb = RGBColor.from_string({rgb!r})"]
    if master:
        return "\n".join([*head, *(line.format(owner=f"{prs}.slide_master") for line in paint)])
    if title is not None:
        return "\n".join([*head, f"slide = titled({prs}, {title!r})", *(line.format(owner="slide") for line in paint)])
    loop = [f"for slide in {prs}.slides:"]
    if skip:
        loop += [f"    if slide.shapes.title is not None and slide.shapes.title.text in {skip!r}:", "        continue"]
    return "\n".join([*head, *loop, *("    " + line.format(owner="slide") for line in paint)])


@snippet("pptx.set_transition")
def set_transition(prs: str, path: str, effect: str, title: str | None = None, skip: list[str] | None = None) -> str:
    lines = ["from lxml import etree",
             "P = '{http://schemas.openxmlformats.org/presentationml/2006/main}'",
             "def set_transition(slide):  # python-pptx has no transition API: write <p:transition> itself",
             "    el = slide._element",
             "    for old in el.findall(P + 'transition'):",
             "        el.remove(old)",
             "    tr = etree.SubElement(el, P + 'transition')",
             f"    etree.SubElement(tr, P + {effect!r})",
             "    timing = el.find(P + 'timing')",
             "    if timing is not None:",
             "        timing.addprevious(tr)"]
    if title is not None:
        return "\n".join([*lines, f"set_transition(titled({prs}, {title!r}))"])
    lines.append(f"for slide in {prs}.slides:")
    if skip:
        lines += [f"    if slide.shapes.title is not None and slide.shapes.title.text in {skip!r}:", "        continue"]
    return "\n".join([*lines, "    set_transition(slide)"])


@snippet("pptx.slide_size")
def slide_size(prs: str, path: str, width_cm: float, height_cm: float) -> str:
    return "\n".join(["from pptx.util import Cm", f"{prs}.slide_width = Cm({width_cm})",
                      f"{prs}.slide_height = Cm({height_cm})"])


@snippet("pptx.set_hidden")
def set_hidden(prs: str, path: str, title: str, hidden: bool = True) -> str:
    lines = [f"slide = titled({prs}, {title!r})"]
    if hidden:
        return "\n".join([*lines, "slide._element.set('show', '0')  # what Slide > Hide Slide writes"])
    return "\n".join([*lines, "slide._element.attrib.pop('show', None)  # shown in the slide show again"])
