"""The frame node: every family's rubric ends with the frame of each framed file and of the home folder's file tree.

After `solve`, the node writes the task's assets into a scratch home, reads their canonical models
(verifiers.frame), applies the oracle's ops there and reads them again: diff(initial, oracle) is the change set
the task allows, and the frame checks (`<kind>.frame`, `tree.frame`) refuse every other change of an end state. A
family adds nothing for it; it declares a *freedom* (`family(..., freedoms=[Freedom(region, reason)])`) only
where a correct solution may change more than its oracle does; the reason travels in the check's criterion and
arguments, so `forge show` and `forge family show` print it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kit import scratch
from kit.dag import Node, NodeContext
from kit.model import Asset, Check, Freedom, Solution
from preparers.ops import HOME, OpError, edit
from verifiers.frame.kinds import FrameKind, kind_for
from verifiers.frame.tree import APP_PROFILES, tree_facts
from verifiers.frame.tree import derive as derive_tree


def _home(root: Path, dest: str) -> Path:
    return root / dest.removeprefix(HOME).lstrip("/")


def _dest(root: Path, host: Path) -> str:
    return f"{HOME}/{host.relative_to(root).as_posix()}"


def _hidden_folders(assets: list[Asset], oracle: Solution) -> list[str]:
    """The hidden folders the task prepares or writes files in (a config folder, a project's .vscode), apart from
    application profiles."""
    written = [v for op in oracle.ops for v in op.values() if isinstance(v, str) and v.startswith(f"{HOME}/")]
    folders = {path.removeprefix(HOME).lstrip("/").rpartition("/")[0] for path in [a.dest for a in assets] + written}
    return sorted(f for f in folders if any(part.startswith(".") for part in f.split("/"))
                  and not any(p in f"{f}/" for p in APP_PROFILES))


def frame_checks(assets: list[Asset], oracle: Solution, freedoms: tuple[Freedom, ...] = (), *,
                 tree: bool = False) -> list[Check]:
    """The frame checks of a task: one per framed file (a workbook, a document ...: a kind of
    verifiers/frame/kinds.py) the oracle's end state holds, prepared or made by the oracle, and with `tree` one for
    the home folder's file tree (`tree.frame`, verifiers/frame/tree.py).

    A file the task prepares is framed against its initial model; one the oracle makes (a copy, a save-as, an
    export) against nothing, so its every fact is allowed and nothing beyond them is (a stray sheet or cell in a
    made file fails too); the kind's `new_file` freedoms hold for it (a new workbook's formats and styles are the
    writing app's). The oracle's documents are read as its ops leave them in memory (`preparers.ops.edit`, the
    kind's `edited`), before they are saved: the oracle control then proves that the saved file reads the same (the
    rubric, frame included, must pass on it)."""
    if not tree and not any(kind_for(a.dest) for a in assets) and not any(
            isinstance(value, str) and kind_for(value)
            for op in oracle.ops for value in op.values()):
        return []  # no framed file before or after: nothing to frame, no scratch folder
    free = {f.region: f.reason for f in freedoms}
    hidden = _hidden_folders(assets, oracle)
    with scratch.owned_folder("work") as root:
        initial: dict[Path, dict[str, str]] = {}
        for asset in assets:
            host = _home(root, asset.dest)
            host.parent.mkdir(parents=True, exist_ok=True)
            host.write_bytes(asset.data)
            host.chmod(asset.mode)
            if kind := kind_for(asset.dest):
                initial[host] = kind.read(host)
        before = tree_facts(root, hidden) if tree else {}
        try:
            documents = edit(root, oracle.ops)
        except OpError:
            return []  # the oracle control reports an oracle that cannot run
        edited: dict[Path, tuple[FrameKind, Any, Any]] = {}  # host -> (frame kind, ops kind, document)
        for ops_kind, host, document in documents.values():
            kind = kind_for(_dest(root, host))
            if kind is not None and ops_kind.name == kind.document_kind:
                edited[host] = (kind, ops_kind, document)
        data = {_home(root, a.dest): a.data for a in assets}
        ends = sorted({*edited, *(p for p in root.rglob("*")  # a link is the tree frame's, never read through
                                  if p.is_file() and not p.is_symlink() and kind_for(_dest(root, p)))})
        checks: list[Check] = []
        for host in ends:
            dest = _dest(root, host)
            kind = edited[host][0] if host in edited else kind_for(dest)
            assert kind is not None
            if host in edited and kind.edited is not None:  # as it reads back once saved
                end = kind.edited(edited[host][2])
            elif host in edited:
                _, ops_kind, document = edited[host]
                try:
                    ops_kind.save(document, host)
                except Exception:  # the oracle control reports a document that cannot be saved
                    continue
                end = kind.read(host)
            elif host in initial and host.read_bytes() == data[host]:
                end = initial[host]
            else:
                end = kind.read(host)
            made = host not in initial
            frame = kind.derive(initial.get(host, {}), end, {**(kind.new_file if made else {}), **free})
            widened = "".join(f" Also free: {region} ({reason})." for region, reason in free.items())
            checks.append(Check(
                id="frame" if len(ends) == 1 else f"frame-{len(checks) + 1}",
                criterion=(kind.made_criterion if made else kind.kept_criterion).format(dest=dest) + widened,
                primitive=kind.primitive, args={"path": dest, **frame}))
        if tree:
            for ops_kind, host, document in documents.values():
                try:
                    ops_kind.save(document, host)
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
