import pytest

from tests.gatekit import gate_family
from workflows.calc.remove_duplicates import WORKFLOW


@pytest.mark.parametrize("mode", WORKFLOW.knobs["mode"])
def test_remove_duplicates_tasks_pass_the_gate(tmp_path, mode):
    verdicts = gate_family(WORKFLOW, {"mode": mode}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
