"""Grounding: does the instruction ask for exactly what the rubric checks, and does it leak no answer?

Four questions, each failing with a message that names the rubric check and the argument. What each check asks of
the instruction is its meaning, declared where the check is registered (verifiers/meaning.py):
1. literals: every `grounded` argument of a check (a path, a sheet, a value to type) is stated in the
   instruction, or, for checks that keep the initial state (`*_kept`, contacts from a sheet), is visible in the
   initial state the student is given;
2. semantics: every goal-defining argument (sort direction, operator, aggregate, chart type, alignment, rotation,
   layout, filter action ...) is expressed in the instruction's words (verifiers/lexicon.py) and no contradicting
   value is (a "sum" asked of an AVERAGE check);
3. round trip: the numbers and orders bound to a goal (top 4, slide 6, 90°, mode 755, 16 pt, a threshold, "directly
   after 'Intro'", "smallest first") are read back from the instruction alone (verifiers/extract.py) and agree
   with the rubric (verifiers/roundtrip.py);
4. purpose: the instruction names the action of every goal check (sort, chart, dedup, fill, filter, rotate ...): a
   string of dates and a path, or a paragraph about something else, names none. A check that is no goal (it guards
   what the task keeps) declares `action=None` and why.
An answer (`secret` argument) must not appear in the instruction.

A task in the natural register (task.json `register`: a user's goal in their own voice) may leave out what the
initial state shows (`natural_grounded`): a file it names by its file name, a cell range inside the sheet's table,
a header, sheet, paragraph or slide title the file holds. Every other literal must still be stated, and passes 2-4
apply unchanged.
"""

from __future__ import annotations

import email
import html
import io
import re
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from verifiers import extract, roundtrip
from verifiers.lexicon import DOMAINS, prose
from verifiers.meaning import ByProperty, Derived, Meaning, Prose, ReadBack, Said, Seen, Stated, Visible
from verifiers.roundtrip import Ungrounded

__all__ = ["Ungrounded", "deck_reader", "ground", "kept_bookmarks", "kept_json_values", "kept_messages", "kept_rules",
           "kept_settings", "known_contacts", "leaks", "mentions", "pref_rules", "renderings", "saved_place",
           "slide_titles", "text_cells", "text_of", "visible_text"]


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


_NUMBER = re.compile(r"[\d.,-]+")


def _states(text: str, form: str) -> bool:
    """Does `text` hold `form`? A number must stand alone: "15" is not stated by "150", "1.15" or the cell address
    "A15"; any other form is plain text (a substring test: a pattern compiled per value cost more than the search)."""
    if _NUMBER.fullmatch(form):
        return re.search(rf"(?<![\w.,]){re.escape(form)}(?!\w|[.,]\d)", text) is not None
    return form in text


def mentions(text: str, value: Any) -> bool:
    """True when `text` states `value` (every item, for a list)."""
    if isinstance(value, list | tuple):
        return all(mentions(text, item) for item in value)
    return any(_states(text, form) for form in renderings(value))


def leaks(text: str, value: Any) -> bool:
    """True when an answer `value` (any item of a list) appears in student-facing `text`."""
    if isinstance(value, list | tuple):
        return any(leaks(text, item) for item in value)
    if isinstance(value, str) and len(value) < 3:
        return False  # too short to be an answer rather than a coincidence
    return mentions(text, value)


# --- what the student can see besides the instruction ---------------------------------------------------

_VISIBLE_LIMIT = 8 << 20  # bytes read per asset and per archive member: assets may come from elsewhere


def visible_text(root: Path, assets: Iterable[Mapping[str, Any]]) -> str:
    """The text of the initial state: each asset's bytes, and the members of zip-based files (xlsx, docx,
    pptx, zip) unpacked, all bounded in size; decoded leniently, XML/HTML entities resolved."""
    parts: list[str] = []
    for asset in assets:
        path = root / str(asset.get("file", ""))
        if path.is_symlink() or not path.is_file():
            continue
        with path.open("rb") as handle:
            parts.append(text_of(handle.read(_VISIBLE_LIMIT)))
        if sum(map(len, parts)) > 8 * _VISIBLE_LIMIT:
            break  # enough to ground any literal; a package of huge assets does not fill the memory
    return "\n".join(parts)


