import pytest

from tests.gatekit import gate_family
from workflows.calc.totals_row import WORKFLOW


@pytest.mark.parametrize("function", WORKFLOW.knobs["function"])
def test_totals_row_tasks_pass_the_gate(tmp_path, function):
    verdicts = gate_family(WORKFLOW, {"function": function}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
