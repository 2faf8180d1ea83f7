import pytest

from tests.gatekit import gate_family
from workflows.tb.set_pref import WORKFLOW


@pytest.mark.parametrize("setting", WORKFLOW.knobs["setting"])
def test_set_pref_tasks_pass_the_gate(tmp_path, setting):
    verdicts = gate_family(WORKFLOW, {"setting": setting}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
