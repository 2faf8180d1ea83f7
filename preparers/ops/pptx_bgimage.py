"""pptx background-picture op: a picture file as the background of one slide, of every slide, or of the master.

Written as Impress and PowerPoint write it: `<p:bg><p:bgPr><a:blipFill><a:blip r:embed/><a:stretch>` first in the
slide's (or master's) `<p:cSld>`, the picture an image part of that slide (`preparers.ops.pptx` names slides by
their title).
"""

from __future__ import annotations

import io
from typing import Any

from lxml import etree
from pptx import Presentation

from preparers import pptx as deckio
from preparers.ops import op, resolve
from preparers.ops.pptx import Deck, _slide

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _paint(owner: Any, image: str) -> None:
    _, rid = owner.part.get_or_add_image_part(image)
    bg = etree.fromstring(
        f'<p:bg xmlns:p="{P}" xmlns:a="{A}" xmlns:r="{R}"><p:bgPr><a:blipFill dpi="0" rotWithShape="1">'
        f'<a:blip r:embed="{rid}"/><a:srcRect/><a:stretch><a:fillRect/></a:stretch></a:blipFill><a:effectLst/>'
        f'</p:bgPr></p:bg>')
    csld = owner._element.find(f"{{{P}}}cSld")
    for old in csld.findall(f"{{{P}}}bg"):
        csld.remove(old)
    csld.insert(0, bg)


@op("pptx.set_background_image")
def set_background_image(deck: Deck, image: str, title: str | None = None, master: bool = False,
                         skip: list[str] | None = None) -> None:
    """The picture file `image` (a path under /home/user) as the background of the slide titled `title`, of every
    slide (`title=None`) but those titled in `skip`, or once of the slide master (`master`: Impress's "apply to all
    slides")."""
    host = resolve(deck.root, image)
    if not host.is_file():
        raise ValueError(f"{image} does not exist")
    if master:
        # a parse's masters are shared with the other copies of it (`preparers.pptx.copy_deck`): edit our own parse
        deck.prs = Presentation(io.BytesIO(deckio.to_bytes(deck.prs)))
        _paint(deck.prs.slide_master, str(host))
        return
    if title is not None:
        _paint(_slide(deck, title), str(host))
        return
    skipped = {id(_slide(deck, t)) for t in skip or []}
    for slide in deck.prs.slides:
        if id(slide) not in skipped:
            _paint(slide, str(host))
