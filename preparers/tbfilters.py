"""msgFilterRules.dat, Thunderbird's message filter list: the one reader and the one writer.

The preparer writes it (`filters_dat`, `filter_block`), the `tb.add_filter` op appends to it, the `tb.*` checks
and the mutators read it (`parse`), and the real-app tier reads both the file and the terms Thunderbird reports
(`parse`, `parse_term`): one set of rules, so a filter cannot mean one thing to the preparer and another to a check.

The format, as Thunderbird 153 reads and writes it (comm-central `nsMsgFilterList.cpp`, `nsMsgSearchTerm.cpp`):
- one `attribute="value"` per line: `version="9"` and `logging="no"` first, then per filter `name`, `enabled`,
  `type`, optional `description`, one `action` (+ `actionValue` or `customId`) per action, and `condition`;
  attribute names are matched without regard to case, and the lines of a filter may come in any order after its
  `name` (Thunderbird reads them one by one);
- a line value is written with each `"` as `\\"` and nothing else escaped; Thunderbird reads `\\"` as `"` and
  `\\\\X` as a backslash followed by X taken literally (so a written `\\"` inside a value survives), any other
  backslash as itself; an empty value is never written (no `actionValue=""` line);
- `condition` is `ALL` or a run of `AND (field,op,value)` / `OR (field,op,value)` terms; a value that contains `)`
  or starts with a space or `"` is quoted, and a `"` inside a value is written `\\"` (on top of the line escaping);
- a move/copy target is a folder URI (`mailbox://nobody@Local%20Folders/Inbox/My%20Trips`).

Reading is strict where Thunderbird would refuse or silently drop a filter (a line that is not attribute="value",
an attribute it does not know, a term that is not closed, a non-numeric type): `parse` raises `FilterFileError`
naming the line, and a check turns that into a failed check. It is tolerant only where Thunderbird writes
variants itself: quoting, the version and logging values, the order of lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote

LOCAL_URI = "mailbox://nobody@Local%20Folders"
FILTER_HEADER = 'version="9"\nlogging="no"\n'
FOLDER_ACTIONS = ("Move to folder", "Copy to folder")
#: every attribute Thunderbird's filter reader knows (nsMsgFilterList's FilterFileAttribTable)
ATTRIBUTES = ("version", "logging", "name", "enabled", "description", "type", "scriptName", "action",
              "actionValue", "condition", "customId")
_KNOWN = {a.lower(): a for a in ATTRIBUTES}
_ATTR = re.compile(r'\s*([A-Za-z]+)="')


class FilterFileError(ValueError):
    """A msgFilterRules.dat Thunderbird would not load as written; the message names the line and the problem."""


def folder_uri(path: str) -> str:
    """The folder's URI as filters store it: "Inbox/My Trips" -> mailbox://nobody@Local%20Folders/Inbox/My%20Trips."""
    return "/".join([LOCAL_URI, *(quote(p, safe="") for p in path.split("/") if p)])


@dataclass(frozen=True)
class Filter:
    """A message filter to write. `conditions` are (field, op, value), e.g. ("subject", "contains", "invoice");
    `actions` are (action, value), e.g. ("Move to folder", "Inbox/Receipts") with a folder path (written as its
    mailbox URI) or ("Mark read", "")."""

    name: str
    conditions: tuple[tuple[str, str, str], ...]
    actions: tuple[tuple[str, str], ...]
    match: str = "AND"  # AND | OR | ALL
    enabled: bool = True
    type: int = 17  # 1 new mail + 16 manual run


@dataclass(frozen=True)
class Term:
    """One condition term as read: `boolean` is "AND" or "OR", `value` unquoted and unescaped."""

    boolean: str
    field: str
    op: str
    value: str

    def describe(self) -> str:
        """"AND subject,contains,a (b)": the term for evidence and comparisons (value as the user typed it)."""
        return f"{self.boolean} {self.field},{self.op},{self.value}"


@dataclass(frozen=True)
class Rule:
    """One filter as the file says it: actions keep their written values (a folder URI for move/copy); `terms`
    is empty and `match_all` true for `condition="ALL"`."""

    name: str
    enabled: bool = True
    type: int = 17
    actions: tuple[tuple[str, str], ...] = ()
    terms: tuple[Term, ...] = ()
    match_all: bool = False
    description: str = ""


