"""LibreOffice option primitives: settings in the user profile's `registrymodifications.xcu`.

The file is a flat list of `<item oor:path="/org.openoffice.Office.Recovery/AutoSave"><prop oor:name="TimeIntervall"
oor:op="fuse"><value>10</value></prop></item>` entries (a set's members nest one `node` deeper). LibreOffice reads
them in order, so where one setting appears twice the later value wins; it writes the file again whole when it
quits (its own order and many more items), so only the settings' values count, never the text. A setting is named
`<item path>:<prop name>`. Booleans compare case-insensitively ("true"/"false": a 0 or 1 is no boolean to
LibreOffice), numbers by value, text exactly. The reader is bounded: a file over 4 MiB, one with a DOCTYPE or
entities, or one that does not parse fails the check.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Prose, Said

OOR = "http://openoffice.org/2001/registry"
MAX_BYTES = 4 << 20
_OFF = re.compile(r"\b(?:turn(?:ed)? (?:it |that )?off|switch(?:ed)? (?:it |that )?off|disabl|don'?t|stop|off\b|"
                  r"no longer)", re.IGNORECASE)
_ON = re.compile(r"\b(?:turn(?:ed)? (?:it |that )?on|switch(?:ed)? (?:it |that )?on|enabl|on\b|activat)",
                 re.IGNORECASE)


class XcuError(ValueError):
    """The file is not a registrymodifications.xcu a check can read."""


def parse_xcu(data: bytes) -> dict[str, str]:
    """{'<item path>:<prop>' (a set member's: '<item path>/<node name>:<prop>'): its last value} of an xcu's bytes;
    a nil value reads as ''. A list value (`<it>` children) reads as its items joined by newlines."""
    if len(data) > MAX_BYTES:
        raise XcuError(f"larger than {MAX_BYTES} bytes")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise XcuError("it declares a DOCTYPE or entities")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise XcuError(f"not well-formed XML: {exc}") from exc
    path_attr, name_attr = f"{{{OOR}}}path", f"{{{OOR}}}name"
    settings: dict[str, str] = {}

    def props(parent: ET.Element, where: str) -> None:
        for child in parent:
            if child.tag == "prop":
                value = child.find("value")
                items = [] if value is None else [it.text or "" for it in value.findall("it")]
                text = "" if value is None else ("\n".join(items) if items else (value.text or ""))
                settings[f"{where}:{child.get(name_attr, '')}"] = text
            elif child.tag == "node":
                props(child, f"{where}/{child.get(name_attr, '')}")

    for item in root.iter("item"):
        props(item, item.get(path_attr, ""))
    return settings


def read_xcu(state: State, path: str) -> dict[str, str]:
    def parse(host: Any) -> dict[str, str]:
        return parse_xcu(bounded.read_file(host))
    return state.read(path, parse, "LibreOffice registrymodifications.xcu")


def same(have: str | None, want: str) -> bool:
    """Does the value `have` mean `want` (booleans by case, numbers by value)?"""
    if have is None:
        return False
    if want.lower() in ("true", "false"):
        return have.strip().lower() == want.lower()
    if re.fullmatch(r"-?\d+", want):
        return re.fullmatch(r"\s*-?\d+\s*", have) is not None and int(have) == int(want)
    return have == want


def stated_values(text: str, args: Mapping[str, Any]) -> str | None:
    """Each asked value is in the instruction: a number or text literally, a boolean by words that turn it off/on."""
    for key, value in dict(args.get("settings") or {}).items():
        value = str(value)
        if value.lower() == "false" and not _OFF.search(text):
            return f"{key} is to be switched off, but the instruction never says off or disable"
        if value.lower() == "true" and not _ON.search(text):
            return f"{key} is to be switched on, but the instruction never says on or enable"
        if value.lower() not in ("true", "false") and value not in text:
            return f"the value {value!r} of {key} is not in the instruction"
    return None


@primitive("xcu.option", grounded=("path", "option", "settings"),
           meaning=Meaning(action=r"set|change|make|turn|switch|disabl|enabl|use|save|put|edit|configur",
                           args={"option": Said("lo_option"), "settings": Prose(stated_values)}))
def option(state: State, path: str, option: str, settings: dict[str, str]) -> Result:
    """In the LibreOffice profile file at `path`, each of `settings` ({'<item path>:<prop>': value}, the option
    `option` of the user's words) holds its value."""
    try:
        have = read_xcu(state, path)
    except XcuError as exc:
        return fail(f"{path} cannot be read: {exc}")
    wrong = [f"{key} = {have[key]!r}" if key in have else f"{key} is not set" for key, want in settings.items()
             if not same(have.get(key), str(want))]
    if wrong:
        return fail(f"{path}: the {option} option is not as asked: {'; '.join(wrong[:4])}")
    shown = ", ".join(f"{key.rsplit(':', 1)[1]} = {value}" for key, value in settings.items())
    return ok(f"{path}: {shown}")


@primitive("xcu.kept", grounded=("path",),
           meaning=Meaning(action=None, why="the profile's other settings, kept around the asked option; "
                                            "LibreOffice adds its own when it runs, so only these are read"))
def kept(state: State, path: str, settings: dict[str, str]) -> Result:
    """Each of `settings` (the profile's other settings as they were) still holds its value; settings LibreOffice
    adds on its own (window states, recent files) are free."""
    try:
        have = read_xcu(state, path)
    except XcuError as exc:
        return fail(f"{path} cannot be read: {exc}")
    changed = [f"{key} = {have[key]!r} (was {want!r})" if key in have else f"{key} is gone"
               for key, want in settings.items() if not same(have.get(key), str(want))]
    if changed:
        return fail(f"{path}: {len(changed)} other setting(s) changed: {'; '.join(changed[:4])}")
    return ok(f"{path}: the other {len(settings)} settings are as they were")
