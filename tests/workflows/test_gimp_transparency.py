import pytest

from tests.gatekit import gate_family
from workflows.gimp.transparency import WORKFLOW


@pytest.mark.parametrize(("action", "fmt"), [("clear_white", "png"), ("flatten_white", "webp"),
                                             ("clear_white", "tiff"), ("flatten_white", "png")])
def test_transparency_tasks_pass_the_gate(tmp_path, action, fmt):
    verdicts = gate_family(WORKFLOW, {"action": action, "fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
