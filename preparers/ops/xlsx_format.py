"""xlsx ops that change formatting: conditional formats, number formats, data validation, fonts and fills."""

from __future__ import annotations

from copy import copy

from openpyxl import Workbook
from openpyxl.formatting.rule import CellIsRule, Rule
from openpyxl.styles import PatternFill
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.utils import range_boundaries
from openpyxl.worksheet.datavalidation import DataValidation

from preparers.ops import op

_CELL_IS = ("greaterThan", "lessThan", "between", "notBetween", "equal", "notEqual", "greaterThanOrEqual",
            "lessThanOrEqual")


def _cells(ws, ref: str):  # noqa: ANN001, ANN202 - openpyxl types
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    for row in ws.iter_rows(min_row=min_row, max_row=max_row, min_col=min_col, max_col=max_col):
        yield from row


def _solid(color: str) -> PatternFill:
    rgb = "FF" + color.strip().lstrip("#").upper()[-6:]
    return PatternFill(fill_type="solid", fgColor=rgb, bgColor=rgb)


def _literal(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@op("xlsx.add_conditional_format")
def add_conditional_format(wb: Workbook, sheet: str, ref: str, operator: str, values: list[float],
                           fill: str) -> None:
    """Add a conditional format rule on `ref` filling matching cells with `fill` (RGB hex).

    `operator` is a cellIs operator (greaterThan, lessThan, between, notBetween, equal, ...) with `values` as
    its operands, or "top"/"bottom" for a top-10 style rule of rank values[0]."""
    ws = wb[sheet]
    if operator in _CELL_IS:
        rule = CellIsRule(operator=operator, formula=[_literal(v) for v in values], fill=_solid(fill))
    elif operator in ("top", "bottom"):
        rule = Rule(type="top10", rank=int(values[0]), bottom=operator == "bottom" or None,
                    dxf=DifferentialStyle(fill=_solid(fill)))
    else:
        raise ValueError(f"unknown conditional format operator {operator!r}")
    ws.conditional_formatting.add(ref, rule)


@op("xlsx.set_number_format")
def set_number_format(wb: Workbook, sheet: str, ref: str, number_format: str) -> None:
    """Set the number format code (e.g. "#,##0.00", "0.0%", "yyyy-mm-dd") of every cell of `ref`."""
    for cell in _cells(wb[sheet], ref):
        cell.number_format = number_format


@op("xlsx.add_data_validation")
def add_data_validation(wb: Workbook, sheet: str, ref: str, kind: str, items: list[str] | None = None,
                        operator: str = "between", minimum: float | None = None,
                        maximum: float | None = None) -> None:
    """Add a data validation to `ref`: a `list` of `items`, or `whole`/`decimal` numbers `operator` the bounds; its
    error alert stops any other value (without it, Calc and Excel accept anything typed)."""
    if kind == "list":
        dv = DataValidation(type="list", formula1='"' + ",".join(items or []) + '"', allow_blank=True)
    elif kind in ("whole", "decimal"):
        bounds = [_literal(b) for b in (minimum, maximum) if b is not None]
        dv = DataValidation(type=kind, operator=operator, formula1=bounds[0],
                            formula2=bounds[1] if len(bounds) > 1 else None, allow_blank=True)
    else:
        raise ValueError(f"unknown validation kind {kind!r}")
    dv.showErrorMessage, dv.errorStyle = True, "stop"  # the alert that refuses other values: the validation's effect
    dv.add(ref)
    wb[sheet].add_data_validation(dv)


@op("xlsx.set_font")
def set_font(wb: Workbook, sheet: str, ref: str, bold: bool | None = None, italic: bool | None = None,
             size: float | None = None) -> None:
    """Change the font of every cell of `ref`: bold, italic and/or size in points (None keeps the current)."""
    for cell in _cells(wb[sheet], ref):
        font = copy(cell.font)
        if bold is not None:
            font.b = bold
        if italic is not None:
            font.i = italic
        if size is not None:
            font.sz = size
        cell.font = font


@op("xlsx.set_fill")
def set_fill(wb: Workbook, sheet: str, ref: str, color: str) -> None:
    """Give every cell of `ref` a solid background fill of `color` (RGB hex such as "DDEBF7")."""
    for cell in _cells(wb[sheet], ref):
        cell.fill = _solid(color)
