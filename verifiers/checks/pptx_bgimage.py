"""pptx background-picture primitive: a slide shows a stated picture file as its background (Slide > Slide
Properties > Background > Image, or Format Background > Picture fill in PowerPoint).

Pptx keeps it as a `<p:bg><p:bgPr><a:blipFill>` whose `<a:blip r:embed>` names an image part of the slide, or of
its layout or master when the background is set for all slides at once (Impress's "apply to all slides" sets the
master's). The picture is recognised by its pixels (`pixel_digest`), whatever way the writer re-encoded the file.
A picture inserted on the slide as a shape, however large, is no background.
"""

from __future__ import annotations

import contextlib
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said, when
from verifiers.readers.pptx import load, pixel_digest, slides

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
R_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"


def _own(owner: Any) -> str | None:
    """The background `owner` (a slide, layout or master) sets itself: 'picture <pixel digest>', 'picture ?' for
    an unreadable or linked one, another fill's name, or None when it sets none."""
    bg = owner._element.find(f"{P}cSld/{P}bg")
    if bg is None:
        return None
    blip = bg.find(f"{P}bgPr/{A}blipFill/{A}blip")
    if blip is None:
        return "another fill"
    try:
        return "picture " + pixel_digest(owner.part.related_part(blip.get(R_EMBED, "")).blob)
    except Exception:  # a linked, missing or undecodable picture: not the asked one
        return "picture ?"


def shown(slide: Any) -> str:
    """What the slide shows behind its content: its own background, else its layout's, else its master's."""
    chain: list[Any] = [slide]
    with contextlib.suppress(Exception):  # a slide without a layout part: only its own
        chain += [slide.slide_layout, slide.slide_layout.slide_master]
    for owner in chain:
        found = _own(owner)
        if found is not None:
            return found
    return "the theme's"


def _said(found: str, pixels: str) -> str:
    if found == f"picture {pixels}":
        return "the picture"
    return "another picture" if found.startswith("picture") else found


@primitive("pptx.background_picture", grounded=("path", "slide", "image", "every"), secret=("pixels",),
           meaning=Meaning(action=r"background|backdrop", args={"every": Said("scope", when("all"))}))
def background_picture(state: State, path: str, image: str, pixels: str, slide: str | None = None,
                       every: bool | None = None) -> Result:
    """Slide `slide` (every slide titled so) shows the picture file `image` (its pixels `pixels`) as its
    background and no other slide does; with `every`, every slide of the deck shows it (set on each slide or once
    on the master)."""
    want = f"picture {pixels}"
    parsed = load(state, path)
    titles = parsed.titles()
    found = [shown(s) for s in parsed.prs.slides]
    if every:
        wrong = [f"{t or f'#{i + 1}'!r} ({_said(b, pixels)})" for i, (t, b) in enumerate(zip(titles, found,
                                                                                              strict=True))
                 if b != want]
        if wrong or not found:
            return fail(f"{len(wrong)} of {len(found)} slides do not show {image} as their background: "
                        f"{', '.join(wrong[:5])}{', ...' if len(wrong) > 5 else ''}")
        return ok(f"all {len(found)} slides show {image} as their background")
    if slide is None:
        return fail("check misconfigured: neither a slide nor every slide")
    asked = slides(state, path, slide)
    for item in asked:
        if (got := shown(item)) != want:
            return fail(f"slide {slide!r} shows {_said(got, pixels)} background, expected {image}")
    mine = {id(s._element) for s in asked}
    others = [t or f"#{i + 1}" for i, (s, t, b) in enumerate(zip(parsed.prs.slides, titles, found, strict=True))
              if b == want and id(s._element) not in mine]
    if others:
        return fail(f"slide {slide!r} shows {image}, but so do {len(others)} other slide(s) ({others[:4]}): only that "
                    f"slide was to get it")
    return ok(f"slide {slide!r} shows {image} as its background, no other slide does")
