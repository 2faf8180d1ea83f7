import pytest

from tests.gatekit import gate_family
from workflows.gimp.resolution import WORKFLOW


@pytest.mark.parametrize(("mode", "fmt"), [("set_ppi", "png"), ("print_width", "jpg"), ("set_ppi", "tiff"),
                                           ("print_width", "png")])
def test_resolution_tasks_pass_the_gate(tmp_path, mode, fmt):
    verdicts = gate_family(WORKFLOW, {"mode": mode, "fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
