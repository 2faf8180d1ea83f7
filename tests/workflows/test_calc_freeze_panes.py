import pytest

from tests.gatekit import gate_family
from workflows.calc.freeze_panes import WORKFLOW


@pytest.mark.parametrize("target", ["header_row", "first_column", "both"])
def test_freeze_panes_tasks_pass_the_gate(tmp_path, target):
    verdicts = gate_family(WORKFLOW, {"target": target}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
