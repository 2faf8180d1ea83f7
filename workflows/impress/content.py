"""Offline generator for the Impress "content" LLM node: a realistic business deck.

`generate_deck` returns plain JSON of the shape `DECK_SCHEMA` describes, so a model can be asked for the
same thing (prompt: workflows/prompts/impress_content.txt). A deck has a cover (title, subtitle), `n_slides`
content slides (title, 4 bullets, spare `extra` bullets of the same topic, speaker notes), 3 `spare`
slides of the same scenario that are not in the deck (titles and bullets for new slides), a small table
(header + 4 rows) and two picture file stems. Fields such as company, period and people are drawn once per
deck, so the texts agree with each other. All randomness comes from the caller's `random.Random`.
"""

from __future__ import annotations

import random
from typing import Any

from kit.dag import fields_sketch
from workflows.answer_checks import first_problem, guarded, unique
from workflows.calc.content import FIRST_NAMES, LAST_NAMES
from workflows.impress.decks_a import DECKS_A, DeckDef, SlideDef
from workflows.impress.decks_b import DECKS_B

DECKS: dict[str, DeckDef] = {d.name: d for d in (*DECKS_A, *DECKS_B)}
SCENARIOS = tuple(sorted(DECKS))
SPARE_SLIDES = 3
TABLE_ROWS = 4

COMPANIES = ("Northwind Traders", "Bluepeak Analytics", "Lumen Health", "Orbit Logistics", "Cobalt Systems",
             "Greenleaf Foods", "Harborview Insurance", "Silverline Media", "Crescent Energy", "Pinecrest Software",
             "Redwood Retail", "Summit Credit Union")
PRODUCTS = ("Atlas CRM", "Nimbus Sync", "Pulse Tracker", "Harbor Pay", "Vertex Studio", "Beacon Desk", "Flowboard",
            "Ledgerly", "Quill Docs", "Sparrow Chat")
PROJECTS = ("Phoenix", "Atlas", "Horizon", "Beacon", "Keystone", "Meridian", "Northstar", "Catalyst")
REGIONS = ("North America", "EMEA", "APAC", "Latin America", "Benelux", "Central Europe")
CITIES = ("Chicago", "Toronto", "Dublin", "Singapore", "Austin", "Berlin", "Madrid", "Sydney", "Denver", "Lisbon")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
TEAMS = ("Operations", "Engineering", "Customer Success", "Finance", "Marketing", "IT Services")

_TEXT = {"type": "string", "minLength": 2, "maxLength": 120}
_TEXTS = {"type": "array", "items": _TEXT, "uniqueItems": True}
_SLIDE = {
    "type": "object", "additionalProperties": False, "required": ["title", "bullets", "extra", "notes"],
    "properties": {"title": _TEXT, "bullets": {**_TEXTS, "minItems": 4, "maxItems": 6},
                   "extra": {**_TEXTS, "minItems": 2, "maxItems": 4}, "notes": _TEXT},
}
#: What a model is asked to write (`fields_sketch`): the deck itself; the spare slides (new-slide material), the
#: table and the picture names come from the scenario's templates.
DECK_ASK = ("title", "subtitle", "author", "file_stem", "slides")
DECK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["scenario", "title", "subtitle", "author", "file_stem", "slides", "spare", "table", "images"],
    "properties": {
        "scenario": {"type": "string"},
        "title": _TEXT,
        "subtitle": _TEXT,
        "author": _TEXT,
        "file_stem": {"type": "string", "pattern": "^[a-z0-9_]{3,60}$"},
        "slides": {"type": "array", "minItems": 3, "maxItems": 9, "items": _SLIDE},
        "spare": {"type": "array", "minItems": SPARE_SLIDES, "maxItems": SPARE_SLIDES, "items": _SLIDE},
        "table": {
            "type": "object", "additionalProperties": False, "required": ["title", "header", "rows"],
            "properties": {"title": _TEXT, "header": {**_TEXTS, "minItems": 4, "maxItems": 4},
                           "rows": {"type": "array", "minItems": TABLE_ROWS, "maxItems": TABLE_ROWS,
                                    "items": {"type": "array", "minItems": 4, "maxItems": 4,
                                              "items": {"type": "string", "minLength": 1, "maxLength": 40}}}},
        },
        "images": {"type": "array", "minItems": 2, "maxItems": 2,
                   "items": {"type": "string", "pattern": "^[a-z0-9_]{3,40}$"}},
    },
}
DECK_SKETCH = fields_sketch(DECK_SCHEMA, DECK_ASK)


