"""Tests for verifiers.formula: a safe evaluator for xlsx cell formulas."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from verifiers.formula import FormulaError, evaluate, function_names, referenced_ranges

SHEETS: dict[str, dict[str, Any]] = {
    "Sheet1": {
        # A1:A7 mixes numbers, text, a bool and a blank (A6).
        "A1": 10, "A2": 20, "A3": 30, "A4": "text", "A5": True, "A7": 2.5,
        "B1": "East", "B2": "west", "B3": "East", "B4": "North", "B6": "Eastern",  # B5 blank
        "C1": 100, "C2": 200, "C3": 300, "C4": 400, "C5": 500, "C6": 600,
        "D1": "=A1*2",  # 20
        "D2": "=D1+A2",  # 40
        "D3": "=SUM(D1:D2)",  # 60
        "D4": "=Data!B2*2",  # Data!B2 is evaluated on sheet Data -> 3 * 2
        "E1": "=E2+1", "E2": "=E1+1",  # cycle
        "F1": dt.date(2024, 1, 1), "F2": dt.datetime(2024, 1, 1, 12, 0), "F3": ">15", "F4": "East",
        "G1": "=A6",  # formula showing a blank cell -> 0
        "H1": "a*b", "H2": "axb",
    },
    "Data": {"A1": 1, "A2": 2, "B2": "=A1+A2"},
    "My Sheet": {"A1": 5, "B3": 7},
    "It's": {"A1": 42},
}


def lookup(sheet: str | None, coord: str) -> Any:
    return SHEETS[sheet or "Sheet1"].get(coord)


CASES: list[tuple[str, Any]] = [
    # literals and precedence
    ("=1+2*3", 7), ("=(1+2)*3", 9), ("=-2^2", 4), ("=2^3^2", 64), ("=2*3^2", 18), ("=2^-1", 0.5),
    ("=10-2-3", 5), ("=8/2/2", 2), ("=2-+-1", 3), ("=1.5e2", 150), ("=.5+1", 1.5), ("=50%*2", 1),
    ("=1+2=3", True), ("=1+2&\"x\"", "3x"), ('="a"&1+1', "a2"), ("=3>2=TRUE", True), ("=-A1", -10),
    (" = 1 + 1 ", 2), ("1+1", 2),
    # strings, booleans, comparisons
    ('="say ""hi"""', 'say "hi"'), ('="a"&"b"', "ab"), ('=A1&A6', "10"), ('=A7&""', "2.5"),
    ("=TRUE", True), ("=false", False), ('="abc"="ABC"', True), ('="b">"a"', True), ('=1<"a"', True),
    ("=A6=0", True), ('=A6=""', True), ("=2<>2", False), ("=3>=3", True), ("=A5&1", "TRUE1"),
    # references: blanks, anchors, sheets, quoted sheet names
    ("=A1+A6", 10), ("=$A$1+A$2", 30), ("=Data!A1+Data!A2", 3), ("='My Sheet'!A1*'My Sheet'!B3", 35),
    ("='It''s'!A1", 42), ("=SUM(Data!A1:A2)", 3), ("=SUM(A3:A1)", 60),
    # referenced formula cells are evaluated recursively, on their own sheet
    ("=D2", 40), ("=D3", 60), ("=D4", 6), ("=G1", 0), ("=SUM(D1:D3)", 120),
    # aggregates skip text/bools/blanks in ranges but count literals
    ("=SUM(A1:A7)", 62.5), ("=SUM(A1:A3,5,TRUE)", 66), ('=SUM("3",1)', 4), ("=AVERAGE(A1:A7)", 15.625),
    ("=MIN(A1:A7)", 2.5), ("=MAX(A1:A7)", 30), ("=MIN(B1:B6)", 0), ("=MAX(B1:B6)", 0),
    ("=COUNT(A1:A7)", 4), ('=COUNT(1,"2","x",TRUE)', 3), ("=COUNTA(A1:A7)", 6), ("=COUNTA(B1:B6)", 5),
    ("=MEDIAN(A1:A3,A7)", 15), ("=PRODUCT(A1:A2,0.5)", 100), ("=SUM(A1;A2;A3)", 60),
    # dates are Excel serials (days since 1899-12-30)
    ("=F1", 45292), ("=F2-F1", 0.5), ("=F1+1", 45293), ("=MAX(F1:F2)", 45292.5),
    ('=COUNTIF(F1:F2,">=2024-01-01")', 2), ('=COUNTIF(F1:F2,">45292")', 1),
    # COUNTIF / SUMIF / AVERAGEIF criteria
    ('=COUNTIF(A1:A7,">15")', 2), ('=COUNTIF(A1:A7,">=20")', 2), ('=COUNTIF(A1:A7,">=10.5")', 2),
    ("=COUNTIF(A1:A7,20)", 1), ('=COUNTIF(A1:A7,"<>20")', 6), ("=COUNTIF(A1:A7,TRUE)", 1),
    ('=COUNTIF(B1:B6,"East")', 2), ('=COUNTIF(B1:B6,"east")', 2), ('=COUNTIF(B1:B6,"=East")', 2),
    ('=COUNTIF(B1:B6,"<>East")', 4), ('=COUNTIF(B1:B6,"East*")', 3), ('=COUNTIF(B1:B6,"?est")', 1),
    ('=COUNTIF(B1:B6,"")', 1), ('=COUNTIF(B1:B6,"<M")', 3), ('=COUNTIF(H1:H2,"a*b")', 2),
    ('=COUNTIF(H1:H2,"a~*b")', 1), ("=COUNTIF(B1:B6,F4)", 2), ("=COUNTIF(A1:A7,F3)", 2),
    ('=SUMIF(B1:B6,"East",C1:C6)', 400), ('=SUMIF(A1:A3,">15")', 50), ('=SUMIF(B1:B6,"East*",C1)', 1000),
    ('=SUMIF(B1:B6,"nobody",C1:C6)', 0), ('=AVERAGEIF(B1:B6,"East",C1:C6)', 200),
    # rounding: half away from zero on the shortest decimal repr
    ("=ROUND(2.5,0)", 3), ("=ROUND(-2.5,0)", -3), ("=ROUND(1.005,2)", 1.01), ("=ROUND(2.675,2)", 2.68),
    ("=ROUND(0.285,2)", 0.29), ("=ROUND(1234.5,-2)", 1200), ("=ROUND(3.14159,3)", 3.142),
    ("=ROUND(A7)", 3), ("=ROUNDUP(1.21,1)", 1.3), ("=ROUNDUP(-1.21,1)", -1.3), ("=ROUNDDOWN(1.29,1)", 1.2),
    ("=ROUNDDOWN(-1.29,1)", -1.2),
    # other functions, namespaces, lazy IF, empty arguments
    ("=ABS(-3)", 3), ("=INT(-2.5)", -3), ("=INT(2.7)", 2), ('=IF(A1>5,"big","small")', "big"),
    ('=IF(A1>50,"big")', False), ("=IF(A6,1,2)", 2), ("=IF(A1>5,1,1/0)", 1), ("=IF(A1>5,,1)", 0),
    ("=AND(A1>5,A2>5)", True), ("=OR(A1>50,FALSE)", False), ("=AND(A1:A5)", True), ("=NOT(A5)", False),
    ("=LEN(B6)", 7), ("=UPPER(B2)", "WEST"), ('=LOWER("AbC")', "abc"), ('=CONCATENATE(B1,"-",A1)', "East-10"),
    ("=_xlfn.ROUND(of:SUM(A1;A2),0)", 30), ("=ROUND(SUM(A1:A3)/7,2)", 8.57),
    # text functions (calc.text_formula)
    ('=PROPER("o\'neil-SMITH jr")', "O'Neil-Smith Jr"), ("=PROPER(B2)", "West"), ('=PROPER("3rd ave")', "3Rd Ave"),
    ('=TRIM("  two   spaces  ")', "two spaces"), ("=TRIM(A1)", "10"), ('=CONCAT(B1," - ",B2)', "East - west"),
    ("=_xlfn.CONCAT(B1:B2)", "Eastwest"), ('=_xlfn.TEXTJOIN(", ",TRUE,B4:B6)', "North, Eastern"),
    ('=TEXTJOIN("/",FALSE,B4:B6)', "North//Eastern"), ("=LEFT(B1)", "E"), ("=LEFT(B1,2)", "Ea"),
    ("=RIGHT(B6,3)", "ern"), ("=RIGHT(B6,0)", ""), ("=MID(B6,2,3)", "ast"), ("=MID(B6,7,5)", "n"),
    ("=UPPER(LEFT(B2,1))&LOWER(MID(B2,2,99))", "West"), ('=TEXTJOIN("-",1,A1,"x",A6)', "10-x"),
    # date functions (calc.date_formula): serials in, serials or numbers out
    ("=YEAR(F1)", 2024), ("=MONTH(F2)", 1), ("=DAY(F2)", 1), ("=DATE(2024,14,1)", 45689),
    ("=EDATE(F1,3)", 45383), ("=EDATE(DATE(2024,1,31),1)", 45351), ("=EDATE(DATE(2023,12,31),-10)", 44985),
    ('=DATEDIF(F1,DATE(2024,3,1),"D")', 60), ('=DATEDIF(DATE(2024,1,31),DATE(2024,2,29),"M")', 0),
    ('=DATEDIF(DATE(2020,2,29),DATE(2024,2,28),"Y")', 3), ('=DATEDIF(DATE(2020,2,29),F1,"m")', 46),
    ("=EDATE(F1,3)-F1", 91),
    # lookups (calc.lookup): exact matches ignore case; approximate ones need ascending keys
    ("=VLOOKUP(\"east\",B1:C4,2,FALSE)", 100), ("=VLOOKUP(\"North\",B1:C4,2,0)", 400),
    ("=VLOOKUP(25,A1:A3,1)", 20), ("=VLOOKUP(30,A1:C3,3,TRUE)", 300), ("=VLOOKUP(20,A1:C3,3,FALSE)", 200),
    ('=INDEX(C1:C6,MATCH("North",B1:B6,0))', 400), ("=INDEX(A1:C3,2,3)", 200), ("=INDEX(C1:C3,2)", 200),
    ("=MATCH(25,A1:A3)", 2), ("=MATCH(\"west\",B1:B4,0)", 2), ("=INDEX(B1:C1,2)", 100),
    ('=_xlfn.XLOOKUP("North",B1:B4,C1:C4)', 400), ('=XLOOKUP("nobody",B1:B4,C1:C4,"none")', "none"),
    ('=INDEX(Data!A1:A2,MATCH(2,Data!A1:A2,0))', 2),
    # whole-column ranges, read down to row 10,000
    ("=SUM(Data!A:A)", 3), ("=SUM('My Sheet'!$A:$B)", 12), ('=VLOOKUP("north",B:C,2,FALSE)', 400),
    ("=COUNTA(B:B)", 5),
]


