import pytest

from tests.gatekit import gate_family
from workflows.gimp.export import USES, WORKFLOW


@pytest.mark.parametrize("use", sorted(USES))
def test_export_tasks_pass_the_gate(tmp_path, use):
    verdicts = gate_family(WORKFLOW, {"use": use}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