# --- writing -------------------------------------------------------------------------------------------------

def _escape(value: str) -> str:
    """A line value as Thunderbird writes it (nsMsgFilterList::WriteStrAttr): only quotes escaped."""
    return value.replace('"', '\\"')


def term_value(value: str) -> str:
    """A condition value as Thunderbird writes it (nsMsgSearchTerm::OutputValue): quoted when it contains `)` or
    starts with a space or a quote, inner quotes escaped. An empty value has no written form."""
    if not value:
        raise ValueError("a filter condition value must not be empty")
    text = value.replace('"', '\\"')
    return f'"{text}"' if ")" in value or value[0] in ' "' else text


def condition_text(terms: Sequence[Term], match_all: bool = False) -> str:
    """The `condition` value: "ALL", or `<AND|OR> (field,op,value)` per term."""
    if match_all or not terms:
        return "ALL"
    for term in terms:
        if term.boolean not in ("AND", "OR"):
            raise ValueError(f"term {term.describe()!r}: boolean={term.boolean!r}, but must be 'AND' or 'OR'")
    return " ".join(f"{t.boolean} ({t.field},{t.op},{term_value(t.value)})" for t in terms)


def rule_of(flt: Filter) -> Rule:
    """The filter as the file will say it: folder paths become mailbox URIs, conditions terms joined by `match`."""
    if flt.match not in ("AND", "OR", "ALL"):
        raise ValueError(f"filter {flt.name!r}: match={flt.match!r}, but must be 'AND', 'OR' or 'ALL'")
    actions = tuple((a, folder_uri(v) if a in FOLDER_ACTIONS else v) for a, v in flt.actions)
    every = flt.match == "ALL" or not flt.conditions
    terms = () if every else tuple(Term(flt.match, f, op, v) for f, op, v in flt.conditions)
    return Rule(flt.name, flt.enabled, flt.type, actions, terms, every)


def rule_block(rule: Rule) -> str:
    """One filter's lines, in the order Thunderbird writes them (nsMsgFilter::SaveToTextFile); empty values are
    left out, as Thunderbird does."""
    lines = [f'name="{_escape(rule.name)}"', f'enabled="{"yes" if rule.enabled else "no"}"']
    if rule.description:
        lines.append(f'description="{_escape(rule.description)}"')
    lines.append(f'type="{rule.type}"')
    for action, value in rule.actions:
        lines.append(f'action="{_escape(action)}"')
        if value:
            lines.append(f'actionValue="{_escape(value)}"')
    lines.append(f'condition="{_escape(condition_text(rule.terms, rule.match_all))}"')
    return "".join(line + "\n" for line in lines)


def render(rules: Sequence[Rule]) -> str:
    """A whole msgFilterRules.dat text: the header, then each filter (`parse` reads it back to `rules`)."""
    return FILTER_HEADER + "".join(rule_block(r) for r in rules)


def filter_block(flt: Filter) -> str:
    """One filter's lines of msgFilterRules.dat."""
    return rule_block(rule_of(flt))


def filters_dat(filters: Sequence[Filter]) -> bytes:
    """A whole msgFilterRules.dat: the header, then each filter."""
    return render([rule_of(f) for f in filters]).encode()


# --- reading -------------------------------------------------------------------------------------------------

def _load_value(line: str, start: int) -> tuple[str, int]:
    """(the value, the index after its closing quote) of a line value opening at `start`, read as Thunderbird's
    nsMsgFilterList::LoadValue does; raises ValueError when the closing quote is missing."""
    out: list[str] = []
    i, n = start, len(line)
    while i < n:
        ch = line[i]
        if ch == "\\" and i + 1 < n and line[i + 1] == '"':
            out.append('"')
            i += 2
        elif ch == "\\" and i + 1 < n and line[i + 1] == "\\":
            out.append("\\" + (line[i + 2] if i + 2 < n else ""))  # `\\X`: a backslash and X, taken as is
            i += 3
        elif ch == '"':
            return "".join(out), i + 1
        else:
            out.append(ch)
            i += 1
    raise ValueError("the value has no closing quote")


