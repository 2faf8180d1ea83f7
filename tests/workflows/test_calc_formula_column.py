import pytest

from tests.gatekit import gate_family
from workflows.calc.formula_column import WORKFLOW


@pytest.mark.parametrize("function", WORKFLOW.knobs["function"])
def test_formula_column_tasks_pass_the_gate(tmp_path, function):
    verdicts = gate_family(WORKFLOW, {"function": function}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
