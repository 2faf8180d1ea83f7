"""kit.grammar: the one a/an and plural helper generators phrase with and the `content` stage checks against."""

from __future__ import annotations

import pytest

from kit.grammar import article, count, plural, with_article


@pytest.mark.parametrize(("phrase", "want"), [
    ("area chart", "an area chart"), ("bar chart", "a bar chart"), ("AVERAGE", "an AVERAGE"), ("SUM", "a SUM"),
    ("MIN", "a MIN"), ("hour", "an hour"), ("honest answer", "an honest answer"), ("user", "a user"),
    ("unit cost", "a unit cost"), ("uninstalled app", "an uninstalled app"), ("one-page summary", "a one-page summary"),
    ("European team", "a European team"), ("SQL query", "an SQL query"), ("HTML page", "an HTML page"),
    ("PNG file", "a PNG file"), ("xlsx file", "an xlsx file"), ("csv file", "a csv file"),
    ("8-bit image", "an 8-bit image"),
    ("11-row table", "an 11-row table"), ("18th entry", "an 18th entry"), ("110 km trip", "a 110 km trip"),
    ("orange fill", "an orange fill"), ("light orange fill", "a light orange fill"), ("F-score", "an F-score"),
    ("iPhone", "an iPhone"), ("year", "a year"),
])
def test_the_article_follows_the_sound(phrase, want):
    assert with_article(phrase) == want
    assert article(phrase) == want.split(" ", 1)[0]


@pytest.mark.parametrize(("noun", "want"), [
    ("row", "rows"), ("bullet point", "bullet points"), ("box", "boxes"), ("match", "matches"), ("entry", "entries"),
    ("day", "days"), ("person", "people"), ("series", "series"), ("Category", "Categories"), ("ID", "IDs"),
    ("PDF", "PDFs"), ("status", "statuses"),
])
def test_plural(noun, want):
    assert plural(noun) == want


def test_count_agrees_with_the_number():
    assert [count(n, "row") for n in (0, 1, 2, 1.5)] == ["0 rows", "1 row", "2 rows", "1.5 rows"]
    assert count(1, "child", "children") == "1 child" and count(3, "child", "children") == "3 children"
