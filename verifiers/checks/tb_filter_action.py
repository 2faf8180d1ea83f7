"""A message filter whose action is not a folder move: tag, mark read, flag, forward, delete (tb.filter_action).

The question is the filter's whole setup as a user asks for it: an enabled filter of that name, one condition
`field contains value`, run on new mail (type bit 1 Inbox or 32 PostPlugin, `preparers.tbfilters`), with the asked
action and its value: for `AddTag` the tag as the user sees it (the file holds its key, `$label2` for "Work";
a key is resolved through `mailnews.tags.<key>.tag` in prefs, then Thunderbird's five default tags), for
`Forward` the address (case-insensitive)."""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.thunderbird import DEFAULT_TAGS, effective_prefs, read_filters, require_profile, tag_label

__all__ = ["DEFAULT_TAGS", "tag_label", "filter_acts"]

NEW_MAIL = 1 | 32  # nsMsgFilterType Inbox | PostPlugin: both act on arriving mail


@primitive("tb.filter_acts", grounded=("name", "field", "value", "action", "tag", "forward_to"),
           meaning=Meaning(action=r"filter",
                           args={"field": Said("mail_field"), "action": Said("filter_action")}))
def filter_acts(state: State, path: str, name: str, field: str, value: str, action: str, tag: str | None = None,
                forward_to: str | None = None) -> Result:
    """An enabled filter named `name` whose only condition is `field contains value` runs on new mail and has
    the action `action` (with the tag labelled `tag` for AddTag, to `forward_to` for Forward)."""
    require_profile(state, path)
    files = sorted((state.path(path) / "Mail").glob("*/msgFilterRules.dat"))
    rules = [(f.parent.name, r) for f in files
             for r in state.read(f"{path}/Mail/{f.parent.name}/msgFilterRules.dat", read_filters, "filter list")]
    named = [(account, r) for account, r in rules if r.name.strip() == name]
    if not named:
        found = sorted({r.name for _, r in rules})
        return fail(f"no filter named {name!r} (filters: {', '.join(repr(n) for n in found[:5]) or 'none'})")
    prefs: dict[str, Any] | None = None
    notes: list[str] = []
    for account, rule in named:
        label = f"filter {name!r} ({account})"
        terms = [(t.field.casefold(), t.op.casefold(), t.value.strip().casefold()) for t in rule.terms]
        if rule.match_all or terms != [(field.casefold(), "contains", value.strip().casefold())]:
            notes.append(f"{label}: conditions {[t.describe() for t in rule.terms] or ['ALL']}, "
                         f"not {field} contains {value!r}")
            continue
        values = [v for a, v in rule.actions if a.casefold() == action.casefold()]
        if not values:
            notes.append(f"{label}: actions {[a for a, _ in rule.actions]}, not {action!r}")
            continue
        if tag is not None:
            if prefs is None:
                prefs = effective_prefs(state, path, checked=True)
            shown = [tag_label(prefs, v.strip()) for v in values]
            if tag.casefold() not in [s.casefold() for s in shown]:
                notes.append(f"{label}: tags with {shown}, not {tag!r}")
                continue
        if forward_to is not None and forward_to.casefold() not in [v.strip().casefold() for v in values]:
            notes.append(f"{label}: forwards to {values}, not {forward_to!r}")
            continue
        if not rule.enabled:
            notes.append(f"{label}: set up as asked but disabled")
            continue
        if not rule.type & NEW_MAIL:
            notes.append(f"{label}: set up as asked but does not run on new mail (type={rule.type})")
            continue
        what = f" {tag!r}" if tag else f" to {forward_to}" if forward_to else ""
        return ok(f"{label}: {field} contains {value!r} -> {action}{what}, enabled, runs on new mail")
    return fail("; ".join(notes[:4]))
