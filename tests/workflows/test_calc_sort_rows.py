from itertools import product

import pytest

from tests.gatekit import gate_family
from workflows.calc.sort_rows import WORKFLOW


@pytest.mark.parametrize("key_kind,order", list(product(("numeric", "text", "date"), ("asc", "desc"))))
def test_sort_rows_tasks_pass_the_gate(tmp_path, key_kind, order):
    verdicts = gate_family(WORKFLOW, {"key_kind": key_kind, "order": order}, tmp_path, seeds=range(1, 4))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 3
