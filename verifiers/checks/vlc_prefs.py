"""VLC preference primitives: an option of VLC's `~/.config/vlc/vlcrc`, judged by the value VLC would use.

The reader (verifiers/readers/vlcrc.py) follows VLC's loader: commented lines and section headers are skipped,
sections do not matter, the name is the text before `=` exactly, a boolean or integer must be a whole C integer in
the option's range, and the last accepted line wins; an option no line sets holds its default.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Prose, Said
from verifiers.readers import vlcrc

_ON = re.compile(r"\b(?:turn(?:ed)? on|switch(?:ed)? on|enable[sd]?|activate|tick|allow|start (?:it )?in|"
                 r"loop|repeat)\b", re.I)
_OFF = re.compile(r"\b(?:turn(?:ed)? off|switch(?:ed)? off|disable[sd]?|deactivate|untick|no longer)\b", re.I)


def read_vlcrc(state: State, path: str) -> list[vlcrc.Line]:
    return state.read(path, lambda host: vlcrc.lines(vlcrc.read_text(host)), "VLC vlcrc")


def stated_value(text: str, args: Mapping[str, Any]) -> str | None:
    """A number or folder is written in the instruction; a switch is asked to be turned on, never off."""
    value, kind = str(args.get("value", "")), args.get("kind")
    if kind == "bool":
        if value == "1" and (not _ON.search(text) or _OFF.search(text)):
            return "the instruction does not ask to turn the option on"
        if value == "0" and (not _OFF.search(text) or _ON.search(text)):
            return "the instruction does not ask to turn the option off"
        return None
    if value.rstrip("/") not in text:
        return f"the value {value!r} is not in the instruction"
    return None


def _same(kind: str, have: str, want: str) -> bool:
    if kind == "string":
        return have.rstrip("/") == want.rstrip("/") if want.startswith("/") else have == want
    if kind == "bool":
        return (have not in ("", "0")) == (want not in ("", "0"))
    return have == want


@primitive("vlcrc.option", grounded=("path", "option", "value"),
           meaning=Meaning(action=r"set|change|make|turn|switch|enable|raise|increas|allow|save|store|put|use|"
                                  r"configur|tweak|adjust|let|loop|repeat|open|start",
                           args={"option": Said("vlc_option"), "value": Prose(stated_value)}))
def option(state: State, path: str, option: str, value: str, kind: str, default: str, low: int | None = None,
           high: int | None = None) -> Result:
    """VLC uses `value` for `option` when it loads the vlcrc at `path` (`kind`: "bool", "int" or "string"; an
    option no accepted line sets holds `default`; an integer outside [`low`, `high`] is refused as VLC refuses it).
    A folder compares without a trailing slash; a switch by on or off."""
    have, source = vlcrc.effective(read_vlcrc(state, path), option, kind, default, low, high)
    if not _same(kind, have, value):
        near = [f"{'#' if x.kind == 'commented' else ''}{x.name}={x.value}" for x in read_vlcrc(state, path)
                if x.name.strip() == option and x.kind in ("option", "commented")]
        seen = f" (lines for it: {', '.join(repr(n) for n in near[:3])})" if near else ""
        return fail(f"{path}: VLC would use {option}={have!r} ({source}), not {value!r}{seen}")
    return ok(f"{path}: VLC uses {option}={have!r} ({source})")
