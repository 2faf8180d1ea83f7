import pytest

from tests.gatekit import gate_family
from workflows.calc.data_validation import WORKFLOW


@pytest.mark.parametrize("kind", ("list", "whole_between", "decimal_greater"))
def test_data_validation_tasks_pass_the_gate(tmp_path, kind):
    verdicts = gate_family(WORKFLOW, {"kind": kind}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3


def test_data_validation_knobs_cover_every_value():
    assert WORKFLOW.knobs["kind"] == ("list", "whole_between", "decimal_greater")
