"""writer.record_changes: switch change recording (Edit > Track Changes > Record) on before a document goes out
for review, or off once the review is over.

The setting is w:trackRevisions in the document's settings part; LibreOffice keeps it there on a re-save. A
document that is to stop recording arrives with it on. Nothing else changes, which the frame keeps.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from docx import Document

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Asset, Check
from preparers.office_zip import normalize
from preparers.ops.docx_record import set_recording
from workflows.writer import kit as wc

NAME = "writer.record_changes"
HOW = {"on": ("turn on", "so that every later edit is tracked"), "off": ("turn off", "because the review is finished")}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {how} change recording (Edit > Track Changes > Record) {why}. Do not "
    "change the text, and save the document in place as .docx.",
    "In the document {path}, {how} the recording of changes (Edit > Track Changes > Record), {why}. Keep the "
    "content as it is and save the file in Word format under the same name.",
    "Please {how} Track Changes recording for {path} {why}. Leave everything else untouched and keep the .docx "
    "format when saving.",
    "Using LibreOffice Writer, {how} Edit > Track Changes > Record in {path}. Edit no text; save it as .docx in "
    "place.",
    "Before the next step, {how} change recording in {path} {why}. Save your change to the same .docx file.",
)
NATURAL = (
    "Please {how} change tracking in {path.file} {why}.",
    "Could you {how} Track Changes recording in {path.file}?",
    "Help me {how} the recording of changes in {path.file}, {why}.",
    "In {path.file}, {how} Edit > Track Changes > Record, please.",
    "I need you to {how} change recording in my document {path.file} {why}.",
)


class Params(TypedDict):
    recording: Literal["on", "off"]


@dataclass(frozen=True)
class Target:
    recording: str


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    how, why = HOW[params["recording"]]
    return Goal(layout, {"path": layout.path, "how": how, "why": why}, Target(params["recording"]))


def _recording(data: bytes) -> bytes:
    doc = Document(io.BytesIO(data))
    set_recording(doc, on=True)
    out = io.BytesIO()
    doc.save(out)
    return normalize(out.getvalue())


def prepare(layout: wc.Layout, target: Target) -> Mapping[str, Any]:
    """The document; one that is to stop recording arrives recording (its older copies too)."""
    out = wc.document_outputs(layout)
    if target.recording == "on":
        return out
    return {**out, "assets": [Asset(a.dest, _recording(a.data), app=a.app) for a in out["assets"]]}


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    said = "records every edit as a tracked change" if target.recording == "on" else "no longer records changes"
    return [Check("recording", f"{layout.path} {said} (Edit > Track Changes > Record is {target.recording}).",
                  "docx.recording", {"path": layout.path, "recording": target.recording})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    on = target.recording == "on"
    base = {"op": "docx.set_recording", "path": layout.path}
    title = layout.texts("title")[0]
    tagged = {"op": "docx.replace_text", "path": layout.path, "old": title,
              "new": f"{title} (tracked changes {'on' if on else 'off'})"}
    misses = [
        Attempt("writes the setting but leaves it switched off" if on else "writes the setting but leaves it on",
                [{**base, "on": False, "value": "false" if on else "true"}]),
        Attempt("switches showing changes instead of recording them", [{**base, "on": on, "show": on}]),
        Attempt("notes the state in the title as well", [{**base, "on": on}, tagged]),
    ]
    return Attempts(Attempt(f"turn change recording {target.recording}", [{**base, "on": on}]), misses)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Switch recording of changes (Edit > Track Changes > Record) on or off in a Writer document, "
                "changing no text.",
    knobs={"recording": ("on", "off")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    prepare=prepare_node(prepare),
)
