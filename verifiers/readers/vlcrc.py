"""The VLC preferences reader: `~/.config/vlc/vlcrc` read the way VLC 3 reads it (src/config/file.c).

VLC writes the file whole when preferences are saved: a UTF-8 byte order mark, a `###` banner, then one
`[module] # long name` section per module, and per option a `# label (type)` line followed by the option, commented
out (`#loop=0`) while it holds its default and set (`loop=1`) once it differs. When VLC loads the file it skips every
line that starts with `#` or `[` or is empty, splits the others at the first `=` and looks the name up among all
options, sections ignored: the name is everything before `=` (so `loop = 1` names no option), a boolean or integer
must be a whole C integer (`strtoll` base 0: `1`, `0x10`; `true` or `200%` is ignored) within the option's range, and
a later line overrides an earlier one. `effective` answers what VLC would use; `facts` is the frame's model (verifiers/
frame/vlcrc.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from kit import bounded

MAX_BYTES = 1 << 20  # VLC's own vlcrc is ~150 KB; a larger file is no preferences file a person keeps
MAX_LINES = 50_000
BOM = "\ufeff"
_INT = re.compile(r"\s*[+-]?(?:0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
#: A commented-out option as VLC writes it (`#loop=0`): VLC's record of a default, no comment of the user's.
COMMENTED_OPTION = re.compile(r"^#(?P<name>[A-Za-z0-9][A-Za-z0-9_.:-]*)=(?P<value>.*)$")
_SECTION = re.compile(r"^\[(?P<name>[^\]]*)\]")


class VlcrcError(ValueError):
    """The file is not a vlcrc a check can read."""


@dataclass(frozen=True)
class Line:
    section: str  # the section header above it ("" before the first)
    kind: str  # "option" (VLC reads it), "commented" (#name=value), "comment", "section", "blank", "other"
    name: str = ""
    value: str = ""
    text: str = ""


def lines(text: str) -> list[Line]:
    """Every line of a vlcrc's text, classified as VLC's loader sees it (see the module doc)."""
    if len(text) > MAX_BYTES:
        raise VlcrcError(f"larger than {MAX_BYTES} bytes")
    text = text.removeprefix(BOM)
    out: list[Line] = []
    section = ""
    for raw in text.split("\n"):
        if len(out) >= MAX_LINES:
            raise VlcrcError(f"more than {MAX_LINES} lines")
        if not raw:
            out.append(Line(section, "blank"))
        elif raw[0] == "[":
            match = _SECTION.match(raw)
            if match:
                section = match["name"]
            out.append(Line(section, "section", text=raw))
        elif raw[0] == "#":
            option = COMMENTED_OPTION.match(raw)
            if option:
                out.append(Line(section, "commented", option["name"], option["value"]))
            else:
                out.append(Line(section, "comment", text=raw))
        elif "=" in raw:
            name, _, value = raw.partition("=")
            out.append(Line(section, "option", name, value))
        else:
            out.append(Line(section, "other", text=raw))
    return out


def c_integer(value: str) -> int | None:
    """`value` as C's strtoll(value, &end, 0) reads it when it consumes the whole text; None otherwise."""
    if not _INT.fullmatch(value):
        return None
    text = value.strip()
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    if digits[:2].lower() == "0x":
        return sign * int(digits[2:], 16)
    if len(digits) > 1 and digits[0] == "0":
        return sign * int(digits[1:], 8)
    return sign * int(digits)


def effective(parsed: list[Line], name: str, kind: str, default: str, low: int | None = None,
              high: int | None = None) -> tuple[str, str]:
    """(the value VLC uses for option `name`, where it comes from): the last line that sets it with a value VLC
    accepts for its `kind` ("bool", "int", "string"), else `default`. Numbers read back as decimal text."""
    found, source = default, "unset, the default"
    for line in parsed:
        if line.kind != "option" or line.name != name:
            continue
        if kind == "string":
            found, source = line.value, "set"
            continue
        number = c_integer(line.value)
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            continue  # VLC warns and keeps the value it had
        found, source = str(number), "set"
    return found, source


def facts(text: str) -> dict[str, str]:
    """The frame's model of a vlcrc: each option line's name -> its values in order (JSON; one line, one value;
    sections are no part of it, as VLC ignores them), and per section `[name]#comment` its comment lines (those
    before the first section are `#comment`). Commented-out options are VLC's record of defaults, and the `###`
    banner its version stamp: no facts, as VLC writes them anew on every save."""
    out: dict[str, str] = {}
    values: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}
    for line in lines(text):
        if line.kind == "option":
            values.setdefault(line.name, []).append(line.value)
        elif line.kind == "comment" and not line.text.startswith("###"):  # VLC's banner: its version, rewritten
            notes.setdefault(f"[{line.section}]#comment" if line.section else "#comment", []).append(line.text)
        elif line.kind == "other":
            values.setdefault(line.text, []).append("")
    for key, found in values.items():
        out[key] = json.dumps(found[0] if len(found) == 1 else found, ensure_ascii=False)
    for key, found in notes.items():
        out[key] = json.dumps(found, ensure_ascii=False)
    return out


def read_text(host: Path) -> str:
    """The text of the vlcrc at `host` (bounded; not UTF-8 raises)."""
    return bounded.read_file(host, MAX_BYTES).decode("utf-8")
