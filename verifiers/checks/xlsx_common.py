"""The comparison shared by the xlsx primitives: a cell value against the expected one. Cells are read (values as
canonical text, numbers, ranges, saved formula results) by `verifiers.readers.xlsx`."""

from __future__ import annotations

from typing import Any

from verifiers.readers.xlsx import cell_text, numeric


def same_value(actual: Any, expected: Any, tolerance: float = 0.0) -> bool:
    """Numbers within `tolerance`; dates by day; text exact after trimming whitespace. A number expected is not
    met by the same digits stored as text."""
    exp_num, act_num = numeric(expected), numeric(actual)
    if isinstance(expected, int | float) and not isinstance(expected, bool) and act_num is not None \
            and not isinstance(actual, str):
        return abs(act_num - float(expected)) <= tolerance + 1e-9
    if exp_num is not None and isinstance(expected, str) and act_num is not None and not isinstance(actual, str):
        return abs(act_num - exp_num) <= tolerance + 1e-9
    return cell_text(actual).strip() == cell_text(expected).strip()