def deck_reader(root: Path, assets: Iterable[Mapping[str, Any]]) -> Callable[[str], list[str]]:
    """`deck(dest)`: the slide titles, in order, of the initial presentation the task puts at `dest`."""
    files = {str(a.get("dest")): str(a.get("file", "")) for a in assets}

    def deck(dest: str) -> list[str]:
        path = root / files.get(dest, "")
        if dest not in files or path.is_symlink() or not path.is_file():
            return []
        with path.open("rb") as handle:
            return slide_titles(handle.read(_VISIBLE_LIMIT))

    return deck


_TITLE_PLACEHOLDER = re.compile(r'<p:ph[^>]*type="(?:title|ctrTitle)"')


def _title_of(slide_xml: str) -> str:
    """The text of the slide's title placeholder shape ('' when it has none)."""
    for shape in slide_xml.split("</p:sp>"):
        shape = shape[shape.rfind("<p:sp>"):]
        if _TITLE_PLACEHOLDER.search(shape):
            return html.unescape(" ".join("".join(re.findall(r"<a:t>([^<]*)</a:t>", shape)).split()))
    return ""


def slide_titles(data: bytes) -> list[str]:
    """The title of each slide of a pptx, in presentation order ('' for a slide without one; [] for a file that is
    not a readable pptx). Read with bounded member reads and regular expressions: no XML parser on a file that may
    come from elsewhere."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as deck:
            def member(name: str) -> str:
                with deck.open(name) as handle:
                    return handle.read(_VISIBLE_LIMIT // 4).decode("utf-8", "ignore")

            rels = dict(re.findall(r'<Relationship [^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"',
                                   member("ppt/_rels/presentation.xml.rels")))
            rels |= {i: t for t, i in re.findall(r'<Relationship [^>]*?Target="([^"]+)"[^>]*?Id="([^"]+)"',
                                                 member("ppt/_rels/presentation.xml.rels"))}
            ids = re.findall(r'<p:sldId [^>]*?r:id="([^"]+)"', member("ppt/presentation.xml"))[:500]
            return [_title_of(member("ppt/" + rels.get(rid, "").lstrip("/").removeprefix("ppt/"))) for rid in ids]
    except (zipfile.BadZipFile, KeyError, OSError, RuntimeError, ValueError, NotImplementedError):
        return []


def text_of(data: bytes, *, depth: int = 0) -> str:
    """The readable text of one file's bytes: zip members unpacked, mail attachments decoded (an attachment's
    table is what the student sees when opening it), entities resolved."""
    parts = [data.decode("utf-8", "ignore")]
    if data[:4] == b"PK\x03\x04":
        parts += _members(data)
    if depth == 0 and (data[:5] == b"From " or b"\nContent-Transfer-Encoding: base64" in data[:_VISIBLE_LIMIT]):
        parts += [text_of(payload, depth=1) for payload in _attachments(data)]
    return html.unescape("\n".join(parts))


def _attachments(data: bytes) -> list[bytes]:
    """The decoded MIME parts of an mbox or a message file (at most 200, each bounded)."""
    payloads: list[bytes] = []
    for chunk in re.split(rb"\n(?=From )", data)[:200]:
        try:
            message = email.message_from_bytes(chunk)
            for part in message.walk():
                if part.get_content_maintype() != "multipart":
                    payload = part.get_payload(decode=True)
                    if isinstance(payload, bytes) and part.get_filename():
                        payloads.append(payload[:_VISIBLE_LIMIT])
        except (ValueError, LookupError, TypeError):
            continue  # a malformed message shows nothing
    return payloads


def _members(data: bytes) -> list[str]:
    budget = 2 * _VISIBLE_LIMIT  # unpacked bytes per archive: a zip bomb stops here, not in memory
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            texts = []
            for info in archive.infolist()[:200]:
                if budget <= 0:
                    break
                with archive.open(info) as member:
                    chunk = member.read(min(_VISIBLE_LIMIT, budget))
                budget -= len(chunk)
                texts.append(chunk.decode("utf-8", "ignore"))
            return texts
    except (zipfile.BadZipFile, OSError, RuntimeError, ValueError, NotImplementedError):
        return []  # a broken archive shows nothing; other checks judge the file itself


# --- per-argument grounding rules: a check's meaning names them (`Visible(rule)`, `Prose(rule)`) ------------


def kept_bookmarks(value: Any, seen: Seen) -> str | None:
    for item in value if isinstance(value, list) else []:
        for literal in (item[1:3] if isinstance(item, list) else []):
            if not seen(literal):
                return f"the kept bookmark {literal!r} is neither in the instruction nor in the initial profile"
    return None


def kept_settings(value: Any, seen: Seen) -> str | None:
    for key in value if isinstance(value, dict) else {}:
        if not seen(key):
            return f"the kept setting {key!r} is neither in the instruction nor in the initial settings"
    return None


def kept_rules(value: Any, seen: Seen) -> str | None:
    for rule in value if isinstance(value, list) else []:
        for literal in (rule.get("key"), rule.get("command")) if isinstance(rule, dict) else ():
            if literal is not None and not seen(literal):
                return f"the kept shortcut part {literal!r} is neither in the instruction nor in keybindings.json"
    return None


def known_contacts(value: Any, seen: Seen) -> str | None:
    for item in value if isinstance(value, list) else []:
        email = item[1] if isinstance(item, list) and len(item) > 1 else item
        if isinstance(email, str) and not (seen(email) or seen(email.lower())):
            return f"the contact {email!r} is neither in the instruction nor in the initial files"
        if isinstance(item, list) and item and isinstance(item[0], str):
            missing = [w for w in item[0].split() if not seen(w)]
            if missing:
                return f"the contact name {item[0]!r} ({missing[0]!r}) is neither in the instruction nor in the files"
    return None


def saved_place(value: Any, seen: Seen) -> str | None:
    if isinstance(value, str) and not (seen(value) or seen(value.rsplit("/", 1)[-1]) or seen(value.rsplit("/", 2)[0])):
        return f"the file {value!r}: neither it, its name, nor its folder is stated or visible"
    return None


_NOT_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}|[-+$€£]?[\d,.]+%?")  # dates and numbers: a workbook stores them as numbers


def text_cells(value: Any, seen: Seen) -> str | None:
    """Every text cell of a table the rubric expects is asked for or already in the files (numbers and dates
    are stored in other forms in a workbook, so only text cells are held to this)."""
    rows = value if isinstance(value, list) else []
    for row in rows:
        for cell in row if isinstance(row, list) else [row]:
            if isinstance(cell, str) and cell.strip() and not _NOT_TEXT.fullmatch(cell.strip()) and not seen(cell):
                return f"the cell {cell!r} is neither in the instruction nor in the initial files"
    return None


def kept_messages(value: Any, seen: Seen) -> str | None:
    for folder, ids in value.items() if isinstance(value, dict) else ():
        for message_id in ids if isinstance(ids, list) else []:
            if isinstance(message_id, str) and not seen(message_id):
                return f"the kept message {message_id!r} in {folder!r} is not in the initial profile"
    return None


def kept_json_values(value: Any, seen: Seen) -> str | None:
    for item in value if isinstance(value, list) else []:
        keys = item[0] if isinstance(item, list) and item and isinstance(item[0], list) else []
        if keys and not seen(str(keys[-1])):
            return f"the kept value at {keys!r} is neither in the instruction nor in the initial file"
    return None




def pref_rules(phrases: Mapping[str, str]) -> dict[str, Prose]:
    """How a pref check's `name` and `value` are asked for, given `phrases`: pref name (without the identity prefix)
    -> the pattern of a phrase that asks for the check's value of it ("stop quoting", "attach my vCard")."""

    def phrase(name: str) -> str | None:  # identity prefs match on their last part
        if name in phrases:
            return phrases[name]
        return phrases.get(name.split(".", 3)[-1]) if name.startswith("mail.identity.") else None

    def name_rule(text: str, args: Mapping[str, Any]) -> str | None:
        pattern = phrase(str(args.get("name")))
        if pattern is None:
            return None  # a pref without a known phrasing: the value (below) must still be stated when not a switch
        if not re.search(pattern, prose(text, quotes=False), re.IGNORECASE | re.DOTALL):
            return f"name={args.get('name')!r} is checked but the instruction does not ask for that setting"
        return None

    def value_rule(text: str, args: Mapping[str, Any]) -> str | None:
        value = args.get("value")
        if isinstance(value, bool):
            if phrase(str(args.get("name"))) is None:
                return f"value={value!r} of {args.get('name')!r}: no known phrasing says how to switch this setting"
            return None  # a switch is asked by the setting's phrase itself ("stop quoting", "attach my vCard")
        if isinstance(value, int | float) and not (value in (0, 1, 2) and phrase(str(args.get("name")))):
            stated = mentions(text, value)
            return None if stated else f"value={value!r} is checked but the instruction does not state it"
        return None

    return {"name": Prose(name_rule), "value": Prose(value_rule)}


