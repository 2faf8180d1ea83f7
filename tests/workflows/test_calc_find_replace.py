import pytest

from tests.gatekit import gate_family
from workflows.calc.find_replace import WORKFLOW


@pytest.mark.parametrize("scope", WORKFLOW.knobs["scope"])
def test_find_replace_tasks_pass_the_gate(tmp_path, scope):
    verdicts = gate_family(WORKFLOW, {"scope": scope}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
