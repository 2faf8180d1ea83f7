import pytest

from tests.gatekit import gate_family
from workflows.calc.conditional_format import WORKFLOW


@pytest.mark.parametrize("rule", ("greater_than", "less_than", "between", "equal_to", "top_n"))
def test_conditional_format_tasks_pass_the_gate(tmp_path, rule):
    verdicts = gate_family(WORKFLOW, {"rule": rule}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3


def test_conditional_format_knobs_cover_every_value():
    assert WORKFLOW.knobs["rule"] == ("greater_than", "less_than", "between", "equal_to", "top_n")
