"""pptx media op: embed an audio file on a slide as Impress's Insert > Audio or Video does (a `<p:pic>` with
`<a:audioFile>` and a `p14:media` relationship to the media part, the speaker icon as its picture). Slides are named
by their title (`preparers.ops.pptx`)."""

from __future__ import annotations

from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.util import Cm

from preparers.ops import op, resolve
from preparers.ops.pptx import Deck, _slide

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
P14 = "{http://schemas.microsoft.com/office/powerpoint/2010/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
MIME = {"wav": "audio/wav", "mp3": "audio/mpeg", "ogg": "audio/ogg", "m4a": "audio/mp4"}


@op("pptx.add_audio")
def add_audio(deck: Deck, title: str, media: str, left_cm: float = 2, top_cm: float = 14, size_cm: float = 2,
              linked: bool = False) -> None:
    """Embed the audio file `media` (a path under /home/user) on the slide titled `title`, its icon `size_cm`
    square at a position. `linked` (a slip: the dialog's Link box) links the file instead of embedding it."""
    host = resolve(deck.root, media)
    if not host.is_file():
        raise ValueError(f"{media} does not exist")
    slide = _slide(deck, title)
    mime = MIME.get(host.suffix.lstrip(".").lower(), "audio/unknown")
    frame = slide.shapes.add_movie(str(host), Cm(left_cm), Cm(top_cm), Cm(size_cm), Cm(size_cm), mime_type=mime)
    nvpr = frame._element.find(f"{P}nvPicPr/{P}nvPr")
    video = nvpr.find(f"{A}videoFile")
    rid = video.get(f"{R}link")
    video.tag = f"{A}audioFile"  # python-pptx writes every media file as a video
    slide.part.rels[rid]._reltype = RT.AUDIO
    if linked:
        embeds = [m.get(f"{R}embed") for m in nvpr.iter(f"{P14}media")]
        ext_list = nvpr.find(f"{P}extLst")
        if ext_list is not None:
            nvpr.remove(ext_list)
        video.set(f"{R}link", slide.part.relate_to(f"file://{media}", RT.AUDIO, is_external=True))
        for old in (rid, *embeds):
            slide.part.drop_rel(old)
