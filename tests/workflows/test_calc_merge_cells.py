import pytest

from tests.gatekit import gate_family
from workflows.calc.merge_cells import WORKFLOW


@pytest.mark.parametrize("target", ["title_row", "header_block", "center_title"])
def test_merge_cells_tasks_pass_the_gate(tmp_path, target):
    verdicts = gate_family(WORKFLOW, {"target": target}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
