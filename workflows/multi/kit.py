"""Nodes and helpers shared by the multi-app families (`multi.*`): compositions of the single-app pieces.

A multi-app family draws its initial state from several apps at once, so it reuses each app's own nodes
rather than copying them:
- `source_nodes(**parts)`: `sample` asks each part's own sample node for a sub-plan (run in a context of its
  own, so the parts draw independent random streams) and the `content` LLM node (prompt multi_content.txt)
  asks for every part at once; offline each part comes from its app's generator. Parts: `table` (Calc),
  `mailbox` (Thunderbird), `document` (Writer), `deck` (Impress), `bookmarks` (Chrome), `project` (VS Code),
  `pool` (files), `picture` (GIMP), and `people` (a contact list, from `workflows.multi.content`).
- `prepare` turns the goal node's `Setup` — a list of pieces such as ("calc", Layout), ("tb", ProfileSpec) —
  into assets with each app's own prepare code, and launches the app the task starts in.
Helpers build mail (messages with attachments, a profile around them), tables as checks compare them, and
op dicts for solutions.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email.utils import formataddr
from typing import Any

from kit.axes import span
from kit.dag import Node, NodeContext, llm_node, node, parts_sketch
from kit.family import AppKit
from kit.model import Asset
from preparers import thunderbird as tb
from verifiers.grounding import leaks
from workflows.calc import kit as cc
from workflows.calc.content import CONTENT_SCHEMA as TABLE_SCHEMA
from workflows.calc.content import check_table, generate_table
from workflows.chrome import kit as chc
from workflows.chrome.content import CONTENT_SCHEMA as BOOKMARKS_SCHEMA
from workflows.chrome.content import check_profile, generate_profile
from workflows.common import instruction
from workflows.frame_tb import tb_frame_node
from workflows.gimp import kit as gc
from workflows.gimp.content import PICTURE_SCHEMA, generate_picture
from workflows.impress import kit as ic
from workflows.impress.content import DECK_SCHEMA, DECK_SKETCH, check_deck, generate_deck
from workflows.multi.content import (
    PEOPLE_SCHEMA,
    REPORT_FOLDERS,
    dated_before,
    generate_people,
    local_part,
    part_prompts,
    person,
    report,
)
from workflows.os import kit as oc
from workflows.os.content import POOL_SCHEMA, POOL_SKETCH, check_pool, generate_pool
from workflows.tb import kit as tc
from workflows.tb.content import MAILBOX_SCHEMA, MAILBOX_SKETCH, check_mailbox, generate_mailbox
from workflows.teacher import teacher_node
from workflows.vscode import kit as vsc
from workflows.vscode.content import CONTENT_SCHEMA as PROJECT_SCHEMA
from workflows.vscode.content import generate_project
from workflows.writer import kit as wc
from workflows.writer.content import DOCUMENT_SCHEMA, DOCUMENT_SKETCH, check_document, generate_document

#: re-exported: families call mc.instruction(...), mc.person(...), mc.report(...), mc.dated_before(...)
__all__ = ["REPORT_FOLDERS", "dated_before", "instruction", "local_part", "person", "report"]

APP = "multi_apps"
CALC, WRITER, IMPRESS = cc.APP, wc.APP, ic.APP
TB, OS, CHROME, VSCODE, GIMP = tc.APP, oc.APP, chc.APP, vsc.APP, gc.APP

Planner = Callable[[NodeContext, Mapping[str, Any]], dict[str, Any]]
#: What a family asks of one content part: its app's sample params, or a function of the family's params giving them
PartParams = Mapping[str, Any] | Callable[[Mapping[str, Any]], Mapping[str, Any]]


def _picture_plan(ctx: NodeContext, params: Mapping[str, Any]) -> dict[str, Any]:
    kinds = tuple(params.get("kinds", ("landscape", "cityscape", "beach", "product")))
    nodes = gc.source_nodes(kinds, lambda p: str(p.get("fmt", "png")))
    return dict(nodes[0].fn(ctx, {"params": dict(params)})["plan"])


def _people_plan(ctx: NodeContext, params: Mapping[str, Any]) -> dict[str, Any]:
    rng = ctx.rng("sample")
    low, high = span(params.get("records", "7-10"))  # the `records` axis of multi.sheet_contacts
    return {"n": rng.randint(low, high), "year": rng.choice((2023, 2024, 2025))}


#: part -> (its sample node's plan, its JSON schema, its offline generator)
PARTS: dict[str, tuple[Planner, dict[str, Any], Callable[[random.Random, Mapping[str, Any]], dict[str, Any]]]] = {
    "table": (lambda ctx, p: dict(cc.sample.fn(ctx, {"params": p})["plan"]), TABLE_SCHEMA,
              lambda rng, plan: generate_table(rng, n_rows=plan["n_rows"], scenario=plan["scenario"])),
    "mailbox": (lambda ctx, p: dict(tc.sample.fn(ctx, {"params": p})["plan"]), MAILBOX_SCHEMA,
                lambda rng, plan: generate_mailbox(rng, dict(plan))),
    "document": (lambda ctx, p: dict(wc.sample.fn(ctx, {"params": p})["plan"]), DOCUMENT_SCHEMA,
                 lambda rng, plan: generate_document(rng, theme=plan["theme"], kind=plan["kind"])),
    "deck": (lambda ctx, p: dict(ic.sample.fn(ctx, {"params": p})["plan"]), DECK_SCHEMA,
             lambda rng, plan: generate_deck(rng, scenario=plan["scenario"], n_slides=plan["n_slides"])),
    "bookmarks": (lambda ctx, p: dict(chc.sample.fn(ctx, {"params": p})["plan"]), BOOKMARKS_SCHEMA,
                  lambda rng, plan: generate_profile(rng, persona=plan["persona"], n_folders=plan["n_folders"])),
    "project": (lambda ctx, p: dict(vsc.sample.fn(ctx, {"params": p})["plan"]), PROJECT_SCHEMA,
                lambda rng, plan: generate_project(rng, language=plan["language"])),
    "pool": (lambda ctx, p: dict(oc.sample.fn(ctx, {"params": p})["plan"]), POOL_SCHEMA,
             lambda rng, plan: generate_pool(rng, plan["scenario"])),
    "picture": (_picture_plan, PICTURE_SCHEMA, generate_picture),
    "people": (_people_plan, PEOPLE_SCHEMA, generate_people),
}


#: part -> its app's content check (kit.dag.ContentCheck), for the parts whose families need one.
#: part -> what a model writes of it (the rest comes from the part's generator); parts not listed are written whole
SKETCHES = {"mailbox": MAILBOX_SKETCH, "pool": POOL_SKETCH, "deck": DECK_SKETCH, "document": DOCUMENT_SKETCH}
CHECKS = {"table": check_table, "mailbox": check_mailbox, "document": check_document, "deck": check_deck,
          "bookmarks": check_profile, "pool": check_pool}


def _part_context(ctx: NodeContext, part: str) -> NodeContext:
    """A context whose streams differ from the task's own ones, so two parts never share random draws."""
    return NodeContext(ctx.params, ctx.run_seed, f"{ctx.skill_id}|{part}", ctx.index, ctx.backend)


