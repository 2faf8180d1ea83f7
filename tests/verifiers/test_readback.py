"""The model read-back stage: a model that reads the instruction alone must agree with the rubric's goal arguments.

Offline the extractor answers (it agrees with every generated task); against a real chat-completions server on
loopback (the real openai client), a model that understands another value fails grounding naming the argument,
and an unusable answer is reported without failing the task."""

from __future__ import annotations

import json

import pytest

from kit.dag import NodeContext
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.package import build_package
from kit.taxonomy import load_taxonomy
from tests.forge.test_llm_backend import backend
from tests.llmserver import LLMServer, Reply
from verifiers.gate.readback import questions, read_back
from verifiers.roundtrip import Ungrounded
from workflows import get_family

SKILLS = ["calc.sort.numeric_desc", "calc.cond_format.greater_than", "calc.chart.bar", "writer.align.body_center",
          "tb.filter.from_move_save_only", "gimp.rotate.rotate_cw_png", "impress.add_slide.title_content_last"]


def task_of(skill_id: str, seed: int = 1) -> dict:
    skill = load_taxonomy()[skill_id]
    workflow = get_family(skill.family)
    ctx = NodeContext(skill.params, seed, skill.id, 0, OfflineBackend())
    files = build_package(TaskId(skill.id, seed, 0), skill, workflow, workflow.run(ctx), ctx.calls).files
    return json.loads(files["task.json"])


@pytest.mark.parametrize("skill_id", SKILLS)
def test_the_offline_reader_agrees_with_every_generated_task(skill_id):
    for seed in (1, 2, 3):
        task = task_of(skill_id, seed)
        evidence, _ = read_back(task["instruction"], task["rubric"], OfflineBackend())
        assert "read as the rubric checks them" in evidence or "no goal argument" in evidence, evidence


def _answering(answers: dict[str, str]):
    return lambda body: Reply(json.dumps({"answers": answers}))


def test_a_model_that_reads_another_value_fails_naming_the_argument():
    task = task_of("calc.sort.numeric_desc")
    (question,) = [q for q in questions(task["rubric"]) if q.domain == "order"]
    assert question.want == "desc"
    with LLMServer(_answering({question.key: "asc"})) as server:
        with pytest.raises(Ungrounded, match=r"descending stands for 'desc'.*understood 'asc'"):
            read_back(task["instruction"], task["rubric"], backend(server))
        assert server.served.requests == 1


def test_a_model_that_agrees_or_cannot_tell_passes_and_says_how_much_it_read():
    task = task_of("calc.sort.numeric_desc")
    asked = questions(task["rubric"])
    with LLMServer(_answering({q.key: q.want for q in asked})) as server:
        assert "1 of 1 goal arguments" in read_back(task["instruction"], task["rubric"], backend(server))[0]
    with LLMServer(_answering({q.key: "unknown" for q in asked})) as server:
        assert "0 of 1 goal arguments" in read_back(task["instruction"], task["rubric"], backend(server))[0]


@pytest.mark.parametrize("content", ["I think it is sorted descending.", '{"answers": {"q1": "sideways"}}', "{}"])
def test_an_unusable_answer_is_reported_and_judges_nothing(content):
    task = task_of("calc.sort.numeric_desc")
    with LLMServer(lambda body: Reply(content)) as server:
        evidence, calls = read_back(task["instruction"], task["rubric"], backend(server))
    assert "not judged" in evidence and [c.node for c in calls] == ["readback"]
