from pathlib import Path

import pytest

from kit.errors import TaxonomyError
from kit.taxonomy import load_file, load_taxonomy

GOOD = """app: libreoffice_calc
skills:
  - id: calc.sort.numeric_asc
    family: calc.sort_rows
    apps: [libreoffice_calc]
    params: {key_kind: numeric, order: asc}
    description: Sort rows by a number column.
    difficulty: easy
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "calc.yaml"
    path.write_text(text)
    return path


def test_shipped_taxonomy_loads_and_every_skill_fits_its_family():
    skills = load_taxonomy()
    assert len(skills) >= 6
    assert all(s.source for s in skills.values())


def test_valid_file_loads(tmp_path):
    (skill,) = load_file(write(tmp_path, GOOD))
    assert skill.id == "calc.sort.numeric_asc" and skill.params == {"key_kind": "numeric", "order": "asc"}


def test_an_edited_file_is_read_again_though_parses_are_reused(tmp_path):
    path = write(tmp_path, GOOD)
    assert load_file(path) == load_file(path)
    write(tmp_path, GOOD.replace("difficulty: easy", "difficulty: hard"))  # same size, maybe the same mtime
    (skill,) = load_file(path)
    assert skill.difficulty == "hard"
    write(tmp_path, GOOD.replace("family:", "famly:"))
    with pytest.raises(TaxonomyError, match="calc.yaml:"):
        load_file(path)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = write(tmp_path, GOOD.replace("params: {key_kind: numeric, order: asc}", "params: {key_kind: numeric"))
    with pytest.raises(TaxonomyError) as info:
        load_file(path)
    message = str(info.value)
    assert message.startswith(f"{path}:") and "invalid YAML" in message and "\n" not in message


def test_wrong_field_names_line_and_field(tmp_path):
    path = write(tmp_path, GOOD.replace("difficulty: easy", "difficulty: trivial"))
    with pytest.raises(TaxonomyError, match=rf"^{path}:8: skills\[0\]\.difficulty: 'trivial' is not one of"):
        load_file(path)


def test_missing_field_names_the_skill(tmp_path):
    path = write(tmp_path, GOOD.replace("    family: calc.sort_rows\n", ""))
    with pytest.raises(TaxonomyError, match=r"calc.yaml:3: skills\[0\]: 'family' is a required property"):
        load_file(path)


def test_unknown_family_suggests_the_closest(tmp_path):
    write(tmp_path, GOOD.replace("family: calc.sort_rows", "family: calc.sort_row"))
    with pytest.raises(TaxonomyError, match=r"unknown workflow family 'calc.sort_row'. Did you mean 'calc.sort_rows'"):
        load_taxonomy(tmp_path)


def test_knob_value_outside_the_family_is_refused(tmp_path):
    write(tmp_path, GOOD.replace("order: asc", "order: sideways"))
    with pytest.raises(TaxonomyError, match=r"calc.yaml:3: params: order='sideways', but family"):
        load_taxonomy(tmp_path)


def test_duplicate_ids_are_refused(tmp_path):
    body = GOOD + GOOD.split("skills:\n", 1)[1]
    write(tmp_path, body)
    with pytest.raises(TaxonomyError, match="duplicate skill id"):
        load_taxonomy(tmp_path)
