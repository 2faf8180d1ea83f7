"""The frame of VLC's preferences file `~/.config/vlc/vlcrc` (verifiers/readers/vlcrc.py reads it as VLC does).

Facts: each option line's name -> its values (sections are no part of an option, as VLC ignores them when it
loads the file), and per section its comment lines. Derived and judged like the config kind (verifiers/frame/
config.py): every option the task does not change keeps its values and none is added; a comment removed or changed
fails, one added is free. Commented-out options (`#loop=0`) are VLC's record of defaults and no fact: uncommenting
the asked one, or leaving it beside the new line, are both what a person (and VLC's own save) does.
"""

from __future__ import annotations

from pathlib import Path

from kit import bounded
from verifiers.frame import config
from verifiers.frame.kinds import FrameKind, register
from verifiers.readers import vlcrc

#: Where VLC reads its preferences (XDG config folder of the user).
VLCRC = "/.config/vlc/vlcrc"


def read(host: Path) -> dict[str, str]:
    """The facts of the vlcrc at `host`; a file too large, not UTF-8 or with too many lines reads as `#error`."""
    try:
        return vlcrc.facts(vlcrc.read_text(host))
    except (ValueError, bounded.LimitExceeded) as exc:
        return {"#error": f"{type(exc).__name__}: {str(exc)[:120]}"}


VLC = register(FrameKind(
    name="vlcrc", noun="VLC preferences file", matches=lambda dest: dest.endswith(VLCRC), read=read,
    derive=config.derive, judge=config.judge,
    kept_criterion="Nothing else in VLC's {dest} changed: every other option keeps its value, no option is added, "
                   "and every comment is still there.",
    made_criterion="VLC's {dest} holds nothing beyond what the task asks."))