@pytest.mark.parametrize(("formula", "expected"), CASES)
def test_evaluate(formula: str, expected: Any) -> None:
    result = evaluate(formula, lookup)
    if isinstance(expected, (bool, str)):
        assert result == expected
        assert type(result) is type(expected)
    else:
        assert isinstance(result, float)
        assert result == pytest.approx(expected)


ERRORS: list[tuple[str, str]] = [
    ("=SUM(", "unexpected end"),
    ("=1+", "unexpected end"),
    ("=", "empty formula"),
    ("", "empty formula"),
    ("=(1+2", "expected ')'"),
    ("=1+2)", "unexpected ')'"),
    ("=SUM(1 2)", "expected ')'"),
    ("=#REF!+1", "unexpected character"),
    ("=FOO(1)", "unknown function 'FOO'"),
    ("=MyName+1", "unknown name 'MyName'"),
    ("=ZZZ1", "outside the sheet"),
    ("=ROUND()", "ROUND takes"),
    ("=E1", "circular reference"),
    ("=1/0", "division by zero"),
    ("=A1/A6", "division by zero"),
    ("=AVERAGE(B1:B6)", "division by zero"),
    ('=AVERAGEIF(B1:B6,"zzz",C1:C6)', "division by zero"),
    ("=MEDIAN(B1:B6)", "no numbers"),
    ('="a"+1', "used as a number"),
    ("=A1:A3", "single value"),
    ("=COUNTIF(5,5)", "cell range"),
    ("=Missing!A1", "cannot look up Missing!A1"),
    ('=DATEDIF(DATE(2024,3,1),F1,"D")', "start date is after"),
    ('=DATEDIF(F1,F1,"YD")', "not supported"),
    ('=YEAR("x")', "used as a number"),
    ("=YEAR(-5)", "not a date serial"),
    ("=EDATE(F1,100000)", "outside 1900..9999"),
    ('=TEXTJOIN(",",TRUE)', "TEXTJOIN takes"),
    ("=LEFT(B1,-1)", "must be at least 0"),
    ('=VLOOKUP("nobody",B1:C4,2,FALSE)', "finds no 'nobody'"),
    ('=VLOOKUP("East",B1:C4,2)', "unsorted keys"),
    ('=VLOOKUP("East",B1:C4,3,FALSE)', "outside its 2-column table"),
    ('=XLOOKUP("nobody",B1:B4,C1:C4)', "finds no"),
    ("=INDEX(C1:C3,4)", "outside its 3x1 range"),
    ("=MATCH(5,A1:A3,-1)", "not supported"),
    ("=VLOOKUP(1,5,1)", "needs a cell range"),
    ("=MID(B1,0,1)", "must be at least 1"),
]