#: How a `ByProperty` header may be named by what its column holds instead (difficulty axis `indirection`,
#: workflows/calc/kit.py PROPERTY): by its kind, or by its place with the very letter the check reads.
_KIND_PHRASE = re.compile(r"\bthe (?:date|category) column\b|\bthe column (?:that names each row|of amounts|of whole "
                          r"numbers|of one-decimal numbers)\b", re.IGNORECASE)
_PLACE_PHRASE = re.compile(r"\bthe (?:first|second|third|fourth|fifth|sixth|seventh|eighth) column \(([A-Z]{1,2})\)")


def by_property(way: Any, name: str, args: Mapping[str, Any], text: str, seen: Seen) -> str | None:
    """None when a checked column header that the instruction does not state is named by property instead: the
    header is visible in the initial state (the student reads it in row 1) and the instruction names the column by
    its kind ("the date column") or by its place with the very letter the check reads ("the fifth column (E)").
    Else the usual "not stated" problem: an instruction that names neither the header nor a property is rejected."""
    value = args.get(name)
    problem = f"{name}={value!r} is checked but the instruction does not state it"
    letter_arg = way.letter if isinstance(way, ByProperty) else None
    if letter_arg is None or not isinstance(value, str) or not value or not seen(value):
        return problem
    if _KIND_PHRASE.search(text):
        return None
    where = args.get(letter_arg)
    where = where[0] if isinstance(where, list) and where else where  # a list of cells: their column's letters
    letter = where.rstrip("0123456789") if isinstance(where, str) else None
    places = _PLACE_PHRASE.findall(text)
    return None if places and all(p == letter for p in places) else problem



