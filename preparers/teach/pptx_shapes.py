"""Impress shape ops as python-pptx lines: a picture's position and size (`shape.left`, `.top`, `.width`,
`.height`, in cm) and a new text box."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("pptx.place_picture")
def place_picture(prs: str, path: str, title: str, left_cm: float | None = None, top_cm: float | None = None,
                  width_cm: float | None = None, height_cm: float | None = None) -> str:
    lines = ["from pptx.util import Cm", "from pptx.enum.shapes import MSO_SHAPE_TYPE",
             f"slide = titled({prs}, {title!r})",
             "pic = next(s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE)",
             "print('before:', pic.left.cm, pic.top.cm, pic.width.cm, pic.height.cm)"]
    lines += [f"pic.{attr} = Cm({value!r})" for attr, value in (("left", left_cm), ("top", top_cm),
                                                                ("width", width_cm), ("height", height_cm))
              if value is not None]
    return "\n".join(lines)


@snippet("pptx.add_text_box")
def add_text_box(prs: str, path: str, title: str, text: str, left_cm: float, top_cm: float, width_cm: float = 10,
                 height_cm: float = 1.5) -> str:
    return "\n".join(["from pptx.util import Cm", f"slide = titled({prs}, {title!r})",
                      f"box = slide.shapes.add_textbox(Cm({left_cm}), Cm({top_cm}), Cm({width_cm}), Cm({height_cm}))",
                      f"box.text_frame.text = {text!r}"])


@snippet("pptx.align_paragraphs")
def align_paragraphs(prs: str, path: str, title: str, align: str, first: int | None = None,
                     part: str = "body") -> str:
    pick = ("[p for p in slide.placeholders if p.placeholder_format.type in (PP_PLACEHOLDER.BODY, "
            "PP_PLACEHOLDER.OBJECT)]" if part == "body" else "[slide.shapes.title]")
    return "\n".join(["from pptx.enum.shapes import PP_PLACEHOLDER", "from pptx.enum.text import PP_ALIGN",
                      f"slide = titled({prs}, {title!r})",
                      f"paras = [p for shape in {pick} for p in shape.text_frame.paragraphs if p.text.strip()]",
                      f"for para in paras{f'[:{first}]' if first is not None else ''}:",
                      f"    para.alignment = PP_ALIGN.{align.upper()}"])
