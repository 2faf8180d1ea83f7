"""The frame node: every family's rubric ends with the frame of each workbook and of the home folder's file tree.

After `solve`, the node writes the task's assets into a scratch home, reads their canonical models
(verifiers.frame), applies the oracle's ops there and reads them again: diff(initial, oracle) is the change set
the task allows, and the frame checks (`xlsx.frame`, `tree.frame`) refuse every other change of an end state. A
family adds nothing for it; it declares a *freedom* (`family(..., freedoms=[Freedom(region, reason)])`) only
where a correct solution may change more than its oracle does; the reason travels in the check's criterion and
arguments, so `forge show` and `forge family show` print it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openpyxl

from kit import bounded, scratch
from kit.dag import Node, NodeContext
from kit.model import Asset, Check, Freedom, Solution
from preparers.ops import HOME, OpError, edit
from verifiers.frame.tree import APP_PROFILES, tree_facts
from verifiers.frame.tree import derive as derive_tree
from verifiers.frame.xlsx import derive, workbook_facts
from verifiers.readers.xlsx import as_read

FRAMED = (".xlsx",)
#: The freedom of a workbook the oracle makes: its number formats and styles are those of the app that writes it.
NEW_FILE = {"*#fmt": "a new workbook's number formats are its writing app's", "*#style": "a new workbook's styles "
            "are its writing app's"}


def _facts(path: Path) -> dict[str, str]:
    data = bounded.read_file(path, bounded.MAX_FILE_BYTES)
    return workbook_facts(openpyxl.load_workbook(io.BytesIO(data), rich_text=False))


def _home(root: Path, dest: str) -> Path:
    return root / dest.removeprefix(HOME).lstrip("/")


def _hidden_folders(assets: list[Asset], oracle: Solution) -> list[str]:
    """The hidden folders the task prepares or writes files in (a config folder, a project's .vscode), apart from
    application profiles."""
    written = [v for op in oracle.ops for v in op.values() if isinstance(v, str) and v.startswith(f"{HOME}/")]
    folders = {path.removeprefix(HOME).lstrip("/").rpartition("/")[0] for path in [a.dest for a in assets] + written}
    return sorted(f for f in folders if any(part.startswith(".") for part in f.split("/"))
                  and not any(p in f"{f}/" for p in APP_PROFILES))


def frame_checks(assets: list[Asset], oracle: Solution, freedoms: tuple[Freedom, ...] = (), *,
                 tree: bool = False) -> list[Check]:
    """The frame checks of a task: one per workbook the oracle's end state holds, prepared or made by the oracle,
    and with `tree` one for the home folder's file tree (`tree.frame`, verifiers/frame/tree.py).

    A workbook the task prepares is framed against its initial model; one the oracle makes (a copy, a save-as, an
    export) against nothing, so its every fact is allowed and nothing beyond them is (a stray sheet or cell in a
    made file fails too); its formats and styles are the writing app's (`NEW_FILE`). The oracle's workbooks are
    read as its ops leave them in memory (`preparers.ops.edit`), before they are saved: the oracle control then
    proves that the saved file reads the same (the rubric, frame included, must pass on it)."""
    if not tree and not any(a.dest.endswith(FRAMED) for a in assets) and not any(
            isinstance(value, str) and value.endswith(FRAMED) for op in oracle.ops for value in op.values()):
        return []  # no workbook before or after: nothing to frame, no scratch folder
    free = {f.region: f.reason for f in freedoms}
    hidden = _hidden_folders(assets, oracle)
    with scratch.owned_folder("work") as root:
        initial: dict[Path, dict[str, str]] = {}
        for asset in assets:
            host = _home(root, asset.dest)
            host.parent.mkdir(parents=True, exist_ok=True)
            host.write_bytes(asset.data)
            host.chmod(asset.mode)
            if asset.dest.endswith(FRAMED):
                initial[host] = _facts(host)
        before = tree_facts(root, hidden) if tree else {}
        try:
            documents = edit(root, oracle.ops)
        except OpError:
            return []  # the oracle control reports an oracle that cannot run
        edited = {host: document for kind, host, document in documents.values() if kind.name == "xlsx"}
        data = {_home(root, a.dest): a.data for a in assets}
        ends = sorted({*edited, *(p for p in root.rglob("*") if p.name.endswith(FRAMED) and p.is_file())})
        checks: list[Check] = []
        for host in ends:
            if host in edited:  # as it reads back once saved (a serial under a date format is a date)
                end = workbook_facts(as_read(edited[host]))
            elif host in initial and host.read_bytes() == data[host]:
                end = initial[host]
            else:
                end = _facts(host)
            made = host not in initial
            dest = f"{HOME}/{host.relative_to(root).as_posix()}"
            frame = derive(initial.get(host, {}), end, {**(NEW_FILE if made else {}), **free})
            widened = "".join(f" Also free: {region} ({reason})." for region, reason in free.items())
            checks.append(Check(
                id="frame" if len(ends) == 1 else f"frame-{len(checks) + 1}",
                criterion=(f"{dest} holds nothing beyond what the task asks: no other sheet, cell, merged range, "
                           "validation, conditional format, hidden row or column or chart." if made else
                           f"Nothing else in {dest} changed: every cell, sheet, format, merged range, validation, "
                           "conditional format, hidden row or column and chart the task does not ask to change is "
                           "as it was, and the cells it changes hold the kind of value asked for.") + widened,
                primitive="xlsx.frame", args={"path": dest, **frame}))
        if tree:
            for kind, host, document in documents.values():
                try:
                    kind.save(document, host)
                except Exception:  # the oracle control reports a document that cannot be saved
                    return checks
            frame = derive_tree(before, tree_facts(root, hidden))
            checks.append(Check(
                id="frame-tree",
                criterion="The file tree changes only where the task changes it: no other file or folder is added, "
                          "removed, renamed, changed or given other permissions, and the Trash holds only what the "
                          "task deletes.",
                primitive="tree.frame", args={**frame, "hidden": hidden}))
    return checks


def frame_node(freedoms: tuple[Freedom, ...] = (), *, tree: bool = False) -> Node:
    """The node every standard family ends with (kit.family appends it when the app kit names this factory; with
    `tree`, the file tree is framed too); the freedoms are part of the workflow's signature."""
    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        solutions: list[Solution] = values["solutions"]
        return {"frame": frame_checks(list(values["assets"]), solutions[0], freedoms, tree=tree)}

    return Node("frame", "frame", ("assets", "solutions"), ("frame",), run,
                prompt_fields=tuple(("freedom", f"{f.region}: {f.reason}") for f in freedoms)
                + ((("tree", "framed"),) if tree else ()))


def tree_frame_node(freedoms: tuple[Freedom, ...] = ()) -> Node:
    """`frame_node` with the file tree framed: the kit of families whose tasks are about files (OS)."""
    return frame_node(freedoms, tree=True)
