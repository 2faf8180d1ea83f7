from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.tb.move_messages import WORKFLOW

KNOBS = list(product(WORKFLOW.knobs["criterion"], WORKFLOW.knobs["target"], WORKFLOW.knobs["source"]))


@pytest.mark.parametrize("criterion,target,source", KNOBS)
def test_move_messages_tasks_pass_the_gate(tmp_path, criterion, target, source):
    params = {"criterion": criterion, "target": target, "source": source}
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
