import pytest

from tests.gatekit import gate_family
from workflows.gimp.convert import CONVERSIONS, WORKFLOW


@pytest.mark.parametrize("conversion", sorted(CONVERSIONS))
def test_convert_tasks_pass_the_gate(tmp_path, conversion):
    verdicts = gate_family(WORKFLOW, {"conversion": conversion}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
