import pytest

from tests.gatekit import gate_family
from workflows.gimp.brightness import WORKFLOW


@pytest.mark.parametrize(("direction", "fmt"), [("brighter", "png"), ("darker", "jpg")])
def test_brightness_tasks_pass_the_gate(tmp_path, direction, fmt):
    verdicts = gate_family(WORKFLOW, {"direction": direction, "fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
