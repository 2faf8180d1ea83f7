from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.tb.mark_messages import WORKFLOW

KNOBS = list(product(WORKFLOW.knobs["mark"], WORKFLOW.knobs["criterion"], WORKFLOW.knobs["folder"]))


@pytest.mark.parametrize("mark,criterion,folder", KNOBS)
def test_mark_messages_tasks_pass_the_gate(tmp_path, mark, criterion, folder):
    params = {"mark": mark, "criterion": criterion, "folder": folder}
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
