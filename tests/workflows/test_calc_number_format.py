import pytest

from tests.gatekit import gate_family
from workflows.calc.number_format import WORKFLOW


@pytest.mark.parametrize("fmt", ("currency", "percent", "two_decimals", "date_iso", "date_long"))
def test_number_format_tasks_pass_the_gate(tmp_path, fmt):
    verdicts = gate_family(WORKFLOW, {"format": fmt}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3


def test_number_format_knobs_cover_every_value():
    assert WORKFLOW.knobs["format"] == ("currency", "percent", "two_decimals", "date_iso", "date_long")
