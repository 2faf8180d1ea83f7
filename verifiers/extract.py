"""The offline round trip: rebuild a rubric's goal-defining arguments from the instruction text alone.

For every argument a check's meaning declares a goal (`Said`, `ReadBack`: verifiers/meaning.py, next to the check),
a reader returns what the instruction asks for: a lexicon value (verifiers/lexicon.py: `descending` -> "asc"/"desc",
`chart_type` -> "bar"...) or a number read next to its cue ("top 4", "becomes slide 6", "90°", "mode 755", "at least
16 pt"). Grounding compares the rebuilt values with the rubric's: the rubric's value must be among them, and nothing
the instruction asks for may contradict it. Readers are deterministic regular expressions: no model, no network,
same answer every run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from verifiers.lexicon import DOMAINS, prose


def expressed(text: str, domain: str) -> dict[str, list[str]]:
    """Domain value -> the instruction's phrases for it."""
    return DOMAINS[domain].expressed(text)


# --- numbers read next to their cue ---------------------------------------------------------------------

_NUMBER = r"(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)"
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12}


def number(text: str) -> float:
    return float(text.replace(",", ""))


def _numbers(pattern: str, text: str) -> list[float]:
    found = []
    for match in re.finditer(pattern, text, re.IGNORECASE):
        found += [number(g) for g in match.groups() if g is not None]
    return found


#: operator -> the pattern that reads its operand(s) after the operator's phrase
_OPERANDS = {
    "greaterThan": rf"\b(?:greater|more|larger|higher|bigger) than\s+\$?{_NUMBER}"
                   rf"|\b(?:above|exceeds?|exceeding)\s+\$?{_NUMBER}",
    "lessThan": rf"\b(?:less|fewer|smaller|lower) than\s+\$?{_NUMBER}|\bbelow\s+\$?{_NUMBER}",
    "greaterThanOrEqual": rf"\b(?:greater than or equal to|at least|no less than)\s+\$?{_NUMBER}",
    "lessThanOrEqual": rf"\b(?:less than or equal to|at most|no more than)\s+\$?{_NUMBER}",
    "between": rf"\bbetween\s+\$?{_NUMBER}\s+and\s+\$?{_NUMBER}",
    "notBetween": rf"\bnot between\s+\$?{_NUMBER}\s+and\s+\$?{_NUMBER}",
    "equal": rf"\b(?:equal to|equals)\s+\$?{_NUMBER}",
    "notEqual": rf"\b(?:not equal to|different from)\s+\$?{_NUMBER}",
    "top": r"\b(?:top|highest|largest)[- ](\d+)\b",
    "bottom": r"\b(?:bottom|lowest|smallest)[- ](\d+)\b",
}


def operands(text: str, operator: str) -> list[float] | None:
    """The number(s) the instruction gives for a comparison `operator` (first phrase), or None if unread."""
    pattern = _OPERANDS.get(operator)
    if pattern is None:
        return None
    match = re.search(pattern, prose(text), re.IGNORECASE)
    if match is None:
        return None
    return [number(g) for g in match.groups() if g is not None]


def target_positions(text: str) -> set[int]:
    """Slide numbers the instruction names as where a slide must end up ("so that it becomes slide 6")."""
    text = prose(text)
    found = {int(n) for n in _numbers(r"\b(?:becom\w*|ends? up as|to be|into|to|as|at)\s+(?:slide|position)"
                                      r"\s+(?:number\s+)?(\d+)\b", text)}
    for word, n in _ORDINALS.items():
        if re.search(rf"\b(?:becom\w*|as|to be)\s+the\s+{word}\s+slide\b", text, re.IGNORECASE):
            found.add(n)
    return found


def degrees(text: str) -> set[int]:
    """Rotation angles the instruction states (90°, 180 degrees, a quarter turn, upside down)."""
    text = prose(text)
    found = {int(n) for n in _numbers(r"\b(\d+)\s*(?:°|degrees?\b|deg\b)", text)}
    if re.search(r"\bquarter[- ]turn\b", text, re.IGNORECASE):
        found.add(90)
    if re.search(r"\bhalf[- ]turn\b", text, re.IGNORECASE):
        found.add(180)
    return found


