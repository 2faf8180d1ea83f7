import pytest

from tests.gatekit import gate_family
from tests.workflows.test_multi_common import covering
from workflows.multi.attachment_sheet import WORKFLOW


@pytest.mark.parametrize("params", covering(WORKFLOW), ids=lambda p: "-".join(map(str, p.values())))
def test_attachment_sheet_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