@pytest.mark.parametrize(("formula", "problem"), ERRORS)
def test_evaluate_errors(formula: str, problem: str) -> None:
    with pytest.raises(FormulaError) as info:
        evaluate(formula, lookup)
    message = str(info.value)
    assert problem in message
    assert repr(formula) in message


def test_formula_error_is_value_error() -> None:
    assert issubclass(FormulaError, ValueError)


def test_depth_limit() -> None:
    chain = {f"A{i}": f"=A{i + 1}+1" for i in range(1, 10)} | {"A10": 0}

    def chain_lookup(sheet: str | None, coord: str) -> Any:
        return chain.get(coord)

    assert evaluate("=A1", chain_lookup) == pytest.approx(9)
    with pytest.raises(FormulaError, match="nested deeper than 3"):
        evaluate("=A1", chain_lookup, max_depth=3)


def test_lookup_receives_sheet_and_plain_coordinates() -> None:
    calls: list[tuple[str | None, str]] = []

    def recording(sheet: str | None, coord: str) -> Any:
        calls.append((sheet, coord))
        return 1

    assert evaluate("=$B$2+'My Sheet'!c3+SUM(Data!A1:B1)", recording) == pytest.approx(4)
    assert calls == [(None, "B2"), ("My Sheet", "C3"), ("Data", "A1"), ("Data", "B1")]


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=SUM(A2:A9)", [(None, "A2:A9")]),
        ("=SUM($A$2:$A$9)/COUNT(Data!B3)", [(None, "A2:A9"), ("Data", "B3")]),
        ("='My Sheet'!A1:B3+'It''s'!c5", [("My Sheet", "A1:B3"), ("It's", "C5")]),
        ("=IF(A1>0,B1,C1)", [(None, "A1"), (None, "B1"), (None, "C1")]),
        ("=ROUND(AVERAGE(B2:B10),2)", [(None, "B2:B10")]),
        ('=1+2&"A1"', []),
        ("=VLOOKUP(B2,'Codes'!$A:$B,2,0)", [(None, "B2"), ("Codes", "A1:B10000")]),
    ],
)
def test_referenced_ranges(formula: str, expected: list[tuple[str | None, str]]) -> None:
    assert referenced_ranges(formula) == expected


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=ROUND(SUM(A1:A3),2)", ["ROUND", "SUM"]),
        ("=_xlfn.ROUND(of:sum(A1;A2);1)", ["ROUND", "SUM"]),
        ("=IF(AND(A1>0,B1>0),MAX(A1:B1),min(A1:B1))", ["IF", "AND", "MAX", "MIN"]),
        ("=FOO(A1)+LOG10(2)", ["FOO", "LOG10"]),
        ("=A1+1", []),
    ],
)
def test_function_names(formula: str, expected: list[str]) -> None:
    assert function_names(formula) == expected


