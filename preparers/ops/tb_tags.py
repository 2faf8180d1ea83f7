"""Thunderbird: tag messages (`tb.tag_messages`), as Thunderbird 153 writes a tag into a Local Folders mbox.

Measured (Thunderbird 153.8, `addKeywordsToMessages` on a headless profile): a message stored with the padded
`X-Mozilla-Keys:` header (80 spaces, as Thunderbird writes it for mail it stores) gets " <key>" written over the
padding right after the keys it already has, in place: the line keeps its length. A message without that header,
or without room left in it, is not rewritten at all (the tag waits in the .msf summary until the folder is
compacted), so this op refuses it rather than write what Thunderbird would not. A tag's key is what
`mailnews.tags.<key>.tag` names (`$label1`..`$label5` for the five default tags; a new tag's prefs are `tb.set_pref`
ops). Criteria (`field`, `value`) are those of `preparers.thunderbird.matches`."""

from __future__ import annotations

import re

from preparers.ops import op
from preparers.ops.thunderbird import Profile, _selected

_KEYS = re.compile(rb"^X-Mozilla-Keys:([^\n]*)$", re.MULTILINE)


def add_keyword(entry: bytes, key: str) -> bytes:
    """The mbox entry with the tag `key` written into its X-Mozilla-Keys padding, as Thunderbird does (unchanged
    when the message already has the key); a ValueError when there is no header or no room."""
    head, sep, rest = entry.partition(b"\n\n")
    found = _KEYS.search(head)
    if found is None:
        raise ValueError("the message has no X-Mozilla-Keys header: Thunderbird would not write the tag here")
    line = found.group(1)
    words = line.split()
    if key.encode() in words:
        return entry
    kept = line.rstrip(b" ")
    written = kept + b" " + key.encode()
    if len(written) >= len(line):
        raise ValueError(f"no room left in X-Mozilla-Keys for {key!r}")
    new = written + b" " * (len(line) - len(written))
    return head[:found.start(1)] + new + head[found.end(1):] + sep + rest


@op("tb.tag_messages")
def tag_messages(profile: Profile, folder: str, field: str, value: str, tag: str, limit: int | None = None) -> None:
    """Add the tag with key `tag` to the live messages of `folder` matching the criterion; `limit` tags only the
    first N matches (a partial job, for near-misses)."""
    entries = profile.entries(folder)
    for i in _selected(entries, field, value, limit):
        entries[i] = add_keyword(entries[i], tag)
    profile.folder(folder).write_bytes(b"".join(entries))

