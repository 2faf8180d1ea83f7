"""multi_common: the composed content and setup nodes, and `covering`, which the multi family tests use to gate
every knob value of a family with few tasks."""

from __future__ import annotations

from typing import Any

import pytest

from forge.dag import NodeContext, Workflow
from forge.llm import OfflineBackend
from forge.model import Asset
from workflows.multi import kit as mc


def covering(workflow: Workflow) -> list[dict[str, Any]]:
    """Parameter sets in which every value of every knob occurs at least once (value i of a knob in set i)."""
    size = max(len(values) for values in workflow.knobs.values())
    return [{k: values[i % len(values)] for k, values in workflow.knobs.items()} for i in range(size)]


def _ctx(seed: int = 1) -> NodeContext:
    return NodeContext({}, seed, "multi.test", 0, OfflineBackend())


def test_covering_uses_every_knob_value():
    from workflows.multi.attachment_sheet import WORKFLOW

    sets = covering(WORKFLOW)
    for knob, values in WORKFLOW.knobs.items():
        assert {s[knob] for s in sets} == set(values)


def test_parts_draw_independent_plans_and_content_fits_every_schema():
    sample, content = mc.source_nodes(table={}, mailbox={"kind": "pdf"}, people={}, picture={"fmt": "jpg"})
    ctx = _ctx()
    plan = sample.fn(ctx, {"params": {}})["plan"]
    assert set(plan) == {"table", "mailbox", "people", "picture"}
    assert plan["mailbox"]["attachment_format"] == "pdf"
    made = content.fn(ctx, {"plan": plan})["content"]
    assert set(made) == set(plan) and len(made["people"]["people"]) == plan["people"]["n"]
    assert sample.fn(_ctx(), {"params": {}})["plan"] == plan, "same seed, same plan"
    assert sample.fn(_ctx(2), {"params": {}})["plan"] != plan


def test_unknown_parts_and_clashing_pieces_are_refused():
    with pytest.raises(ValueError, match="unknown content parts"):
        mc.source_nodes(spreadsheet={})
    asset = Asset("/home/user/a.txt", b"x")
    with pytest.raises(ValueError, match="write"):
        mc.prepare.fn(_ctx(), {"setup": mc.Setup((("files", [asset]), ("files", [asset])))})
    out = mc.prepare.fn(_ctx(), {"setup": mc.Setup((("files", [asset]),), launch=("gedit", asset.dest))})
    assert out == {"assets": [asset], "launch": ["gedit", asset.dest]}


def test_csv_and_table_helpers_write_what_calc_reads():
    import datetime as dt

    data = mc.csv_bytes(["A", "B", "C"], [["x", dt.date(2024, 1, 2), 3.5], ["y", dt.date(2024, 1, 3), 12]])
    assert data == b"A,B,C\nx,2024-01-02,3.50\ny,2024-01-03,12\n"
    assert mc.shown(1234.5, "money") == "1,234.50" and mc.shown(dt.date(2024, 1, 2), "date") == "2024-01-02"
    assert mc.sort_rows([["b", 2], ["a", 10], ["c", 1]], 1, True) == [["a", 10], ["b", 2], ["c", 1]]
    assert not mc.clean_of({"path": "/home/user/Reports 2024/a.xlsx"}, 2024) and mc.clean_of({"p": "x"}, 2024)
