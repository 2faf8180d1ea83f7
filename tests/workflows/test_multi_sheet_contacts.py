import pytest

from tests.gatekit import gate_family
from tests.workflows.test_multi_common import covering
from workflows.multi.sheet_contacts import WORKFLOW


@pytest.mark.parametrize("params", covering(WORKFLOW), ids=lambda p: "-".join(map(str, p.values())))
def test_sheet_contacts_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
