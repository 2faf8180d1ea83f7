import pytest

from tests.gatekit import gate_family
from workflows.calc.hide_columns import WORKFLOW


@pytest.mark.parametrize("count", ["one", "two"])
def test_hide_columns_tasks_pass_the_gate(tmp_path, count):
    verdicts = gate_family(WORKFLOW, {"count": count}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
