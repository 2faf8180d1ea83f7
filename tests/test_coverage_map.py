"""The OSWorld coverage map (benchmarks/coverage/osworld.tsv) parses and names only registered families, so renaming
or removing a family fails here until the map follows; and the checker refuses what it must."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "benchmarks" / "coverage" / "osworld.tsv"


def _coverage() -> ModuleType:
    spec = importlib.util.spec_from_file_location("forge_benchmark_coverage", ROOT / "benchmarks" / "coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


coverage = _coverage()
HEADER = "\t".join(coverage.COLUMNS) + "\n"


def test_the_osworld_map_parses_and_names_registered_families():
    rows = coverage.load(MAP)
    assert len(rows) == 369  # test_all.json of the original release
    assert {r.domain for r in rows} == {"chrome", "gimp", "libreoffice_calc", "libreoffice_impress",
                                        "libreoffice_writer", "multi_apps", "os", "thunderbird", "vlc", "vs_code"}
    coverage.check_families(rows, MAP)
    assert "TOTAL" in coverage.report(rows, 15)


def test_an_unregistered_family_is_named_with_its_line(tmp_path):
    bad = tmp_path / "map.tsv"
    bad.write_text(HEADER + "a\tos\tyes\tyes\tcovered\tos.copy\t\tfine\n"
                   "b\tos\tyes\tyes\tnear\tos.copie_files\tcopy-variants\trenamed family\n")
    rows = coverage.load(bad)
    with pytest.raises(coverage.MapError, match=r"map.tsv:3: family 'os.copie_files' is not registered"):
        coverage.check_families(rows, bad)
    assert coverage.main([str(bad)]) == 2


@pytest.mark.parametrize(("line", "message"), [
    ("a\tos\tyes\tyes\tcovered\t\t\tno family\n", "family is named exactly"),
    ("a\tos\tyes\tyes\tnear\tos.copy\t\tno gap tag\n", "gap tag"),
    ("a\tos\tmaybe\tyes\tnone\t\tgap\tbad flag\n", "offline must be"),
    ("a\tos\tyes\tyes\tdone\t\tgap\tbad status\n", "status must be"),
    ("a\tos\tyes\tyes\tnone\t\tgap\t" + "word " * 13 + "\n", "more than 12 words"),
])
def test_malformed_rows_are_refused(tmp_path, line, message):
    bad = tmp_path / "map.tsv"
    bad.write_text(HEADER + line)
    with pytest.raises(coverage.MapError, match=message):
        coverage.load(bad)
