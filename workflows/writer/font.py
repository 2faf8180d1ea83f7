"""writer.font: character formatting (font, size, bold, italic, underline) on the title, a body paragraph, or a
phrase inside one. The rest of the paragraph and the other body paragraphs must not take the formatting."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.writer import kit as wc

NAME = "writer.font"
FONTS = ("Liberation Serif", "Liberation Sans", "DejaVu Sans", "Georgia", "Courier New", "Verdana",
         "Times New Roman", "Liberation Mono")
SIZES = {"title": (20, 22, 24, 28, 32), "body": (12, 14, 16, 18)}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {task}. Change nothing else, then save the document in place as .docx.",
    "In the document {path}, {task}. Keep the other text as it is and save the file in Word format under the same "
    "name.",
    "Please {task} in {path}. Only that text should change; save it as .docx when done.",
    "Using the formatting toolbar in Writer, {task} ({path}). Save your changes to the same .docx file.",
    "Edit {path}: {task}. Leave all other formatting alone and keep the .docx format when saving.",
)
WRONG = {"bold": "italic", "italic": "bold", "underline": "bold"}


def _describe(prop: str, value: Any) -> tuple[str, str]:
    """(verb phrase template with {what}, short description) for one property value."""
    return {
        "font": (f'set the font of {{what}} to "{value}"', f"font {value}"),
        "size": (f"set the font size of {{what}} to {value} pt", f"size {value} pt"),
        "bold": ("make {what} bold", "bold"),
        "italic": ("make {what} italic", "italic"),
        "underline": ("underline {what} (single underline)", "underlined"),
    }[prop]


def _phrase(rng: Any, text: str) -> str:
    """2-4 consecutive words from the middle of `text`, without edge punctuation, occurring once."""
    words = text.split()
    for _ in range(50):
        n = rng.randint(2, 4)
        i = rng.randint(1, max(1, len(words) - n - 1))
        chunk = words[i:i + n]
        phrase = " ".join(chunk)
        if chunk and all(w.isalnum() for w in chunk) and text.count(phrase) == 1:
            return phrase
    return words[1].strip(",.:")


def _part(text: str) -> str:
    """What a sloppy selection catches: the first word, or half of a single word."""
    words = text.split()
    return words[0] if len(words) > 1 else text[:max(1, len(text) // 2)]


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    prop, where = values["params"]["property"], values["params"]["target"]
    layout = wc.compose(rng, values["document"], values["plan"])
    body = wc.targets(layout, "body")
    value: Any = {"font": rng.choice(FONTS), "size": rng.choice(SIZES["title" if where == "title" else "body"]),
                  "bold": True, "italic": True, "underline": True}[prop]
    phrase = None
    if where == "title":
        title = layout.texts("title")[0]
        paragraph, what = title, f"the title {wc.quoted(title)}"
        unchanged = [loc for _, loc in body]
    else:
        para, paragraph = rng.choice(body)
        unchanged = [loc for p, loc in body if p is not para]
        what = f"the whole paragraph beginning {wc.quoted(paragraph)}"
        if where == "phrase":
            phrase = _phrase(rng, para.text)
            what = f"the words {wc.quoted(phrase)} in the paragraph beginning {wc.quoted(paragraph)}"
    verb, short = _describe(prop, value)
    facts = {"path": layout.path, "task": verb.format(what=what)}
    target = {"prop": prop, "value": value, "paragraph": paragraph, "phrase": phrase, "unchanged": unchanged,
              "short": short, "where": where}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    args: dict[str, Any] = {"path": layout.path, "paragraph": t["paragraph"], t["prop"]: t["value"],
                            "unchanged": t["unchanged"]}
    if t["phrase"]:
        args["phrase"] = t["phrase"]
    what = wc.quoted(t["phrase"]) if t["phrase"] else f"the paragraph {wc.quoted(t['paragraph'])}"
    return {"rubric": [Check(
        id="format", criterion=f"In {layout.path}, {what} is {t['short']}, and no other body text is.",
        primitive="docx.char_format", args=args), wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    prop, value = t["prop"], t["value"]
    base = {"op": "docx.format_chars", "path": layout.path, "paragraph_start": t["paragraph"]}
    right = {**base, prop: value, **({"phrase": t["phrase"]} if t["phrase"] else {})}
    if prop == "font":
        wrong = {**right, "font": next(f for f in FONTS if f != value)}
    elif prop == "size":
        wrong = {**right, "size": value - 2}
    else:
        wrong = {k: v for k, v in right.items() if k != prop} | {WRONG[prop]: True}
    if t["where"] == "phrase":
        spread = {**base, prop: value}
        partial = {**right, "phrase": _part(t["phrase"])}
        miss = ("formats the whole paragraph instead of the words", "selects only part of the phrase")
    elif t["where"] == "paragraph":
        spread = {**base, prop: value, "paragraph_start": t["unchanged"][0]}
        text = next(p.text for p in layout.paragraphs if wc.norm(p.text).startswith(t["paragraph"]))
        partial = {**right, "phrase": text.split(". ")[0]}
        miss = ("formats a different paragraph", "formats only the first sentence")
    else:
        spread = {**base, prop: value, "paragraph_start": t["unchanged"][0]}
        partial = {**right, "phrase": _part(t["paragraph"])}
        miss = ("formats the first body paragraph instead of the title", "selects only part of the title")
    return {"solutions": [
        Solution("oracle", f"{t['short']} on the stated text", [right]),
        Solution("near-miss-1", miss[0], [spread]),
        Solution("near-miss-2", miss[1], [partial]),
        Solution("near-miss-3", "applies the wrong value or property", [wrong]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Set font, size, bold, italic or underline on the title, a paragraph or a phrase in a paragraph.",
    knobs={"property": ("font", "size", "bold", "italic", "underline"), "target": ("title", "paragraph", "phrase")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
