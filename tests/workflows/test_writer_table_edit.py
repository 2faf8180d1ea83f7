import pytest

from tests.gatekit import gate_family
from workflows.writer.table_edit import WORKFLOW


@pytest.mark.parametrize("action", WORKFLOW.knobs["action"])
def test_table_edit_tasks_pass_the_gate(tmp_path, action):
    verdicts = gate_family(WORKFLOW, {"action": action}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
