"""The frame node: every standard family's rubric ends with the frame of each workbook it prepares.

After `solve`, the node writes the task's assets into a scratch home, reads their canonical models
(verifiers.frame), applies the oracle's ops there and reads them again: diff(initial, oracle) is the change set
the task allows, and the frame check (`xlsx.frame`) refuses every other change of an end state. A family adds
nothing for it; it declares a *freedom* (`family(..., freedoms=[Freedom(region, reason)])`) only where a correct
solution may change more than its oracle does; the reason travels in the check's arguments, so `forge show` and
`forge family show` print it.
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
from verifiers.frame.xlsx import derive, workbook_facts

FRAMED = (".xlsx",)


def _facts(path: Path) -> dict[str, str]:
    data = bounded.read_file(path, bounded.MAX_FILE_BYTES)
    return workbook_facts(openpyxl.load_workbook(io.BytesIO(data), rich_text=False))


def frame_checks(assets: list[Asset], oracle: Solution, freedoms: tuple[Freedom, ...] = ()) -> list[Check]:
    """The frame checks of a task: one per workbook among `assets` that the oracle's end state still holds.

    The oracle's workbooks are read as its ops leave them in memory (`preparers.ops.edit`), not saved and parsed
    again: the oracle control then proves that the saved file reads the same (the rubric, frame included, must
    pass on it)."""
    framed = [a for a in assets if a.dest.endswith(FRAMED)]
    if not framed:
        return []
    free = {f.region: f.reason for f in freedoms}
    with scratch.owned_folder("work") as root:
        hosts = {}
        for asset in assets:
            host = hosts[asset.dest] = root / asset.dest.removeprefix(HOME).lstrip("/")
            host.parent.mkdir(parents=True, exist_ok=True)
            host.write_bytes(asset.data)
        initial = {a.dest: _facts(hosts[a.dest]) for a in framed}
        try:
            edited = {host: document for _, (kind, host, document) in edit(root, oracle.ops).items()
                      if kind.name == "xlsx"}
        except OpError:
            return []  # the oracle control reports an oracle that cannot run
        checks = []
        for i, asset in enumerate(framed, start=1):
            host = hosts[asset.dest]
            if host in edited:
                oracle_facts = workbook_facts(edited[host])
            elif not host.is_file():
                continue  # moved or removed: the file tree's business
            else:
                oracle_facts = initial[asset.dest] if host.read_bytes() == asset.data else _facts(host)
            checks.append(Check(
                id="frame" if len(framed) == 1 else f"frame-{i}",
                criterion=f"Nothing else in {asset.dest} changed: every cell, sheet, format, merged range, "
                          "validation, conditional format, hidden row or column and chart the task does not ask "
                          "to change is as it was, and the cells it changes hold the kind of value asked for.",
                primitive="xlsx.frame", args={"path": asset.dest, **derive(initial[asset.dest], oracle_facts, free)}))
    return checks


def frame_node(freedoms: tuple[Freedom, ...] = ()) -> Node:
    """The node every standard family ends with (kit.family appends it when the app kit names this factory); the
    freedoms are part of the workflow's signature."""
    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        solutions: list[Solution] = values["solutions"]
        return {"frame": frame_checks(list(values["assets"]), solutions[0], freedoms)}

    return Node("frame", "frame", ("assets", "solutions"), ("frame",), run,
                prompt_fields=tuple(("freedom", f"{f.region}: {f.reason}") for f in freedoms))
