"""Messages tagged in Thunderbird (tb.tag_messages): each asked message carries the asked tag as the user sees it.

Thunderbird 153 keeps a message's tags in its mbox entry's `X-Mozilla-Keys:` header, the words being tag keys
(measured: it writes " <key>" over the header's padding, in place); a key shows as the label its
`mailnews.tags.<key>.tag` pref names (`$label1`..`$label5` default to Important, Work, Personal, To Do, Later). A new
tag needs both its prefs, `.tag` (the name) and `.color`, as Thunderbird's New Tag dialog writes them: a key typed
into the header with no such prefs is a bare keyword that no tag list or tag column shows, and fails. Which other
messages carry tags is the frame's question (`verifiers.frame.thunderbird`: tags are part of every message fact)."""

from __future__ import annotations

import re
from typing import Any

from preparers import thunderbird as tb
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.thunderbird import (
    effective_prefs,
    folder_mbox,
    folder_path,
    message_tags,
    require_profile,
    tag_label,
)

_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")


@primitive("tb.messages_tagged", grounded=("folder", "parent", "field", "value", "tag"),
           meaning=Meaning(action=r"\btag", args={"field": Said("mail_field")}))
def messages_tagged(state: State, path: str, folder: str, message_ids: list[str], field: str, value: str, tag: str,
                    new_tag: bool = False, parent: str | None = None) -> Result:
    """Each message of `message_ids` (those of the folder matching `field`/`value`) is live in the folder and
    carries a tag labelled `tag` (case-insensitive); with `new_tag` (a tag the user creates), the key it carries
    has both the `.tag` and the `.color` pref (#rrggbb)."""
    require_profile(state, path)
    where = folder_path(folder, parent)
    prefs: dict[str, Any] = effective_prefs(state, path, checked=True)
    live = {tb.message_id(msg): msg for _, msg in folder_mbox(state, path, where, checked=True).live()}
    problems: list[str] = []
    keys: set[str] = set()
    for mid in message_ids:
        msg = live.get(mid)
        if msg is None:
            problems.append(f"{mid} is no longer in {where!r}")
            continue
        found = message_tags(msg)
        hits = [k for k in found if tag_label(prefs, k).casefold() == tag.casefold()]
        if not hits:
            shown = [tag_label(prefs, k) for k in found]
            problems.append(f"{mid} has {'the tags ' + ', '.join(shown) if shown else 'no tag'}")
        keys.update(hits)
    what = f"{len(message_ids)} messages with {field} {value!r} in {where!r}"
    if problems:
        return fail(f"{len(problems)} of the {what} do not carry the tag {tag!r}: {'; '.join(problems[:4])}")
    if new_tag:
        bare = [k for k in sorted(keys) if not isinstance(prefs.get(f"mailnews.tags.{k}.tag"), str)
                or not _COLOR.fullmatch(str(prefs.get(f"mailnews.tags.{k}.color", "")).strip())]
        if bare:
            return fail(f"the new tag {tag!r} is not set up in Thunderbird: key(s) {', '.join(bare)} lack the "
                        f"prefs mailnews.tags.<key>.tag and a #rrggbb mailnews.tags.<key>.color")
    return ok(f"all {what} carry the tag {tag!r} (key {', '.join(sorted(keys))})")
