import pytest

from tests.gatekit import gate_family
from workflows.gimp.crop import WORKFLOW


@pytest.mark.parametrize(("region", "fmt"), [("box", "png"), ("center_square", "jpg"), ("trim_border", "png"),
                                             ("half", "jpg")])
def test_crop_tasks_pass_the_gate(tmp_path, region, fmt):
    verdicts = gate_family(WORKFLOW, {"region": region, "fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
