from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.tb.create_folder import WORKFLOW


@pytest.mark.parametrize("location,name_kind", list(product(WORKFLOW.knobs["location"], WORKFLOW.knobs["name_kind"])))
def test_create_folder_tasks_pass_the_gate(tmp_path, location, name_kind):
    verdicts = gate_family(WORKFLOW, {"location": location, "name_kind": name_kind}, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
