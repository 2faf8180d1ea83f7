"""calc.lookup: the family through the gate with every mutant, and its check `xlsx.lookup_column` on hand-made end
states (typed values, a typed answer dressed as a formula, a typed key, the wrong column, INDEX/MATCH and XLOOKUP
accepted for VLOOKUP)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.calc.lookup import FUNCTIONS, WORKFLOW

PATH = "/home/user/claims.xlsx"
MAIN = [["Claim", "Team"], ["C-1", "Ops"], ["C-2", "Legal"], ["C-3", "Ops"]]
CODES = [["Team", "Budget Code"], ["Ops", "BC-118"], ["Sales", "BC-305"], ["Legal", "BC-210"]]
RIGHT = "=VLOOKUP(B{r},Codes!$A$2:$B$4,2,FALSE)"


@pytest.mark.slow
@pytest.mark.parametrize("function", FUNCTIONS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, function):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"function": function}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives[0] == "xlsx.lookup_column" and "xlsx.frame" in primitives, primitives


def _check(tmp_path: Path, cells: dict[str, object]) -> tuple[bool, str]:
    spec = {"sheets": [{"name": "Claims", "rows": MAIN}, {"name": "Codes", "rows": CODES}]}
    (tmp_path / "claims.xlsx").write_bytes(xlsx.build(spec))
    apply_ops(tmp_path, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "Claims",
                          "cells": {"C1": "Budget Code", **cells}}])
    args = {"path": PATH, "sheet": "Claims", "header_cell": "C1", "header": "Budget Code", "ref": "C2:C4",
            "key": "Team", "table_sheet": "Codes", "table": "A2:B4", "function": "VLOOKUP",
            "expected": ["BC-118", "BC-210", "BC-118"], "formulas": [RIGHT.format(r=r) for r in (2, 3, 4)]}
    result = run_check(State(tmp_path), "xlsx.lookup_column", args)
    return result.passed, result.evidence


GOOD = {f"C{r}": RIGHT.format(r=r) for r in (2, 3, 4)}


@pytest.mark.parametrize(("cells", "passes", "evidence"), [
    (GOOD, True, "all 3 cells of C2:C4 are VLOOKUP formulas"),
    ({**GOOD, "C3": "=INDEX(Codes!B2:B4,MATCH(B3,Codes!A2:A4,0))",
      "C4": "=_xlfn.XLOOKUP(B4,Codes!$A$2:$A$4,Codes!$B$2:$B$4)"}, True, "VLOOKUP formulas"),
    ({"C2": "=VLOOKUP(B2,Codes!A:B,2,0)", "C3": "=INDEX(Codes!$B:$B,MATCH(B3,Codes!$A:$A,0))",
      "C4": "=VLOOKUP($B4,'Codes'!$A:$B,2,FALSE())"}, True, "VLOOKUP formulas"),  # whole columns, as users select
    ({**GOOD, "C3": "BC-210"}, False, "C3 holds 'BC-210', not a formula"),
    ({**GOOD, "C3": '=IF(B3="","","BC-210")'}, False, "is not the asked VLOOKUP"),
    ({**GOOD, "C3": '=VLOOKUP("Legal",Codes!$A$2:$B$4,2,FALSE)'}, False, "looks up no cell of row 3"),
    ({**GOOD, "C3": "=VLOOKUP(B3,Codes!$A$2:$B$4,1,FALSE)"}, False, "C3 = '=VLOOKUP(B3,Codes!$A$2:$B$4,1,FALSE)' "
                                                                    "shows 'Legal'"),
    ({**GOOD, "C3": "=VLOOKUP(B3,Codes!$A$2:$B$4,2)"}, False, "approximate match on unsorted keys"),
    ({**GOOD, "C4": "=VLOOKUP(B4,Codes!A4:B6,2,FALSE)"}, False, "finds no 'Ops'"),
])
def test_the_check_on_hand_made_end_states(tmp_path, cells, passes, evidence):
    passed, found = _check(tmp_path, cells)
    assert passed == passes and evidence in found, found
