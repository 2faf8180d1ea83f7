"""The xlsx reader's formats: what a number format code displays (`parse_format`, Excel or LibreOffice flavored;
`render_date` shows a date through it) and the colors a workbook stores (an ARGB, RGB or palette color; a cell's
fill), for the xlsx format checks (`verifiers.checks.xlsx_format`). Workbooks, cells, the sheet view and charts
are read by `verifiers.readers.xlsx`.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from openpyxl.styles.colors import COLOR_INDEX

# --- colors -------------------------------------------------------------------------------------------

def rgb_of(color: Any) -> str | None:
    """'FFC7CE' for an openpyxl Color given as ARGB/RGB or a palette index; None for theme/auto colors."""
    if color is None:
        return None
    kind = getattr(color, "type", None)
    if kind == "rgb" and isinstance(color.rgb, str):
        text = color.rgb
    elif kind == "indexed" and isinstance(color.indexed, int) and 0 <= color.indexed < len(COLOR_INDEX):
        if color.indexed >= 64:  # system foreground/background: not a chosen color
            return None
        text = COLOR_INDEX[color.indexed]
    else:
        return None
    text = text.strip().upper()
    return text[-6:] if len(text) in (6, 8) else None


# --- number format codes ------------------------------------------------------------------------------

_CURRENCY_CHARS = "$€£¥₹₩₽¤"
_LITERAL_CHARS = set("$-+/():!^&'~{}<>= ")


@dataclass(frozen=True)
class FormatInfo:
    """What a number format code displays (first section only)."""

    kind: str  # general | text | number | percent | currency | date | scientific
    decimals: int
    thousands: bool
    symbols: str  # currency symbols shown
    tokens: tuple[tuple[str, str], ...]  # ("lit", text) | ("code", char)


def _tokens(section: str) -> tuple[list[tuple[str, str]], str]:
    """Split one format section into literal text and code characters; also return currency symbols."""
    tokens: list[tuple[str, str]] = []
    symbols = ""
    i = 0
    while i < len(section):
        ch = section[i]
        if ch == '"':
            end = section.find('"', i + 1)
            end = len(section) if end < 0 else end
            tokens.append(("lit", section[i + 1:end]))
            i = end + 1
        elif ch == "\\" and i + 1 < len(section):
            tokens.append(("lit", section[i + 1]))
            i += 2
        elif ch in "_*" and i + 1 < len(section):
            if ch == "_":
                tokens.append(("lit", " "))
            i += 2
        elif ch == "[":
            end = section.find("]", i + 1)
            end = len(section) if end < 0 else end
            inner = section[i + 1:end]
            if inner.startswith("$"):
                symbol = inner[1:].split("-", 1)[0]
                if symbol:
                    tokens.append(("lit", symbol))
            elif re.fullmatch(r"[hHmMsS]+", inner):  # elapsed time, e.g. [h]
                tokens.extend(("code", c) for c in inner)
            i = end + 1
        elif ch in _LITERAL_CHARS:
            tokens.append(("lit", ch))
            i += 1
        else:
            tokens.append(("code", ch))
            i += 1
    for kind, text in tokens:
        if kind == "lit":
            symbols += "".join(c for c in text if c in _CURRENCY_CHARS)
            for word in ("USD", "EUR", "GBP"):
                if word in text.upper():
                    symbols += word
    return tokens, symbols


def _first_section(code: str) -> str:
    """The section used for positive numbers: split on ';' outside quotes, brackets and escapes."""
    depth_quote, depth_bracket, i = False, False, 0
    while i < len(code):
        ch = code[i]
        if ch == "\\" and not depth_quote:
            i += 2
            continue
        if ch == '"':
            depth_quote = not depth_quote
        elif ch == "[" and not depth_quote:
            depth_bracket = True
        elif ch == "]" and not depth_quote:
            depth_bracket = False
        elif ch == ";" and not depth_quote and not depth_bracket:
            return code[:i]
        i += 1
    return code


def parse_format(code: str | None) -> FormatInfo:
    """Classify a number format code (Excel or LibreOffice flavored) by what it displays."""
    text = _first_section(code or "General")
    if text.strip().lower() in ("general", "standard", ""):
        return FormatInfo("general", 0, False, "", ())
    tokens, symbols = _tokens(text)
    chars = "".join(c for kind, c in tokens if kind == "code")
    low = chars.lower()
    placeholders = re.search(r"[0#?]", chars) is not None
    number_part = re.sub(r"[^0#?.,%eE]", "", chars)
    point = number_part.find(".")
    decimals = len(re.sub(r"[^0#?].*$", "", number_part[point + 1:])) if point >= 0 else 0
    thousands = re.search(r"[0#?],[0#?]", number_part) is not None
    if re.search(r"[ydhs]", low) or ("m" in low and not placeholders):
        kind = "date"
    elif "general" in low:
        kind = "general"
    elif not placeholders:
        kind = "text" if "@" in chars else "general"
    elif "%" in chars:
        kind = "percent"
    elif symbols:
        kind = "currency"
    elif re.search(r"[eE][-+]", text):
        kind = "scientific"
    else:
        kind = "number"
    return FormatInfo(kind, decimals, thousands, symbols, tuple(tokens))


def render_date(code: str | None, day: dt.date) -> str:
    """How a date format code shows `day` (year, month, day, weekday tokens; time tokens as zeros)."""
    info = parse_format(code)
    out: list[str] = []
    runs: list[tuple[str, str]] = []  # ("lit", text) | ("run", "mmm")
    for kind, ch in info.tokens:
        if kind == "code" and ch.lower() in "ymdhs" and runs and runs[-1][0] == "run" and runs[-1][1][0] == ch.lower():
            runs[-1] = ("run", runs[-1][1] + ch.lower())
        elif kind == "code" and ch.lower() in "ymdhs":
            runs.append(("run", ch.lower()))
        elif kind == "code" and ch in "@":
            continue
        else:
            runs.append(("lit", ch))
    letters = [r[1][0] for r in runs if r[0] == "run"]
    position = 0
    for kind, text in runs:
        if kind == "lit":
            out.append(text)
            continue
        before = letters[position - 1] if position else ""
        after = letters[position + 1] if position + 1 < len(letters) else ""
        position += 1
        n = len(text)
        if text[0] == "y":
            out.append(f"{day.year % 100:02d}" if n <= 2 else f"{day.year:04d}")
        elif text[0] == "m" and (before == "h" or after == "s"):
            out.append("00" if n >= 2 else "0")
        elif text[0] == "m":
            out.append({1: str(day.month), 2: f"{day.month:02d}", 3: calendar.month_abbr[day.month]}.get(
                n, calendar.month_name[day.month] if n == 4 else calendar.month_name[day.month][0]))
        elif text[0] == "d":
            out.append({1: str(day.day), 2: f"{day.day:02d}", 3: calendar.day_abbr[day.weekday()]}.get(
                n, calendar.day_name[day.weekday()]))
        else:
            out.append("00" if n >= 2 else "0")
    return re.sub(r"\s+", " ", "".join(out)).strip()


# --- a cell's fill ------------------------------------------------------------------------------------

def fill_color(cell: Any) -> str | None:
    fill = cell.fill
    if fill is None or getattr(fill, "fill_type", None) in (None, "none"):
        return None
    return rgb_of(fill.fgColor) if fill.fill_type == "solid" else rgb_of(fill.fgColor) or rgb_of(fill.bgColor)