def spacing_values(text: str, rule: str) -> set[float]:
    """Line-spacing values stated for `rule`: lines for "multiple", points for "atLeast"/"exact"."""
    text = prose(text)
    if rule == "multiple":
        words = {"single": 1.0, "double": 2.0, "one and a half": 1.5}
        found = {v for w, v in words.items() if re.search(rf"\b{w}\b", text, re.IGNORECASE)}
        return found | set(_numbers(r"\b(\d+(?:\.\d+)?)\s*(?:-|\s)?lines?\b", text)) | set(
            _numbers(r"\b(\d+(?:\.\d+)?)\s+line spacing\b", text))
    return set(_numbers(r"\b(\d+(?:\.\d+)?)\s*(?:pt|points?)\b", text))


_SYMBOLIC = re.compile(r"(?<![\w-])([r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-])(?![\w-])")


def modes(text: str) -> set[str]:
    """File modes the instruction states, as three octal digits: "mode 755", "chmod 0640", "rw-r-----"."""
    found = {m.lstrip("0").rjust(3, "0")[-3:] for m in re.findall(r"\b(?:mode|chmod|permissions?)\s+(0?[0-7]{3})\b",
                                                                  prose(text), re.IGNORECASE)}
    for sym in _SYMBOLIC.findall(text):
        digits = ""
        for i in range(0, 9, 3):
            r, w, x = sym[i:i + 3]
            digits += str((r == "r") * 4 + (w == "w") * 2 + (x in "xst") * 1)
        found.add(digits)
    return found


def counted(text: str, noun: str) -> set[int]:
    """Counts stated for `noun` ("4 rows", "3 columns", "a 5 x 4 table" gives rows 5 and columns 4)."""
    text = prose(text)
    found = {int(n) for n in _numbers(rf"\b(\d+)\s+{noun}", text)}
    grid = re.search(r"\b(\d+)\s*[x×]\s*(\d+)\s+table\b(\s*\(columns? x rows?\))?", text)
    if grid:  # "a 5 x 4 table" is rows x columns unless it says "(columns x rows)"
        rows_first = grid.group(3) is None
        found.add(int(grid.group(1 if noun.startswith("row") == rows_first else 2)))
    return found


def decimals(text: str) -> set[int]:
    """Decimal places stated ("2 decimal places", "no decimals")."""
    text = prose(text)
    found = {int(n) for n in _numbers(r"\b(\d+)\s+decimal(?: places?|s)?\b", text)}
    if re.search(r"\b(?:no|zero|without) decimals?\b|\bwhole numbers?\b", text, re.IGNORECASE):
        found.add(0)
    return found


def placement(text: str) -> list[tuple[str, str]]:
    """Where a slide goes relative to another: [("after", "Intro"), ("before", "Q&A"), ("end", ""), ("second", "")]."""
    found = [(m.group(1).lower(), m.group(2)) for m in re.finditer(
        r"\b(?:(?:directly|right|immediately|just)\s+)?(after|before)\s+(?:the\s+)?(?:cover\s+)?(?:slide\s+)?'([^']+)'",
        text, re.IGNORECASE)]
    if re.search(r"\b(?:at|to) the (?:very )?end\b|\bthe last slide\b|\bsits? last\b", text, re.IGNORECASE):
        found.append(("end", ""))
    if re.search(r"\bright after the cover slide\b|\bbecoming slide 2\b", text, re.IGNORECASE):
        found.append(("second", ""))
    return found


#: hue ranges (degrees) -> the colour words an instruction uses for them
_HUES = (("red", 345, 15), ("orange", 15, 40), ("yellow", 40, 70), ("green", 70, 170), ("blue", 170, 250),
         ("purple", 250, 345))
_COLOUR_WORDS = {"red": r"red|crimson|scarlet|maroon", "orange": r"orange|amber", "yellow": r"yellow|gold",
                 "green": r"green|lime|olive|teal", "blue": r"blue|navy|teal|cyan|turquoise",
                 "purple": r"purple|violet|lavender|magenta|lilac", "pink": r"pink|rose|salmon"}
_NEIGHBOURS = {"red": {"red", "pink", "orange"}, "orange": {"orange", "red", "yellow"},
               "yellow": {"yellow", "orange", "green"}, "green": {"green", "yellow", "blue"},
               "blue": {"blue", "green", "purple"}, "purple": {"purple", "blue", "pink", "red"}}


def hue(hex_colour: str) -> str | None:
    """The colour family of an RGB hex like "FFC7CE" (None for greys, whites and blacks)."""
    if not re.fullmatch(r"#?[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?", hex_colour):
        return None
    digits = hex_colour.lstrip("#")[-6:]
    r, g, b = (int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))
    high, low = max(r, g, b), min(r, g, b)
    if high - low < 0.06:
        return None
    if high == r:
        angle = (60 * (g - b) / (high - low)) % 360
    elif high == g:
        angle = 60 * (b - r) / (high - low) + 120
    else:
        angle = 60 * (r - g) / (high - low) + 240
    for name, start, end in _HUES:
        if (start <= angle < end) if start < end else (angle >= start or angle < end):
            return name
    return None


