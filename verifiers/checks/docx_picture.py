"""docx primitive for a picture inserted into a document (writer.insert_image).

`docx.picture` asks whether the document shows the asked picture (recognised by its pixels, however the writing
app stores the file) exactly once, at the asked place, and at the asked width with its proportions kept. A picture
adds no text, so the docx frame (which reads text, styles and formatting) sees none of it: this check alone judges
the pictures of the body.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import Doc, W, find, load
from verifiers.readers.pptx import pixel_digest

WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
V = "{urn:schemas-microsoft-com:vml}"
MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
EMU_PER_CM = 360000
WIDTH_TOLERANCE_CM = 0.15
RATIO_TOLERANCE = 0.03
MAX_PICTURES = 200


def _blob(doc: Doc, rid: str | None) -> bytes | None:
    try:
        part = doc.document.part.related_parts[rid]
        return bytes(part.blob)
    except (KeyError, AttributeError, TypeError):
        return None


def pictures(doc: Doc) -> list[dict[str, Any]]:
    """Every picture of the body in order: {block (index among the body's blocks), pixels (digest or None when
    unreadable), width and height (cm, None when unknown)}; a VML image (w:pict) counts, without a size, unless it
    is the fallback copy of a drawing (mc:Fallback)."""
    out: list[dict[str, Any]] = []
    for index, block in enumerate(doc.blocks()):
        for el in block.iter(W + "drawing", W + "pict"):
            if len(out) >= MAX_PICTURES:
                return out
            if any(a.tag == MC_FALLBACK for a in el.iterancestors()):
                continue  # the legacy copy of a picture a writer also stores as a drawing
            if el.tag == W + "pict":
                data = next((el for el in el.iter(V + "imagedata")), None)
                rid = data.get(R + "id") if data is not None else None
                size: tuple[float | None, float | None] = (None, None)
            else:
                blip = next(iter(el.iter(A + "blip")), None)
                rid = blip.get(R + "embed") if blip is not None else None
                extent = next(iter(el.iter(WP + "extent")), None)
                size = (None, None) if extent is None else (
                    int(extent.get("cx") or 0) / EMU_PER_CM, int(extent.get("cy") or 0) / EMU_PER_CM)
            blob = _blob(doc, rid)
            try:
                pixels = pixel_digest(blob) if blob else None
            except Exception:  # a linked, broken or hostile picture is simply not the asked one
                pixels = None
            out.append({"block": index, "pixels": pixels, "width": size[0], "height": size[1]})
    return out


def _empty(doc: Doc, block: etree._Element) -> bool:
    return block.tag == W + "p" and not doc.text(block)


@primitive("docx.picture", grounded=("path", "image", "after", "width_cm"),
           meaning=Meaning(action=r"insert|add|put|place|picture|image|photo|logo|chart"))
@guarded
def picture(state: State, path: str, image: str, pixels: str, ratio: float, after: str | None = None,
            width_cm: float | None = None) -> Result:
    """The document shows exactly one picture, with the pixels of `image`: in the paragraph beginning `after` or
    in an empty paragraph directly after it (only empty paragraphs between), or, when `after` is None, after the
    document's last line of text; `width_cm` wide (when given) with its proportions (`ratio`, height / width)
    kept."""
    doc = load(state, path)
    blocks = list(doc.blocks())
    found = pictures(doc)
    if not found:
        return fail(f"{path} shows no picture")
    if len(found) > 1:
        return fail(f"{path} shows {len(found)} pictures, expected only {image}")
    pic = found[0]
    if pic["pixels"] != pixels:
        return fail(f"the picture in {path} is not {image} (other pixels, or an unreadable or linked picture)")
    if after is not None:
        anchor = blocks.index(find(doc, after))
        where = f"after the paragraph {after!r}"
    else:
        anchor = max((i for i, b in enumerate(blocks) if not _empty(doc, b)), default=-1)
        where = "at the end of the document"
    at = pic["block"]
    if at < anchor or not all(_empty(doc, b) for b in blocks[anchor + 1:at + 1]):
        texts = [doc.text(b) for b in blocks[:at + 1] if b.tag == W + "p" and doc.text(b)]
        shown = repr(texts[-1][:40]) if texts else "the start"
        return fail(f"the picture is not {where}: it follows {shown}")
    if width_cm is not None:
        width, height = pic["width"], pic["height"]
        if not width or height is None:
            return fail("the picture has no size the document states")
        if abs(width - width_cm) > WIDTH_TOLERANCE_CM:
            return fail(f"the picture is {width:.2f} cm wide, expected {width_cm:g} cm")
        if abs(height / width - ratio) > RATIO_TOLERANCE * ratio:
            return fail(f"the picture is {width:.2f} x {height:.2f} cm: its proportions are not kept "
                        f"(height/width {height / width:.3f}, expected {ratio:.3f})")
    return ok(f"{path} shows {image} once, {where}" + (f", {width_cm:g} cm wide" if width_cm is not None else ""))
