"""Thunderbird tags (`tb.tag_messages`) as the Python a person types against a closed Thunderbird's profile: find
the messages as the instruction says, and write the tag's key into each one's `X-Mozilla-Keys:` header over its
padding, in place, as Thunderbird does (the line keeps its length; every other byte of the mbox stays). A new tag's
name and colour are two `user_pref` lines of prefs.js (`tb.set_pref`)."""

from __future__ import annotations

from preparers.teach.tb import _ENTRIES, _box, _chosen, _mail_action

_ADD_KEY = """\
def add_key(entry, key):
    head, sep, body = entry.partition(b'\\n\\n')
    found = re.search(rb'(?m)^X-Mozilla-Keys:([^\\n]*)$', head)
    assert found, 'no X-Mozilla-Keys header'
    line = found.group(1)
    if key in line.split():
        return entry
    written = line.rstrip(b' ') + b' ' + key
    assert len(written) < len(line), 'no room left in X-Mozilla-Keys'
    line = written.ljust(len(line))
    return head[:found.start(1)] + line + head[found.end(1):] + sep + body"""


@_mail_action("tb.tag_messages")
def tag_messages(profile: str, path: str, folder: str, field: str, value: str, tag: str,
                 limit: int | None = None) -> str:
    return "\n".join(["import email, email.policy, re", _ENTRIES, _ADD_KEY,
                      f"box = {_box(profile, folder)}",
                      "entries = read_entries(box)",
                      *_chosen("entries", field, value, limit),
                      f"for i in chosen:  # the tag's key: {tag!r} (mailnews.tags.<key>.tag in prefs.js names it)",
                      f"    entries[i] = add_key(entries[i], {tag.encode()!r})",
                      "open(box, 'wb').write(b''.join(entries))"])