def colour_words(text: str) -> dict[str, str]:
    """Colour family -> the first word of `text` (quotes and paths masked) that names it."""
    text = prose(text)
    found = {}
    for family, pattern in _COLOUR_WORDS.items():
        match = re.search(rf"\b(?:{pattern})\b", text, re.IGNORECASE)
        if match:
            found[family] = match.group(0)
    return found


def clashes(hex_colour: str, text: str) -> str | None:
    """A colour word of `text` that cannot describe `hex_colour` (e.g. "light green" for FFC7CE), if any."""
    family = hue(hex_colour)
    if family is None:
        return None
    for other, word in colour_words(text).items():
        if other not in _NEIGHBOURS[family]:
            return word
    return None


def crop_claims(text: str) -> list[tuple[str, Callable[[list[int]], bool]]]:
    """What the instruction says about a crop box [left, top, right, bottom], as (phrase, test) pairs."""
    text = prose(text)
    claims: list[tuple[str, Callable[[list[int]], bool]]] = []
    corner = re.search(r"\bx\s*=\s*(\d+),?\s*(?:and\s+)?y\s*=\s*(\d+)", text)
    if corner:
        x, y = int(corner.group(1)), int(corner.group(2))
        claims.append((corner.group(0), lambda b: b[0] == x and b[1] == y))
    wide = re.search(r"\b(\d+)\s*(?:pixels?|px)\s+wide\b", text)
    if wide:
        w = int(wide.group(1))
        claims.append((wide.group(0), lambda b: b[2] - b[0] == w))
    high = re.search(r"\b(\d+)\s*(?:pixels?|px)\s+(?:high|tall)\b", text)
    if high:
        h = int(high.group(1))
        claims.append((high.group(0), lambda b: b[3] - b[1] == h))
    border = re.search(r"\b(\d+)[- ]pixels?\s+border\b", text)
    if border:
        n = int(border.group(1))
        claims.append((border.group(0), lambda b: b[0] == n and b[1] == n))
    if re.search(r"\bsquare\b", text, re.IGNORECASE):
        claims.append(("square", lambda b: b[2] - b[0] == b[3] - b[1]))
    half = re.search(r"\b(left|right|top|bottom)\s+half\b", text, re.IGNORECASE)
    if half:
        side = half.group(1).lower()
        tests = {"left": lambda b: b[0] == 0 and b[1] == 0, "top": lambda b: b[0] == 0 and b[1] == 0,
                 "right": lambda b: b[0] > 0 and b[1] == 0, "bottom": lambda b: b[1] > 0 and b[0] == 0}
        claims.append((half.group(0), tests[side]))
    return claims


def sizes(text: str) -> set[tuple[int, int]]:
    """Pixel sizes stated as "600 by 400 pixels" or "576 x 384 px"."""
    return {(int(w), int(h)) for w, h in re.findall(r"\b(\d+)\s*(?:x|by|×)\s*(\d+)\s*(?:-?pixels?|px)\b",
                                                     prose(text), re.IGNORECASE)}


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")


def dates(text: str) -> set[str]:
    """Calendar dates stated as 2024-09-10 or 10 September 2024 (or September 10, 2024), as ISO strings."""
    found = set(re.findall(r"\b(\d{4}-\d{2}-\d{2})\b", text))
    months = "|".join(_MONTHS)
    for day, month, year in re.findall(rf"\b(\d{{1,2}})\s+({months})\s+(\d{{4}})\b", text, re.IGNORECASE):
        found.add(f"{year}-{_MONTHS.index(month.lower()) + 1:02d}-{int(day):02d}")
    for month, day, year in re.findall(rf"\b({months})\s+(\d{{1,2}}),?\s+(\d{{4}})\b", text, re.IGNORECASE):
        found.add(f"{year}-{_MONTHS.index(month.lower()) + 1:02d}-{int(day):02d}")
    return found


