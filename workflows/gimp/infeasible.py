"""gimp.infeasible: a request about a real picture that GIMP or the files cannot satisfy; decline, change nothing.

Kinds (workflows.infeasible_kit): `feature` asks for what no image editor does (a picture that smells of its
subject, one that plays the sound of the scene, a print that turns into a moving hologram); `missing` names a
picture the folder does not hold; `contradiction` asks for a picture made twice as wide while keeping its width, or
turned grayscale while keeping every colour. The near-misses are an eager agent's stand-ins: a brightened or
rotated picture, the existing picture cropped, one half of the contradiction.
"""

from __future__ import annotations

import random

from kit.family import Goal, family
from preparers.image import KINDS as PICTURES
from workflows.gimp import kit as gc
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve

NAME = "gimp.infeasible"
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP. {request} Save it back to the same file.",
    "The picture {path} shows {subject}. Using GIMP: {request.inline}. Keep the file name and format.",
    "Please edit the image {path}, which shows {subject}. {request}",
    "In GIMP, work on {path} ({subject}). {request} Then overwrite the file.",
    "One edit for the picture {path} of {subject}: {request.inline}.",
)
NATURAL = (
    "In my picture {path.file}, please {request.inline}.",
    "Could you help me with the photo of {subject} ({path.file})? I'd like you to {request.inline}.",
    "I need a hand with {path.file}: {request.inline}.",
    "Quick favour with my picture of {subject}: {request.inline}. It's {path.file}.",
    "Here's what I want done to {path.file}. Please {request.inline}.",
)
GHOSTS = ("holiday_beach_2019", "team_photo_final", "logo_draft_v3", "garden_before", "poster_background",
          "scan_receipt_042")


def goal(rng: random.Random, params: Params, source: gc.Source) -> Goal[None, Impossible]:
    path, name = source.path, source.path.rsplit("/", 1)[1]
    folder = source.path.rsplit("/", 1)[0]
    width, height = source.width, source.height
    kind = params["impossible"]
    if kind == "feature":
        choice = rng.randrange(3)
        why = f"GIMP has no such feature: {KIND_TEXT[kind]}"
        request = ("Make the picture smell of what it shows whenever someone opens it.",
                   "Make the picture play the sound of the scene it shows when it is opened.",
                   "Make the printed picture turn into a moving 3D hologram when it is held up to the light.")[choice]
        slips = (("brightens the picture as a stand-in", ({"op": "image.adjust", "path": path, "brightness": 1.3},)),
                 ("rotates the picture as a stand-in", ({"op": "image.rotate", "path": path, "degrees": 90},)))
    elif kind == "missing":
        ghost = f"{rng.choice([g for g in GHOSTS if g != name.rpartition('.')[0]])}.{source.fmt}"
        request = f"Crop the picture {ghost}, which sits next to this one, to its left half."
        why = f"{folder} holds no picture named {ghost}"
        path_ghost = f"{folder}/{ghost}"
        slips = ((f"crops {name} instead", ({"op": "image.crop", "path": path, "box": [0, 0, width // 2, height]},)),
                 (f"makes {ghost} as a copy of {name}", ({"op": "fs.copy", "path": path, "dest": path_ghost},)))
    elif rng.random() < 0.5:
        request = (f"Make the picture twice as wide ({2 * width} pixels) while keeping it exactly {width} pixels "
                   f"wide.")
        why = "a picture cannot be twice as wide and keep its width at once"
        slips = (("doubles the width", ({"op": "image.resize", "path": path, "width": 2 * width, "height": height},)),
                 ("doubles both sides", ({"op": "image.resize", "path": path, "width": 2 * width,
                                          "height": 2 * height},)))
    else:
        request = "Convert the picture to grayscale, but keep every one of its colours exactly as it is."
        why = "a grayscale picture cannot keep its colours"
        slips = (("converts the picture to grayscale",
                  ({"op": "image.convert_mode", "path": path, "mode": "grayscale"},)),
                 ("turns the saturation down halfway", ({"op": "image.adjust", "path": path, "saturation": 0.5},)))
    facts = {"path": path, "subject": source.subject, "request": request}
    return Goal(None, facts, Impossible(path, why, slips))


WORKFLOW = family(
    NAME, gc.GIMP,
    description="Decline a picture request that cannot be done (a feature GIMP lacks, a picture that is not there, "
                "a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=gc.source_nodes(PICTURES, lambda params: "png"),
)
