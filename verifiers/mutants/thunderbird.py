"""Thunderbird mutants: damage a profile outside what the task asked, or rewrite it the way Thunderbird does.

A profile is a folder holding prefs.js under `.thunderbird/`. *Out of scope* means left exactly as it was by
the oracle: a message whose folder and flags did not change, a pref with the same value before and after, a
filter that was already there. Damaging (each picks its victim with `ctx.rng`):
- `tb.message_moved` / `tb.message_deleted` / `tb.message_flagged`: an out-of-scope message moved to another
  folder, deleted (gone, not merely expunged), or flagged (unflagged where it was flagged); its read state is
  left alone (opening a message marks it read, and no check may count that against a task);
- `tb.message_duplicated`: an out-of-scope message copied once more into its own folder;
- `tb.pref_changed`: an out-of-scope pref changed; `tb.pref_added`: a user-facing setting (`ADDABLE_PREFS`) the
  task does not ask for set in prefs.js;
- `tb.filter_retargeted` / `tb.filter_action_changed`: a filter the oracle wrote now moves to another folder, or
  copies instead of moving (and the other way round);
- `tb.filter_out_of_scope_deleted`: a filter that was there before removed;
- `tb.folder_deleted`: a folder the task did not touch removed (its mbox file gone);
- `tb.prefs_emptied`: prefs.js emptied (the account settings lost);
- `tb.filter_manual_only`: a filter the oracle wrote to run on new mail saved to run manually only (`type="16"`):
  it reads like the asked filter and never touches arriving mail (issue 37);
- `tb.flags_changed_untouched`: every message of a folder the oracle left alone marked read (where the task
  changes read state: the rest of the mailbox's read state is framed) or else flagged;
- `tb.folder_added`: an extra empty folder ("New Folder") beside the others;
- `tb.message_tagged`: a default tag written into the X-Mozilla-Keys padding of an out-of-scope message (only
  where the messages carry that header, as Thunderbird stores them: tb.tag_messages).
Neutral (Thunderbird's own rewrites of a correct profile): `tb.status_headers_rewritten` (X-Mozilla-Status2
and X-Mozilla-Keys added to every message, as Thunderbird pads them), `tb.prefs_reordered` (prefs.js lines in
another order, with blank lines and comments).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from preparers import tbfilters
from preparers import thunderbird as tb
from preparers.ops.tb_tags import add_keyword
from verifiers.mutants import Mutant, MutationContext
from verifiers.readers.thunderbird import MANAGED_PREFS

_MAX_BYTES = 64 * 1024 * 1024
_PREF = re.compile(r'^user_pref\("((?:[^"\\]|\\.)*)",\s*(.*)\);\s*$')


def _profiles(root: Path) -> list[str]:
    base = root / ".thunderbird"
    if not base.is_dir():
        return []
    return sorted(str(p.parent.relative_to(root)) for p in base.glob("*/prefs.js") if p.is_file())


def _mboxes(root: Path, profile: str) -> dict[str, Path]:
    """Folder path ("Inbox", "Archive/2023") -> mbox file, for Local Folders."""
    base = root / profile / tb.LOCAL_DIR
    out = {}
    for file in sorted(base.rglob("*")) if base.is_dir() else []:
        rel = file.relative_to(base)
        if (file.is_file() and not file.is_symlink() and "." not in file.name and file.stat().st_size <= _MAX_BYTES
                and all(p.endswith(".sbd") for p in rel.parts[:-1])):
            out["/".join([*(p.removesuffix(".sbd") for p in rel.parts[:-1]), rel.name])] = file
    return out


def _messages(path: Path) -> dict[str, int]:
    """Message-ID -> flags of the live (not expunged) entries."""
    out = {}
    for entry in tb.split_mbox(path.read_bytes()):
        flags = tb.status_flags(entry)
        if not flags & tb.EXPUNGED:
            out[tb.message_id(tb.read_headers(entry))] = flags
    return out


def _rewrite(file: Path, change: Callable[[list[bytes]], list[bytes]]) -> None:
    file.write_bytes(b"".join(change(tb.split_mbox(file.read_bytes()))))


def _is(entry: bytes, mid: str) -> bool:
    return tb.message_id(tb.read_headers(entry)) == mid and not tb.status_flags(entry) & tb.EXPUNGED


def _move(source: str, dest: str, mid: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        entries = tb.split_mbox((root / source).read_bytes())
        moving = [e for e in entries if _is(e, mid)]
        (root / source).write_bytes(b"".join(e for e in entries if not _is(e, mid)))
        with (root / dest).open("ab") as out:
            out.write(b"".join(moving))

    return apply


def _delete(source: str, mid: str) -> Callable[[Path], None]:
    return lambda root: _rewrite(root / source, lambda entries: [e for e in entries if not _is(e, mid)])


def _duplicate(source: str, mid: str) -> Callable[[Path], None]:
    """A second copy of the message right after it, in the same folder (a copy pasted back, a filter run twice)."""
    def apply(root: Path) -> None:
        _rewrite(root / source, lambda entries: [twin for e in entries for twin in ([e, e] if _is(e, mid) else [e])])

    return apply


def _toggle(source: str, mid: str, bit: int) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        _rewrite(root / source, lambda entries: [tb.with_flags(e, tb.status_flags(e) ^ bit) if _is(e, mid) else e
                                                 for e in entries])

    return apply


def _pad_headers(files: list[str]) -> Callable[[Path], None]:
    """What Thunderbird writes when it touches a message: X-Mozilla-Status2 and a padded X-Mozilla-Keys."""

    def pad(entry: bytes) -> bytes:
        head, sep, rest = entry.partition(b"\n\n")
        keys = [line for line in head.split(b"\n") if line.startswith(b"X-Mozilla-Keys:")]
        lines = [line for line in head.split(b"\n") if not line.startswith((b"X-Mozilla-Status2:", b"X-Mozilla-Keys:"))]
        at = next((i + 1 for i, line in enumerate(lines) if line.startswith(b"X-Mozilla-Status:")), 1)
        # a message's tags stay: Thunderbird writes them into the padding, never drops them
        lines[at:at] = [b"X-Mozilla-Status2: 00000000", keys[0] if keys else b"X-Mozilla-Keys:" + b" " * 80]
        return b"\n".join(lines) + sep + rest

    def apply(root: Path) -> None:
        for rel in files:
            _rewrite(root / rel, lambda entries: [pad(e) for e in entries])

    return apply


def _empty(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / rel).write_bytes(b"")

    return apply


def _remove(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / rel).unlink()

    return apply


# --- prefs ----------------------------------------------------------------------------------------------

def _prefs(file: Path) -> dict[str, str]:
    """Pref name -> its value as written (the text between the comma and the closing parenthesis)."""
    out = {}
    for line in file.read_text(encoding="utf-8").splitlines():
        match = _PREF.match(line.strip())
        if match:
            out[match.group(1)] = match.group(2).strip()
    return out


def _other(raw: str) -> str:
    if raw in ("true", "false"):
        return "false" if raw == "true" else "true"
    if re.fullmatch(r"-?\d+", raw):
        return str(int(raw) + 3)
    if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
        return raw[:-1] + '-old"' if len(raw) > 2 else '"changed"'
    return raw


def _set_pref(rel: str, name: str, raw: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        lines = []
        for line in (root / rel).read_text(encoding="utf-8").splitlines():
            match = _PREF.match(line.strip())
            lines.append(f"user_pref(\"{name}\", {raw});" if match and match.group(1) == name else line)
        (root / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")

    return apply


#: user-facing settings (Settings > Composition / Reading) a user may change by hand but Thunderbird never sets
#: on its own: one of them appearing in prefs.js is a setting changed out of scope
ADDABLE_PREFS: tuple[tuple[str, Any], ...] = (("mail.SpellCheckBeforeSend", True), ("mail.compose.autosaveinterval", 9),
                                              ("mailnews.mark_message_read.auto", False),
                                              ("mail.default_send_format", 2))


def _asked(task: dict[str, Any]) -> set[str]:
    """Pref names the rubric lets the task set (`tb.pref_*` names, `tb.profile_kept`'s asked)."""
    names: set[str] = set()
    for item in task.get("rubric", []):
        args = item.get("args", {}) if isinstance(item, dict) else {}
        if isinstance(args, dict):
            names.update(str(n) for n in [args.get("name"), *(args.get("asked") or [])] if isinstance(n, str))
    return names


def _add_pref(rel: str, name: str, value: Any) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        text = (root / rel).read_text(encoding="utf-8")
        (root / rel).write_text(text + ("" if text.endswith("\n") or not text else "\n") + tb.pref_line(name, value)
                                + "\n", encoding="utf-8")

    return apply


def _reorder_prefs(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        text = (root / rel).read_text(encoding="utf-8").splitlines()
        prefs = [line for line in text if _PREF.match(line.strip())]
        other = [line for line in text if not _PREF.match(line.strip())]
        body = "\n".join(reversed(prefs))
        (root / rel).write_text("\n".join(other) + "\n// prefs written back in another order\n\n" + body + "\n",
                                encoding="utf-8")

    return apply


# --- filters --------------------------------------------------------------------------------------------

def _rules(path: Path) -> list[tbfilters.Rule]:
    """The filters of a msgFilterRules.dat ([] when there is none or Thunderbird could not read it)."""
    try:
        return tbfilters.parse(path.read_text(encoding="utf-8"), path.name) if path.is_file() else []
    except (ValueError, UnicodeDecodeError):
        return []


def _edit_rules(rel: str, rules: list[tbfilters.Rule], index: int, new: tbfilters.Rule | None
                ) -> Callable[[Path], None]:
    """Apply: the filter list written back (by the one filter writer) with filter `index` replaced or removed."""
    def apply(root: Path) -> None:
        edited = [*rules[:index], *([new] if new is not None else []), *rules[index + 1:]]
        (root / rel).write_text(tbfilters.render(edited), encoding="utf-8")

    return apply


_ON_NEW_MAIL, _MANUAL = 1 | 32, 16  # type bits: new mail (Inbox, after junk classification); a manual run
_SWAPPED = {"Move to folder": "Copy to folder", "Copy to folder": "Move to folder", "Mark read": "Mark flagged",
            "Mark flagged": "Mark read"}


def _filter_mutants(ctx: MutationContext, rel: str, folders: list[str]) -> list[Mutant]:
    old = _rules(ctx.initial / rel)
    rules = _rules(ctx.oracle / rel)
    out = []
    for i, rule in enumerate(rules):
        if rule in old:
            continue
        targets = [v for a, v in rule.actions if a in tbfilters.FOLDER_ACTIONS]
        if targets:
            others = [tb.folder_uri(f) for f in folders if tb.folder_uri(f) != targets[0]]
            if others:
                elsewhere = ctx.rng.choice(others)
                moved = tuple((a, elsewhere if v == targets[0] else v) for a, v in rule.actions)
                out.append(Mutant(f"tb.filter_retargeted:{rel}", "damaging",
                                  _edit_rules(rel, rules, i, replace(rule, actions=moved)), rewrites=(rel,)))
        if rule.enabled and rule.type & _ON_NEW_MAIL:
            out.append(Mutant(f"tb.filter_manual_only:{rel}", "damaging",
                              _edit_rules(rel, rules, i, replace(rule, type=_MANUAL)), rewrites=(rel,)))
        first = next(((j, a) for j, (a, _) in enumerate(rule.actions) if a in _SWAPPED), None)
        if first is not None:
            j, action = first
            swapped = (*rule.actions[:j], (_SWAPPED[action], rule.actions[j][1]), *rule.actions[j + 1:])
            out.append(Mutant(f"tb.filter_action_changed:{rel}", "damaging",
                              _edit_rules(rel, rules, i, replace(rule, actions=swapped)), rewrites=(rel,)))
    kept = [i for i, rule in enumerate(rules) if rule in old]
    if kept:
        out.append(Mutant(f"tb.filter_out_of_scope_deleted:{rel}", "damaging",
                          _edit_rules(rel, rules, ctx.rng.choice(kept), None), rewrites=(rel,)))
    return out


def _mark_all(source: str, bit: int) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        _rewrite(root / source, lambda entries: [e if tb.status_flags(e) & tb.EXPUNGED
                                                 else tb.with_flags(e, tb.status_flags(e) | bit) for e in entries])

    return apply


def _create(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / rel).write_bytes(b"")

    return apply


def _frame_mutants(ctx: MutationContext, before: dict[str, Path], after: dict[str, Path],
                   rel: dict[str, str], base: str) -> list[Mutant]:
    """Collateral changes only a closed-world frame sees: a whole untouched folder re-marked, an extra folder."""
    out = []
    old = {f: _messages(p) for f, p in before.items()}
    new = {f: _messages(p) for f, p in after.items()}
    read_before = {mid: bool(flags & tb.READ) for ms in old.values() for mid, flags in ms.items()}
    reads = any(read_before.get(mid, bool(flags & tb.READ)) != bool(flags & tb.READ)
                for ms in new.values() for mid, flags in ms.items())
    bit = tb.READ if reads else tb.FLAGGED
    untouched = [f for f in sorted(after) if f in before and before[f].read_bytes() == after[f].read_bytes()
                 and any(not flags & bit for flags in new[f].values())]
    if untouched:
        folder = ctx.rng.choice(untouched)
        out.append(Mutant(f"tb.flags_changed_untouched:{folder}:{'read' if reads else 'flagged'}", "damaging",
                          _mark_all(rel[folder], bit), rewrites=(rel[folder],)))
    if "New Folder" not in after:
        out.append(Mutant("tb.folder_added:New Folder", "damaging", _create(f"{base}/New Folder"),
                          rewrites=(f"{base}/New Folder",)))
    return out


def _keys(path: Path) -> dict[str, tuple[bytes, ...] | None]:
    """Message-ID -> the X-Mozilla-Keys words of the live entries (None: no such header)."""
    out: dict[str, tuple[bytes, ...] | None] = {}
    for entry in tb.split_mbox(path.read_bytes()):
        if not tb.status_flags(entry) & tb.EXPUNGED:
            found = re.search(rb"(?m)^X-Mozilla-Keys:([^\n]*)$", entry.partition(b"\n\n")[0])
            out[tb.message_id(tb.read_headers(entry))] = tuple(found.group(1).split()) if found else None
    return out


def _tag(source: str, mid: str, key: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        _rewrite(root / source, lambda entries: [add_keyword(e, key) if _is(e, mid) else e for e in entries])

    return apply


def _tag_mutants(ctx: MutationContext, before: dict[str, Path], after: dict[str, Path],
                 rel: dict[str, str]) -> list[Mutant]:
    """`tb.message_tagged`: a default tag put on a message whose flags and tags the oracle left alone, where the
    message has Thunderbird's padded X-Mozilla-Keys header to write it in (drawn last: the other mutants' draws
    stay as they were)."""
    same: list[tuple[str, str, tuple[bytes, ...]]] = []
    for folder, file in after.items():
        if folder not in before:
            continue
        old, new, flags_old, flags_new = _keys(before[folder]), _keys(file), _messages(before[folder]), _messages(file)
        same += [(folder, mid, keys) for mid, keys in new.items()
                 if mid and keys is not None and old.get(mid) == keys and flags_old.get(mid) == flags_new.get(mid)
                 and len(b" ".join(keys)) < 60 and len(keys) < 5]  # room left for one more default tag
    if not same:
        return []
    folder, mid, keys = ctx.rng.choice(same)
    key = next(k for k in ("$label1", "$label2", "$label3", "$label4", "$label5") if k.encode() not in keys)
    return [Mutant(f"tb.message_tagged:{folder}:{mid}", "damaging", _tag(rel[folder], mid, key),
                   rewrites=(rel[folder],))]


def mutants(ctx: MutationContext) -> list[Mutant]:
    """Damaging and neutral mutants of every Thunderbird profile in the oracle's state."""
    rng = ctx.rng
    out: list[Mutant] = []
    for profile in _profiles(ctx.oracle):
        before, after = _mboxes(ctx.initial, profile), _mboxes(ctx.oracle, profile)
        base = f"{profile}/{tb.LOCAL_DIR}"
        same: list[tuple[str, str, int]] = []  # (folder, message id, flags) untouched by the oracle
        for folder, file in after.items():
            if folder not in before:
                continue
            old, new = _messages(before[folder]), _messages(file)
            same += [(folder, mid, flags) for mid, flags in new.items() if mid and old.get(mid) == flags]
        rel = {folder: str(file.relative_to(ctx.oracle)) for folder, file in after.items()}
        if same:
            folder, mid, flags = rng.choice(same)
            dests = [f for f in after if f != folder]
            if dests:
                dest = rel[rng.choice(dests)]
                out.append(Mutant(f"tb.message_moved:{folder}:{mid}", "damaging", _move(rel[folder], dest, mid),
                                  rewrites=(rel[folder], dest)))
            folder, mid, flags = rng.choice(same)
            out.append(Mutant(f"tb.message_deleted:{folder}:{mid}", "damaging", _delete(rel[folder], mid),
                              rewrites=(rel[folder],)))
            folder, mid, flags = rng.choice(same)
            out.append(Mutant(f"tb.message_{'unflagged' if flags & tb.FLAGGED else 'flagged'}:{folder}:{mid}",
                              "damaging", _toggle(rel[folder], mid, tb.FLAGGED), rewrites=(rel[folder],)))
            folder, mid, flags = rng.choice(same)
            out.append(Mutant(f"tb.message_duplicated:{folder}:{mid}", "damaging", _duplicate(rel[folder], mid),
                              rewrites=(rel[folder],)))
        prefs_rel = f"{profile}/prefs.js"
        old_prefs, new_prefs = _prefs(ctx.initial / prefs_rel), _prefs(ctx.oracle / prefs_rel)
        stable = [n for n, v in sorted(new_prefs.items()) if old_prefs.get(n) == v and not n.startswith(MANAGED_PREFS)
                  and _other(v) != v]
        if stable:
            name = rng.choice(stable)
            out.append(Mutant(f"tb.pref_changed:{name}", "damaging",
                              _set_pref(prefs_rel, name, _other(new_prefs[name])), rewrites=(prefs_rel,)))
        addable = [(n, v) for n, v in ADDABLE_PREFS if n not in new_prefs and n not in _asked(ctx.task)]
        if addable:
            name, value = addable[rng.randrange(len(addable))]
            out.append(Mutant(f"tb.pref_added:{name}", "damaging", _add_pref(prefs_rel, name, value),
                              rewrites=(prefs_rel,)))
        out.append(Mutant(f"tb.prefs_reordered:{prefs_rel}", "neutral", _reorder_prefs(prefs_rel),
                          rewrites=(prefs_rel,)))
        out.append(Mutant(f"tb.prefs_emptied:{prefs_rel}", "damaging", _empty(prefs_rel), rewrites=(prefs_rel,)))
        untouched = [f for f in sorted(after) if f in before and before[f].read_bytes() == after[f].read_bytes()
                     and f not in tb.SPECIAL_FOLDERS and not any(g.startswith(f + "/") for g in after)]
        if untouched:
            folder = rng.choice(untouched)
            out.append(Mutant(f"tb.folder_deleted:{folder}", "damaging", _remove(rel[folder]),
                              rewrites=(rel[folder],)))
        for dat in sorted((ctx.oracle / profile / "Mail").glob("*/msgFilterRules.dat")):
            out += _filter_mutants(ctx, str(dat.relative_to(ctx.oracle)), sorted(after))
        out += _frame_mutants(ctx, before, after, rel, base)
        out += _tag_mutants(ctx, before, after, rel)
        if rel:
            files = tuple(sorted(rel.values()))
            out.append(Mutant(f"tb.status_headers_rewritten:{base}", "neutral", _pad_headers(list(files)),
                              rewrites=files))
    return out
