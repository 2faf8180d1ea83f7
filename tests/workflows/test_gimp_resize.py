import pytest

from tests.gatekit import gate_family
from workflows.gimp.resize import WORKFLOW


@pytest.mark.parametrize(("mode", "fmt"), [("exact", "png"), ("percent", "jpg"), ("fit_width", "webp"),
                                           ("fit_height", "png")])
def test_resize_tasks_pass_the_gate(tmp_path, mode, fmt):
    verdicts = gate_family(WORKFLOW, {"mode": mode, "fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
