"""VLC preferences mutants: a `~/.config/vlc/vlcrc` the oracle changed (verifiers/readers/vlcrc.py reads it).

Damaging (no instruction asks for them):
- `vlcrc.value_out_of_scope:<option>`: an option the task did not touch, set by the user, given another value;
- `vlcrc.option_added:<option>`: an option at its default (commented out) set to another value;
- `vlcrc.comment_dropped`: one `# label (type)` comment line removed;
- `vlcrc.asked_overridden:<option>`: a later line for the asked option with its old value (VLC takes the last).
Neutral (what VLC itself or a careful user may also write): `vlcrc.section_moved` (the asked line moved under another
section's header: VLC ignores sections when it loads the file), `vlcrc.defaults_dropped` (every commented-out
option removed: VLC's record of defaults, written again on its next save), `vlcrc.bom_dropped` (no byte order mark).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kit.model import HOME
from verifiers.mutants import Mutant, MutationContext
from verifiers.readers import vlcrc

SUFFIX = ".config/vlc/vlcrc"


def _edit(rel: str, change: Callable[[list[str]], list[str]], *, bom: bool | None = None) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        has_bom = text.startswith(vlcrc.BOM) if bom is None else bom
        rows = change(text.removeprefix(vlcrc.BOM).split("\n"))
        mode = stat.S_IMODE(path.stat().st_mode)
        os.chmod(path, mode | stat.S_IWUSR | stat.S_IRUSR)
        try:
            path.write_text((vlcrc.BOM if has_bom else "") + "\n".join(rows), encoding="utf-8")
        finally:
            os.chmod(path, mode)
    return apply


def _asked(task: dict[str, Any], rel: str) -> dict[str, Any]:
    for item in task.get("rubric", []):
        args = item.get("args", {})
        if item.get("primitive") == "vlcrc.option" and args.get("path") == f"{HOME}/{rel}":
            return dict(args)
    return {}


def _replace_line(index: int, line: str | None) -> Callable[[list[str]], list[str]]:
    def change(rows: list[str]) -> list[str]:
        return rows[:index] + ([] if line is None else [line]) + rows[index + 1:]
    return change


def mutants(ctx: MutationContext) -> list[Mutant]:
    rng = ctx.rng
    out: list[Mutant] = []
    for rel in ctx.changed():
        if not rel.endswith(SUFFIX) or not (ctx.initial / rel).is_file():
            continue
        try:
            text = (ctx.oracle / rel).read_text(encoding="utf-8")
            before = vlcrc.lines((ctx.initial / rel).read_text(encoding="utf-8"))
            rows = vlcrc.lines(text)
        except (OSError, ValueError):
            continue
        asked = _asked(ctx.task, rel)
        name = asked.get("option", "")
        kept = [i for i, x in enumerate(rows) if x.kind == "option" and x.name != name
                and any(b.kind == "option" and b.name == x.name and b.value == x.value for b in before)]
        if kept:
            i = rng.choice(kept)
            other = "0" if rows[i].value not in ("0", "") else "1"
            out.append(Mutant(f"vlcrc.value_out_of_scope:{rows[i].name}", "damaging",
                              _edit(rel, _replace_line(i, f"{rows[i].name}={other}")), rewrites=(rel,)))
        defaults = [i for i, x in enumerate(rows) if x.kind == "commented" and x.name != name]
        if defaults:
            i = rng.choice(defaults)
            other = "1" if rows[i].value in ("0", "") else "0"
            out.append(Mutant(f"vlcrc.option_added:{rows[i].name}", "damaging",
                              _edit(rel, _replace_line(i, f"{rows[i].name}={other}")), rewrites=(rel,)))
        labels = [i for i, x in enumerate(rows) if x.kind == "comment" and x.text.startswith("# ")]
        if labels:
            i = rng.choice(labels)
            out.append(Mutant("vlcrc.comment_dropped", "damaging", _edit(rel, _replace_line(i, None)),
                              rewrites=(rel,)))
        if name:
            old, _ = vlcrc.effective(before, name, str(asked.get("kind")), str(asked.get("default", "")))
            if old != str(asked.get("value")):
                def override(r: list[str], line: str = f"{name}={old}") -> list[str]:
                    return [*r, line, ""]
                out.append(Mutant(f"vlcrc.asked_overridden:{name}", "damaging", _edit(rel, override),
                                  rewrites=(rel,)))
            at = [i for i, x in enumerate(rows) if x.kind == "option" and x.name == name]
            sections = [i for i, x in enumerate(rows) if x.kind == "section"]
            if at and len(sections) > 1:
                line = f"{name}={rows[at[-1]].value}"
                home = rows[at[-1]].section
                elsewhere = [i for i in sections if rows[i].section != home]
                target = rng.choice(elsewhere)

                def move(r: list[str], i: int = at[-1], t: int = target, line: str = line) -> list[str]:
                    kept_rows = r[:i] + r[i + 1:]
                    t = t if t < i else t - 1
                    return kept_rows[:t + 1] + ["", line] + kept_rows[t + 1:]
                out.append(Mutant("vlcrc.section_moved", "neutral", _edit(rel, move), rewrites=(rel,)))
        out.append(Mutant("vlcrc.defaults_dropped", "neutral",
                          _edit(rel, lambda r: [x for x in r if not vlcrc.COMMENTED_OPTION.match(x)]),
                          rewrites=(rel,)))
        if text.startswith(vlcrc.BOM):
            out.append(Mutant("vlcrc.bom_dropped", "neutral", _edit(rel, lambda r: r, bom=False), rewrites=(rel,)))
    return out
