"""workflows/multi/kit.py: the composed content and setup nodes, the multi-app family kit, and the table helpers
(every knob combination of every family is gated by tests/workflows/test_families.py)."""

from __future__ import annotations

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from kit.model import Asset
from workflows.multi import kit as mc


def _ctx(seed: int = 1) -> NodeContext:
    return NodeContext({}, seed, "multi.test", 0, OfflineBackend())


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


def test_every_multi_family_is_on_the_kit_chain():
    """Each multi family is sample -> content -> goal -> prepare -> instruction -> rubric -> solve -> frame -> teacher,
    its goal giving the `Setup` the shared prepare node reads (doc_slides keeps a hand-built solve node: see its
    comment)."""
    from workflows import families

    multi = {name: w for name, w in families().items() if name.startswith("multi.")}
    assert len(multi) >= 12 and "multi.pdf_table_sheet" in multi
    for name, workflow in multi.items():
        assert [n.name for n in workflow.nodes] == ["sample", "content", "goal", "prepare", "instruction", "rubric",
                                                    "solve", "frame", "teacher"], name
        assert workflow.nodes[2].outputs == ("setup", "facts", "target") and workflow.nodes[3] is mc.prepare, name
    kit = mc.app_kit((mc.CALC, mc.TB), table={})
    assert kit.apps == (mc.CALC, mc.TB) and kit.state == "setup" and [n.name for n in kit.source()] == [
        "sample", "content"]
