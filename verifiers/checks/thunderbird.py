"""Thunderbird primitives (`tb.*`): judge a profile folder as Thunderbird would load it, read by
`verifiers.readers.thunderbird`.

`path` is always the profile folder (/home/user/.thunderbird/<name>.default-release); the user never types
it, so it is not grounded. Folder names, filter words, addresses, typed pref text and the path of a saved
attachment are what the user types: those are grounded.

Written to accept what Thunderbird 153 saves (measured): a moved message stays in the source mbox marked
expunged (X-Mozilla-Status 0008) until compaction, so every message check skips 0008 entries; filters of
any account (`Mail/*/msgFilterRules.dat`) count; contacts are `_vCard` cards (legacy
PrimaryEmail/DisplayName rows also read); prefs come from prefs.js then user.js (last one wins), and a
pref Thunderbird removed because it equals the default takes `default`.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from preparers import thunderbird as tb
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.grounding import kept_messages, pref_rules
from verifiers.meaning import Meaning, Said, Visible, choice, when
from verifiers.readers import StateError
from verifiers.readers.thunderbird import (
    effective_prefs,
    folder_list,
    folder_mbox,
    folder_path,
    live_flags,
    live_messages,
    read_cards,
    read_filters,
    require_profile,
)

# --- helpers ---------------------------------------------------------------------------------------------


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _short(ids: list[str]) -> str:
    return ", ".join(ids[:4]) + (f" (+{len(ids) - 4} more)" if len(ids) > 4 else "")


# --- primitives ------------------------------------------------------------------------------------------

@primitive("tb.folder_exists", grounded=("folder", "parent"), meaning=Meaning(action=r"folder"))
def folder_exists(state: State, path: str, folder: str, parent: str | None = None) -> Result:
    """A Local Folders folder named `folder` exists, directly under `parent` (or at the top level)."""
    require_profile(state, path)
    want = folder_path(folder, parent)
    if state.is_file(f"{path}/{tb.folder_file(want)}"):
        return ok(f"folder {want!r} exists")
    return fail(f"no folder {want!r}; folders: {', '.join(folder_list(state.path(path))) or 'none'}")


@primitive("tb.messages_in_folder", grounded=("folder", "parent", "field", "value", "count"),
           meaning=Meaning(action=r"mov|cop|filter|folder|file",
                           args={"field": Said("mail_field"),
                                 "count": Said("filter_action", choice({0: "Move to folder"}))}))
def messages_in_folder(state: State, path: str, folder: str, parent: str | None = None,
                       message_ids: list[str] | None = None, field: str | None = None, value: str | None = None,
                       count: int | None = None) -> Result:
    """Every message of `message_ids` is in the folder (not expunged); with `field`/`value`, exactly `count`
    live messages of the folder match that criterion."""
    where = folder_path(folder, parent)
    live = live_messages(state, path, where)
    ids = [tb.message_id(m) for m in live]
    missing = [i for i in message_ids or [] if i not in ids]
    if missing:
        return fail(f"{where!r} lacks {len(missing)} of the {len(message_ids or [])} expected messages: "
                    f"{_short(missing)} ({len(live)} live messages there)")
    evidence = f"{where!r} holds all {len(message_ids or [])} expected messages"
    if field is not None and value is not None:
        try:
            hits = [tb.message_id(m) for m in live if tb.matches(m, field, value)]
        except ValueError as exc:
            return fail(f"bad criterion: {exc}")
        if count is not None and len(hits) != count:
            return fail(f"{where!r} holds {len(hits)} live messages with {field} {value!r} ({_short(hits)}), "
                        f"expected {count}")
        evidence += f"; {len(hits)} live messages with {field} {value!r}"
    return ok(evidence)


@primitive("tb.message_flags", grounded=("folder", "parent", "read", "flagged"),
           meaning=Meaning(action=r"flag|star|read",
                           args={"read": Said("read", when("read")), "flagged": Said("flag", when("flagged"))}))
def message_flags(state: State, path: str, folder: str, message_ids: list[str], parent: str | None = None,
                  read: bool | None = None, flagged: bool | None = None) -> Result:
    """Each listed live message of the folder is read / flagged (or not) as asked."""
    where = folder_path(folder, parent)
    flags = live_flags(folder_mbox(state, path, where))
    wrong = []
    for mid in message_ids:
        if mid not in flags:
            return fail(f"message {mid} is not in {where!r}")
        if read is not None and bool(flags[mid] & tb.READ) != read:
            wrong.append(f"{mid} is {'read' if flags[mid] & tb.READ else 'unread'}")
        if flagged is not None and bool(flags[mid] & tb.FLAGGED) != flagged:
            wrong.append(f"{mid} is {'flagged' if flags[mid] & tb.FLAGGED else 'not flagged'}")
    want = ", ".join(w for w in (None if read is None else ("read" if read else "unread"),
                                 None if flagged is None else ("flagged" if flagged else "not flagged")) if w)
    if wrong:
        return fail(f"expected {len(message_ids)} messages in {where!r} to be {want}, but " + "; ".join(wrong[:4]))
    return ok(f"all {len(message_ids)} messages in {where!r} are {want}")


def _uri_folder(uri: str) -> str | None:
    prefix = tb.LOCAL_URI + "/"
    if not uri.lower().startswith(prefix.lower()):
        return None
    return "/".join(unquote(p) for p in uri[len(prefix):].split("/") if p)


@primitive("tb.filter_exists", grounded=("name", "field", "op", "value", "action", "target", "target_parent"),
           meaning=Meaning(action=r"filter",
                           args={"field": Said("mail_field"), "op": Said("match"), "action": Said("filter_action")}))
def filter_exists(state: State, path: str, field: str, value: str, action: str, op: str = "contains",
                  name: str | None = None, target: str | None = None, target_parent: str | None = None) -> Result:
    """An enabled filter whose only condition is `field op value` has `action` (to the folder `target` under
    `target_parent` for move/copy); `name` too when given."""
    require_profile(state, path)
    files = sorted((state.path(path) / "Mail").glob("*/msgFilterRules.dat"))
    filters = [(f.parent.name, flt) for f in files
               for flt in state.read(f"{path}/Mail/{f.parent.name}/msgFilterRules.dat", read_filters, "filter list")]
    if not filters:
        return fail("the profile has no message filters")
    want_folder = folder_path(target, target_parent) if target else None
    notes: list[str] = []
    others: list[str] = []  # filters with another name
    for account, flt in filters:
        label = f"filter {flt.name!r} ({account})"
        if name is not None and flt.name.strip() != name:
            others.append(flt.name)
            continue
        terms = [(t.field.casefold(), t.op.casefold(), t.value.strip().casefold()) for t in flt.terms]
        if flt.match_all or terms != [(field.casefold(), op.casefold(), value.strip().casefold())]:
            notes.append(f"{label}: conditions {[t.describe() for t in flt.terms] or ['ALL']}")
            continue
        acts = [(a.casefold(), v) for a, v in flt.actions]
        hit = [v for a, v in acts if a == action.casefold()]
        if not hit:
            notes.append(f"{label}: actions {[a for a, _ in flt.actions]}, not {action!r}")
            continue
        if want_folder is not None and want_folder not in [_uri_folder(v) for v in hit]:
            notes.append(f"{label}: {action} to {hit}, not folder {want_folder!r}")
            continue
        if not flt.enabled:
            notes.append(f"{label}: matches but is disabled")
            continue
        to = f" to {want_folder!r}" if want_folder else ""
        return ok(f"{label}: {field} {op} {value!r} -> {action}{to}, enabled")
    if others:
        notes.append(f"other filters: {', '.join(repr(o) for o in others[:4])}")
    return fail(f"no filter with {field} {op} {value!r} -> {action}; " + "; ".join(notes[:4]))


@primitive("tb.contact_exists", grounded=("email", "display_name"),
           meaning=Meaning(action=r"contact|address book|card"))
def contact_exists(state: State, path: str, email: str, display_name: str | None = None,
                   book: str = "abook.sqlite") -> Result:
    """The address book `book` (default: Personal Address Book) has a card with `email` (case-insensitive) and,
    when given, display name `display_name` (or first + last name equal to it)."""
    require_profile(state, path)
    if not state.is_file(f"{path}/{book}"):
        raise StateError(f"address book {book} does not exist")
    cards = state.read(f"{path}/{book}", read_cards, "address book database")
    same = [c for c in cards if email.casefold() in c["emails"].casefold().split("\n")]
    if not same:
        known = sorted({e for c in cards for e in c["emails"].split("\n") if e})
        return fail(f"{book} has no card for {email} (addresses: {_short(known) or 'none'})")
    if display_name is None:
        return ok(f"{book} has a card for {email}")
    for card in same:
        names = {_nfc(card["display"]), _nfc(f"{card['first']} {card['last']}".strip())}
        if _nfc(display_name.strip()) in names:
            return ok(f"{book} has {display_name!r} <{email}>")
    return fail(f"{book} has {email}, but named {sorted({c['display'] for c in same})}, not {display_name!r}")


#: pref (without the identity prefix) -> a phrase that asks for the family's target value of it (the phrases follow
#: workflows/tb/set_pref.py's asks): tb.pref_equals' lexicon
PREF_PHRASES: dict[str, str] = {
    "reply_on_top": r"\b(?:above|on top of|before) the quot",
    "compose_html": r"\bplain[- ]text\b",
    "sig_on_fwd": r"\bsignature\b.*\bforward",
    "sig_on_reply": r"\b(?:stop|don't|do not|no longer|never)\b.*\bsignature\b.*\brepl",
    "auto_quote": r"\b(?:stop|don't|do not|no longer|never)\b.*\bquot",
    "doBcc": r"\bBcc\b|\bblind (?:carbon )?copy\b",
    "mailnews.mark_message_read.delay": r"\bread\b.*\bafter\b.*\bdisplayed\b|\bread\b.*\bafter\b.*\bseconds?\b",
    "mailnews.mark_message_read.delay.interval": r"\b\d+ seconds?\b",
    "mail.SpellCheckBeforeSend": r"\bspell(?:ing|check)?\b.*\bbefore sending\b|\bcheck spelling\b",
    "mail.receipt.request_return_receipt_on": r"\b(?:request|ask for)\b.*\breturn receipt\b",
    "mail.compose.autosave": r"\bauto-?sav",
    "mail.compose.autosaveinterval": r"\bauto-?sav\w*\b.*\b\d+ minutes?\b",
    "mail.biff.show_alert": r"\b(?:stop|don't|do not|no longer|never|without)\b.*\balert\b",
    "attach_vcard": r"\bvCard\b",
    "mail.close_message_window.on_delete": r"\bclose\b.*\b(?:tab|window)\b.*\b(?:move|delete)",
    "extensions.activeThemeID": r"\b(?:dark|light)\b.*\btheme\b",
    "sig_bottom": r"\bsignature\b.*\b(?:above|below|before|after)\b",
}


@primitive("tb.pref_equals", grounded=("name", "value"),
           meaning=Meaning(action=r"Thunderbird|setting|option|preference|account", args=pref_rules(PREF_PHRASES)))
def pref_equals(state: State, path: str, name: str, value: Any, default: Any = None) -> Result:
    """The effective user pref `name` (prefs.js then user.js, last wins; `default` when unset) equals `value`."""
    prefs = effective_prefs(state, path)
    actual = prefs.get(name, default)
    source = "set" if name in prefs else "unset, default"
    if actual is None:
        return fail(f"{name} is not set (expected {value!r})")
    if type(actual) is not type(value) or actual != value:
        return fail(f"{name} is {actual!r} ({source}), expected {value!r}")
    return ok(f"{name} = {actual!r} ({source})")


def _plain(text: str) -> str:
    """Typed text as the user sees it: HTML line breaks as newlines, tags dropped, lines trimmed."""
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.IGNORECASE)
    text = html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.strip() for line in text.strip().split("\n"))


@primitive("tb.pref_text", grounded=("text",), meaning=Meaning(action=r"Thunderbird|setting|account"))
def pref_text(state: State, path: str, name: str, text: str, casefold: bool = False) -> Result:
    """The string pref `name` holds the typed `text` (trimmed per line; HTML breaks read as newlines)."""
    actual = effective_prefs(state, path).get(name)
    if not isinstance(actual, str):
        return fail(f"{name} is {'not set' if actual is None else repr(actual)}, expected text {text!r}")
    got, want = _plain(actual), _plain(text)
    if casefold:
        got, want = got.casefold(), want.casefold()
    if got != want:
        return fail(f"{name} is {actual!r}, expected {text!r}")
    return ok(f"{name} holds {text!r}")


@primitive("tb.profile_kept", grounded=("messages",),
           meaning=Meaning(action=None, why="guards the messages and folders a task leaves alone",
                           args={"messages": Visible(kept_messages)}))
def profile_kept(state: State, path: str, messages: dict[str, list[str]], flagged: list[str],
                 read: list[str] | None = None, prefs: dict[str, Any] | None = None,
                 required: list[str] | None = None, contacts: list[str] | None = None,
                 touched: list[str] | None = None, filters: list[str] | None = None,
                 branches: list[str] | None = None, asked: list[str] | None = None,
                 relabeled: list[str] | None = None, moved_flagged: list[str] | None = None) -> Result:
    """What the task leaves alone is as it was: every folder of `messages` ({folder: ids}) exists and holds
    exactly those messages live, each once (plus any of `touched`, the ones the task moves or copies), flagged
    exactly when listed in `flagged` (and, with `read`, read exactly when listed there); the filters named in
    `filters` are still there; every pref of `prefs` that is set still holds its value (an unset one is fine:
    Thunderbird drops a pref that equals its default), and the prefs named in `required` (account settings, which
    have no default) are set; no pref was added under the user-facing `branches` (name prefixes Thunderbird does
    not write on its own) except those of `prefs` and `asked` (what the task sets); the Personal Address Book
    still has a card for every address in `contacts`. A message kept by Message-ID but duplicated into a folder
    is a change: sets of ids would not see it. Messages of `relabeled` (ids the task flags or marks read) are
    listed in `messages` like the others, where they must stay, but their flags are the task's to change. A
    message both listed and in `touched` is one the task copies: it stays, and its copies elsewhere carry its flag.
    With `moved_flagged`, a message of `touched` found in another folder (moved) is flagged exactly when listed
    there. Grounded in the initial state, not the instruction: the messages are the profile's own."""
    wrong: list[str] = []
    marked, seen, mine = set(flagged), set(read or []), set(relabeled or [])
    listed = {mid for ids in messages.values() for mid in ids}
    # the profile folder once: every read below raises this very error when it is missing (found here first)
    require_profile(state, path)
    for folder, ids in sorted(messages.items()):
        try:
            mbox = folder_mbox(state, path, folder, checked=True)
        except StateError as exc:
            wrong.append(str(exc))
            continue
        flags = live_flags(mbox)
        if mbox.head and not mbox.head.startswith(b"From "):
            wrong.append(f"{folder!r} is no longer an mbox (it starts with {mbox.head[:20]!r})")
            continue
        extra = sorted(set(flags) - set(ids) - set(touched or []))
        if extra:
            wrong.append(f"{folder!r} holds {len(extra)} other messages: {_short(extra)}")
        # a copy of a message that stays where it was (touched and listed: copied) carries the original's flag
        recolored = sorted(mid for mid in set(flags) - set(ids) if mid in listed and mid not in mine
                           and bool(flags[mid] & tb.FLAGGED) != (mid in marked))
        if recolored:
            wrong.append(f"{folder!r} holds copies with another flag than their original: {_short(recolored)}")
        if moved_flagged is not None:  # a message the task moves keeps its flag in its new folder
            reflagged = sorted(mid for mid in set(flags) - listed if mid in set(touched or []) and mid not in mine
                              and bool(flags[mid] & tb.FLAGGED) != (mid in set(moved_flagged)))
            if reflagged:
                wrong.append(f"{folder!r} holds moved messages with another flag than before: {_short(reflagged)}")
        counts = Counter(tb.message_id(msg) for _, msg in mbox.live())
        twice = sorted(mid for mid, n in counts.items() if n > max(ids.count(mid), 1))
        if twice:
            wrong.append(f"{folder!r} holds {len(twice)} messages more than once: {_short(twice)}")
        for mid in ids:
            if mid not in flags:
                wrong.append(f"message {mid} is no longer in {folder!r}")
            elif mid in mine:
                continue
            elif bool(flags[mid] & tb.FLAGGED) != (mid in marked):
                wrong.append(f"message {mid} in {folder!r} is {'now' if flags[mid] & tb.FLAGGED else 'no longer'} "
                             "flagged")
            elif read is not None and bool(flags[mid] & tb.READ) != (mid in seen):
                wrong.append(f"message {mid} in {folder!r} is {'now' if flags[mid] & tb.READ else 'no longer'} read")
    current = effective_prefs(state, path, checked=True)
    wrong += [f"pref {name} is {current[name]!r}, was {value!r}" for name, value in sorted((prefs or {}).items())
              if name in current and current[name] != value]
    wrong += [f"pref {name} is gone" for name in required or [] if name not in current]
    known = set(prefs or {}) | set(asked or [])
    wrong += [f"pref {name} = {current[name]!r} was added" for name in sorted(current)
              if branches and name.startswith(tuple(branches)) and name not in known]
    if filters:
        files = sorted((state.path(path) / "Mail").glob("*/msgFilterRules.dat"))
        names = {flt.name for f in files
                 for flt in state.read(f"{path}/Mail/{f.parent.name}/msgFilterRules.dat", read_filters, "filter list")}
        wrong += [f"filter {name!r} is gone" for name in filters if name not in names]
    if contacts:
        try:
            cards = state.read(f"{path}/abook.sqlite", read_cards, "address book")
        except StateError as exc:
            cards = []
            wrong.append(str(exc))
        emails = {e.casefold() for card in cards for e in card["emails"].split("\n")}
        wrong += [f"contact {e} is gone" for e in contacts if e.casefold() not in emails]
    total = sum(len(ids) for ids in messages.values())
    if wrong:
        return fail(f"{len(wrong)} things the task should leave alone changed: " + "; ".join(wrong[:4]))
    return ok(f"the other {total} messages and {len(prefs or {})} prefs are as they were")


@primitive("tb.file_saved", grounded=("path",), meaning=Meaning(action=r"save|store|download|attachment"))
def file_saved(state: State, path: str, sha256: str, size: int | None = None) -> Result:
    """The file at `path` exists with exactly the expected bytes (an attachment saved from a message)."""
    data = state.read(path, Path.read_bytes, "file")
    got = hashlib.sha256(data).hexdigest()
    if got != sha256:
        sized = f", expected {size} bytes" if size is not None else ""
        return fail(f"{path} has {len(data)} bytes with sha256 {got[:12]}, not the expected attachment{sized}")
    return ok(f"{path} holds the expected {len(data)} bytes")
