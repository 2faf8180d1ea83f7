from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.tb.save_attachment import WORKFLOW

KNOBS = list(product(WORKFLOW.knobs["kind"], WORKFLOW.knobs["dest"], WORKFLOW.knobs["rename"]))


@pytest.mark.parametrize("kind,dest,rename", KNOBS)
def test_save_attachment_tasks_pass_the_gate(tmp_path, kind, dest, rename):
    params = {"kind": kind, "dest": dest, "rename": rename}
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
