"""The VLC media player app kit: families about VLC's own state in the user's home (its preferences file).

A VLC family is built like a files-and-terminal one (workflows/os/kit.py): `sample` -> `content` (the OS pool of
realistic names, offline from `workflows.os.content`) -> its `goal` (a tree of `FileSpec`s: the vlcrc, the media it
plays) -> `prepare` (tree -> assets; the task opens VLC) -> the shared instruction, rubric, solve, frame (the vlcrc's
own frame kind, verifiers/frame/vlcrc.py, and the file tree's) and teacher nodes. The `location` axis is left out:
VLC reads its preferences from one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kit.dag import NodeContext, node
from kit.family import AppKit
from preparers import tree
from workflows.os import kit as oc

APP = "vlc"
LAUNCH = ["vlc"]
#: Where VLC 3 on Linux keeps its preferences (XDG config folder).
VLCRC = oc.home(".config/vlc/vlcrc")


@node("prepare", "prepare", ("tree",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The tree's files as assets; the task opens VLC."""
    return {"assets": tree.build(values["tree"]), "launch": list(LAUNCH)}


#: The VLC app kit: families built with `kit.family.family(NAME, VLC, ...)`.
VLC: AppKit = replace(oc.kit_without("location"), apps=(APP,), prepare=prepare)
