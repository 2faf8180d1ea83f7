"""Tests for the offline Impress deck generator (workflows.impress.content)."""

from __future__ import annotations

import random
import re

import pytest
from jsonschema import Draft202012Validator

from workflows.impress.content import DECK_SCHEMA, DECKS, SCENARIOS, SPARE_SLIDES, generate_deck

SEEDS = (0, 1, 2, 7, 42, 1234)


def _texts(deck: dict) -> list[str]:
    out = [deck["title"], deck["subtitle"], deck["author"], deck["table"]["title"], *deck["table"]["header"]]
    for slide in deck["slides"] + deck["spare"]:
        out += [slide["title"], slide["notes"], *slide["bullets"], *slide["extra"]]
    return out + [c for row in deck["table"]["rows"] for c in row]


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", SEEDS)
def test_decks_fit_the_schema_and_read_as_real_text(scenario, seed):
    n = random.Random(seed).randint(3, len(DECKS[scenario].slides) - SPARE_SLIDES)
    deck = generate_deck(random.Random(seed), scenario=scenario, n_slides=n)
    Draft202012Validator(DECK_SCHEMA).validate(deck)
    assert len(deck["slides"]) == n and len(deck["spare"]) == SPARE_SLIDES
    titles = [deck["title"], deck["table"]["title"]] + [s["title"] for s in deck["slides"] + deck["spare"]]
    assert len({t.casefold() for t in titles}) == len(titles), titles
    for slide in deck["slides"] + deck["spare"]:
        assert 4 <= len(slide["bullets"]) <= 5
        assert len(set(slide["bullets"] + slide["extra"])) == len(slide["bullets"]) + len(slide["extra"])
    for text in _texts(deck):
        assert not re.search(r"['\"{}]|\s\s", text), text
        assert text == text.strip()
    assert len(set(deck["images"])) == 2


def test_same_rng_same_deck_and_seeds_vary_it():
    first = generate_deck(random.Random(5), scenario="onboarding", n_slides=5)
    assert first == generate_deck(random.Random(5), scenario="onboarding", n_slides=5)
    others = {generate_deck(random.Random(s), scenario="onboarding", n_slides=5)["file_stem"] + str(
        generate_deck(random.Random(s), scenario="onboarding", n_slides=5)["slides"][0]) for s in range(12)}
    assert len(others) > 6


def test_fields_agree_across_slides():
    deck = generate_deck(random.Random(3), scenario="product_launch", n_slides=7)
    products = {p for p in ("Atlas CRM", "Nimbus Sync", "Pulse Tracker", "Harbor Pay", "Vertex Studio", "Beacon Desk",
                            "Flowboard", "Ledgerly", "Quill Docs", "Sparrow Chat") if p in " ".join(_texts(deck))}
    assert len(products) == 1


def test_bad_arguments_name_the_field():
    with pytest.raises(ValueError, match="scenario='nope'"):
        generate_deck(random.Random(1), scenario="nope", n_slides=4)
    with pytest.raises(ValueError, match="n_slides=12"):
        generate_deck(random.Random(1), scenario="onboarding", n_slides=12)
