"""Save a presentation as OpenDocument Presentation (.odp): Impress's File > Save As, ODF Presentation.

The op writes a minimal .odp (mimetype stored first, manifest, content.xml with one `draw:page` per slide, named by
its title, each text frame's paragraphs as `text:p`), read back by the bounded OpenDocument reader
(verifiers/readers/odf.py) as LibreOffice's own .odp reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from preparers.ops import op
from preparers.ops.formats import Handle, odf_package, pptx_slides

ODP_MIMETYPE = "application/vnd.oasis.opendocument.presentation"
_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
       'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
       'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"')


def odp_bytes(slides: Sequence[Sequence[str]]) -> bytes:
    """A minimal OpenDocument presentation: each slide's first text its title frame, the rest one text frame's
    paragraphs. Deterministic (fixed member times)."""
    pages = []
    for n, texts in enumerate(slides, start=1):
        title, rest = (texts[0], texts[1:]) if texts else ("", [])
        frames = [f'<draw:frame presentation:class="title" svg:x="1.4cm" svg:y="0.8cm" svg:width="22.6cm" '
                  f'svg:height="3.2cm"><draw:text-box><text:p>{escape(title)}</text:p></draw:text-box></draw:frame>']
        if rest:
            paras = "".join(f"<text:p>{escape(t)}</text:p>" for t in rest)
            frames.append('<draw:frame presentation:class="outline" svg:x="1.4cm" svg:y="4.4cm" svg:width="22.6cm" '
                          f'svg:height="12.6cm"><draw:text-box>{paras}</draw:text-box></draw:frame>')
        pages.append(f'<draw:page draw:name={quoteattr(title or f"Slide {n}")}>{"".join(frames)}</draw:page>')
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_NS} office:version="1.2">'
               f'<office:body><office:presentation>{"".join(pages)}</office:presentation></office:body>'
               '</office:document-content>')
    return odf_package(ODP_MIMETYPE, content)


@op("fmt.save_odp")
def save_odp(h: Handle, dest: str, as_copy: bool = False, moved: bool = False, drop_last: bool = False) -> None:
    """Save the presentation at `path` (pptx) as OpenDocument Presentation at `dest` (Impress: File > Save As, ODF
    Presentation), the pptx unchanged. Slips, for near-misses: `as_copy` copies the pptx bytes under the .odp
    name, `moved` deletes the pptx afterwards, `drop_last` leaves the last slide out."""
    out = h.target(dest)
    slides = pptx_slides(h.host)
    out.write_bytes(h.host.read_bytes() if as_copy else odp_bytes(slides[:-1] if drop_last else slides))
    if moved:
        h.host.unlink()
