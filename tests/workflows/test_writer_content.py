"""The Writer content generator, theme data and shared helpers: valid, varied, deterministic documents."""

from __future__ import annotations

import random
import re

import jsonschema
import pytest

from preparers import docx
from workflows.writer import kit as wc
from workflows.writer.content import DOCUMENT_SCHEMA, KINDS, THEME_NAMES, generate_document
from workflows.writer.themes import THEMES

FORBIDDEN = re.compile(r"[-/'%$&\"]")


def _documents(n: int = 120):
    for seed in range(n):
        rng = random.Random(seed)
        yield generate_document(rng, theme=THEME_NAMES[seed % len(THEME_NAMES)], kind=KINDS[seed % len(KINDS)])


def test_documents_fit_the_schema_the_llm_is_given():
    validator = jsonschema.Draft202012Validator(DOCUMENT_SCHEMA)
    for document in _documents():
        assert not list(validator.iter_errors(document)), document["title"]


def test_generation_is_deterministic_and_varied():
    first = generate_document(random.Random(7), theme="it_security", kind="memo")
    assert first == generate_document(random.Random(7), theme="it_security", kind="memo")
    titles = {d["title"] for d in _documents()}
    assert len(titles) > 60


@pytest.mark.parametrize("name", sorted(THEMES))
def test_theme_text_follows_the_house_rules(name):
    theme = THEMES[name]
    sentences = [s for _, pool in theme.sections for s in pool]
    starts = [" ".join(s.split()[:4]) for s in sentences]
    assert len(starts) == len(set(starts)), "two sentences share their first four words"
    lines = sentences + [t for t, details in theme.items for t in (t, *details)]
    assert not [line for line in lines if FORBIDDEN.search(line)]


def test_every_paragraph_of_a_composed_document_has_a_unique_locator():
    for i, document in enumerate(_documents(60)):
        plan = {"folder": "Documents", "paper": "A4", "theme": "", "kind": document["kind"]}
        layout = wc.compose(random.Random(i), document, plan, items=True, table="grid")
        texts = [wc.norm(t) for t in layout.texts()]
        for index in range(len(texts)):
            where = wc.locator(texts, index)
            assert where is not None, texts[index]
            hits = [j for j, t in enumerate(texts) if t.startswith(where)]
            exact = [j for j in hits if texts[j] == where]
            assert (hits if len(hits) == 1 else exact) == [index]  # how docx checks find a paragraph


def test_locator_prefers_short_prefixes_and_gives_up_on_duplicates():
    texts = ["The board approved the plan today.", "The board approved the budget.", "Budget", "Budget"]
    assert wc.locator(texts, 0) == "The board approved the plan"
    assert wc.locator(texts, 2) is None


def test_docx_build_is_byte_reproducible():
    document = next(_documents(1))
    plan = {"folder": "Documents", "paper": "Letter", "theme": "", "kind": document["kind"]}
    spec = wc.compose(random.Random(3), document, plan, table="grid").spec()
    assert docx.build(spec) == docx.build(spec)
