"""Tests for the offline "content" table generator."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import date
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from workflows.calc.content import _REGISTRY, CONTENT_SCHEMA, SCENARIOS, generate_table

SEEDS = (0, 1, 2, 7, 42, 1234)
ROW_COUNTS = (6, 7, 8, 13, 27, 40)
NUMERIC_KINDS = {"int", "money", "number"}
SHEET_RE = re.compile(r"^[A-Za-z0-9 _]{3,20}$")
STEM_RE = re.compile(r"^[a-z0-9_]+$")


def _looks_numeric(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return bool(re.fullmatch(r"[\d\s.,%$+-]+", text))
    return True


def _is_monotonic(values: list[Any]) -> bool:
    pairs = list(zip(values, values[1:], strict=False))
    return all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs)


def _check_table(table: dict[str, Any], n_rows: int) -> None:
    Draft202012Validator(CONTENT_SCHEMA).validate(table)
    assert table["scenario"] in SCENARIOS
    assert STEM_RE.match(table["file_stem"])
    sheet = table["sheet"]
    assert SHEET_RE.match(sheet) and sheet == sheet.strip()

    columns, rows = table["columns"], table["rows"]
    kinds = [c["kind"] for c in columns]
    assert kinds[:3] == ["key", "category", "date"]
    assert 2 <= len(kinds[3:]) <= 3 and set(kinds[3:]) <= NUMERIC_KINDS
    names = [c["name"] for c in columns]
    assert len(set(n.lower() for n in names)) == len(names)
    for name in names:
        assert 2 <= len(name) <= 20 and name == name.strip()
        assert all(word[0].isupper() or word[0].isdigit() for word in name.split(" "))
    for a in names:
        for b in names:
            assert a == b or a.lower() not in b.lower(), (a, b)

    assert len(rows) == n_rows and all(len(r) == len(columns) for r in rows)
    lowered_names = {n.lower() for n in names}
    for col, kind in enumerate(kinds):
        values = [r[col] for r in rows]
        assert not _is_monotonic(values), (names[col], values)
        if kind in ("key", "category", "date"):
            for v in values:
                assert isinstance(v, str) and v == v.strip() and v
                assert not any(ch in v for ch in "\n\r\"'`")
                assert not _looks_numeric(v) or kind == "date"
                assert v.lower() not in lowered_names
        if kind == "key":
            assert len(set(values)) == n_rows
        elif kind == "category":
            counts = Counter(values)
            assert 3 <= len(counts) <= 6
            if n_rows >= 8:
                assert min(counts.values()) >= 2
        elif kind == "date":
            parsed = [date.fromisoformat(v) for v in values]
            assert all(v == d.isoformat() for v, d in zip(values, parsed, strict=True))
            assert len(set(parsed)) == n_rows
            assert len({d.year for d in parsed}) == 1
        else:
            assert len(set(values)) == n_rows
            if kind == "int":
                assert all(type(v) is int for v in values)
            else:
                places = 2 if kind == "money" else 1
                assert all(type(v) is float and round(v, places) == v for v in values)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", SEEDS)
def test_invariants_per_scenario(scenario: str, seed: int) -> None:
    for n_rows in ROW_COUNTS:
        table = generate_table(random.Random(seed), n_rows=n_rows, scenario=scenario)
        assert table["scenario"] == scenario
        _check_table(table, n_rows)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_many_seeds_cover_name_alternatives(scenario: str) -> None:
    stems, sheets, headers = set(), set(), set()
    for seed in range(60):
        n_rows = 6 + seed % 35
        table = generate_table(random.Random(seed), n_rows=n_rows, scenario=scenario)
        _check_table(table, n_rows)
        stems.add(table["file_stem"])
        sheets.add(table["sheet"])
        headers.add(tuple(c["name"] for c in table["columns"]))
    assert len(stems) >= 3 and len(sheets) >= 3 and len(headers) >= 3


def test_scenarios_registry() -> None:
    assert len(SCENARIOS) >= 10
    assert list(SCENARIOS) == sorted(SCENARIOS) and len(set(SCENARIOS)) == len(SCENARIOS)
    for required in ("budget", "expenses", "grades", "inventory", "payroll", "sales", "shipments"):
        assert required in SCENARIOS


@pytest.mark.parametrize("spec", _REGISTRY, ids=lambda s: s.name)
def test_every_name_alternative_is_safe(spec: Any) -> None:
    """All header alternatives of different columns avoid the substring rule and cell values."""
    groups = [spec.key.names, spec.category.names, spec.date_names, *(n.names for n in spec.numerics)]
    cells = {v.lower() for v in (*spec.category.values, *spec.key.left, *spec.key.right)}
    for i, group in enumerate(groups):
        for name in group:
            assert name.lower() not in cells
            for other in (o for j, g in enumerate(groups) if j != i for o in g):
                assert name.lower() not in other.lower(), (name, other)


def test_schema_is_valid_and_strict() -> None:
    Draft202012Validator.check_schema(CONTENT_SCHEMA)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(CONTENT_SCHEMA)
    table = generate_table(random.Random(3), n_rows=10, scenario="sales")
    table["extra"] = 1
    assert not Draft202012Validator(CONTENT_SCHEMA).is_valid(table)


@pytest.mark.parametrize("seed", SEEDS)
def test_deterministic(seed: int) -> None:
    for scenario in (*SCENARIOS, None):
        first = generate_table(random.Random(seed), n_rows=15, scenario=scenario)
        second = generate_table(random.Random(seed), n_rows=15, scenario=scenario)
        assert first == second


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_different_seeds_differ(scenario: str) -> None:
    tables = [generate_table(random.Random(s), n_rows=12, scenario=scenario) for s in SEEDS]
    rows = {repr(t["rows"]) for t in tables}
    assert len(rows) == len(tables)


def test_random_scenario_when_none() -> None:
    seen = set()
    for seed in range(80):
        n_rows = 6 + seed % 35
        table = generate_table(random.Random(seed), n_rows=n_rows)
        _check_table(table, n_rows)
        seen.add(table["scenario"])
    assert len(seen) >= 8


@pytest.mark.parametrize("bad", [0, 5, 201, 1000, -3, True, 10.0])  # MAX_ROWS is 200 (the `rows` axis)
def test_n_rows_bounds(bad: Any) -> None:
    with pytest.raises(ValueError, match="n_rows"):
        generate_table(random.Random(0), n_rows=bad)


def test_unknown_scenario() -> None:
    with pytest.raises(ValueError, match="scenario"):
        generate_table(random.Random(0), n_rows=10, scenario="nope")
