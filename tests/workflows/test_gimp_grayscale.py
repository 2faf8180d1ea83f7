import pytest

from tests.gatekit import gate_family
from workflows.gimp.grayscale import WORKFLOW


@pytest.mark.parametrize("fmt", ["png", "jpg", "bmp", "tiff", "webp"])
def test_grayscale_tasks_pass_the_gate(tmp_path, fmt):
    verdicts = gate_family(WORKFLOW, {"fmt": fmt}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
