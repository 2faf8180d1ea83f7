"""Thunderbird's message filter semantics, small: which actions fire on a message in a run context.

A filter is judged by what it does, not by how its lines read (issue 37, "effects, not configuration"): a filter
saved to run manually only looks like the asked filter and never touches new mail. `fired(rules, probe, context)`
answers what Thunderbird 153 would do with one message (comm-central `nsMsgFilterList`, `nsMsgSearchTerm`,
`nsParseNewMailState::ApplyFilterHit`, `nsMsgFilterAfterTheFact`), as far as Forge's tasks reach:
- a filter runs in a context when it is enabled and its `type` bitmask holds the context's bit: new mail is
  `Inbox` (1) or `PostPlugin` (32, after junk classification: also on arriving mail), a manual run is 16, after
  sending 64, archiving 128, periodic 256;
- the filters run in file order; the first server's list first (a POP account deferred to Local Folders runs its
  own list, then Local Folders'); a filter whose conditions hold fires all its actions, and a `Move to folder`,
  `Delete` or `Stop execution` ends the run for that message (no later filter sees it);
- `condition="ALL"` always holds; terms join left to right with their AND/OR;
- string matches ignore case; an address field (from, to, cc, "to or cc", "all addresses") holds when the
  operator holds for a mailbox's name, its address or the whole "Name <address>" (a negated operator: for none);
- `date` compares the message's date with a value like `01-Jan-2024` (`is before`, `is after`, `is`, `isn't`);
- a field or operator this module does not know holds nowhere (reported by `unknown_terms`).
Folder actions are reported with the folder's path ("Inbox/Receipts") rather than its URI, so two spellings of
one URI fire the same action. Checked against real Thunderbird where the tier can run it (see the tests).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from email.utils import getaddresses, parsedate_to_datetime
from urllib.parse import unquote

from preparers.tbfilters import FOLDER_ACTIONS, LOCAL_URI, Rule, Term

NEW_MAIL, MANUAL, POST_PLUGIN, POST_OUTGOING, ARCHIVE, PERIODIC = 1, 16, 32, 64, 128, 256
#: run context -> the type bits that make a filter run in it
CONTEXTS: dict[str, int] = {"new mail": NEW_MAIL | POST_PLUGIN, "manual": MANUAL, "after sending": POST_OUTGOING,
                            "archive": ARCHIVE, "periodic": PERIODIC}
STOPPING = ("move to folder", "delete", "stop execution")
_ADDRESS_FIELDS = {"from": ("from",), "to": ("to",), "cc": ("cc",), "to or cc": ("to", "cc"),
                   "all addresses": ("from", "to", "cc")}
_TEXT_OPS = ("contains", "doesn't contain", "is", "isn't", "begins with", "ends with", "is empty", "isn't empty")
_NEGATED = {"doesn't contain": "contains", "isn't": "is", "isn't empty": "is empty"}


@dataclass(frozen=True)
class Probe:
    """A message to run filters on: display forms as they arrive ("Ana Lopez <ana@x.com>"), an RFC 5322 date."""

    sender: str
    to: str
    subject: str
    date: str = "Mon, 03 Jun 2024 09:30:00 +0000"
    cc: str = ""
    body: str = ""

    def as_args(self) -> dict[str, str]:
        return {k: v for k, v in asdict(self).items() if v}

    @classmethod
    def of(cls, args: Mapping[str, str]) -> Probe:
        return cls(**{k: str(v) for k, v in args.items() if k in cls.__dataclass_fields__})

    def header(self, name: str) -> str:
        return {"from": self.sender, "to": self.to, "cc": self.cc, "subject": self.subject, "date": self.date,
                "body": self.body}.get(name, "")

    def describe(self) -> str:
        return f"a message from {self.sender!r} with subject {self.subject!r}"


def folder_of(value: str) -> str:
    """A folder action's value as a folder path: a Local Folders URI -> "Inbox/Receipts"; another URI unquoted."""
    if value.lower().startswith(LOCAL_URI.lower() + "/"):
        return "/".join(unquote(p) for p in value[len(LOCAL_URI) + 1:].split("/") if p)
    return unquote(value)


def action_of(action: str, value: str) -> tuple[str, str]:
    """(action, value) as the simulator reports it: folder actions' targets as folder paths."""
    return action, folder_of(value) if action in FOLDER_ACTIONS else value


def _text(op: str, have: str, want: str) -> bool:
    have, want = have.casefold(), want.casefold()
    if op == "contains":
        return want in have
    if op == "is":
        return have == want
    if op == "begins with":
        return have.startswith(want)
    if op == "ends with":
        return have.endswith(want)
    if op == "is empty":
        return not have
    raise KeyError(op)


def _date(value: str) -> dt.date | None:
    for fmt in ("%d-%b-%Y", "%Y-%m-%d"):
        try:
            return dt.datetime.strptime(value.strip(), fmt).date()
        except ValueError:
            continue
    return None


def _probe_date(probe: Probe) -> dt.date | None:
    try:
        return parsedate_to_datetime(probe.date).date()
    except (TypeError, ValueError, IndexError):
        return None