def parse_term(text: str, boolean: str = "AND") -> Term:
    """`field,op,value` (a term as Thunderbird prints it, its quoting included) -> Term; raises ValueError."""
    text = text.replace('\\"', '"')  # ParseCondition inverts the quote escaping of the whole term first
    field, sep, rest = text.partition(",")
    op, sep2, value = rest.partition(",")
    if not sep or not sep2 or not field.strip() or not op.strip():
        raise ValueError(f"term {text!r} is not field,operator,value")
    value = value.lstrip(" \t\n\r\f\v")  # ParseValue skips C isspace() (ASCII) only
    if value.startswith('"'):  # ParseValue: drop one pair of quotes
        value = value[1:-1] if len(value) >= 2 and value.endswith('"') else value[1:]
    return Term(boolean, field.strip(), op.strip(), value)


def parse_condition(text: str) -> tuple[Term, ...]:
    """The `condition` value -> its terms (() for "ALL"); raises ValueError on a term that is not closed or
    does not start with AND/OR."""
    if text.strip() == "ALL":
        return ()
    terms: list[Term] = []
    opener = re.compile(r"\s*(AND|OR)\s*\(")
    i, n = 0, len(text)
    while i < n and text[i:].strip():
        match = opener.match(text, i)
        if match is None:
            raise ValueError(f"condition {text!r}: expected 'AND (' or 'OR (' at offset {i}")
        k, quoted = match.end(), False
        while k < n and (quoted or text[k] != ")"):
            if text[k] == "\\" and k + 1 < n and text[k + 1] == '"':
                k += 1
            elif text[k] == '"':
                quoted = not quoted
            k += 1
        if k >= n:
            raise ValueError(f"condition {text!r}: a term is not closed with ')'")
        terms.append(parse_term(text[match.end():k], match.group(1)))
        i = k + 1
    if not terms:
        raise ValueError(f"condition {text!r} has no terms")
    return tuple(terms)


def parse(text: str, source: str = "msgFilterRules.dat") -> list[Rule]:
    """Every filter of a msgFilterRules.dat text, in file order; raises FilterFileError naming `source` and the
    line Thunderbird would refuse."""
    rules: list[dict[str, object]] = []
    # lines end at \n or \r only, as Thunderbird reads them (str.splitlines would also split at U+2028 in a name)
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if not line.strip():
            continue
        where = f"{source} line {number}"
        found = _ATTR.match(line)
        if found is None:
            raise FilterFileError(f"{where}: {line[:80]!r} is not attribute=\"value\"")
        key = _KNOWN.get(found.group(1).lower())
        if key is None:
            raise FilterFileError(f"{where}: unknown attribute {found.group(1)!r} (Thunderbird would disable the "
                                  "filter)")
        try:
            value, end = _load_value(line, found.end())
        except ValueError as exc:
            raise FilterFileError(f"{where}: {key}: {exc}") from None
        if line[end:].strip():
            raise FilterFileError(f"{where}: text after the closing quote of {key}: {line[end:][:40]!r}")
        if key in ("version", "logging"):
            if key == "version" and not value.isdigit():
                raise FilterFileError(f"{where}: version={value!r}, but must be a number")
            continue
        if key == "name":
            rules.append({"name": value, "enabled": True, "type": 17, "actions": [], "terms": (), "all": False,
                          "description": ""})
            continue
        if not rules:
            raise FilterFileError(f"{where}: {key}= before the first name=")
        rule = rules[-1]
        actions = rule["actions"]
        assert isinstance(actions, list)
        if key == "enabled":
            rule["enabled"] = value == "yes"
        elif key == "type":
            if not value.lstrip("-").isdigit():
                raise FilterFileError(f"{where}: type={value!r}, but must be a number")
            rule["type"] = int(value)
        elif key == "description":
            rule["description"] = value
        elif key == "action":
            actions.append((value, ""))
        elif key in ("actionValue", "customId") and actions:
            actions[-1] = (actions[-1][0], value)
        elif key == "condition":
            try:
                rule["terms"] = parse_condition(value)
            except ValueError as exc:
                raise FilterFileError(f"{where}: {exc}") from None
            rule["all"] = value.strip() == "ALL"
        elif key in ("actionValue", "customId"):
            raise FilterFileError(f"{where}: {key}= before any action=")
    return [Rule(str(r["name"]), bool(r["enabled"]), int(str(r["type"])), tuple(r["actions"]),  # type: ignore[arg-type]
                 r["terms"], bool(r["all"]), str(r["description"])) for r in rules]  # type: ignore[arg-type]
