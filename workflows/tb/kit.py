"""Nodes and helpers shared by the Thunderbird families.

Every family starts with `sample` (the plan: owner, company domain, time window, profile name) and the
`content` LLM node (a realistic mailbox, see `tb_content`), then its own `goal` node picks what the task is
about (a sender, a subject word, a date, a folder...) and builds a `ProfileSpec` with `profile_spec`; the
shared `prepare` node turns the spec into assets (every profile file is one asset) and the launch command.

Criteria are picked so they split the source folder cleanly: a sender address that no other From header
contains, a subject word found in 2-4 subjects, or a date with a gap of days around it (so time zones
cannot move a message across it).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from email.utils import formataddr, parseaddr
from typing import Any

from kit.axes import pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.errors import WorkflowError
from kit.family import AppKit
from kit.model import HOME, Asset, Check
from preparers import thunderbird as tb
from verifiers.readers.thunderbird import MANAGED_PREFS
from workflows.common import instruction
from workflows.frame_tb import tb_frame_node
from workflows.tb.content import FIRST, LAST, MAILBOX_SCHEMA, MAILBOX_SKETCH, check_mailbox, generate_mailbox
from workflows.teacher import teacher_node

__all__ = ["instruction"]  # re-exported: families call tc.instruction(...)

APP = "thunderbird"
LAUNCH = ["thunderbird"]
COMPANIES = ("alderfinch.com", "bluequarry.io", "northbeam.co", "tidewater-labs.com", "kestrelworks.com",
             "meridianhealth.org", "copperleaf.studio", "granitepeak.net", "solsticemedia.com", "lumaforge.io")
TOP_FOLDERS = ("Projects", "Receipts", "Travel", "Clients", "Newsletters", "Team", "Personal", "Reports", "Finance")
SUB_FOLDERS = ("Website Redesign", "Conferences", "Vendors", "Follow Up", "Hiring", "Old Projects", "Contracts")
CONTENT_TYPES = {"pdf": "application/pdf", "csv": "text/csv", "txt": "text/plain"}
_STOP = {"your", "with", "from", "this", "that", "for", "the", "and", "next", "week", "is", "are", "new", "our",
         "ready", "notes", "after", "about", "tomorrow", "latest"}


@dataclass(frozen=True)
class Criterion:
    """Which messages a task is about: `field`/`value` as `preparers.thunderbird.matches` reads them."""

    field: str  # from | subject | before
    value: str
    ids: tuple[str, ...]  # Message-IDs of the matching messages

    @property
    def text(self) -> str:
        """How an instruction names the messages."""
        if self.field == "from":
            return f"from {self.value}"
        if self.field == "subject":
            return f"whose subject contains '{self.value}'"
        day = dt.date.fromisoformat(self.value)
        return f"dated before {self.value} ({day.day} {day:%B %Y})"

    def op_args(self) -> dict[str, str]:
        return {"field": self.field, "value": self.value}


# --- plan and content ------------------------------------------------------------------------------------

#: Difficulty axes (issue 15) every Thunderbird family has, the first level being today's mailbox with the same
#: random draws: how many messages the mailbox holds (the content schema allows 40), and look-alike messages
#: (`noise`: earlier issues of the recurring document with the same attachment name, and people who also write
#: from a second address under the same name). `LOCATION` is the axis of the families that name a source folder.
AXES: dict[str, tuple[Any, ...]] = {"messages": ("18-26", "28-34", "36-40"), "noise": ("none", "some", "many")}
#: Where the messages a task is about live: the folder the family names, a subfolder of it, or two levels down.
LOCATION: dict[str, tuple[Any, ...]] = {"location": ("near", "sub", "nested")}
SOURCE_SUBS = ("Work", "Admin", "Shared", "Pending", "Accounts")
SOURCE_NESTED = ("Current", "Open Items", "This Quarter", "To Review")


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    params = values["params"]
    first, last = rng.choice(FIRST), rng.choice(LAST)
    domain = rng.choice(COMPANIES)
    local = re.sub(r"[^a-z.]", "", f"{first}.{last}".lower().translate(str.maketrans("áéíóúñ", "aeioun")))
    start = dt.date(rng.choice((2023, 2024, 2025)), rng.randint(1, 10), rng.randint(1, 28))
    fmt = params.get("kind") or rng.choice(("pdf", "csv", "txt"))
    low, high = span(pick(params, "messages", AXES))
    plan = {"owner": {"first": first, "last": last, "email": f"{local}@{domain}"}, "domain": domain,
            "start": start.isoformat(), "days": rng.randint(50, 75), "n_messages": rng.randint(low, high),
            "utc_offset": rng.choice((-300, -240, 0, 60, 120)), "attachment_format": fmt,
            "profile": "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(8))}
    for axis in AXES:  # only when moved: the default plan (and so the prompt and the mailbox) stays as it was
        if pick(params, axis, AXES) != AXES[axis][0]:
            plan[axis] = pick(params, axis, AXES)
    return {"plan": plan}


def source_folder(rng: random.Random, params: Mapping[str, Any], folder: str) -> str:
    """Where the task's messages live at the `location` level: `folder` itself (no random draw, so the default
    task is today's), a subfolder of it ("Inbox/Work"), or one two levels down ("Inbox/Work/Current")."""
    level = pick(params, "location", LOCATION)
    if level == "near":
        return folder
    path = f"{folder}/{rng.choice(SOURCE_SUBS)}"
    return f"{path}/{rng.choice(SOURCE_NESTED)}" if level == "nested" else path


