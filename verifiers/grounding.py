"""Grounding: is a literal stated in the instruction? Does an answer leak into it?"""

from __future__ import annotations

import re
from typing import Any


def renderings(value: Any) -> list[str]:
    """The ways a value may be written in prose: 1500 -> 1500, 1,500, 1500.00, 1,500.00."""
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, int | float):
        forms = {f"{value:,.2f}", f"{value:.2f}"}
        if float(value).is_integer():
            forms |= {str(int(value)), f"{int(value):,}"}
        else:
            forms |= {repr(float(value)), f"{value:,}"}
        return sorted(forms)
    return [str(value)]


def _pattern(text: str) -> re.Pattern[str]:
    # A number must stand alone: "15" is not stated by "150", "1.15" or the cell address "A15".
    if re.fullmatch(r"[\d.,-]+", text):
        return re.compile(rf"(?<![\w.,]){re.escape(text)}(?!\w|[.,]\d)")
    return re.compile(re.escape(text))


def mentions(text: str, value: Any) -> bool:
    """True when `text` states `value` (every item, for a list)."""
    if isinstance(value, list | tuple):
        return all(mentions(text, item) for item in value)
    return any(_pattern(form).search(text) for form in renderings(value))


def leaks(text: str, value: Any) -> bool:
    """True when an answer `value` (any item of a list) appears in student-facing `text`."""
    if isinstance(value, list | tuple):
        return any(leaks(text, item) for item in value)
    if isinstance(value, str) and len(value) < 3:
        return False  # too short to be an answer rather than a coincidence
    return mentions(text, value)
