"""Load and validate the skill taxonomy (`skills_taxonomy/*.yaml`).

Each file is validated against `skills_taxonomy/schema.json`; then every skill is checked against its
workflow family (the family exists, its params are knobs the family declares, with allowed values).
Any problem raises `TaxonomyError` with one line: `file:line: field: problem — what to do`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from kit.errors import TaxonomyError, did_you_mean
from kit.registry import families
from skills_taxonomy import TAXONOMY_DIR


@dataclass(frozen=True)
class Skill:
    """One atomic skill: data that points at a workflow family with fixed knob values."""

    id: str
    family: str
    apps: tuple[str, ...]
    params: Mapping[str, Any]
    description: str
    difficulty: str
    category: str = ""
    parent: str | None = None
    origin: str = "seed"
    status: str = "active"
    source: str = field(default="", compare=False)  # "file:line", for error messages

    @property
    def app(self) -> str:
        """The domain a task of this skill is filed under (OSWorld's `multi_apps` for several)."""
        return self.apps[0] if len(self.apps) == 1 else "multi_apps"


#: libyaml's parser when PyYAML was built with it (~10x faster than the pure-Python one).
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _schema() -> dict[str, Any]:
    return json.loads((TAXONOMY_DIR / "schema.json").read_text())


def _line_of(node: yaml.Node, path: Iterable[Any]) -> int:
    """1-based line of the YAML node at `path` (the deepest node that exists)."""
    for key in path:
        if isinstance(node, yaml.MappingNode):
            match = [v for k, v in node.value if k.value == key]
            if not match:
                break
            node = match[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
    return node.start_mark.line + 1


def _dotted(path: Iterable[Any]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "<root>"


def load_file(path: Path) -> list[Skill]:
    """Parse and schema-validate one taxonomy file. The parse is reused while the file's text is unchanged:
    every batch of a long-lived Dask or Prefect worker loads the taxonomy, and parsing it takes ~0.7 s."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TaxonomyError(f"{path}: cannot read taxonomy file ({exc.strerror}); check the path") from exc
    return list(_parse_file(path, text))


@lru_cache(maxsize=64)
def _parse_file(path: Path, text: str) -> tuple[Skill, ...]:
    """`load_file`'s work on the file's text (errors are not cached)."""
    loader = _Loader(text)  # one parse gives both the nodes (for line numbers) and the data
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise TaxonomyError(f"{where}: invalid YAML: {problem}; fix the syntax") from exc
    if root is None or not isinstance(data, dict):
        raise TaxonomyError(f"{path}:1: expected a mapping with 'app' and 'skills'")
    errors = sorted(jsonschema.Draft202012Validator(_schema()).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        line = _line_of(root, err.absolute_path)
        raise TaxonomyError(f"{path}:{line}: {_dotted(err.absolute_path)}: {err.message}")
    skills = []
    for i, raw in enumerate(data["skills"]):
        line = _line_of(root, ["skills", i])
        skills.append(
            Skill(
                id=raw["id"],
                family=raw["family"],
                apps=tuple(raw["apps"]),
                params=dict(raw["params"]),
                description=raw["description"],
                difficulty=raw["difficulty"],
                category=raw.get("category", ""),
                parent=raw.get("parent"),
                origin=raw.get("origin", "seed"),
                status=raw.get("status", "active"),
                source=f"{path.name}:{line}",
            )
        )
    return tuple(skills)


def check_against_families(skills: Iterable[Skill], families: Mapping[str, Any]) -> None:
    """Every skill names a known family and only knob values that family declares."""
    seen: dict[str, Skill] = {}
    for skill in skills:
        if skill.id in seen:
            first = seen[skill.id].source
            raise TaxonomyError(f"{skill.source}: id: duplicate skill id {skill.id!r} (first at {first})")
        seen[skill.id] = skill
        family = families.get(skill.family)
        if family is None:
            hint = did_you_mean(skill.family, sorted(families))
            raise TaxonomyError(f"{skill.source}: family: unknown workflow family {skill.family!r}.{hint}")
        problem = family.check_params(skill.params)
        if problem:
            raise TaxonomyError(f"{skill.source}: params: {problem}")


def load_taxonomy(directory: Path | None = None) -> dict[str, Skill]:
    """All skills from every `*.yaml` in `directory` (default: the shipped seed), validated, by id."""
    directory = directory or TAXONOMY_DIR
    files = sorted(directory.glob("*.yaml"))
    if not files:
        raise TaxonomyError(f"{directory}: no *.yaml taxonomy files found; point at the skills_taxonomy folder")
    skills = [skill for path in files for skill in load_file(path)]
    check_against_families(skills, families())
    return {skill.id: skill for skill in sorted(skills, key=lambda s: s.id)}

