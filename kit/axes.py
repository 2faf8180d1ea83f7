"""Difficulty axes: the words and the arithmetic shared by the app kits, the expansion operators and the student.

An axis is a param a family declares in `Workflow.axes` (level names, the default first); a skill that does not
name it gets the default, so seed packages keep their bytes. Levels are short strings a person can read: a size
range ("40-60"), a place ("deep"), a format ("day_first"), a count of look-alikes ("2"). This module knows how
to read a size level, how to step along an axis, how to enumerate the atomic skill space (family x knob values x
axis levels) and how to say an axis level in words for a skill's one-line description.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What a level means, for descriptions: axis -> level -> phrase (levels not listed are said as "<axis> <level>").
PHRASES: dict[str, dict[str, str]] = {
    "location": {"near": "", "deep": "in a folder three levels down", "deeper": "in a folder six levels down",
                 "sub": "with the mail filed in a subfolder", "nested": "with the mail filed two folders down"},
    "date_format": {"iso": "", "day_first": "with dates shown day-first (31.12.2024)",
                    "month_first": "with dates shown month-first (12/31/2024)"},
    "lookalikes": {"0": "", "1": "with a look-alike older copy beside the file",
                   "2": "with two look-alike older copies beside the file"},
    "noise": {"none": "", "some": "among look-alike distractors", "many": "among many look-alike distractors"},
    "indirection": {"name": "", "property": "with the target column named by what it holds, not by its header"},
    "nesting": {"flat": "", "one": "with the bookmark folders inside another folder",
                "two": "with the bookmark folders two folders down"},
    "customized": {"none": "", "some": "in a profile with a few other settings already changed",
                   "many": "in a profile with many other settings already changed"},
}
#: The unit a size axis counts, for descriptions.
UNITS = {"rows": "rows", "paragraphs": "paragraphs", "slides": "slides", "messages": "messages", "files": "files",
         "bookmarks": "bookmark folders", "settings": "settings", "pixels": "pixels wide", "records": "records",
         "deck_slides": "slides"}


def span(level: str) -> tuple[int, int]:
    """The (low, high) of a size level such as "40-60" (a single number is both)."""
    low, _, high = str(level).partition("-")
    return int(low), int(high or low)


def pick(params: Mapping[str, Any], axis: str, levels: Mapping[str, tuple[Any, ...]]) -> Any:
    """The level of `axis` that `params` ask for (the default, the first level, when absent)."""
    return params.get(axis, levels[axis][0])


def index(levels: tuple[Any, ...], level: Any) -> int:
    """The position of `level` on its axis (0 = the default, easiest)."""
    return list(levels).index(level)


def step(levels: tuple[Any, ...], level: Any, by: int = 1) -> Any | None:
    """The level `by` steps further along the axis from `level`, or None past either end."""
    i = index(levels, level) + by
    return levels[i] if 0 <= i < len(levels) else None


def phrase(axis: str, level: Any) -> str:
    """How a non-default axis level reads in a description ('' for a default that adds nothing)."""
    if axis in UNITS:
        return f"with {level} {UNITS[axis]}"
    said = PHRASES.get(axis, {}).get(str(level))
    return f"{axis.replace('_', ' ')} {level}" if said is None else said


def describe(base: str, axes: Mapping[str, Any], defaults: Mapping[str, tuple[Any, ...]]) -> str:
    """A skill's description: `base` (its family and knobs in words) plus its non-default axis levels."""
    extra = [phrase(axis, level) for axis, level in sorted(axes.items())
             if axis in defaults and level != defaults[axis][0]]
    extra = [e for e in extra if e]
    text = base.rstrip(".")
    return f"{text}, {', '.join(extra)}." if extra else f"{text}."


def axis_params(params: Mapping[str, Any], axes: Mapping[str, tuple[Any, ...]]) -> dict[str, Any]:
    """Every axis level of a skill's params, defaults filled in: what the student and the statistics read."""
    return {axis: params.get(axis, levels[0]) for axis, levels in axes.items()}


def space_size(knobs: Mapping[str, tuple[Any, ...]], axes: Mapping[str, tuple[Any, ...]]) -> int:
    """How many atomic skills one family holds: knob combinations x axis level combinations."""
    size = 1
    for values in (*knobs.values(), *axes.values()):
        size *= len(values)
    return size


#: The `location` axis every kit with a working folder shares: how much deeper the file sits.
LOCATION = ("near", "deep", "deeper")
_DEEPER = {"near": "", "deep": "archive/2024/kept", "deeper": "archive/2024/q3/kept/final/copies"}


def deepen(folder: str, level: str) -> str:
    """`folder` moved down by the `location` level: near keeps it, deep adds three levels, deeper six. No
    random draw, so a kit's draws are the same at every level."""
    extra = _DEEPER[level]
    return f"{folder}/{extra}" if extra else folder


#: The `lookalikes` axis: older copies of the working file beside it ("report (old).xlsx", "report_backup.xlsx").
LOOKALIKES = ("0", "1", "2")
_COPY_NAMES = ("{stem} (old){ext}", "{stem}_backup{ext}")


def look_alike_paths(path: str, count: int | str) -> list[str]:
    """The paths of `count` look-alike copies of `path`, in its folder."""
    folder, name = path.rsplit("/", 1)
    stem, dot, ext = name.rpartition(".")
    stem, ext = (stem, dot + ext) if dot and stem else (name, "")
    return [f"{folder}/{pattern.format(stem=stem, ext=ext)}" for pattern in _COPY_NAMES[:int(count)]]
