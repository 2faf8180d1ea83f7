import pytest

from tests.gatekit import gate_family
from workflows.gimp.rotate import WORKFLOW


@pytest.mark.parametrize(("transform", "fmt"), [("rotate_cw", "png"), ("rotate_ccw", "jpg"), ("rotate_180", "bmp"),
                                                ("flip_horizontal", "jpg"), ("flip_vertical", "png")])
def test_rotate_tasks_pass_the_gate(tmp_path, transform, fmt):
    verdicts = gate_family(WORKFLOW, {"transform": transform, "fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
