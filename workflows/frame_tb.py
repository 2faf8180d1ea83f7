"""The Thunderbird profile frame at task time: `tb_frame_checks` derives `tb.frame` from diff(initial, oracle).

After `solve`, the task's assets are written into a scratch home and each Thunderbird profile they prepare (a
folder under .thunderbird/ holding prefs.js) is read as its canonical model (verifiers/frame/thunderbird.py);
the oracle's ops run there and the profile is read again. The facts that differ are what the task may change;
every filter the oracle adds becomes probe messages (one it acts on, one it leaves alone) in the contexts the task
implies. `tb_frame_node` is the frame node of every kit whose tasks may prepare a profile (Thunderbird, the
multi-app kit, the composite and distractor families): the document and file-tree frames of `workflows.frame`
(`frame_checks`, with the tree) and this one, which adds nothing where no profile is prepared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit import scratch
from kit.dag import Node, NodeContext
from kit.model import Asset, Check, Freedom, Solution
from preparers.ops import HOME, OpError, apply_ops
from verifiers.checks import State
from verifiers.frame import thunderbird as tbframe
from workflows.frame import frame_checks

CRITERION = ("Nothing else in the Thunderbird profile {path} changed: no other folder is added, removed or renamed, "
             "no other message is moved, deleted, copied or given other flags{read}, and no other filter, setting or "
             "contact is added, removed or changed.")
EFFECTS = (" The filter the task asks for acts as asked on a new message it matches{manual} and leaves a message "
           "it does not match alone.")


def _profiles(assets: list[Asset]) -> list[str]:
    """The profile folders the assets prepare (/home/user/.thunderbird/<name>/prefs.js -> its folder)."""
    top = f"{HOME}/.thunderbird/"
    return sorted({a.dest.rpartition("/")[0] for a in assets
                   if a.dest.startswith(top) and a.dest.endswith("/prefs.js") and a.dest.count("/") == top.count("/")
                   + 1})


def tb_frame_checks(assets: list[Asset], oracle: Solution, freedoms: tuple[Freedom, ...] = ()) -> list[Check]:
    """One `tb.frame` check per Thunderbird profile the task prepares (none when it prepares none). A family's
    freedoms widen it by fact-key pattern (`msg:Inbox|*`); the reason travels in the criterion."""
    profiles = _profiles(assets)
    if not profiles:
        return []
    free = {f.region: f.reason for f in freedoms}
    with scratch.owned_folder("work") as root:
        for asset in assets:
            host = root / asset.dest.removeprefix(HOME).lstrip("/")
            host.parent.mkdir(parents=True, exist_ok=True)
            host.write_bytes(asset.data)
            host.chmod(asset.mode)
        before = {p: tbframe.read_profile(State(root), p) for p in profiles}
        try:
            apply_ops(root, oracle.ops)
        except OpError:
            return []  # the oracle control reports an oracle that cannot run
        after = {p: tbframe.read_profile(State(root), p) for p in profiles}
    checks = []
    for number, path in enumerate(profiles, start=1):
        frame = tbframe.derive(before[path].facts, after[path].facts, free)
        cases = tbframe.probes(before[path], after[path])
        read = " (opening a message may mark it read)" if "read" in frame["free"] else ""
        text = CRITERION.format(path=path, read=read)
        if cases:
            manual = any(c["context"] == "manual" for c in cases)
            text += EFFECTS.format(manual=", both when it arrives and when the filter is run by hand," if manual
                                   else " when it arrives")
        text += "".join(f" Also free: {region} ({reason})." for region, reason in free.items())
        checks.append(Check("frame-profile" if len(profiles) == 1 else f"frame-profile-{number}", text, "tb.frame",
                            {"path": path, **frame, **({"probes": cases} if cases else {})}))
    return checks


def tb_frame_node(freedoms: tuple[Freedom, ...] = ()) -> Node:
    """The Thunderbird kit's frame node: `workflows.frame`'s checks with the file tree (`tree_frame_node`'s), then
    the profile's (`tb_frame_checks`)."""
    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        solutions: list[Solution] = values["solutions"]
        assets = list(values["assets"])
        return {"frame": frame_checks(assets, solutions[0], freedoms, tree=True)
                + tb_frame_checks(assets, solutions[0], freedoms)}

    return Node("frame", "frame", ("assets", "solutions"), ("frame",), run,
                prompt_fields=tuple(("freedom", f"{f.region}: {f.reason}") for f in freedoms)
                + (("tree", "framed"), ("profile", "framed")))
