"""`prepare_node`: a family's own prepare function becomes a `prepare` node whose inputs are the function's
parameters, in order (they are part of the workflow signature), and whose outputs are the assets and launch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.dag import NodeContext
from kit.family import prepare_node
from kit.llm import OfflineBackend
from kit.model import Asset


def prepare(layout: str, sheet_extras: dict[str, int]) -> Mapping[str, Any]:
    data = f"{layout}:{sheet_extras['offset']}".encode()
    return {"assets": [Asset("/home/user/a.txt", data)], "launch": ["cat", layout]}


def test_prepare_node_reads_the_values_its_parameters_name():
    node = prepare_node(prepare)
    assert (node.name, node.kind, node.inputs, node.outputs) == (
        "prepare", "prepare", ("layout", "sheet_extras"), ("assets", "launch"))
    ctx = NodeContext({}, 1, "t.skill", 0, OfflineBackend())
    produced = node.fn(ctx, {"layout": "L", "sheet_extras": {"offset": 2}})
    assert produced["assets"][0].data == b"L:2"
    assert produced["launch"] == ["cat", "L"]
