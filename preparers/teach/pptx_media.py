"""Impress media op as python-pptx lines: `add_movie` embeds the file (python-pptx has no audio API and writes every
media file as a video), then the element and relationship are turned into an audio file's, as Impress writes them."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("pptx.add_audio")
def add_audio(prs: str, path: str, title: str, media: str, left_cm: float = 2, top_cm: float = 14,
              size_cm: float = 2, linked: bool = False) -> str:
    if linked:
        raise ValueError("a linked sound is a near-miss the terminal does not teach")
    mime = {"wav": "audio/wav", "mp3": "audio/mpeg", "ogg": "audio/ogg", "m4a": "audio/mp4"}.get(
        media.rsplit(".", 1)[-1].lower(), "audio/unknown")
    return "\n".join([
        "from pptx.opc.constants import RELATIONSHIP_TYPE as RT",
        "from pptx.util import Cm",
        f"slide = titled({prs}, {title!r})",
        f"frame = slide.shapes.add_movie({media!r}, Cm({left_cm}), Cm({top_cm}), Cm({size_cm}), Cm({size_cm}), "
        f"mime_type={mime!r})",
        "A = '{http://schemas.openxmlformats.org/drawingml/2006/main}'",
        "R = '{http://schemas.openxmlformats.org/officeDocument/2006/relationships}'",
        "video = next(frame._element.iter(A + 'videoFile'))",
        "video.tag = A + 'audioFile'  # python-pptx writes every media file as a video; a sound is an audioFile",
        "slide.part.rels[video.get(R + 'link')]._reltype = RT.AUDIO",
    ])