def source_nodes(**parts: Mapping[str, Any] | Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> tuple[Node, ...]:
    """sample -> content for the named parts; each value is the params its app's sample node gets (or a function
    of the family's params giving them), e.g. `source_nodes(table={}, mailbox={"kind": "pdf"})`."""
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise ValueError(f"unknown content parts {unknown}; known: {sorted(PARTS)}")

    @node("sample", "sample", ("params",), ("plan",))
    def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        plan = {}
        for name, given in parts.items():
            params = dict(given(values["params"]) if callable(given) else given)
            plan[name] = PARTS[name][0](_part_context(ctx, name), params)
        return {"plan": plan}

    schema = {"type": "object", "additionalProperties": False, "required": sorted(parts),
              "properties": {name: PARTS[name][1] for name in parts}}

    def offline(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
        return {name: PARTS[name][2](rng, values["plan"][name]) for name in parts}

    def check(answer: Any, values: Mapping[str, Any]) -> str:
        """The owning app's content check for each part that has one (a table, a mailbox)."""
        for name in parts:
            problem = CHECKS[name](answer[name], values) if name in CHECKS else ""
            if problem:
                return f"{name}: {problem}"
        return ""

    content = llm_node("content", kind="llm", inputs=("plan",), output="content", prompt="multi_content.txt",
                       schema=schema, offline=offline, check=check, fields={"parts": part_prompts(sorted(parts))},
                       sketch=parts_sketch(schema, {name: SKETCHES[name] for name in parts if name in SKETCHES}))
    return (sample, content)


# --- the initial state ----------------------------------------------------------------------------------

#: piece kind -> the owning app's prepare code: value -> {"assets", "launch"}
PIECES: dict[str, Callable[[NodeContext, Any], Mapping[str, Any]]] = {
    "calc": lambda ctx, layout: cc.prepare.fn(ctx, {"layout": layout}),
    "writer": lambda ctx, layout: wc.document_outputs(layout),
    "impress": lambda ctx, deck: ic.deck_outputs(deck),
    "tb": lambda ctx, spec: tc.prepare.fn(ctx, {"spec": spec}),
    "chrome": lambda ctx, profile: chc.prepare.fn(ctx, {"profile": profile}),
    "vscode": lambda ctx, ws: vsc.prepare.fn(ctx, {"workspace": ws}),
    "tree": lambda ctx, specs: oc.prepare.fn(ctx, {"tree": list(specs)}),
    "files": lambda ctx, assets: {"assets": list(assets), "launch": []},
}


@dataclass(frozen=True)
class Setup:
    """The initial state as app pieces, e.g. (("tb", spec), ("calc", layout)); `launch` overrides the command of
    the first piece (the app the task starts in)."""

    pieces: tuple[tuple[str, Any], ...]
    launch: tuple[str, ...] = ()


@node("prepare", "prepare", ("setup",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    setup: Setup = values["setup"]
    assets: list[Asset] = []
    launch: list[str] = list(setup.launch)
    for kind, value in setup.pieces:
        out = PIECES[kind](ctx, value)
        assets += out["assets"]
        launch = launch or list(out["launch"])
    dests = [a.dest for a in assets]
    clash = sorted({d for d in dests if dests.count(d) > 1})
    if clash:
        raise ValueError(f"two pieces of the setup write {clash}")
    return {"assets": assets, "launch": launch}


def app_kit(apps: Sequence[str], **parts: PartParams) -> AppKit:
    """The kit of one multi-app family (`kit.family.family(NAME, mc.app_kit(...), ...)`): the apps its tasks
    open and the content parts it draws (`source_nodes(**parts)`); its goal returns a `Setup` as the state."""
    return AppKit(apps=tuple(apps), source=lambda: source_nodes(**parts), state="setup", prepare=prepare,
                  instruction=instruction, frame=tb_frame_node, teacher=teacher_node)


def passing(*axes: str, renamed: Mapping[str, str] | None = None, **fixed: Any
            ) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A content part's params (for `app_kit(..., table=passing("rows"))`): `fixed` plus the family's levels of
    `axes`, which the part's own app kit honours (the Calc kit's `rows`, the Writer kit's `location`...), under the
    name `renamed` gives (family axis -> the kit's axis; for a family whose knob already has the kit's name). An
    axis the skill does not name stays out, so the part's sample node draws exactly what it drew before the axis."""
    names = dict(renamed or {})
    return lambda params: {**fixed, **{names.get(axis, axis): params[axis] for axis in axes if axis in params}}


#: The difficulty axes (issue 15) the multi-app families share, each with the levels of the app kit that honours
#: it, default first: the rows of a Calc table (workflows.calc.kit), the messages of the background mailbox
#: (workflows.tb.kit), how deep a file sits (kit.axes.LOCATION) and older copies beside it.
ROWS = ("8-16", "20-28", "32-40")
MESSAGES = ("18-26", "28-34", "36-40")
NOISE = ("none", "some", "many")
#: How many extra look-alikes each `noise` level adds to what a family already has.
EXTRA = {"none": 0, "some": 1, "many": 2}


# --- mail -------------------------------------------------------------------------------------------------

def message(plan: Mapping[str, Any], sender: tuple[str, str], subject: str, body: str, when: dt.datetime,
            attachments: Sequence[tb.Attachment] = (), read: bool = False) -> tb.Message:
    """A message to the mailbox owner from `sender` = (display name, address); its Message-ID derives from it."""
    owner = plan["owner"]
    digest = hashlib.sha256(f"{plan['profile']}|{subject}|{when.isoformat()}|{sender[1]}".encode()).hexdigest()
    return tb.Message(message_id=f"{digest[:20]}@{sender[1].rpartition('@')[2]}", sender=formataddr(sender),
                      to=formataddr((f"{owner['first']} {owner['last']}", owner["email"])), subject=subject,
                      date=when, body=body, read=read, attachments=tuple(attachments))


def dates_between(msgs: Sequence[tb.Message], rng: random.Random, k: int) -> list[dt.datetime]:
    """`k` distinct, ascending times inside the mailbox's window, in its time zone, none equal to a message's."""
    ordered = sorted(m.date for m in msgs)
    taken = {d.replace(second=0) for d in ordered}
    out: set[dt.datetime] = set()
    while len(out) < k:
        base = ordered[rng.randrange(len(ordered) // 3, len(ordered))]
        when = (base + dt.timedelta(hours=rng.randint(1, 30), minutes=rng.randint(0, 59))).replace(second=0)
        if when not in taken:
            out.add(when)
    return sorted(out)


def mail_profile(rng: random.Random, plan: Mapping[str, Any], background: Sequence[tb.Message],
                 added: Sequence[tb.Message], *, source: str = "Inbox", others: Mapping[str, Sequence[tb.Message]]
                 | None = None, avoid: Sequence[str] = ()) -> tb.ProfileSpec:
    """A profile: the background mailbox spread over folders (`tb_common.layout`), the `added` messages all in
    `source`, and `others` (folder -> messages) added to the folders named."""
    msgs = [*background, *added]
    folders = tc.layout(rng, msgs, source=source, keep=[m.message_id for m in added], avoid=avoid)
    for folder, extra in (others or {}).items():
        folders.setdefault(folder, []).extend(extra)
    return tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, background))


def mail_date(when: dt.datetime) -> str:
    return f"{when:%Y-%m-%d}"


# --- tables -------------------------------------------------------------------------------------------------

def cell_value(value: Any) -> Any:
    """A cell as check args carry it: dates as ISO text, money rounded to cents, the rest as is."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 2)
    return value


def table_values(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    return [[cell_value(v) for v in row] for row in rows]


def csv_bytes(header: Sequence[str], rows: Sequence[Sequence[Any]], delimiter: str = ",") -> bytes:
    """A CSV as exports write it: a header line, ISO dates, money with two decimals, LF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([f"{v:.2f}" if isinstance(v, float) else cell_value(v) for v in row])
    return out.getvalue().encode("utf-8")


def shown(value: Any, kind: str) -> str:
    """A cell as Calc displays it with the family's number formats (what a copy-paste carries)."""
    if kind == "money":
        return f"{value:,.2f}"
    if kind == "number":
        return f"{value:.1f}"
    return str(cell_value(value))


def sort_rows(rows: Sequence[Sequence[Any]], column: int, descending: bool) -> list[list[Any]]:
    def key(row: Sequence[Any]) -> Any:
        value = row[column]
        return (0, value) if isinstance(value, int | float) else (1, str(value).casefold())

    return [list(r) for r in sorted(rows, key=key, reverse=descending)]


def clean_of(facts: Mapping[str, Any], *answers: Any) -> bool:
    """True when no fact reveals any of the secret `answers` (phrasings carry no digits of their own)."""
    text = " ".join(str(v) for v in facts.values())
    return not any(leaks(text, a) for a in answers)


def join_and(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]


def quoted(items: Sequence[str]) -> str:
    return join_and([f"'{i}'" for i in items])


def op(name: str, path: str, **args: Any) -> dict[str, Any]:
    """One edit op of a solution."""
    return {"op": name, "path": path, **args}
