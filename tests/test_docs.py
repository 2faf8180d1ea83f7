"""The docs show real code: every code block of docs/*.md marked `<!-- file: PATH -->` is a verbatim excerpt of
PATH, so a walkthrough cannot drift from the family it describes (docs/adding-a-family.md is calc.fill_blanks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"<!-- file: (?P<path>\S+) -->\n```\w*\n(?P<code>.*?)\n```", re.DOTALL)
DOCS = sorted((ROOT / "docs").glob("*.md"))


def excerpts() -> list[tuple[str, str, str]]:
    return [(doc.name, m["path"], m["code"]) for doc in DOCS for m in _BLOCK.finditer(doc.read_text())]


def test_the_walkthrough_quotes_its_files():
    quoted = {path for doc, path, _ in excerpts() if doc == "adding-a-family.md"}
    assert {"workflows/calc/fill_blanks.py", "verifiers/checks/xlsx_blanks.py", "preparers/ops/xlsx_blanks.py",
            "skills_taxonomy/libreoffice_calc.yaml"} <= quoted


@pytest.mark.parametrize(("doc", "path", "code"), excerpts(), ids=lambda v: str(v)[:40])
def test_every_excerpt_is_in_its_file(doc, path, code):
    source = ROOT / path
    assert source.is_file(), f"{doc} quotes {path}, which does not exist"
    assert code in source.read_text(), f"{doc}: a block quoted from {path} no longer matches it; copy it again"