def neighbours(text: str) -> list[tuple[str, str, str]]:
    """(subject, "after"|"before", anchor) for "'New' directly after 'Old'"-like phrases: the subject is the
    nearest quoted name before the relation (the sheet, slide or bullet being placed)."""
    found = []
    quoted = [(m.end(), m.group(1)) for m in re.finditer(r"(?<!\w)'([^'\n]+?)'(?!\w)", text)]
    for m in re.finditer(r"\b(?:(?:directly|right|immediately|just)\s+)?(after|before)\s+(?:the\s+)?"
                         r"(?:(?:slide|sheet|bullet(?: point)?|item)\s+)?'([^'\n]+?)'", text, re.IGNORECASE):
        before = [(end, name) for end, name in quoted if end <= m.start()]
        # the subject is named in the same clause, just before: "move 'X' (slide 3) directly after 'Y'"
        listed = re.match(r"\s*:\s*'([^'\n]+?)'(?!\w)", text[m.end():])
        if listed:  # "add these bullets at the end, after 'Y': 'X1' and 'X2'" places X1 right after Y
            found.append((listed.group(1), m.group(1).lower(), m.group(2)))
        elif before and m.start() - before[-1][0] <= 60 and not re.search(r"[.;:]", text[before[-1][0]:m.start()]):
            found.append((before[-1][1], m.group(1).lower(), m.group(2)))
    return found


def current_positions(text: str) -> set[int]:
    """Where the instruction says a slide is now: "(currently slide 3)", "now slide 3", "which is slide 3"."""
    return {int(n) for n in re.findall(r"\b(?:currently|now|which is|at present)\s+(?:the\s+)?slide\s+(\d+)\b",
                                       text, re.IGNORECASE)}


_EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
_DATED = re.compile(r"\b(before|after|older than|earlier than|newer than|later than|since)\s+(\d{4}-\d{2}-\d{2})\b"
                    r"(?!\s+or\s+(?:later|earlier|after|before))", re.IGNORECASE)


def on_side(word: str, day: str, cutoff: str) -> bool:
    """Is the ISO `day` `word` ("before", "older than", "since", "after" ...) the ISO `cutoff`?"""
    word = word.lower()
    if word in ("before", "older than", "earlier than"):
        return day < cutoff
    return day >= cutoff if word == "since" else day > cutoff


def _dated_side(word: str, cutoff: str) -> Callable[[str, str], bool]:
    def holds(name: str, _sha: str) -> bool:
        found = re.findall(r"\d{4}-\d{2}-\d{2}", name.rsplit("/", 1)[-1])
        return bool(found) and all(on_side(word, day, cutoff) for day in found)
    return holds


def _ends_with(suffix: str) -> Callable[[str, str], bool]:
    return lambda name, _sha: name.lower().endswith(suffix)


def deletes_the_rest(text: str) -> bool:
    """"Delete everything else", "remove all other files": the instruction empties the folder."""
    verb, rest = r"delete|remove|get rid of|erase", r"else|other files?|the rest"
    return bool(re.search(rf"\b(?:{verb})\s+(?:everything|all)\s+(?:{rest})\b", text, re.IGNORECASE))


def removal_claims(text: str) -> list[tuple[str, Callable[[str, str], bool]]]:
    """What an instruction says the files to delete are, as (phrase, holds(relative name, sha256)) pairs:
    "with the extension .tmp", "backup file", "empty file", "' (copy)'", "a date before 2023-06-12"."""
    claims: list[tuple[str, Callable[[str, str], bool]]] = []
    for ext in re.findall(r"\bextension\s+\.(\w+)\b|(?<![\w/])\.(\w+) files\b", text, re.IGNORECASE):
        suffix = "." + next(e for e in ext if e).lower()
        claims.append((f"extension {suffix}", _ends_with(suffix)))
    if re.search(r"\bbackup files?\b", text, re.IGNORECASE):
        claims.append(("backup file", lambda name, _sha: name.endswith(("~", ".bak"))))
    if re.search(r"\bempty files?\b|\b0 bytes\b", text, re.IGNORECASE):
        claims.append(("empty file", lambda _name, sha: sha == _EMPTY_SHA))
    if re.search(r"\(copy\)", text):
        claims.append(("' (copy)'", lambda name, _sha: "(copy)" in name))
    claims += [(m.group(0), _dated_side(m.group(1), m.group(2))) for m in _DATED.finditer(text)]
    return claims


def removal_scope(text: str) -> str:
    """'flat' ("directly in X only", "leave its subfolders alone"), 'recursive' ("and all of its subfolders"), or ''."""
    if re.search(r"\bdirectly in\b|\bsubfolders alone\b|\bnot (?:in )?(?:its|the) subfolders\b|\btop level only\b",
                 text, re.IGNORECASE):
        return "flat"
    if re.search(r"\ball (?:of )?its subfolders\b|\brecursively\b|\bsubfolders too\b|\bevery subfolder\b",
                 text, re.IGNORECASE):
        return "recursive"
    return ""