def term_holds(term: Term, probe: Probe) -> bool | None:
    """Does one condition term hold for the probe? None: a field or operator this module does not model."""
    field, op = term.field.casefold(), term.op.casefold()
    if field == "date":
        want, have = _date(term.value), _probe_date(probe)
        if want is None or have is None:
            return None
        return {"is before": have < want, "is after": have > want, "is": have == want,
                "isn't": have != want}.get(op)
    if op not in _TEXT_OPS:
        return None
    positive = _NEGATED.get(op, op)
    if field in _ADDRESS_FIELDS:
        boxes = getaddresses([probe.header(h) for h in _ADDRESS_FIELDS[field] if probe.header(h)])
        if positive == "is empty":
            hit = not boxes
        else:
            hit = any(_text(positive, text, term.value) for name, addr in boxes
                      for text in (name, addr, f"{name} <{addr}>" if name else addr))
    elif field in ("subject", "body"):
        hit = _text(positive, probe.header(field), term.value)
    else:
        return None
    return hit if positive == op else not hit


def rule_holds(rule: Rule, probe: Probe) -> bool:
    """Do the rule's conditions hold for the probe (an unknown term holds nowhere)?"""
    if rule.match_all or not rule.terms:
        return True
    result: bool | None = None
    for term in rule.terms:
        hit = bool(term_holds(term, probe))
        result = hit if result is None else (result and hit if term.boolean == "AND" else result or hit)
    return bool(result)


def unknown_terms(rule: Rule) -> list[str]:
    """The rule's terms the simulator does not model (they hold nowhere)."""
    probe = Probe("a <a@b.c>", "d <d@e.f>", "x")
    return [t.describe() for t in rule.terms if term_holds(t, probe) is None]


def runs_in(rule: Rule, context: str) -> bool:
    return rule.enabled and bool(rule.type & CONTEXTS[context])


def contexts_of(rule: Rule) -> list[str]:
    """The contexts a rule runs in, for evidence ("disabled" when none because it is off)."""
    if not rule.enabled:
        return ["disabled"]
    return [c for c in CONTEXTS if rule.type & CONTEXTS[c]] or [f"none (type={rule.type})"]


def fired(rules: Iterable[Rule], probe: Probe, context: str) -> list[tuple[str, str, str]]:
    """(filter name, action, value) of every action that fires on `probe` in `context`, in order."""
    if context not in CONTEXTS:
        raise ValueError(f"context={context!r}, but must be one of {sorted(CONTEXTS)}")
    out: list[tuple[str, str, str]] = []
    for rule in rules:
        if not runs_in(rule, context) or not rule_holds(rule, probe):
            continue
        for action, value in rule.actions:
            out.append((rule.name, *action_of(action, value)))
        if any(a.casefold() in STOPPING for a, _ in rule.actions):
            break
    return out


# --- probes -------------------------------------------------------------------------------------------------

BASE = Probe("Quill Marrow <quill.marrow@example.invalid>", "Robin Vale <robin.vale@example.invalid>",
             "Zephyr picnic notes")


def _satisfy(probe: Probe, term: Term) -> Probe:
    """The probe changed so that `term` holds (as far as it can be made to; the caller verifies)."""
    field, op, value = term.field.casefold(), term.op.casefold(), term.value
    if op in ("doesn't contain", "isn't", "isn't empty"):
        return probe
    if field == "subject":
        text = {"contains": f"Re: {value} follow-up", "begins with": f"{value} follow-up",
                "ends with": f"Follow-up {value}"}.get(op, value)
        return Probe(probe.sender, probe.to, text, probe.date, probe.cc, probe.body)
    if field == "body":
        return Probe(probe.sender, probe.to, probe.subject, probe.date, probe.cc, f"Hello,\n{value}\n")
    if field in _ADDRESS_FIELDS:
        addr = value if "@" in value and " " not in value else ""
        box = f"Sam Ortiz <{addr}>" if addr and op in ("contains", "is") else (
            f"{value} <sam.ortiz@example.invalid>" if op != "is" else value)
        which = _ADDRESS_FIELDS[field][0]
        return Probe(box if which == "from" else probe.sender, box if which == "to" else probe.to, probe.subject,
                     probe.date, box if which == "cc" else probe.cc, probe.body)
    if field == "date":
        day = _date(value)
        if day is not None:
            shift = {"is before": -3, "is after": 3}.get(op, 0)
            when = dt.datetime.combine(day + dt.timedelta(days=shift), dt.time(12), tzinfo=dt.UTC)
            return Probe(probe.sender, probe.to, probe.subject, when.strftime("%a, %d %b %Y %H:%M:%S +0000"),
                         probe.cc, probe.body)
    return probe


def matching_probe(rule: Rule) -> Probe | None:
    """A message the rule's conditions hold for (every AND term, or the first OR term), or None."""
    probe = BASE
    terms: Sequence[Term] = rule.terms
    if terms and all(t.boolean == "OR" for t in terms[1:]) and len(terms) > 1:
        terms = terms[:1]
    for term in terms:
        probe = _satisfy(probe, term)
    return probe if rule_holds(rule, probe) else None


def other_probe(rule: Rule) -> Probe | None:
    """A message the rule's conditions do not hold for, or None (a rule for every message)."""
    if rule.match_all or not rule.terms:
        return None
    candidates = [BASE] + [_satisfy(BASE, Term("AND", t.field, _NEGATED_BACK.get(t.op.casefold(), t.op), t.value))
                           for t in rule.terms]
    return next((p for p in candidates if not rule_holds(rule, p)), None)


_NEGATED_BACK = {neg: pos for neg, pos in _NEGATED.items()}