# --- the purpose of each check ------------------------------------------------------------------------



# --- the stage ----------------------------------------------------------------------------------------

def ground(task: Mapping[str, Any], visible: Callable[[], str],
           deck: Callable[[str], list[str]] = lambda path: []) -> str:
    """Check `task`'s instruction against its rubric; returns evidence, raises `Ungrounded` naming the arg.

    `visible()` gives the initial state's text (called only when a check needs it); `deck(path)` the slide titles
    of the initial presentation at `path`, in order (`deck_reader`)."""
    from verifiers import checks  # the check registry imports every check module: load it on first use

    text = str(task.get("instruction") or "")
    rubric = list(task.get("rubric") or [])
    registry = checks.registry()
    shown: list[str] = []

    def initial() -> str:  # the initial state's text, read once and only when a check needs it
        if not shown:
            shown.append(visible())
        return shown[0]

    def seen(value: Any) -> bool:
        return mentions(text, value) or (isinstance(value, str) and bool(value) and value in initial())

    stated, natural = 0, task.get("register") == "natural"
    for item in rubric:
        prim, args, where = registry[item["primitive"]], item["args"], f"rubric {item['id']}"
        for name in prim.grounded:
            if name not in args:
                continue
            stated += 1
            way = prim.meaning.args.get(name)
            if isinstance(way, Visible):
                problem = way.rule(args[name], seen)
                problem = f"{name}: {problem}" if problem else None
            elif isinstance(way, Prose):
                problem = way.rule(text, args)
            elif isinstance(way, Said | ReadBack):
                problem = None  # said in words or next to a cue: the passes below read it
            elif isinstance(way, Stated):
                problem = None if mentions(text, args[name]) else (
                    f"{name}={args[name]!r} defines the goal but the instruction does not state it")
            elif not mentions(text, args[name]):
                problem = by_property(way, name, args, text, seen)
                if problem and natural and natural_grounded(args[name], text, task, initial):
                    problem = None
            else:
                problem = None
            if problem:
                raise Ungrounded(f"{where}: {problem}")
        for name in prim.secret:
            if name in args and leaks(text, args[name]):
                raise Ungrounded(f"{where}: the answer {name}={args[name]!r} appears in the instruction")
    semantic = _semantics(text, rubric, registry)
    numbers = roundtrip.check(text, rubric, initial, (task.get("setup") or {}).get("assets") or (), deck)
    _purpose(text, rubric, registry)
    return (f"{stated} checked literals stated or visible; {semantic} goal arguments expressed, none contradicted; "
            f"{numbers} numbers read back from the instruction agree; no answer leaked")


