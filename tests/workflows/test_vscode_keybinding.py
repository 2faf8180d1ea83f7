"""Gate every knob combination of vscode.keybinding (seeds 1 and 2) through the real gate."""

import itertools

import pytest

from tests.gatekit import gate_family
from workflows.vscode.keybinding import WORKFLOW

COMBOS = [dict(zip(WORKFLOW.knobs, values, strict=True)) for values in itertools.product(*WORKFLOW.knobs.values())]


@pytest.mark.parametrize("params", COMBOS, ids=lambda p: "-".join(map(str, p.values())))
def test_keybinding_tasks_pass_the_gate(tmp_path, params):
    verdicts = gate_family(WORKFLOW, params, tmp_path, seeds=range(1, 3))
    assert [(v.status, v.evidence) for v in verdicts] == [("accepted", "all stages passed")] * 2
