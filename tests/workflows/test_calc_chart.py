import pytest

from tests.gatekit import gate_family
from workflows.calc.chart import WORKFLOW


@pytest.mark.parametrize("chart_type", ["bar", "column", "line", "pie", "area"])
def test_chart_tasks_pass_the_gate(tmp_path, chart_type):
    verdicts = gate_family(WORKFLOW, {"chart_type": chart_type}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