# --- the natural register -----------------------------------------------------------------------------

_REF = re.compile(r"^\$?([A-Z]{1,3})\$?(\d{1,7})(?::\$?([A-Z]{1,3})\$?(\d{1,7}))?$")
_DIMENSION = re.compile(r'<dimension ref="\$?([A-Z]{1,3})\$?(\d{1,7})(?::\$?([A-Z]{1,3})\$?(\d{1,7}))?"')
#: How far past a sheet's used area a natural instruction may point without naming the cell: the row right below
#: the table or the column right of it ("add a total row", "add a column"); anything further is ambiguous.
_MARGIN = 1


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


def _extent(initial: str) -> tuple[int, int]:
    """(last column, last row) of the largest used area of the initial workbooks (0, 0 without one)."""
    found = [(_column(m[2] or m[0]), int(m[3] or m[1])) for m in _DIMENSION.findall(initial)]
    return (max(c for c, _ in found), max(r for _, r in found)) if found else (0, 0)


def _within(value: Any, extent: tuple[int, int]) -> bool:
    """True when every cell reference in `value` lies in the used area (or just past it)."""
    items = value if isinstance(value, list) else [value]
    if not items or extent == (0, 0):
        return False
    for item in items:
        match = _REF.match(item) if isinstance(item, str) else None
        if match is None:
            return False
        for letters, row in ((match[1], match[2]), (match[3] or match[1], match[4] or match[2])):
            if _column(letters) > extent[0] + _MARGIN or int(row) > extent[1] + _MARGIN:
                return False
    return True


def natural_grounded(value: Any, text: str, task: Mapping[str, Any], initial: Callable[[], str]) -> bool:
    """Whether a natural instruction may leave `value` out because the student sees it anyway: a file of the initial
    state it names by its file name (or the file the task opens at launch; a file to create is always stated), cell
    references inside the initial workbook's used area (plus one row or column for a new one), or text of at least
    three characters the initial files hold (a header, a sheet name, a paragraph, a slide title). Numbers, switches
    and new text are never left out."""
    if isinstance(value, str) and value.startswith(("/", "~/")):
        setup: Mapping[str, Any] = task["setup"] if isinstance(task.get("setup"), Mapping) else {}
        assets, launch = setup.get("assets"), setup.get("launch")  # a package from elsewhere may hold anything
        given = {str(a.get("dest")) for a in assets if isinstance(a, Mapping)} if isinstance(assets, list) else set()
        name = value.rstrip("/").rsplit("/", 1)[-1]
        return (isinstance(launch, list) and value in launch) or (value in given and bool(name) and name in text)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if _within(value, _extent(initial())):
            return True
        return all(mentions(text, v) or natural_grounded(v, text, task, initial) for v in value)
    if not isinstance(value, str) or len(value.strip()) < 3 or _NOT_TEXT.fullmatch(value.strip()):
        return _within(value, _extent(initial())) if isinstance(value, str) else False
    return _within(value, _extent(initial())) or value in initial()


