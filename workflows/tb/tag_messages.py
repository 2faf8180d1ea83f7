"""tb.tag_messages: tag the messages of a folder that match a criterion (a sender, a subject word) with one of
Thunderbird's tags (Important, Work, Personal, To Do, Later) or with a new tag the user names, leaving every other
message's tags as they were.

Thunderbird 153 keeps tags in the mbox (measured): every message it stores carries a padded `X-Mozilla-Keys:`
header, and tagging writes the tag's key over that padding in place (`$label1`..`$label5` for the five default
tags; a new tag's key is its lower-cased name, with `mailnews.tags.<key>.tag` and `.color` in prefs.js). A message
without the header is not rewritten at all until the folder is compacted, so the initial mailbox here is what
Thunderbird leaves: every message padded, the default tags' prefs written, and a message or two already tagged."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import HOME, Asset, Check
from preparers import thunderbird as tb
from verifiers.readers.thunderbird import DEFAULT_TAGS
from workflows.tb import kit as tc

NAME = "tb.tag_messages"
PHRASINGS = (
    "In Thunderbird, tag every message in the {source} folder {what} with {tag}. {leave}",
    "Please go through my {source} folder in Thunderbird and tag all messages {what} with {tag}. {leave}",
    "Using Thunderbird, add {tag} to the messages in {source} {what} - all of them, and only those.",
    "The messages {what} in {source} need sorting: in Thunderbird, tag each of them with {tag}. {leave}",
    "Open Thunderbird's {source} folder and tag every message {what} with {tag}; the other messages keep the tags "
    "they have.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In Thunderbird, please tag every message in my {source} folder {what} with {tag}. {leave}",
    "Could you tag all the {source} messages {what} with {tag}? {leave}",
    "Please go through my {source} folder and tag the messages {what} with {tag}, and only those.",
    "The {source} messages {what} belong together: tag all of them with {tag}. {leave}",
    "Please put {tag} on each message {what} in my Thunderbird {source}. {leave}",
)
LEAVE = "Do not tag any other message."
#: names of a new tag (one word: Thunderbird's key for it is the name in lower case)
NEW_TAGS = ("Urgent", "Clients", "Invoices", "Travel", "Review", "Billing", "Legal", "Hiring", "Suppliers", "Events")
COLORS = ("#3366CC", "#CC3333", "#339966", "#CC9900", "#9933CC", "#008B8B")
#: what Thunderbird writes at its first start: the five default tags with their colours
DEFAULT_COLORS = {"$label1": "#FF0000", "$label2": "#FF9900", "$label3": "#009900", "$label4": "#3333FF",
                  "$label5": "#993399"}
PADDING = b"X-Mozilla-Keys:" + b" " * 80  # as Thunderbird writes it for a message it stores (95 bytes, measured)


class Params(TypedDict):
    tag: Literal["builtin", "custom"]
    criterion: Literal["from", "subject"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    source: str  # the folder whose messages are tagged
    crit: tc.Criterion  # the messages to tag
    label: str  # the tag as the user sees it
    key: str  # its key in X-Mozilla-Keys
    color: str | None  # a new tag's colour (None: a default tag)
    other_key: str  # another default tag, which a careless tagging picks
    pretagged: dict[str, str]  # Message-ID -> the key a message carries already


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    crit = tc.pick_criterion(rng, msgs, params["criterion"])
    source = tc.source_folder(rng, params, "Inbox")
    folders = tc.layout(rng, msgs, source=source, keep=crit.ids)
    keys = sorted(DEFAULT_TAGS)
    if params["tag"] == "builtin":
        key = rng.choice(keys)
        label, color = DEFAULT_TAGS[key], None
    else:
        label = rng.choice(NEW_TAGS)
        key, color = label.casefold(), rng.choice(COLORS)
    pre, other_key = rng.sample([k for k in keys if k != key], 2)
    others = [m.message_id for m in folders[source] if m.message_id not in crit.ids]
    # one other message of the folder and one asked message already carry a tag: the new one goes beside it
    pretagged = {rng.choice(others): pre, rng.choice(sorted(crit.ids)): pre}
    prefs = {f"mailnews.tags.{k}.{part}": (DEFAULT_TAGS[k] if part == "tag" else DEFAULT_COLORS[k])
             for k in keys for part in ("color", "tag")}
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs),
                           prefs={**prefs, "mailnews.tags.version": 2})
    said = f"the '{label}' tag" if color is None else f"a new tag named '{label}' (create it, in any colour)"
    facts = {"source": source, "what": crit.text, "tag": said, "leave": LEAVE}
    return Goal(spec, facts, Target(tc.profile_path(plan), source, crit, label, key, color, other_key, pretagged))


def _padded(data: bytes, pretagged: Mapping[str, str]) -> bytes:
    """An mbox as Thunderbird stores it: every entry with a padded X-Mozilla-Keys header after its status lines,
    the keys of `pretagged` messages written into the padding."""
    out = []
    for entry in tb.split_mbox(data):
        key = pretagged.get(tb.message_id(tb.read_headers(entry)))
        line = PADDING if key is None else (b"X-Mozilla-Keys: " + key.encode()).ljust(len(PADDING))
        status2 = re.search(rb"(?m)^X-Mozilla-Status2: [0-9a-f]+$", entry)
        at = status2.end() if status2 else entry.index(b"\n")
        out.append(entry[:at] + b"\n" + line + entry[at:])
    return b"".join(out)


def prepare(spec: tb.ProfileSpec, target: Target) -> Mapping[str, Any]:
    assets = []
    for rel, data in tb.build_profile(spec).items():
        if f"/{tb.LOCAL_DIR}/" in f"/{rel}" and data.startswith(b"From "):
            data = _padded(data, target.pretagged)
        assets.append(Asset(f"{HOME}/{rel}", data, app=tc.APP if rel.endswith("/prefs.js") else ""))
    return {"assets": assets, "launch": list(tc.LAUNCH)}


def rubric(target: Target) -> list[Check]:
    t, crit = target, target.crit
    new = " (a new tag, set up with a colour)" if t.color else ""
    return [Check("tagged", f"All {len(crit.ids)} messages in {t.source} {crit.text} carry the tag '{t.label}'{new}.",
                  "tb.messages_tagged", {"path": t.profile, **tc.folder_args(t.source), "message_ids": list(crit.ids),
                                         **crit.op_args(), "tag": t.label, "new_tag": t.color is not None})]


def _tag(t: Target, key: str | None = None, **change: Any) -> dict[str, Any]:
    return {"op": "tb.tag_messages", "path": t.profile, "folder": t.source, **t.crit.op_args(), "tag": key or t.key,
            **change}


def _create(t: Target) -> list[dict[str, Any]]:
    """A new tag's prefs, as Thunderbird's New Tag dialog writes them."""
    if t.color is None:
        return []
    return [{"op": "tb.set_pref", "path": t.profile, "name": f"mailnews.tags.{t.key}.tag", "value": t.label},
            {"op": "tb.set_pref", "path": t.profile, "name": f"mailnews.tags.{t.key}.color", "value": t.color}]


def solve(target: Target) -> Attempts:
    t, crit = target, target.crit
    n = len(crit.ids)
    misses = [
        Attempt(f"tags only {n - 1} of the {n} messages", [*_create(t), _tag(t, limit=n - 1)]),
        Attempt(f"picks the '{DEFAULT_TAGS[t.other_key]}' tag instead", [_tag(t, t.other_key)]),
        Attempt("tags every message of the folder", [*_create(t), _tag(t, field="any", value="")]),
    ]
    if t.color is not None:
        misses.append(Attempt("writes the tag's key on the messages but never creates the tag", [_tag(t)]))
    return Attempts(Attempt(f"tags the {n} messages {crit.text} with '{t.label}'", [*_create(t), _tag(t)]), misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Tag the messages of a folder from a sender or with a subject word with one of Thunderbird's tags "
                "or a new tag, leaving every other message's tags as they were.",
    knobs={"tag": ("builtin", "custom"), "criterion": ("from", "subject")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=tc.LOCATION,
    prepare=prepare_node(prepare),
)
