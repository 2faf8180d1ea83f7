"""The Calc kit's value helpers that several families share: numbers as instructions write them, formula values
over a layout, and moving a cell so a computed answer does not appear in the instruction by coincidence."""

from __future__ import annotations

import pytest

from workflows.calc import kit as cc


def _layout(values: list[float]) -> cc.Layout:
    rows = [[f"K{i}", v] for i, v in enumerate(values)]
    return cc.Layout(path="/home/user/t.xlsx", sheet="Data", header=["Key", "Amount"], kinds=["key", "int"], rows=rows)


def test_numbers_are_written_as_an_instruction_states_them():
    assert cc.tidy(12.0) == 12 and isinstance(cc.tidy(12.0), int)
    assert cc.tidy(12.5) == 12.5
    assert cc.show_number(1234.5) == "1,234.5"
    assert cc.show_number(1200) == "1,200"


def test_one_row_short_drops_the_last_row_of_a_range():
    assert cc.one_row_short("D2:D13") == "D2:D12"
    assert cc.one_row_short("AA2:AB100") == "AA2:AB99"


def test_formulas_evaluate_over_the_layout_with_the_header_in_row_one():
    layout = _layout([3, 4, 5])
    assert cc.evaluate_on(layout, "=SUM(B2:B4)") == 12.0
    assert cc.evaluate_on(layout, "=MAX(B2:B4)-B2") == 2.0
    assert cc.evaluate_on(layout, "=B5*2", extra={"B5": 10}) == 20.0
    assert cc.layout_lookup(layout)(None, "B1") == "Amount"
    with pytest.raises(LookupError):
        cc.layout_lookup(layout)("Other", "B2")
    with pytest.raises(ValueError, match="not a number"):
        cc.evaluate_on(layout, "=A2")


@pytest.mark.parametrize(("function", "expected"), [("MIN", 1), ("MEDIAN", 2), ("MAX", 3), ("SUM", 3)])
def test_the_deciding_row_is_the_one_that_moves_the_aggregate(function, expected):
    assert cc.deciding_row([5.0, 1.0, 7.0, 9.0], function) == expected


def test_unleak_moves_one_cell_until_the_answer_no_longer_appears():
    rows = [["a", 1], ["b", 2], ["c", 7]]
    facts = {"n": 10}  # a total of 10 would show up in the instruction
    phrasings = ("Add up the {n} amounts.",)
    assert cc.leaky(10, facts, phrasings) and not cc.leaky(11, facts, phrasings)

    def total(trial: list[list[object]]) -> float:
        return float(sum(int(str(r[1])) for r in trial))

    moved = cc.unleak(rows, 1, "int", 2, total, lambda value: cc.leaky(int(value), facts, phrasings))
    assert moved == [["a", 1], ["b", 2], ["c", 8]]
    assert rows == [["a", 1], ["b", 2], ["c", 7]]  # the input is left alone


def test_unleak_says_so_when_nothing_nearby_works():
    with pytest.raises(ValueError, match="cannot move column 1 row 0"):
        cc.unleak([["a", 1]], 1, "int", 0, lambda trial: 0, lambda value: True)