def _meaning(registry: Mapping[str, Any], primitive: str) -> Meaning:
    prim = registry.get(primitive)
    return prim.meaning if prim is not None else Meaning(None, why="an unknown primitive (the schema stage names it)")


def _semantics(text: str, rubric: list[dict[str, Any]], registry: Mapping[str, Any]) -> int:
    """Lexicon pass: each argument a check's meaning says in words (`Said`, `Derived`, `implied`) is expressed and
    not contradicted. Returns how many were checked."""
    wanted: list[tuple[str, str, str, Any, str]] = []  # (check id, arg, domain, rubric value, domain value)
    allowed: dict[str, set[str]] = {}
    for item in rubric:
        meaning = _meaning(registry, item["primitive"])
        for name, value in item["args"].items():
            binding = meaning.said(name)
            want = binding.value(value) if binding else None
            if binding and want is not None:
                wanted.append((item["id"], name, binding.domain, value, want))
                allowed.setdefault(binding.domain, set()).add(want)
    for item in rubric:
        meaning = _meaning(registry, item["primitive"])
        for name, value in item["args"].items():
            way = meaning.args.get(name)
            derived = way.domain if isinstance(way, Derived) else None
            said_by_arg = extract.expressed(str(value), derived) if derived else {}
            if derived and len(said_by_arg) == 1:
                want = next(iter(said_by_arg))
                wanted.append((item["id"], name, derived, value, want))
                allowed.setdefault(derived, set()).add(want)
    cache: dict[str, dict[str, list[str]]] = {}
    for check_id, name, domain, value, want in wanted:
        said = cache.setdefault(domain, extract.expressed(text, domain))
        if want in DOMAINS[domain].phrases and want not in said:
            raise Ungrounded(f"rubric {check_id}: {name}={value!r} is checked but the instruction does not say it "
                             f"(no phrase for {want!r}{_reads_as(said)})")
        for other in DOMAINS[domain].against(want):
            if other in said and other not in allowed[domain]:
                raise Ungrounded(f"rubric {check_id}: {name}={value!r} is checked but the instruction asks for "
                                 f"{other!r} ({said[other][0]!r})")
    for item in rubric:
        kind = _meaning(registry, item["primitive"]).implied
        if kind is None:
            continue
        domain = kind
        said = cache.setdefault(domain, extract.expressed(text, domain))
        if not said:
            raise Ungrounded(f"rubric {item['id']}: the instruction does not say which {domain} to compute")
        for value in said:
            clash = [o for o in DOMAINS[domain].against(value) if o in said]
            if clash:
                raise Ungrounded(f"rubric {item['id']}: the instruction asks for both {value!r} "
                                 f"({said[value][0]!r}) and {clash[0]!r} ({said[clash[0]][0]!r})")
        wanted.append((item["id"], domain, domain, None, ""))
    return len(wanted)


def _reads_as(said: Mapping[str, list[str]]) -> str:
    return f"; it reads as {sorted(said)}" if said else ""


_FILES = re.compile(r"(?:~|/home/)[^\s'\"(),;]*")


def _purpose(text: str, rubric: list[dict[str, Any]], registry: Mapping[str, Any]) -> None:
    """Every goal check's action (its meaning's `action`: sort, chart, dedup, fill ...) is named by the instruction;
    a check that is no goal (`action=None`: it guards what the task keeps) asks for no words."""
    words = _FILES.sub(" ", text)  # a file name is no request ("/home/user/sort_me.xlsx" asks for no sort)
    for item in rubric:
        pattern = _meaning(registry, item["primitive"]).action
        if pattern and not re.search(rf"\b(?:{pattern})", words, re.IGNORECASE):
            raise Ungrounded(f"rubric {item['id']}: the instruction never asks for this check's action "
                             f"({item['primitive']}: none of {pattern!r})")