@pytest.mark.parametrize("formula", ["=SUM(", "=1+", "=(A1", "=A1 B1"])
def test_inspection_rejects_garbage(formula: str) -> None:
    with pytest.raises(FormulaError, match="cannot parse"):
        referenced_ranges(formula)
    with pytest.raises(FormulaError, match="cannot parse"):
        function_names(formula)


TEXT_SHEET = {"A2": "alice  SMITH", "B2": "Sales", "C2": 12, "A3": "bob jones"}


@pytest.mark.parametrize(("formula", "reference", "agrees"), [
    ("=PROPER(A2)", "=PROPER(A2)", True),
    ("=PROPER($A$2)", "=PROPER(A2)", True),
    ('=CONCAT(A2," - ",B2)', '=A2&" - "&B2', True),
    ('=TEXTJOIN(" - ",TRUE,A2,B2)', '=A2&" - "&B2', True),
    ('=UPPER(LEFT(A2,1))&LOWER(MID(A2,2,99))', "=PROPER(A2)", False),  # one capital, not one per word
    ("=UPPER(A2)", "=PROPER(A2)", False),
    ('=IF(A2="","","Alice  Smith")', "=PROPER(A2)", False),  # the typed answer dressed as a formula
    ("=PROPER(A3)", "=PROPER(A2)", False),  # the next row's name
    ('=B2&" - "&A2', '=A2&" - "&B2', False),
    ("=A2", "=TRIM(A2)", False),
    ('=TRIM(A2)&""', "=TRIM(A2)", True),
])
def test_text_disagreement(formula: str, reference: str, agrees: bool) -> None:
    from verifiers.formula import text_disagreement

    found = text_disagreement(formula, reference, lambda sheet, coord: TEXT_SHEET.get(coord))
    assert (found is None) == agrees, found
    # on the real inputs most of the wrong formulas above agree: only the probes tell them apart
    assert evaluate('=IF(A2="","","Alice  Smith")', lambda s, c: TEXT_SHEET.get(c)) == evaluate(
        "=PROPER(A2)", lambda s, c: TEXT_SHEET.get(c))


