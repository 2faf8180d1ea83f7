import pytest

from tests.gatekit import gate_family
from workflows.calc.cell_style import WORKFLOW


@pytest.mark.parametrize("style", ("bold_column", "fill_header", "font_size"))
def test_cell_style_tasks_pass_the_gate(tmp_path, style):
    verdicts = gate_family(WORKFLOW, {"style": style}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3


def test_cell_style_knobs_cover_every_value():
    assert WORKFLOW.knobs["style"] == ("bold_column", "fill_header", "font_size")
