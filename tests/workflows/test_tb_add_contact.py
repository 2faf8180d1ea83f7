from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.tb.add_contact import WORKFLOW


@pytest.mark.parametrize("count,name_kind", list(product(WORKFLOW.knobs["count"], WORKFLOW.knobs["name_kind"])))
def test_add_contact_tasks_pass_the_gate(tmp_path, count, name_kind):
    verdicts = gate_family(WORKFLOW, {"count": count, "name_kind": name_kind}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