def _slug(text: str) -> str:
    return "_".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def fields(rng: random.Random) -> dict[str, str]:
    """The facts one deck shares: who, what, when, and a few numbers."""
    year = rng.choice((2023, 2024, 2025, 2026))
    quarter = rng.randint(1, 4)
    month = rng.choice(MONTHS)
    company, product, project, team = (rng.choice(p) for p in (COMPANIES, PRODUCTS, PROJECTS, TEAMS))
    region, region2 = rng.sample(REGIONS, 2)
    people: list[str] = []
    while len(people) < 3:
        name = _person(rng)
        if name not in people:
            people.append(name)
    pcts = rng.sample(range(3, 39), 4)
    money = rng.sample(range(12, 97), 3)
    counts = rng.sample(range(12, 240), 3)
    values = {
        "company": company, "company_slug": _slug(company.split()[0]), "product": product,
        "product_slug": _slug(product), "project": project, "project_slug": _slug(project), "team": team,
        "team_slug": _slug(team), "year": str(year), "next_year": str(year + 1), "period": f"Q{quarter} {year}",
        "next_period": f"Q{quarter % 4 + 1} {year + (quarter == 4)}", "slug": f"q{quarter}_{year}",
        "month": month, "month_slug": month.lower(), "weekday": rng.choice(WEEKDAYS),
        "day": f"{rng.choice(MONTHS)} {rng.randint(3, 27)}", "city": rng.choice(CITIES), "region": region,
        "region2": region2, "nrr": f"{rng.randint(104, 128)}%", "nps": str(rng.randint(32, 71)),
        "price": f"${rng.choice((9, 12, 15, 19, 24, 29))}", "budget": rng.choice(("$1,000", "$1,500", "$2,000")),
        "pct_small": f"{rng.randint(3, 6)}%", "hires": str(rng.randint(6, 40)), "churn": f"{rng.randint(2, 9)}%",
    }
    values |= {f"person{i}": p for i, p in enumerate(people, start=1)}
    values |= {f"pct{i}": f"{p}%" for i, p in enumerate(pcts, start=1)}
    values |= {f"money{i}": f"${m / 10:.1f}M" for i, m in enumerate(money, start=1)}
    values |= {f"count{i}": str(c) for i, c in enumerate(counts, start=1)}
    return values


def _slide(rng: random.Random, spec: SlideDef, facts: dict[str, str]) -> dict[str, Any]:
    bullets = [b.format(**facts) for b in spec.bullets]
    shown = sorted(rng.sample(range(len(bullets)), 4))  # four 32 pt bullets fit a 4:3 content box
    return {"title": rng.choice(spec.titles).format(**facts), "bullets": [bullets[i] for i in shown],
            "extra": [b for i, b in enumerate(bullets) if i not in shown],
            "notes": rng.choice(spec.notes).format(**facts)}


def _cell(rng: random.Random, kind: str | tuple[str, ...]) -> str:
    if isinstance(kind, tuple):
        return rng.choice(kind)
    if kind == "money":
        return f"${rng.randint(40, 980)}K"
    if kind == "pct":
        return f"{rng.randint(5, 95)}%"
    if kind == "int":
        return str(rng.randint(3, 480))
    if kind == "price":
        return f"${rng.randint(18, 260)}"
    if kind == "date":
        return f"{rng.choice(MONTHS)[:3]} {rng.randint(1, 28)}"
    if kind == "person":
        return _person(rng)
    raise ValueError(f"table column kind={kind!r} is unknown")


def _table(rng: random.Random, deck: DeckDef, facts: dict[str, str]) -> dict[str, Any]:
    if deck.table_labels == ("person",):
        labels: list[str] = []
        while len(labels) < TABLE_ROWS:
            name = _person(rng)
            if name not in labels:
                labels.append(name)
    else:
        labels = [deck.table_labels[i] for i in sorted(rng.sample(range(len(deck.table_labels)), TABLE_ROWS))]
    rows = [[label, *(_cell(rng, kind) for kind in deck.table_columns)] for label in labels]
    return {"title": rng.choice(deck.table_titles).format(**facts), "header": list(deck.table_header), "rows": rows}


def generate_deck(rng: random.Random, *, scenario: str, n_slides: int) -> dict[str, Any]:
    """One deck of `scenario` with `n_slides` content slides (plus cover), JSON-shaped like `DECK_SCHEMA`."""
    if scenario not in DECKS:
        raise ValueError(f"scenario={scenario!r}, but must be one of {list(SCENARIOS)}")
    deck = DECKS[scenario]
    if not 3 <= n_slides <= len(deck.slides) - SPARE_SLIDES:
        raise ValueError(f"n_slides={n_slides}, but must be 3..{len(deck.slides) - SPARE_SLIDES}")
    facts = fields(rng)
    chosen = sorted(rng.sample(range(len(deck.slides)), n_slides + SPARE_SLIDES))
    in_deck = set(rng.sample(chosen, n_slides))
    slides = [_slide(rng, deck.slides[i], facts) for i in chosen]
    return {
        "scenario": scenario,
        "title": rng.choice(deck.titles).format(**facts),
        "subtitle": rng.choice(deck.subtitles).format(**facts),
        "author": facts["person1"],
        "file_stem": _slug(rng.choice(deck.stems).format(**facts)),
        "slides": [s for i, s in zip(chosen, slides, strict=True) if i in in_deck],
        "spare": [s for i, s in zip(chosen, slides, strict=True) if i not in in_deck],
        "table": _table(rng, deck, facts),
        "images": rng.sample(deck.images, 2),
    }


@guarded("deck")
def check_deck(deck: Any, values: Any = None) -> str:
    """'' when a model's deck suits every Impress family: slide titles unique across the deck and the spare
    slides (tasks move, delete and retitle slides by title), unique picture names, table column names and first
    column, and bullets unique within each slide."""
    slides = [*deck["slides"], *deck["spare"]]
    table = deck["table"]
    return first_problem(
        unique([deck["title"], *(s["title"] for s in slides)], "slide titles (cover included)"),
        unique(deck["images"], "picture file names"),
        unique(table["header"], "table column names"),
        unique([r[0] for r in table["rows"]], "the table's first column"),
        *(unique(s["bullets"], f"bullets of slide {s['title']!r}") for s in slides))