def folder_args(path: str, key: str = "folder", parent_key: str = "parent") -> dict[str, str]:
    """A folder path as check args: {"folder": leaf, "parent": its parent path} (no parent at the top level)."""
    parent, _, leaf = path.rpartition("/")
    return {key: leaf, parent_key: parent} if parent else {key: leaf}


content = llm_node("content", kind="llm", inputs=("plan",), output="mailbox", prompt="tb_content.txt",
                   schema=MAILBOX_SCHEMA, offline=lambda rng, values: generate_mailbox(rng, values["plan"]),
                   check=check_mailbox, sketch=MAILBOX_SKETCH)


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every Thunderbird family."""
    return (sample, content)


def profile_path(plan: Mapping[str, Any]) -> str:
    """The profile folder as checks and ops name it (/home/user/.thunderbird/<name>.default-release)."""
    return f"{HOME}/{tb.profile_dir(plan['profile'])}"


def attachment(item: Mapping[str, str]) -> tb.Attachment:
    fmt = item["format"]
    data = tb.text_pdf(item["text"]) if fmt == "pdf" else item["text"].encode("utf-8")
    return tb.Attachment(item["filename"], CONTENT_TYPES[fmt], data)


def _message_id(plan: Mapping[str, Any], index: int, item: Mapping[str, Any]) -> str:
    digest = hashlib.sha256(f"{plan['profile']}|{index}|{item['subject']}|{item['date']}".encode()).hexdigest()
    return f"{digest[:20]}@{item['sender_email'].rpartition('@')[2]}"


def _ordered(mailbox: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return sorted(mailbox["messages"], key=lambda m: dt.datetime.fromisoformat(m["date"]))


def messages(mailbox: Mapping[str, Any], plan: Mapping[str, Any]) -> list[tb.Message]:
    """The mailbox as `Message`s, oldest first; the older ~60% are read, the rest unread."""
    owner = plan["owner"]
    items = _ordered(mailbox)
    return [tb.Message(
        message_id=_message_id(plan, i, m), sender=formataddr((m["sender_name"], m["sender_email"])),
        to=formataddr((f"{owner['first']} {owner['last']}", owner["email"])), subject=m["subject"],
        date=dt.datetime.fromisoformat(m["date"]), body=m["body"], read=i < len(items) * 0.6,
        attachments=tuple(attachment(a) for a in m["attachments"])) for i, m in enumerate(items)]


def kinds(mailbox: Mapping[str, Any], plan: Mapping[str, Any]) -> dict[str, str]:
    """Message-ID -> the kind of mail (newsletter, invoice, team, travel...)."""
    return {_message_id(plan, i, m): str(m["kind"]) for i, m in enumerate(_ordered(mailbox))}


def address(message: tb.Message) -> str:
    return parseaddr(message.sender)[1]


# --- criteria ---------------------------------------------------------------------------------------------

def _from_candidates(msgs: Sequence[tb.Message], lo: int, hi: int) -> list[Criterion]:
    out = []
    for addr in sorted({address(m) for m in msgs}):
        hits = tuple(m.message_id for m in msgs if addr.casefold() in m.sender.casefold())
        own = [m for m in msgs if address(m) == addr]
        if lo <= len(own) <= hi and len(hits) == len(own):
            out.append(Criterion("from", addr, hits))
    return out


def _subject_candidates(msgs: Sequence[tb.Message], lo: int, hi: int) -> list[Criterion]:
    words = sorted({w for m in msgs for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}[A-Za-z]", m.subject)
                    if w.casefold() not in _STOP})
    out, seen = [], set()
    for word in words:
        hits = tuple(m.message_id for m in msgs if word.casefold() in m.subject.casefold())
        if lo <= len(hits) <= hi and hits not in seen and len(hits) < len(msgs) - 1:
            seen.add(hits)
            out.append(Criterion("subject", word, hits))
    return out


def _before_candidates(msgs: Sequence[tb.Message], lo: int, hi: int) -> list[Criterion]:
    ordered = sorted(msgs, key=lambda m: m.date)
    out = []
    for k in range(lo, min(hi, len(ordered) - 2) + 1):
        last_old = ordered[k - 1].date.astimezone(dt.UTC)
        first_new = ordered[k].date.astimezone(dt.UTC)
        margin = dt.timedelta(hours=14)  # more than any time zone shift, so local and UTC dates agree
        cutoff = dt.datetime.combine((last_old + margin).date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
        if first_new - cutoff >= margin:
            out.append(Criterion("before", cutoff.date().isoformat(), tuple(m.message_id for m in ordered[:k])))
    return out


def criteria(msgs: Sequence[tb.Message], field: str, lo: int = 2, hi: int = 4) -> list[Criterion]:
    """Every clean criterion of kind `field` over `msgs` selecting lo..hi of them."""
    finder = {"from": _from_candidates, "subject": _subject_candidates, "before": _before_candidates}[field]
    return finder(msgs, lo, hi)


def pick_criterion(rng: random.Random, msgs: Sequence[tb.Message], field: str, lo: int = 2,
                   hi: int = 4) -> Criterion:
    found = criteria(msgs, field, lo, hi) or criteria(msgs, field, lo, hi + 2)
    if not found:
        raise WorkflowError(f"no clean {field!r} criterion selecting {lo}-{hi} of {len(msgs)} messages; "
                            "the mailbox lacks repeated senders/subject words or a date gap")
    return rng.choice(found)


# --- folders and the profile spec -------------------------------------------------------------------------

def layout(rng: random.Random, msgs: Sequence[tb.Message], *, source: str = "Inbox",
           keep: Sequence[str] = (), avoid: Sequence[str] = ()) -> dict[str, list[tb.Message]]:
    """Folders -> messages: Inbox, Archives, two custom top folders and one subfolder (under Inbox or a custom
    folder). Messages in `keep` all go to `source`; the rest mostly to Inbox, some to Archives and to the
    custom folders. Folder names in `avoid` (case-insensitive) are never used."""
    banned = {a.casefold() for a in avoid}
    tops = rng.sample([f for f in TOP_FOLDERS if f.casefold() not in banned], 2)
    sub_parent = rng.choice(("Inbox", *tops))
    sub = rng.choice([f for f in SUB_FOLDERS if f.casefold() not in banned])
    folders: dict[str, list[tb.Message]] = {"Inbox": [], "Archives": [], tops[0]: [], tops[1]: [],
                                            f"{sub_parent}/{sub}": []}
    if source not in folders:  # a deeper source folder (the `location` axis) comes with its parents
        parts = source.split("/")
        for depth in range(1, len(parts) + 1):
            folders.setdefault("/".join(parts[:depth]), [])
    keep_set = set(keep)
    for m in msgs:
        if m.message_id in keep_set:
            folders[source].append(m)
            continue
        roll = rng.random()
        target = "Archives" if roll < 0.2 else tops[0] if roll < 0.27 else tops[1] if roll < 0.32 else "Inbox"
        folders[target].append(m)
    for name in dict.fromkeys((source, "Archives")):  # at least two other messages beside the kept ones
        while sum(m.message_id not in keep_set for m in folders[name]) < 2:
            donor = max((f for f in folders if f != name), key=lambda f: len(folders[f]))
            free = [i for i, m in enumerate(folders[donor]) if m.message_id not in keep_set]
            folders[name].append(folders[donor].pop(rng.choice(free)))
    return folders


THEMES = {
    "invoice": ("Invoices", "Vendor Bills", "Billing"), "newsletter": ("Reading List", "Subscriptions"),
    "team": ("Team Updates", "Work Notes"), "travel": ("Trips", "Travel Plans", "Bookings"),
    "support": ("Support Tickets", "Helpdesk"), "shipping": ("Deliveries", "Orders"),
    "personal": ("Friends", "Personal Mail"), "document": ("Statements", "Documents"), "event": ("Events",),
    "security": ("Security Alerts",), "hr": ("HR Notices",),
}
OLD_MAIL = ("Old Mail", "Older Messages", "Before {month}")


def theme_folder(rng: random.Random, crit: Criterion, kinds_by_id: Mapping[str, str], taken: Sequence[str]) -> str:
    """A new folder name that suits the messages a criterion selects (e.g. "Invoices" for invoices)."""
    if crit.field == "before":
        names = [n.format(month=f"{dt.date.fromisoformat(crit.value):%B %Y}") for n in OLD_MAIL]
    else:
        found = [kinds_by_id.get(i, "") for i in crit.ids]
        names = list(THEMES.get(max(sorted(set(found)), key=found.count), ())) + ["Sorted Mail", "To Review"]
    low = {t.rpartition("/")[2].casefold() for t in taken}
    return rng.choice([n for n in names if n.casefold() not in low])


def contacts_from(rng: random.Random, msgs: Sequence[tb.Message], k: int = 3,
                  exclude: Sequence[str] = ()) -> tuple[tb.Contact, ...]:
    """A few people who wrote to the owner, as existing address-book cards."""
    people = {}
    for m in msgs:
        name, addr = parseaddr(m.sender)
        parts = name.split()
        if len(parts) == 2 and parts[0] in FIRST and addr not in exclude:
            people[addr] = tb.Contact(name, addr, parts[0], parts[1], modified=1700000000 + rng.randint(0, 10 ** 7))
    chosen = sorted(people)[:]
    rng.shuffle(chosen)
    return tuple(people[a] for a in chosen[:k])


def profile_spec(plan: Mapping[str, Any], folders: Mapping[str, Sequence[tb.Message]], *,
                 contacts: Sequence[tb.Contact] = (), filters: Sequence[tb.Filter] = (),
                 prefs: Mapping[str, Any] | None = None) -> tb.ProfileSpec:
    owner = plan["owner"]
    return tb.ProfileSpec(
        name=plan["profile"], identity=tb.Identity(f"{owner['first']} {owner['last']}", owner["email"]),
        folders=tuple(tb.Folder(path, tuple(sorted(ms, key=lambda m: m.date))) for path, ms in folders.items()),
        filters=tuple(filters), contacts=tuple(contacts), prefs=dict(prefs or {}))


def with_flags(folders: Mapping[str, Sequence[tb.Message]], ids: Sequence[str], *, read: bool | None = None,
               flagged: bool | None = None) -> dict[str, list[tb.Message]]:
    """The folders with the messages in `ids` set read/unread and flagged/unflagged (None: unchanged)."""
    wanted = set(ids)

    def change(m: tb.Message) -> tb.Message:
        if m.message_id not in wanted:
            return m
        return replace(m, read=m.read if read is None else read, flagged=m.flagged if flagged is None else flagged)

    return {path: [change(m) for m in ms] for path, ms in folders.items()}


#: account settings: they have no default, so Thunderbird never drops them from prefs.js
ACCOUNT_PREFS = ("mail.accountmanager.", "mail.account.account", "mail.identity.", "mail.server.")
#: user-facing app settings (Settings > General / Composition / Privacy) where no pref may appear that the task
#: does not set. Not the account branches (Account Settings' OK writes every identity field) nor MANAGED_PREFS nor
#: `spellchecker.` (a compose window writes the dictionary): Thunderbird writes those on its own.
USER_BRANCHES = ("mail.compose.", "mail.SpellCheckBeforeSend", "mail.spellcheck.", "mail.receipt.",
                 "mail.incorporate.", "mail.mdn.", "mail.biff.", "mail.close_message_window.",
                 "mail.delete_matches_sort_order", "mail.default_send_format", "mailnews.mark_message_read.",
                 "mailnews.display.", "mailnews.reply_")


def kept_check(spec: tb.ProfileSpec, path: str, *, touched: Sequence[str] = (), prefs: Sequence[str] = (),
               read: bool = False, relabeled: Sequence[str] = (), copied: Sequence[str] = ()) -> Check:
    """"Everything else is as it was": the messages outside `touched` (ids the task moves) stay in their folders,
    once each, with their flag (and, with `read`, their read state; not by default: opening a message to look at
    it marks it read, and that is fine where the task has the user look for messages by content); the profile's
    prefs outside `prefs` (names the task sets) and `MANAGED_PREFS` keep their values, and no new pref appears
    under `USER_BRANCHES` besides `prefs`. `relabeled` messages (ids the task flags or marks) stay in their
    folders like the others, only their flags are the task's. `copied` messages (ids the task copies) stay where
    they were with their flags, like the others; only copies of them may appear elsewhere. Moved messages
    (`touched`, not relabeled) keep their flag in their new folder (`moved_flagged`)."""
    left = set(touched)
    messages = {f.path: [m.message_id for m in f.messages if m.message_id not in left] for f in spec.folders}
    for special in tb.SPECIAL_FOLDERS:
        messages.setdefault(special, [])
    kept = [m for f in spec.folders for m in f.messages if m.message_id not in left]
    values = {**tb.QUIET_PREFS, **tb.account_prefs(spec.identity), **spec.prefs}
    held = {k: v for k, v in sorted(values.items()) if k not in prefs and not k.startswith(MANAGED_PREFS)}
    args: dict[str, Any] = {"path": path, "messages": dict(sorted(messages.items())),
                            "flagged": [m.message_id for m in kept if m.flagged], "prefs": held,
                            "required": [k for k in held if k.startswith(ACCOUNT_PREFS)]}
    if read:
        args["read"] = [m.message_id for m in kept if m.read]
    if relabeled:
        args["relabeled"] = sorted(relabeled)
    args["branches"] = list(USER_BRANCHES)
    if prefs:
        args["asked"] = sorted(set(prefs))
    if left or copied:
        args["touched"] = sorted(left | set(copied))
    if left - set(relabeled):  # messages the task moves keep their flag wherever they go
        args["moved_flagged"] = sorted(m.message_id for f in spec.folders for m in f.messages
                                       if m.message_id in left and m.message_id not in relabeled and m.flagged)
    if spec.contacts:
        args["contacts"] = [c.email for c in spec.contacts]
    if spec.filters:
        args["filters"] = [f.name for f in spec.filters]
    return Check("kept", "The other messages are where they were, with their flags, and the other settings are "
                         "unchanged.", "tb.profile_kept", args)


@node("prepare", "prepare", ("spec",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    files = tb.build_profile(values["spec"])
    assets = [Asset(f"{HOME}/{rel}", data, app=APP if rel.endswith("/prefs.js") else "")
              for rel, data in files.items()]
    return {"assets": assets, "launch": list(LAUNCH)}


TB = AppKit(apps=(APP,), source=source_nodes, state="spec", prepare=prepare, instruction=instruction, axes=AXES,
            frame=tb_frame_node, teacher=teacher_node)
