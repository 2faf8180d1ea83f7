"""pptx media primitive: a slide plays a stated audio file, embedded in the presentation (Insert > Audio or Video).

PowerPoint and LibreOffice (which re-saves it so) keep an embedded sound as a `<p:pic>` whose `<p:nvPr>` holds an
`<a:audioFile r:link>` (a `<a:videoFile>` for a film) and, in its `p14:media` extension, an `r:embed` relationship
to the media part (`ppt/media/media1.wav`); its picture is the icon or poster shown on the slide. The file counts
when a media part of such a shape holds exactly the file's bytes (compared by digest, read bounded); a link to
the file outside the presentation is no embedding (the deck would play nothing elsewhere).
"""

from __future__ import annotations

import hashlib
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.pptx import slides

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
P14 = "{http://schemas.microsoft.com/office/powerpoint/2010/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
MAX_MEDIA = 64 << 20


def media_digests(slide: Any) -> list[str]:
    """The sha256 of each media part an audio or video shape of the slide embeds ('linked' for a link outside the
    file, 'unreadable' for a missing or oversized part)."""
    found = []
    for pic in slide._element.iter(f"{P}pic"):
        nvpr = pic.find(f"{P}nvPicPr/{P}nvPr")
        if nvpr is None:
            continue
        files = [e for e in nvpr if e.tag in (f"{A}audioFile", f"{A}videoFile")]
        if not files:
            continue
        rids = [m.get(f"{R}embed") for m in nvpr.iter(f"{P14}media")]
        rids += [f.get(f"{R}link") or f.get(f"{R}embed") for f in files]
        digests = []
        for rid in dict.fromkeys(r for r in rids if r):
            rel = slide.part.rels.get(rid)
            if rel is None:
                continue
            if rel.is_external:
                digests.append("linked")
                continue
            try:
                blob = rel.target_part.blob
            except Exception:  # a relationship to nothing readable
                digests.append("unreadable")
                continue
            digests.append(hashlib.sha256(blob).hexdigest() if len(blob) <= MAX_MEDIA else "unreadable")
        embedded = [d for d in digests if d not in ("linked", "unreadable")]
        found.append(embedded[0] if embedded else (digests[0] if digests else "linked"))
    return found


@primitive("pptx.media", grounded=("path", "slide", "media"), secret=("sha256",),
           meaning=Meaning(action=r"audio|sound|music|recording|media|clip|insert|add|embed"))
def slide_media(state: State, path: str, slide: str, media: str, sha256: str) -> Result:
    """Slide `slide` (every slide titled so) embeds the media file `media` (its bytes' digest `sha256`) as an audio
    or video object."""
    for item in slides(state, path, slide):
        found = media_digests(item)
        if sha256 in found:
            continue
        if not found:
            return fail(f"slide {slide!r} has no audio or video object")
        kinds = ["a link to a file outside the presentation" if d == "linked" else "an unreadable media part"
                 if d == "unreadable" else "another media file" for d in found]
        return fail(f"slide {slide!r} does not embed {media}: its media objects hold {', '.join(kinds)}")
    return ok(f"slide {slide!r} embeds {media} (same bytes)")
