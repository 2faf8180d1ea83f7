import pytest

from tests.gatekit import gate_family
from tests.workflows.test_multi_common import covering
from workflows.multi.sheet_doc_table import WORKFLOW


@pytest.mark.parametrize("params", covering(WORKFLOW), ids=lambda p: "-".join(map(str, p.values())))
def test_sheet_doc_table_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2


def test_rows_are_not_stated_in_the_instruction():
    from forge.dag import NodeContext
    from forge.llm import OfflineBackend

    params = {"columns": "subset", "rows": "category", "order": "asc"}
    out = WORKFLOW.run(NodeContext(params, 4, "multi.test", 0, OfflineBackend()))
    rows = out["rubric"][0].args["rows"]
    assert rows and not any(str(row[0]) in out["instruction"] for row in rows)
