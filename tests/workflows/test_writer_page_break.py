import pytest

from tests.gatekit import gate_family
from workflows.writer.page_break import WORKFLOW


@pytest.mark.parametrize("target", WORKFLOW.knobs["target"])
def test_page_break_tasks_pass_the_gate(tmp_path, target):
    verdicts = gate_family(WORKFLOW, {"target": target}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
