"""Nodes every family can use, whatever the app.

`instruction(family, phrasings, natural=())` is the instruction LLM node. A task has one of two registers
(`NodeContext.register`, chosen by the plan: `forge generate --register`):

- `explicit`: a specification. Offline it fills one of the family's `phrasings` (`str.format` over the `facts`
  output of the family's goal node); with a model the prompt is workflows/prompts/instruction.txt.
- `natural`: a user's goal in their own voice (8-40 words, OSWorld's style: "Help me fill the missing values in
  column B with the average"). It names the file or app the way a user would and states every value the rubric
  checks that the initial state does not show, but leaves out menu paths, cell ranges and function names the
  file makes clear. Offline it fills one of `natural` (templates over the same facts); with a model the prompt is
  workflows/prompts/instruction_natural.txt. verifiers/grounding.py proves every checked literal is stated or
  visible in the initial state.

The node's signature is the explicit one's, so a family that gains natural phrasings keeps its package bytes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from kit.dag import Node, NodeContext, llm_node
from kit.errors import WorkflowError
from kit.grammar import article, with_article

#: At least this many offline phrasings per family (in each register it has).
MIN_PHRASINGS = 5

#: The registers an instruction can be written in; the first is the default (and today's packages).
REGISTERS = ("explicit", "natural")

#: family -> its natural phrasings, filled as families are built (import time; tests and the plan read it).
NATURAL: dict[str, tuple[str, ...]] = {}

INSTRUCTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["instruction"],
    "properties": {"instruction": {"type": "string", "minLength": 20, "maxLength": 1200}},
}


class Fact(str):
    """A fact as a phrasing sees it (either register): the same text, plus forms a template may ask for, so a
    template needs no facts of its own (new facts would change the explicit packages' bytes): `{chart.a}` puts
    "a"/"an" before it;
    `{path.file}` is a path's file name ("/home/user/Documents/q3.xlsx" -> "q3.xlsx"); `{what.bare}` drops the
    parenthesized asides a specification adds ("the 'Messages' column (E2:E11)" -> "the 'Messages' column");
    `{action.inline}` is a sentence fact inside a sentence ("Delete the sheet 'X'." -> "delete the sheet 'X'");
    `{rule.first}` is its first sentence (a rule without the clarifications a specification adds); `{where.mine}`
    says a fact written to the user in the user's own words ("in your user settings" -> "in my user settings")."""

    __slots__ = ()

    @property
    def file(self) -> Fact:
        return Fact(self.rstrip("/").rsplit("/", 1)[-1])

    @property
    def inline(self) -> Fact:
        """A sentence fact used inside a sentence: first letter lowered, final period dropped."""
        return Fact((self[:1].lower() + self[1:]).rstrip("."))

    @property
    def a(self) -> str:
        """The fact after its indefinite article, for a value drawn at generation time: "Please add {chart.a}"
        reads "Please add an area chart" and "a bar chart" (`kit.grammar.with_article`)."""
        return with_article(self)

    @property
    def first(self) -> Fact:
        """The first sentence of a fact that explains itself at length (a rule, then its clarifications)."""
        return Fact(re.split(r"(?<=[.;])\s+(?=[A-Z])", self.strip(), maxsplit=1)[0])

    @property
    def a_quoted(self) -> str:
        """The fact in single quotes after its article: "add {label.a_quoted} row" -> "add an 'Averages' row"."""
        return f"{article(self)} '{self}'"

    @property
    def mine(self) -> Fact:
        return Fact(re.sub(r"\byour\b", "my", re.sub(r"\bYour\b", "My", self)))

    @property
    def bare(self) -> Fact:
        return Fact(re.sub(r"\s+([.,;:])", r"\1", re.sub(r"\s*\([^()]*\)", "", self)).strip())


def spoken(facts: Mapping[str, Any]) -> dict[str, Any]:
    """The facts for a template of either register: text facts as `Fact`s, the rest as they are."""
    return {key: Fact(value) if isinstance(value, str) else value for key, value in facts.items()}


def natural_phrasings(family: str) -> tuple[str, ...]:
    """The family's natural phrasings (empty when it has none yet: its tasks are then explicit only)."""
    return NATURAL.get(family, ())


def register_natural(family: str, natural: Sequence[str]) -> None:
    """Record a family's natural phrasings (hand-built workflows with their own instruction node call this)."""
    if natural and len(natural) < MIN_PHRASINGS:
        raise ValueError(f"family {family!r} has {len(natural)} natural phrasings, but needs at least "
                         f"{MIN_PHRASINGS}")
    if natural:
        NATURAL[family] = tuple(natural)


def wants_natural(ctx: NodeContext, family: str) -> bool:
    """Whether this task's instruction is natural; a natural task of a family without natural phrasings is a
    plan error (the plan only gives the natural register to families that have them)."""
    register = ctx.register
    if register not in REGISTERS:
        raise WorkflowError(f"task register {register!r} is not one of {', '.join(REGISTERS)}")
    if register == "natural" and family not in NATURAL:
        raise WorkflowError(f"family {family!r} has no natural phrasings: generate it with --register explicit")
    return register == "natural"


def instruction(family: str, phrasings: Sequence[str], natural: Sequence[str] = ()) -> Node:
    """The instruction LLM node; offline it fills one of `phrasings` (explicit register) or of `natural` (natural
    register), `str.format` over the facts. Without `natural` it is exactly the explicit node."""
    if len(phrasings) < MIN_PHRASINGS:
        raise ValueError(f"family {family!r} has {len(phrasings)} phrasings, but needs at least {MIN_PHRASINGS}")
    register_natural(family, natural)

    def node(templates: Sequence[str], prompt: str) -> Node:
        def offline(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
            if templates is phrasings:
                return {"instruction": rng.choice(list(templates)).format(**spoken(values["facts"]))}
            text = rng.choice(list(templates)).format(**spoken(values["facts"]))
            return {"instruction": " ".join(text.split())}  # an empty optional fact leaves no double space

        return llm_node("instruction", kind="instruction", inputs=("facts",), output="instruction",
                        prompt=prompt, schema=INSTRUCTION_SCHEMA, offline=offline, pick="instruction")

    explicit = node(phrasings, "instruction.txt")
    if not natural:
        return explicit
    voiced = node(natural, "instruction_natural.txt")

    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        return (voiced if wants_natural(ctx, family) else explicit).fn(ctx, values)

    return Node(explicit.name, explicit.kind, explicit.inputs, explicit.outputs, run, explicit.prompt,
                explicit.prompt_fields)
