"""The canonical model of a Thunderbird profile, and its frame: what may change, and what must stay as it was.

Facts (key -> canonical text), read through the one Thunderbird reader (`verifiers.readers.thunderbird`):
- `folder:<path>`: a mail folder ("Inbox/Clients"; a folder of another server than Local Folders is
  `<server>:<path>`): `mbox`, or `not an mbox` for a file Thunderbird would not read as one. The special folders
  Thunderbird makes on its own (Trash, Unsent Messages, Drafts, Sent, Templates, Junk, Inbox) are facts only when
  they hold messages;
- `msg:<folder>|<Message-ID>`: a live message (an entry marked expunged, 0008, is gone: Thunderbird moves and
  deletes that way until it compacts): `<flags>|<tags>|<copies>|<headers>`, flags read, replied, flagged,
  forwarded (X-Mozilla-Status), tags the words of X-Mozilla-Keys as labels (`mailnews.tags.<key>.tag`, else
  Thunderbird's defaults; a keyword of no tag as itself; the padding is noise), copies how many live
  entries carry that Message-ID there, headers a digest of what a person sees (From, To, Cc, Subject, Date);
- `filter:<name>` (a second filter of one name `<name>#2`): the server whose list holds it (Local Folders, or the
  POP account deferred to it, which Tools > Message Filters opens first: either list acts on arriving mail),
  enabled, the run contexts of its `type`, its conditions and its actions (folder targets as folder paths);
  `filters:<server>`: the names of a server's filters in order;
- `pref:<name>`: a pref's value as Thunderbird loads it (prefs.js, then user.js), JSON; the prefs Thunderbird
  writes on its own (`MANAGED_PREFS`) are not facts;
- `card:<book>/<address>`: an address book card (display name, first and last name, every address).
Noise canonicalised away: X-Mozilla-Status2, X-Mozilla-Keys padding, header order and folding, .msf summaries
(Forge prepares none; Thunderbird rewrites X-Mozilla-Status in the mbox, measured, so the mbox says the flags),
prefs.js comments, blank lines and order, msgFilterRules.dat's version and logging lines and its quoting.

A frame (`derive`) holds the facts diff(initial, oracle) changes (`allowed`, with the oracle's value) and the
initial value of every other fact (`kept`), so `judge` names each change. In `allowed`, messages and folders are
judged by value (a moved message keeps its flags), filters, cards and prefs by presence only (their goal checks
and the filter probes judge what they say). Outside it, three rules follow Thunderbird rather than the user: a
kept pref may be gone (Thunderbird drops a pref equal to its default) unless it is an account setting; a new pref
is a change only under the user-facing branches (`USER_BRANCHES`; Thunderbird writes many others as it runs);
kept filters keep their order among themselves (a new one may go anywhere). Where the task changes no read state,
a message may go from unread to read (`free["read"]`: opening a message marks it read); where it does, every read
state is framed (marking all of the Inbox read where the task marks some of Archives is a change).

Effects: `probes` turns each filter the oracle adds into probe messages (one it must act on, one it must not) in
the contexts the task implies: new mail when the filter runs on arriving mail, a manual run too when the oracle
ran it on the messages already there; `verifiers.frame.tbfilter_sim` says what fires.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from preparers import tbfilters
from preparers import thunderbird as tb
from verifiers.frame import tbfilter_sim as sim
from verifiers.readers import Source, StateError
from verifiers.readers.thunderbird import (
    MANAGED_PREFS,
    effective_prefs,
    message_tags,
    read_cards,
    read_filters,
    read_mbox,
    tag_label,
)

LOCAL = "Local Folders"
#: folders Thunderbird makes itself, empty, when it opens a profile or a dialog: facts only when they hold mail
SELF_MADE = frozenset({"Trash", "Unsent Messages", "Drafts", "Sent", "Templates", "Junk", "Inbox"})
NOT_FOLDERS = frozenset({"msgFilterRules.dat", "popstate.dat", "filterlog.html", "junklog.html", "rules.dat",
                         "training.dat", "traits.dat"})
#: account settings: no default, so Thunderbird never drops them; one gone loses the account
ACCOUNT_PREFS = ("mail.accountmanager.", "mail.account.account", "mail.identity.", "mail.server.")
#: user-facing settings branches Thunderbird never writes on its own: a new pref there is a person's change
USER_BRANCHES = ("mail.compose.", "mail.SpellCheckBeforeSend", "mail.spellcheck.", "mail.receipt.",
                 "mail.incorporate.", "mail.mdn.", "mail.biff.", "mail.close_message_window.",
                 "mail.delete_matches_sort_order", "mail.default_send_format", "mailnews.mark_message_read.",
                 "mailnews.display.", "mailnews.reply_", "mail.phishing.", "mailnews.message_display.",
                 "mail.forward_message_mode")
BOOKS = ("abook.sqlite", "history.sqlite")
FLAG_NAMES = ((tb.READ, "read"), (tb.REPLIED, "replied"), (tb.FLAGGED, "flagged"), (0x1000, "forwarded"))
READ_FREE = "opening a message marks it read: a message may go from unread to read where the task reads no state"
MAX_FOLDERS = 2_000
FOLDER_MOVES = ("Move to folder", "Copy to folder")


@dataclass
class Profile:
    """A profile as the frame reads it: its facts, and what the filter probes need (each server's filters and the
    live messages of each folder)."""

    facts: dict[str, str] = field(default_factory=dict)
    rules: dict[str, list[tbfilters.Rule]] = field(default_factory=dict)
    messages: dict[str, list[tuple[int, tb.Headers]]] = field(default_factory=dict)


def _folders(state: Source, path: str) -> list[tuple[str, str, str]]:
    """(server folder, folder path, profile-relative mbox file) of every mail folder, bounded, no link followed."""
    mail = state.path(path) / "Mail"
    out: list[tuple[str, str, str]] = []
    if not mail.is_dir() or mail.is_symlink():
        return out
    for server in sorted(p for p in mail.iterdir() if p.is_dir() and not p.is_symlink()):
        stack = [(server, "")]
        while stack and len(out) < MAX_FOLDERS:
            folder, prefix = stack.pop()
            for entry in sorted(folder.iterdir()):
                if entry.is_symlink() or entry.name.startswith("."):
                    continue
                if entry.is_dir() and entry.name.endswith(".sbd"):
                    stack.append((entry, f"{prefix}{entry.name.removesuffix('.sbd')}/"))
                elif entry.is_file() and entry.name not in NOT_FOLDERS and not entry.name.endswith(
                        (".msf", ".sqlite", ".json", ".html")):
                    out.append((server.name, prefix + entry.name, entry.relative_to(state.path(path)).as_posix()))
    return sorted(out)


def _tag(prefs: Mapping[str, Any], key: str) -> str:
    """A tag as the user sees it: its label where prefs (or Thunderbird's defaults) name one, else the bare
    keyword, so a custom tag saved under another key than Thunderbird's own is the same tag."""
    label = tag_label(dict(prefs), key)
    return key.casefold() if label.startswith("(no tag: ") else label


def _flags(flags: int) -> str:
    return ",".join(name for bit, name in FLAG_NAMES if flags & bit)


def _digest(msg: tb.Headers) -> str:
    seen = "\n".join(" ".join(msg.value(h).split()) for h in ("From", "To", "Cc", "Subject", "Date"))
    return hashlib.sha256(seen.encode()).hexdigest()[:8]


def rule_text(rule: tbfilters.Rule) -> str:
    """A filter as it behaves: on/off, run contexts, conditions, actions (folder targets as paths)."""
    terms = "ALL" if rule.match_all or not rule.terms else " ".join(
        f"{t.boolean} ({t.field.casefold()},{t.op.casefold()},{t.value})" for t in rule.terms)
    actions = "; ".join(" ".join(x for x in sim.action_of(a, v) if x) for a, v in rule.actions)
    state = "enabled" if rule.enabled else "disabled"
    return f"{state} on {'+'.join(sim.contexts_of(rule))} if {terms} then {actions or 'nothing'}" + (
        f" ({rule.description})" if rule.description else "")


def read_profile(state: Source, path: str) -> Profile:
    """The model of the profile folder `path` (/home/user/.thunderbird/<name>.default-release) in `state`."""
    model = Profile()
    facts = model.facts
    if not state.is_dir(path):
        facts["#profile"] = "missing"
        return model
    try:
        prefs = effective_prefs(state, path, checked=True)
    except StateError as exc:
        facts["prefs"] = f"unreadable: {exc}"[:160]
        prefs = {}
    folders = _folders(state, path)
    for server, folder, rel in folders:
        name = folder if server == LOCAL else f"{server}:{folder}"
        try:
            mbox = state.read(f"{path}/{rel}", read_mbox, "mbox folder")
        except StateError as exc:
            facts[f"folder:{name}"] = f"unreadable: {exc}"[:120]
            continue
        if mbox.head and not mbox.head.startswith(b"From "):
            facts[f"folder:{name}"] = "not an mbox"
            continue
        live = mbox.live()
        if not live and "/" not in folder and folder in SELF_MADE:
            continue
        facts[f"folder:{name}"] = "mbox"
        model.messages[name] = live
        counts = Counter(tb.message_id(msg) or f"h:{_digest(msg)}" for _, msg in live)
        for flags, msg in live:
            mid = tb.message_id(msg) or f"h:{_digest(msg)}"
            tags = " ".join(sorted({_tag(prefs, key) for key in message_tags(msg)}))
            facts[f"msg:{name}|{mid}"] = f"{_flags(flags)}|{tags}|{counts[mid]}|{_digest(msg)}"
    names: Counter[str] = Counter()  # filters by name across servers: the asked one may sit in any account's list
    for server in sorted({s for s, _, _ in folders} | _filter_servers(state, path), key=lambda s: (s != LOCAL, s)):
        rel = f"{path}/Mail/{server}/msgFilterRules.dat"
        if not state.is_file(rel):
            continue
        try:
            rules = state.read(rel, read_filters, "filter list")
        except StateError as exc:
            facts[f"filters:{server}"] = f"unreadable: {exc}"[:160]
            continue
        model.rules[server] = list(rules)
        for rule in rules:
            names[rule.name] += 1
            key = rule.name if names[rule.name] == 1 else f"{rule.name}#{names[rule.name]}"
            facts[f"filter:{key}"] = f"{server}: {rule_text(rule)}"
        if rules:
            facts[f"filters:{server}"] = json.dumps([r.name for r in rules], ensure_ascii=False)
    for name, value in prefs.items():
        if not name.startswith(MANAGED_PREFS):
            facts[f"pref:{name}"] = json.dumps(value, ensure_ascii=False)
    for book in BOOKS:
        if not state.is_file(f"{path}/{book}"):
            continue
        try:
            cards = state.read(f"{path}/{book}", read_cards, "address book")
        except StateError as exc:
            facts[f"book:{book}"] = f"unreadable: {exc}"[:160]
            continue
        seen: Counter[str] = Counter()
        for card in cards:
            emails = card["emails"].split("\n")
            who = emails[0].casefold() if emails[0] else f"name:{card['display']}"
            seen[who] += 1
            key = f"card:{book}/{who}" + (f"#{seen[who]}" if seen[who] > 1 else "")
            facts[key] = f"{card['display']}|{card['first']}|{card['last']}|{' '.join(sorted(emails))}"
    return model


def _filter_servers(state: Source, path: str) -> set[str]:
    mail = state.path(path) / "Mail"
    if not mail.is_dir():
        return set()
    return {p.name for p in mail.iterdir() if p.is_dir() and not p.is_symlink()
            and (p / "msgFilterRules.dat").is_file()}


# --- the frame ----------------------------------------------------------------------------------------------

def _read_states(facts: Mapping[str, str]) -> dict[str, set[bool]]:
    out: dict[str, set[bool]] = {}
    for key, value in facts.items():
        if key.startswith("msg:"):
            out.setdefault(key.partition("|")[2], set()).add("read" in value.split("|")[0].split(","))
    return out


def derive(initial: Mapping[str, str], oracle: Mapping[str, str],
           free: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The profile frame: the facts the task changes (with the oracle's value, '-' where it removes one), the
    initial value of every other fact (a server's filter order among the filters it had, unless the oracle
    reorders them: a new filter anywhere keeps it), and the freedoms (`free`: fact key pattern -> reason; `read`
    when the task changes no read state)."""
    allowed = {key: oracle.get(key, "-") for key in sorted(set(initial) | set(oracle))
               if initial.get(key) != oracle.get(key) and not (
                   key.startswith("filters:") and key in initial and key in oracle
                   and _order_problem(key[8:], initial[key], oracle[key]) is None)}
    kept = {key: value for key, value in sorted(initial.items()) if key not in allowed}
    freedoms = dict(free or {})
    before, after = _read_states(initial), _read_states(oracle)
    if all(before.get(mid, states) == states for mid, states in after.items()):
        freedoms.setdefault("read", READ_FREE)
    return {"allowed": allowed, "kept": kept, "free": freedoms}


def _parts(value: str) -> list[str]:
    return (value.split("|") + ["", "", "", ""])[:4]


def describe(key: str, value: str) -> str:
    """A fact for evidence: "message X in Inbox (read, flagged)", "folder Old Mail", "pref a.b = 3"."""
    kind, _, rest = key.partition(":")
    if kind == "msg":
        folder, _, mid = rest.partition("|")
        flags, tags, copies, _ = _parts(value)
        bits = [flags.replace(",", ", ") or "unread"] + ([f"tags {tags}"] if tags else []) + (
            [f"{copies} copies"] if copies not in ("", "1") else [])
        return f"message {mid} in {folder!r} ({'; '.join(bits)})"
    if kind == "folder":
        return f"folder {rest!r}" + ("" if value == "mbox" else f" ({value})")
    if kind == "filter":
        return f"filter {rest!r} ({value})"
    if kind == "pref":
        return f"pref {rest} = {value}"
    if kind == "card":
        return f"contact {rest.partition('/')[2]} in {rest.partition('/')[0]}"
    return f"{key} ({value})"


def _same_message(want: str, got: str, read_free: bool) -> bool:
    if want == got:
        return True
    if not read_free:
        return False
    w, g = _parts(want), _parts(got)
    wf = [f for f in w[0].split(",") if f]
    gf = [f for f in g[0].split(",") if f and not (f == "read" and "read" not in wf)]
    return wf == gf and w[1:] == g[1:]


def _order_problem(server: str, kept: str, end: str | None) -> str | None:
    if end is None or kept.startswith("unreadable"):
        return None
    if end.startswith("unreadable"):
        return f"the filter list of {server} is {end}"
    before, after = json.loads(kept), json.loads(end)
    common = [n for n in before if n in after]
    now = [n for n in after if n in common]
    if now != common:
        return f"the filters of {server} are in another order ({', '.join(now[:6])}; were {', '.join(common[:6])})"
    return None


def judge(frame: Mapping[str, Any], end: Mapping[str, str]) -> list[str]:
    """Every change of `end` out of the frame, one phrase each (empty: the end state lies inside it)."""
    allowed: Mapping[str, str] = frame["allowed"]
    kept: Mapping[str, str] = frame["kept"]
    free: Mapping[str, str] = frame.get("free") or {}
    read_free = "read" in free
    patterns = [p for p in free if p != "read"]
    problems: list[str] = []
    if end.get("#profile") == "missing":
        return ["the profile folder is gone"]
    for key in sorted(set(allowed) | set(kept) | set(end), key=_order):
        if any(fnmatch.fnmatchcase(key, p) for p in patterns):
            continue
        want = allowed.get(key, kept.get(key, "-"))
        got = end.get(key, "-")
        kind = key.partition(":")[0]
        if kind == "filters":
            if key not in allowed and key in kept and (p := _order_problem(key[8:], kept[key], end.get(key))):
                problems.append(p)
            continue
        if key in allowed and kind in ("filter", "pref", "card", "book") and (
                kind == "pref" or (want == "-") == (got == "-")):
            continue  # what the changed filter, pref or card says is its goal checks' and the probes' question
        if kind == "msg" and want != "-" and got != "-" and _same_message(want, got, read_free):
            continue
        if want == got:
            continue
        if kind == "pref" and key not in allowed:
            name = key[5:]
            if got == "-" and not name.startswith(ACCOUNT_PREFS):
                continue  # Thunderbird drops a pref that equals its default
            if want == "-" and not name.startswith(USER_BRANCHES):
                continue  # Thunderbird writes prefs of its own as it runs
        if got == "-":
            problems.append(f"{describe(key, want)} is gone" if key in kept or want != "-" else
                            f"{describe(key, want)} is missing")
        elif want == "-":
            problems.append(f"{describe(key, got)} was added")
        else:
            problems.append(f"{describe(key, want)} is now {_short(key, got, want)}"
                            + (f" (as the task leaves it: {_short(key, want)})" if key in allowed else ""))
    return list(dict.fromkeys(problems))


def _order(key: str) -> tuple[int, str]:
    rank = {"#profile": 0, "folder": 1, "filters": 2, "filter": 3, "msg": 4, "pref": 5, "card": 6}
    return rank.get(key.partition(":")[0], 7), key


def _short(key: str, value: str, was: str = "") -> str:
    """A fact's value for evidence; a message's header digest only where it differs from `was`'s."""
    if key.startswith("msg:"):
        flags, tags, copies, digest = _parts(value)
        other = digest != _parts(was)[3] if was and was != "-" else False
        return ", ".join([flags.replace(",", ", ") or "unread", *([f"tags {tags}"] if tags else []),
                          *([f"{copies} copies"] if copies not in ("", "1") else []),
                          *(["other headers (From, To, Cc, Subject or Date)"] if other else [])])
    return value[:100]


# --- effects: filter probes ---------------------------------------------------------------------------------

def _all_rules(model: Profile) -> list[tbfilters.Rule]:
    """Every server's filters in the order new mail meets them: other servers (a POP account) first, then Local
    Folders (the account it is deferred to)."""
    servers = sorted(model.rules, key=lambda s: (s == LOCAL, s))
    return [rule for server in servers for rule in model.rules[server]]


def _ran_now(rule: tbfilters.Rule, initial: Profile, oracle: Profile) -> bool:
    """Did the oracle run `rule` on messages already there: in some folder, every message the rule holds for
    shows each of its actions' effects in the oracle's end state, and one of them was not so before?"""
    def where(model: Profile, mid: str) -> dict[str, int]:
        return {f: flags for f, live in model.messages.items() for flags, msg in live if tb.message_id(msg) == mid}

    for folder, live in initial.messages.items():
        hits = [(flags, msg) for flags, msg in live if sim.rule_holds(rule, _probe_of(msg))]
        done_all, changed = bool(hits), False
        for flags, msg in hits:
            now = where(oracle, tb.message_id(msg))
            for action, value in rule.actions:
                act, target = sim.action_of(action, value)
                done = {"Move to folder": target in now and folder not in now, "Copy to folder": target in now,
                        "Mark read": bool(now.get(folder, 0) & tb.READ),
                        "Mark flagged": bool(now.get(folder, 0) & tb.FLAGGED)}.get(act, False)
                done_all &= done
                changed |= act in FOLDER_MOVES or (act == "Mark read" and not flags & tb.READ) or (
                    act == "Mark flagged" and not flags & tb.FLAGGED)
        if done_all and changed:
            return True
    return False


def _probe_of(msg: tb.Headers) -> sim.Probe:
    return sim.Probe(msg.value("From"), msg.value("To"), msg.value("Subject"), msg.value("Date") or sim.BASE.date,
                     msg.value("Cc"))


def probes(initial: Profile, oracle: Profile) -> list[dict[str, Any]]:
    """Probe messages for every filter the oracle adds: in each context the task implies (new mail when the filter
    runs on arriving mail; a manual run when the oracle ran it on the messages already there), one message its
    conditions hold for and one they do not, with the actions the oracle's whole filter list fires on each."""
    old = {(r.name, rule_text(r)) for rules in initial.rules.values() for r in rules}
    everything = _all_rules(oracle)
    out: list[dict[str, Any]] = []
    for rule in everything:
        if (rule.name, rule_text(rule)) in old:
            continue
        contexts = [c for c in ("new mail",) if sim.runs_in(rule, c)]
        if _ran_now(rule, initial, oracle):
            contexts.append("manual")
        for context in contexts:
            for kind, probe in (("matching", sim.matching_probe(rule)), ("other", sim.other_probe(rule))):
                if probe is None:
                    continue
                expect = [[a, v] for _, a, v in sim.fired(everything, probe, context)]
                out.append({"filter": rule.name, "context": context, "kind": kind, "probe": probe.as_args(),
                            "expect": expect})
    return out


def judge_probes(cases: Iterable[Mapping[str, Any]], end: Profile) -> list[str]:
    """Every probe on which the end state's filters act otherwise than the oracle's, one phrase each."""
    rules = _all_rules(end)
    problems = []
    for case in cases:
        probe = sim.Probe.of(case["probe"])
        got = [[a, v] for _, a, v in sim.fired(rules, probe, case["context"])]
        want = [list(x) for x in case["expect"]]
        if got == want:
            continue
        said = [f"{r.name!r} runs on {'+'.join(sim.contexts_of(r))}" for r in rules if r.name == case["filter"]]
        problems.append(f"on {case['context']}, {probe.describe()} ({case['kind']} filter {case['filter']!r}) gets "
                        f"{_acts(got)}, where the task's filter does {_acts(want)}"
                        + (f" ({'; '.join(said)})" if said else f" (no filter named {case['filter']!r})"))
    return problems


def _acts(actions: list[list[str]]) -> str:
    return ", ".join(f"{a} {v}".strip() for a, v in actions) or "nothing"
