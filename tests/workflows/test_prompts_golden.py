"""Golden tests for rendered prompts: every prompt template, rendered for one fixed task, exactly as sent.

A change to a template, to a family's sample node or to the messages Forge builds shows up here as a diff.
After an intended change, regenerate the files and review them like code:

    FORGE_UPDATE_GOLDEN=1 python3 -m pytest -q tests/workflows/test_prompts_golden.py
"""

from __future__ import annotations

import os
import random
from functools import cache
from pathlib import Path

import pytest

from forge.llm.messages import build_messages
from kit.dag import PROMPTS_DIR, NodeContext
from kit.llm import LLMRequest, LLMResponse, OfflineBackend, Repair
from kit.taxonomy import load_taxonomy
from workflows import families

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("FORGE_UPDATE_GOLDEN") == "1"
taxonomy = cache(load_taxonomy)


class _Recording(OfflineBackend):
    def __init__(self) -> None:
        self.requests: list[LLMRequest] = []

    def complete(self, request: LLMRequest) -> LLMResponse:
        self.requests.append(request)
        return super().complete(request)


def _cases() -> dict[str, tuple[str, str]]:
    """template -> (family, skill): the first family (by name) using each template, with its first skill."""
    skills = sorted(taxonomy().values(), key=lambda s: s.id)
    cases: dict[str, tuple[str, str]] = {}
    for name, workflow in sorted(families().items()):
        skill = next((s for s in skills if s.family == name), None)
        for node in workflow.nodes:
            if node.prompt and skill is not None:
                cases.setdefault(node.prompt if node.prompt != "instruction.txt" else f"instruction.{skill.app}",
                                 (name, skill.id))
    return cases


CASES = _cases()


def render(family: str, skill_id: str, template: str, register: str = "explicit") -> str:
    skill = taxonomy()[skill_id]
    backend = _Recording()
    families()[family].run(NodeContext(skill.params, 1, skill.id, 0, backend, register=register))
    node = "instruction" if template.startswith("instruction.") else "content"
    request = next(r for r in backend.requests if r.node == node)
    parts = [f"# {family} / {skill_id} / seed 1 / index 0 / node {node}"]
    for message in build_messages(request, "json_schema"):
        parts.append(f"--- {message['role']}\n{message['content']}")
    return "\n".join(parts) + "\n"


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing; run FORGE_UPDATE_GOLDEN=1 python3 -m pytest {__file__}"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; if intended, regenerate (see module doc)"


def test_every_template_has_a_golden_case():
    used = {t for t in CASES if not t.startswith("instruction.")} | {"instruction.txt", "instruction_natural.txt",
                                                                      "judge.txt"}
    assert used == {p.name for p in PROMPTS_DIR.glob("*.txt")}


@pytest.mark.parametrize("template", sorted(CASES))
def test_rendered_prompt_matches_golden(template):
    family, skill_id = CASES[template]
    check(f"{template.removesuffix('.txt')}.txt", render(family, skill_id, template))


def test_natural_register_prompt_matches_golden():
    """instruction_natural.txt is chosen per task (the natural register), not named by a node: one Calc task's."""
    family, skill_id = CASES["instruction.libreoffice_calc"]
    check("instruction_natural.txt", render(family, skill_id, "instruction.", register="natural"))


def test_repair_request_quotes_the_answer_and_the_problem():
    request = LLMRequest("content", "Write a table.", {"type": "object"}, lambda rng: {}, random.Random(0),
                         Repair('{"rows": [1, 2', "answer is not JSON (Expecting ',' delimiter: line 1 column 14)"))
    text = "\n".join(f"--- {m['role']}\n{m['content']}" for m in build_messages(request, "json_object")) + "\n"
    check("repair.txt", text)


def test_judge_prompt_matches_golden():
    from verifiers.gate.judge import NODE

    backend = _Recording()
    skill = taxonomy()["calc.sort.numeric_desc"]
    task = {"instruction": "Sort the rows of /home/user/Documents/sales.xlsx by Amount, largest first, and save.",
            "criteria": ["sales.xlsx: rows sorted by Amount, descending", "sales.xlsx: still an xlsx workbook"]}
    NODE.fn(NodeContext(skill.params, 1, skill.id, 0, backend), task)
    text = "\n".join(f"--- {m['role']}\n{m['content']}" for m in build_messages(backend.requests[0], "json_schema"))
    check("judge.txt", text + "\n")
