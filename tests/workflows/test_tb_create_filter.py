from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.tb.create_filter import WORKFLOW

KNOBS = list(product(WORKFLOW.knobs["field"], WORKFLOW.knobs["action"], WORKFLOW.knobs["apply"]))


@pytest.mark.parametrize("field,action,apply", KNOBS)
def test_create_filter_tasks_pass_the_gate(tmp_path, field, action, apply):
    params = {"field": field, "action": action, "apply": apply}
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
