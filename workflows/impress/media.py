"""impress.media: embed a stated sound file from ~/Music on a stated slide (Insert > Audio or Video), kept as the
slide's audio object (`<a:audioFile>` plus the `p14:media` part LibreOffice and PowerPoint write).

Two recordings wait in ~/Music (the asked one and a similar one), so picking the wrong file is a real mistake: the
check compares the embedded media part's bytes with the file's (`pptx.media`). A link to the file instead of an
embedding, or the sound on another slide, fails. Video is left out: no video file can be made here without an
encoder, and the audio path is the same markup.
"""

from __future__ import annotations

import hashlib
import io
import math
import random
import struct
import wave
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import HOME, Asset, Check
from workflows.impress import kit as ic

NAME = "impress.media"
PHRASINGS = (
    "Open {path} in LibreOffice Impress and insert the audio file {media} on the slide '{slide}' (Insert > Audio "
    "or Video), embedded in the presentation, not linked. Do not change the other slides. " + ic.SAVE,
    "In the presentation {path}, add the sound {media} to the slide '{slide}' so it plays from that slide. Embed "
    "the file rather than linking it. " + ic.SAVE,
    "Please embed the recording {media} on the slide '{slide}' of {path}. Keep the rest of the deck as it is. Then "
    "save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}, go to the slide '{slide}' and use Insert > Audio or Video to add "
    "{media} (embedded). " + ic.SAVE,
    "The slide '{slide}' in {path} should play the audio clip {media}, embedded in the file. Then save the "
    "presentation in place, keeping the pptx format.",
)
NATURAL = (
    "Add the audio {media} to the '{slide}' slide of {path.file}, embedded so it plays anywhere.",
    "Help me put the sound clip {media.file} on the '{slide}' slide in {path.file}; embed it, please.",
    "Could you embed the recording {media} in the slide '{slide}' of my presentation {path.file}?",
    "I'd like {media.file} to play on the '{slide}' slide of {path.file}. Please embed the audio.",
    "Please insert the audio file {media} on the slide '{slide}' in {path.file}, embedded in the deck.",
)
STEMS = ("welcome_message", "intro_jingle", "applause", "closing_chime", "customer_quote", "team_greeting",
         "ambient_loop", "interview_clip")


@dataclass(frozen=True)
class Target:
    slide: str  # title of the slide that gets the sound
    sounds: tuple[tuple[str, bytes], ...]  # (path, WAV bytes) of the asked recording, then of the similar one
    neighbour: str


def make_wav(rng: random.Random) -> bytes:
    """A short mono tone sequence (8 kHz, 16 bit), a stand-in recording. Same rng, same bytes."""
    rate = 8000
    notes = [rng.choice((262, 294, 330, 349, 392, 440, 494, 523)) for _ in range(rng.randint(3, 6))]
    frames = bytearray()
    for freq in notes:
        for i in range(rate // 4):
            frames += struct.pack("<h", int(6000 * math.sin(2 * math.pi * freq * i / rate)))
    buf = io.BytesIO()
    with wave.open(buf, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))
    return buf.getvalue()


def goal(rng: random.Random, params: Mapping[str, Any], content: Mapping[str, Any],
         plan: Mapping[str, Any]) -> Goal[ic.Deck, Target]:
    deck = ic.deck_from(content, plan)
    stems = rng.sample(STEMS, 2)
    sounds = tuple((f"{HOME}/Music/{stem}.wav", make_wav(rng)) for stem in stems)
    if sounds[0][1] == sounds[1][1]:
        sounds = (sounds[0], (sounds[1][0], make_wav(random.Random(stems[1]))))
    slide = rng.choice(deck.content_titles)
    i = deck.titles.index(slide)
    neighbour = deck.titles[i + 1] if i + 1 < len(deck.titles) else deck.titles[i - 1]
    facts = {"path": deck.path, "media": sounds[0][0], "slide": slide}
    return Goal(deck, facts, Target(slide, sounds, neighbour))


def prepare(deck: ic.Deck, target: Target) -> Mapping[str, Any]:
    """The deck, and both recordings waiting in ~/Music."""
    return ic.deck_outputs(deck, tuple(Asset(dest, data) for dest, data in target.sounds))


def rubric(deck: ic.Deck, target: Target) -> list[Check]:
    media, data = target.sounds[0]
    return [Check("media", f"The slide '{target.slide}' embeds the audio file {media} (the same bytes).",
                  "pptx.media", {"path": deck.path, "slide": target.slide, "media": media,
                                 "sha256": hashlib.sha256(data).hexdigest()})]


def solve(deck: ic.Deck, target: Target) -> Attempts:
    (media, _), (other, _) = target.sounds
    base = {"op": "pptx.add_audio", "path": deck.path, "title": target.slide, "media": media}
    return Attempts(
        Attempt(f"embed {media} on '{target.slide}'", [base]),
        [Attempt(f"inserts the other recording {other}", [{**base, "media": other}]),
         Attempt(f"puts the sound on '{target.neighbour}' instead", [{**base, "title": target.neighbour}]),
         Attempt("links the file instead of embedding it", [{**base, "linked": True}])],
    )


WORKFLOW = family(
    NAME, ic.IMPRESS,
    description="Embed a stated audio file from ~/Music on a stated slide (Insert > Audio or Video).",
    knobs={},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