DATE_SHEET = {"C2": dt.date(2024, 1, 31), "D2": 12.0}


@pytest.mark.parametrize(("formula", "reference", "agrees"), [
    ("=EDATE(C2,3)", "=EDATE(C2,3)", True),
    ("=EDATE($C$2,3)", "=EDATE(C2,3)", True),
    ('=DATEDIF(C2,DATE(2025,12,31),"D")', "=DATE(2025,12,31)-C2", True),
    ("=C2+90", "=EDATE(C2,3)", False),  # three months are not 90 days
    ("=0*C2+45412", "=EDATE(C2,3)", False),  # the typed answer dressed as a formula
    ("=MONTH(C2)", "=YEAR(C2)", False),
    ("=DATE(2025,12,31)-C2+1", "=DATE(2025,12,31)-C2", False),
])
def test_date_disagreement(formula: str, reference: str, agrees: bool) -> None:
    from verifiers.formula import date_disagreement

    found = date_disagreement(formula, reference, lambda sheet, coord: DATE_SHEET.get(coord))
    assert (found is None) == agrees, found


LOOKUP_SHEETS: dict[str, dict[str, Any]] = {
    "Main": {"B2": "Ops", "B3": "Legal"},
    "Codes": {"A2": "Legal", "B2": "LG-210", "A3": "Ops", "B3": "OP-118", "A4": "Sales", "B4": "SL-305"},
}


@pytest.mark.parametrize(("formula", "agrees"), [
    ("=VLOOKUP(B2,Codes!$A$2:$B$4,2,FALSE)", True),
    ("=INDEX(Codes!$B$2:$B$4,MATCH(B2,Codes!$A$2:$A$4,0))", True),
    ("=_xlfn.XLOOKUP(B2,Codes!A2:A4,Codes!B2:B4)", True),
    ('=IF(B2="","","OP-118")', False),  # the typed answer dressed as a formula
    ("=VLOOKUP(B3,Codes!$A$2:$B$4,2,FALSE)", False),  # the next row's key
    ("=VLOOKUP(B2,Codes!$A$2:$B$4,1,FALSE)", False),  # the key column, not the code
])
def test_lookup_disagreement(formula: str, agrees: bool) -> None:
    from verifiers.formula import lookup_disagreement

    def lookup(sheet: str | None, coord: str) -> Any:
        return LOOKUP_SHEETS[sheet or "Main"].get(coord)

    found = lookup_disagreement(formula, "=VLOOKUP(B2,Codes!$A$2:$B$4,2,FALSE)", lookup, "Codes", 2)
    assert (found is None) == agrees, found
    assert evaluate(formula, lookup) == ("Ops" if "1,FALSE" in formula else "LG-210" if "B3" in formula else "OP-118")
