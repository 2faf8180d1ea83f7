"""vlc.infeasible: a VLC preference request that VLC or its files cannot satisfy; decline, change nothing.

The state is vlc.preferences' lived-in ~/.config/vlc/vlcrc. Kinds (workflows.infeasible_kit): `feature` asks for
what VLC does not do (a maximum volume above the 300 % its interface allows, videos played as a hologram above the
screen, a video's smell played with it); `missing` asks to restore the preferences from a backup file that is not
there; `contradiction` asks for one instance only while several VLC windows keep running side by side, or minimal
view while the menus always show. The near-misses are an eager agent's stand-ins, each an edit of the vlcrc: the
volume set to 300 or to the refused value, minimal view, start paused or repeat turned on, the options turned on
anyway, the changed options reset to their defaults.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kit.family import Goal, family
from preparers.tree import FileSpec
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve
from workflows.os import kit as oc
from workflows.vlc import kit as vk
from workflows.vlc.preferences import BY_NAME, PATH, lived_in, vlcrc

NAME = "vlc.infeasible"
PHRASINGS = (
    "VLC keeps its preferences in {path}. {request}",
    "Change VLC's preferences ({path}): {request.inline}. Keep every other setting as it is.",
    "Please configure VLC media player, whose settings live in {path}. {request}",
    "In VLC's configuration file {path}: {request.inline}.",
    "One change to VLC's preferences in {path}. {request} Nothing else should change.",
)
NATURAL = (
    "Could you set up my VLC for me? {request} Its settings file is {path}.",
    "I'd like VLC to work differently: {request.inline}. The config is {path}.",
    "Please help me with VLC media player: {request.inline}. It reads {path}.",
    "Quick favour with my VLC: {request.inline}. Everything is in {path}.",
    "Here's what I want from VLC. {request} Its settings are in {path}.",
)


def _set(name: str, value: str) -> dict[str, Any]:
    return {"op": "fs.vlcrc_set", "path": PATH, "options": {name: value}, "section": BY_NAME[name].section}


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Impossible]:
    changed = {**lived_in(rng), "qt-max-volume": str(rng.choice((150, 200))), "random": "1"}
    kind = params["impossible"]
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    if kind == "feature":
        choice = rng.randrange(3)
        why = f"VLC has no such feature: the request {KIND_TEXT[kind]}"
        if choice == 0:
            volume = rng.choice((400, 500, 600, 800, 1000))
            request = (f"Raise the maximum volume the VLC interface shows to {volume}%, so the volume slider goes "
                       f"up to {volume}%.")
            why = f"VLC's interface allows a maximum volume of at most 300%, not {volume}%"
            slips = (("sets the maximum volume to 300% as a stand-in", (_set("qt-max-volume", "300"),)),
                     (f"writes qt-max-volume={volume}, which VLC refuses", (_set("qt-max-volume", str(volume)),)))
        elif choice == 1:
            request = "Make VLC play every video as a 3D hologram floating above the screen."
            slips = (("starts VLC in minimal view as a stand-in", (_set("qt-minimal-view", "1"),)),
                     ("turns on start paused as a stand-in", (_set("start-paused", "1"),)))
        else:
            request = "Make VLC release the smell of each scene while the video plays."
            slips = (("turns on repeat all as a stand-in", (_set("loop", "1"),)),
                     ("turns on repeat current item as a stand-in", (_set("repeat", "1"),)))
    elif kind == "missing":
        backup = rng.choice(("vlcrc.bak", "vlcrc.old", "vlcrc-2023", "vlcrc.backup", "vlcrc.orig"))
        request = (f"Restore VLC's settings from my backup file {backup}, which sits next to the current vlcrc "
                   "in the same folder.")
        why = f"~/.config/vlc holds no backup file named {backup}, only the current vlcrc"
        slips = (("resets the maximum volume to its default as a stand-in", (_set("qt-max-volume", "125"),)),
                 ("turns shuffle off, as if restoring defaults", (_set("random", "0"),)))
    elif rng.random() < 0.5:
        request = ("Turn on 'Allow only one instance' (one instance only), but keep every file I open starting its "
                   "own separate VLC window running side by side.")
        why = "VLC cannot allow only one instance and run a separate instance per file at once"
        slips = (("turns on one instance only", (_set("one-instance", "1"),)),
                 ("turns on enqueueing in one instance mode", (_set("playlist-enqueue", "1"),)))
    else:
        request = "Make VLC start in minimal view without the menus, while always showing its full menu bar."
        why = "VLC's minimal view hides the menus, so it cannot show the full menu bar at the same time"
        slips = (("turns on minimal view", (_set("qt-minimal-view", "1"),)),
                 ("starts VLC minimized to the tray instead", (_set("qt-start-minimized", "1"),)))
    facts = {"path": PATH, "request": request}
    spec = [FileSpec(PATH, "text", vlcrc(changed))]
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts, Impossible(PATH, why, slips))


WORKFLOW = family(
    NAME, vk.VLC,
    description="Decline a VLC preference request that cannot be done (a feature VLC lacks, a backup file that is "
                "not there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
