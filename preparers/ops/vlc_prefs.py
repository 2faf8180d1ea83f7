"""VLC preference ops (fs document kind): set options in `~/.config/vlc/vlcrc`, editing its text as a person would.

`fs.vlcrc_set` gives each option its value where the file has it: the line that sets it is rewritten, else the
commented-out default (`#loop=0`) is uncommented (what VLC's own save writes), else `name=value` goes at the end of
its `section` (added at the end of the file when missing). Two classic slips, for near-misses: `form="commented"`
writes `#name=value` (still a comment), `form="spaced"` writes `name = value` (VLC reads the name `name `).
"""

from __future__ import annotations

from kit import bounded
from preparers.ops import OpError, op
from preparers.ops.fs import FsHandle, _need, _write

BOM = "\ufeff"
FORMS = ("plain", "commented", "spaced")


def set_option(text: str, name: str, value: str, section: str, form: str = "plain") -> str:
    """`text` with option `name` set to `value` (see the module doc)."""
    if form not in FORMS:
        raise OpError(f"fs.vlcrc_set: form={form!r}, but must be one of {list(FORMS)}")
    line = {"plain": f"{name}={value}", "commented": f"#{name}={value}", "spaced": f"{name} = {value}"}[form]
    bom = BOM if text.startswith(BOM) else ""
    rows = text.removeprefix(BOM).split("\n")
    set_at = [i for i, r in enumerate(rows) if r.startswith(f"{name}=")]
    commented = [i for i, r in enumerate(rows) if r.startswith(f"#{name}=")]
    if set_at or commented:
        rows[(set_at or commented)[-1]] = line
        return bom + "\n".join(rows)
    header = next((i for i, r in enumerate(rows) if r.startswith(f"[{section}]")), None)
    if header is None:
        return bom + text.removeprefix(BOM).rstrip("\n") + f"\n\n[{section}]\n\n{line}\n"
    end = next((i for i in range(header + 1, len(rows)) if rows[i].startswith("[")), len(rows))
    while end > header + 1 and not rows[end - 1].strip():
        end -= 1
    rows[end:end] = ["", line]
    return bom + "\n".join(rows)


@op("fs.vlcrc_set")
def vlcrc_set(h: FsHandle, options: dict[str, str], section: str, form: str = "plain") -> None:
    """Give each option of `options` ({name: value as VLC writes it}) its value, in `section` when it is added."""
    _need(h.host)
    text = bounded.read_file(h.host).decode("utf-8")
    for name, value in options.items():
        text = set_option(text, name, value, section, form)
    _write(h.host, text.encode("utf-8"))
