"""gimp.resolution: set a picture's print resolution without resampling, or scale it to print at a stated
width and resolution.

Image > Print Size changes only the stored ppi; Image > Scale Image in inches at a new resolution also resamples
the pixels. The source stores 72 ppi. Checks read the resolution the file really stores (PNG keeps pixels per
metre, so 300 ppi reads back as 299.9994) and the print width it gives. Near-misses: the wrong value, only one
of resampling and resolution done, the aspect ratio lost, another format behind the same extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from preparers.image import KINDS
from workflows.gimp import kit as gc

NAME = "gimp.resolution"
SOURCE_DPI = 72
PPI = (150, 200, 300, 600)
PRINT = tuple((inches, dpi) for inches in (2, 3, 4, 5, 6, 8) for dpi in (100, 150, 200, 300))
PURPOSES = ("for the print shop", "for the annual report", "for the exhibition poster", "for the photo book",
            "for the printed flyer")
PHRASINGS = (
    "Open {path} (a picture of {subject}) in GIMP and {task}. Save it back to the same file as {fmt}.",
    "The picture {path} shows {subject} and will be printed {purpose}. In GIMP, {task}; then overwrite the {fmt} "
    "file.",
    "Please prepare {path} ({subject}) {purpose}: {task}. Keep the file name and the {fmt} format.",
    "Using GIMP, open the image {path}, which shows {subject}, and {task}. Export it back to {path} as {fmt}, "
    "saving the resolution with it.",
    "{path} ({subject}) goes to print {purpose}. {task_cap}, and save it over the original {fmt} file.",
)


@node("goal", "goal", ("params", "source"), ("facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    src: gc.Source = values["source"]
    if values["params"]["mode"] == "set_ppi":
        dpi = rng.choice(PPI)
        task = (f"change its print resolution to {dpi} ppi without resampling (Image > Print Size), so the pixel "
                f"size stays {src.width} by {src.height}")
        target = {"dpi": dpi, "size": [src.width, src.height]}
    else:
        inches, dpi = rng.choice([(i, d) for i, d in PRINT if 0.3 * src.width <= i * d <= 0.9 * src.width])
        task = (f"scale it so that it prints exactly {inches} inches wide at {dpi} ppi, keeping the aspect ratio "
                "(the pixels are resampled)")
        width = inches * dpi
        target = {"dpi": dpi, "inches": inches, "size": [width, round(width * src.height / src.width)]}
    facts = {"path": src.path, "subject": src.subject, "task": task, "task_cap": task[0].upper() + task[1:],
             "fmt": src.format_name, "purpose": rng.choice(PURPOSES)}
    return {"facts": facts, "target": target}


@node("rubric", "rubric", ("source", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    t = values["target"]
    dpi = Check("dpi", f"{src.path} stores a print resolution of {t['dpi']} ppi.", "image.dpi_is",
                {"path": src.path, "dpi": t["dpi"]})
    if "inches" not in t:
        sized = [gc.size_kept_check(src.path, src)]
    else:
        sized = [Check("print_width", f"{src.path} prints {t['inches']} inches wide.", "image.print_width",
                       {"path": src.path, "inches": t["inches"]}),
                 Check("aspect", f"{src.path} keeps the aspect ratio of {src.width} by {src.height}.",
                       "image.aspect_preserved", {"path": src.path, "width": src.width, "height": src.height})]
    content = gc.content_check(src.path, src, [{"op": "image.resize", "width": t["size"][0], "height": t["size"][1]}],
                               "the original picture")
    return {"rubric": [dpi, *sized, content, gc.format_check(src.path, src.fmt)]}


@node("solve", "solve", ("source", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    src: gc.Source = values["source"]
    t = values["target"]
    path = src.path
    set_dpi = {"op": "image.set_dpi", "path": path, "dpi": t["dpi"]}
    w, h = t["size"]
    scale = {"op": "image.resize", "path": path, "width": w, "height": h}
    right = [set_dpi] if "inches" not in t else [scale, set_dpi]
    misses: list[tuple[str, list[dict[str, Any]]]] = [
        (f"saved {gc.other_format(src.fmt)} data behind the .{src.fmt} name",
         [*right, gc.wrong_format_op(path, src.fmt)]),
    ]
    if "inches" not in t:
        misses.append((f"set {t['dpi'] // 2} ppi instead of {t['dpi']}", [{**set_dpi, "dpi": t["dpi"] // 2}]))
    else:
        misses += [("changed the resolution only (Print Size), so it prints at another width", [set_dpi]),
                   (f"resampled the pixels but left the resolution at {SOURCE_DPI} ppi", [scale]),
                   ("scaled only the width, losing the aspect ratio", [{**scale, "height": src.height}, set_dpi])]
    solutions = [Solution("oracle", "set the print resolution" + (" and resample" if "inches" in t else ""), right)]
    solutions += [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(gc.APP,),
    description="Set a picture's print resolution without resampling, or scale it to print at a stated width.",
    knobs={"mode": ("set_ppi", "print_width"), "fmt": ("png", "jpg", "tiff")},
    nodes=(*gc.source_nodes(KINDS, lambda p: p["fmt"], dpi=SOURCE_DPI), goal, gc.instruction(NAME, PHRASINGS),
           rubric, solve),
)
