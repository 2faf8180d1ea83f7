"""impress.duplicate_slide: duplicate a slide (same bullets), place the copy, and optionally retitle the copy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.impress import kit as ic

NAME = "impress.duplicate_slide"
RETITLES = ("{old} (continued)", "{old}: Follow-up", "{old} - Backup", "{old} in Detail", "{old} - Part 2")
PHRASINGS = (
    "Open {path} in LibreOffice Impress and duplicate the slide '{title}' (slide {current}). {place} {rename}"
    "The original slide and all other slides stay as they are. " + ic.SAVE,
    "In the presentation {path}, make a copy of the slide '{title}' with all of its bullet points. {place} "
    "{rename}Do not change anything else. " + ic.SAVE,
    "Please duplicate slide {current} ('{title}') of {path} (Slide > Duplicate Slide). {place} {rename}"
    "Then save the file in place as pptx.",
    "Using LibreOffice Impress, open {path}. The slide '{title}' is needed twice: duplicate it. {place} "
    "{rename}Leave every other slide untouched. " + ic.SAVE,
    "The deck {path} needs a second copy of the slide '{title}' (currently slide {current}), with the same "
    "bullets. {place} {rename}Then save the presentation in place, keeping the pptx format.",
)


@node("goal", "goal", ("params", "content", "plan"), ("deck", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params = values["params"]
    deck = ic.deck_from(values["content"], values["plan"])
    titles = deck.titles
    # "directly after the original" and "at the end" must differ: never the last slide
    title = rng.choice(titles[1:-1])
    current = deck.position(title)
    copy_title = rng.choice(RETITLES).format(old=title) if params["retitle"] == "rename" else title
    position = current + 1 if params["place"] == "after" else len(titles) + 1
    place = ("The copy must come directly after the original." if params["place"] == "after" else
             f"Move the copy to the very end of the presentation, after '{titles[-1]}'.")
    rename = (f"After that, change the title of the copy (not of the original) to '{copy_title}'; the copy keeps the "
              "same bullets. " if params["retitle"] == "rename" else "")
    expected = titles[:position - 1] + [copy_title] + titles[position - 1:]
    facts = {"path": deck.path, "title": title, "current": current, "place": place, "rename": rename}
    target = {"title": title, "copy": copy_title, "position": position, "expected": expected,
              "bullets": deck.slide(title)["bullets"]}
    return {"deck": deck, "facts": facts, "target": target}


@node("rubric", "rubric", ("deck", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    base = {"path": deck.path}
    copies = 2 if t["copy"] == t["title"] else 1
    checks = [
        Check("order", f"The slides of {deck.path} are, in order: {t['expected']}.", "pptx.slide_titles",
              {**base, "titles": t["expected"]}),
        Check("count", f"{copies} slide(s) are titled '{t['title']}'.", "pptx.slide_count",
              {**base, "title": t["title"], "count": copies}),
        Check("copy-bullets", f"Every slide titled '{t['copy']}' holds the bullets {t['bullets']}.", "pptx.body_text",
              {**base, "slide": t["copy"], "paragraphs": t["bullets"], "named": []}),
    ]
    touched = [t["title"]] if t["copy"] == t["title"] else []  # the source appears twice: its count is checked
    return {"rubric": [*checks, ic.kept_check(deck, values["assets"], touched)]}


@node("solve", "solve", ("deck", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    title, copy_title, position = t["title"], t["copy"], t["position"]
    renamed = copy_title != title
    dup = {"op": "pptx.duplicate_slide", "path": deck.path, "title": title, "position": position,
           **({"new_title": copy_title} if renamed else {})}
    current = deck.position(title)
    wrong_place = len(deck.slides) + 1 if position == current + 1 else current + 1
    if renamed:
        second = Solution("near-miss-2", "retitles the original slide instead of the copy",
                          [{**dup, "new_title": None, "position": current + 1},
                           {"op": "pptx.set_title", "path": deck.path, "title": title, "new": copy_title},
                           *([{"op": "pptx.move_slide", "path": deck.path, "title": title, "position": position}]
                             if position != current + 1 else [])])
        third = Solution("near-miss-3", "duplicates the slide but forgets to retitle the copy",
                         [{**dup, "new_title": None}])
    else:
        second = Solution("near-miss-2", "adds a new empty slide with the same title instead of a copy",
                          [{"op": "pptx.add_slide", "path": deck.path, "layout": "title_content", "title": title,
                            "position": position}])
        other = deck.titles[current] if current < len(deck.slides) else deck.titles[current - 2]
        third = Solution("near-miss-3", f"duplicates the neighbouring slide '{other}' instead",
                         [{**dup, "title": other}])
    return {"solutions": [
        Solution("oracle", f"duplicate '{title}' to slide {position}", [dup]),
        Solution("near-miss-1", f"puts the copy at slide {wrong_place} instead of {position}",
                 [{**dup, "position": wrong_place}]),
        second,
        third,
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(ic.APP,),
    description="Duplicate a slide with its bullets, place the copy after the original or at the end, and "
                "optionally retitle the copy.",
    knobs={"place": ("after", "end"), "retitle": ("keep", "rename")},
    nodes=(*ic.source_nodes(), goal, ic.prepare, ic.instruction(NAME, PHRASINGS), rubric, solve),
)
