"""Nodes and helpers shared by the GIMP families (pictures under /home/user/Pictures, edited in GIMP).

Every family starts with `source_nodes(...)`: `sample` (kind of picture, size, folder, format) -> the `content`
LLM node (subject, file name, palette; offline: `workflows.gimp.content`) -> `prepare` (renders the picture,
encodes it, and outputs the asset, the launch command and a `Source`: the picture exactly as it lands on disk,
decoded, so references for the checks include the asset's own JPEG/WebP losses). The family's `goal` node then
states the edit (facts) and what it expects; `rubric` and `solve` turn that into checks and op lists.

`preview()` runs an op list in memory with the real op functions, so a family can make sure each near-miss
is *clearly* wrong for the content checks (a crop shifted over a smooth sky may look like the right one).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from kit.axes import LOCATION, LOOKALIKES, deepen, look_alike_paths, pick
from kit.dag import Node, NodeContext, llm_node, node
from kit.errors import WorkflowError
from kit.family import AppKit
from kit.model import HOME, Asset, Check
from preparers import image as images
from preparers.ops import registry as op_registry
from preparers.ops.image import Picture
from verifiers.checks.image_measure import score, thumbnail
from verifiers.readers.image import decode, recipe
from workflows.common import instruction
from workflows.frame import tree_frame_node
from workflows.gimp.content import PICTURE_SCHEMA, generate_picture
from workflows.teacher import teacher_node

__all__ = ["instruction", "thumbnail"]  # re-exported: families call gc.instruction(...), gc.thumbnail(...)

APP = "gimp"
#: fmt knob value -> how an instruction names the format
FORMAT_NAMES = {"png": "PNG", "jpg": "JPEG", "bmp": "BMP", "webp": "WebP", "tiff": "TIFF"}
FOLDERS = {
    "landscape": ("Pictures", "Pictures/Holiday 2023", "Pictures/trips", "Pictures/Camera"),
    "cityscape": ("Pictures", "Pictures/trips", "Pictures/Camera"),
    "beach": ("Pictures", "Pictures/Holiday 2023", "Pictures/Camera"),
    "product": ("Pictures/shop", "Pictures/products", "Pictures"),
    "diagram": ("Pictures/diagrams", "Pictures/work", "Pictures"),
    "chart": ("Pictures/reports", "Pictures/work"),
    "document": ("Pictures/scans", "Pictures"),
    "logo": ("Pictures/logos", "Pictures/branding"),
}
#: how different two thumbnails must be to count as visibly different pictures (mean abs diff on 0..255, or grey
#: correlation at most); near-misses that are not are dropped as indistinguishable for that picture
CLEAR_DIFF = 15.0
CLEAR_CORR = 0.8
_PHOTO_SIZES = ((1200, 800), (1024, 768), (960, 640), (1280, 720), (800, 600), (1080, 720), (768, 1024))
SIZES = {
    "landscape": _PHOTO_SIZES, "cityscape": _PHOTO_SIZES, "beach": _PHOTO_SIZES,
    "product": ((800, 1000), (960, 720), (640, 800), (800, 800)),
    "diagram": ((1200, 800), (1000, 640), (960, 600), (1024, 768)),
    "chart": ((1200, 800), (1000, 640), (960, 600), (1024, 768)),
    "document": ((800, 1040), (816, 1056), (720, 1000)),
    "logo": ((512, 512), (640, 640), (800, 800), (600, 600)),
}


@dataclass(frozen=True)
class Source:
    """The initial picture: where it is, its format knob value, and its pixels as decoded from the asset."""

    path: str
    fmt: str
    kind: str
    subject: str
    image: Image.Image
    dpi: float | None = None
    #: the `preparers.image.render` spec the picture was drawn from, and whether its background was made
    #: transparent: with the format and dpi, what a full-resolution check needs to redraw it (`recipe()`)
    spec: tuple[tuple[str, Any], ...] = ()
    transparent: bool = False
    #: the colour ("#RRGGBB") a flat picture's white background was painted (`source_nodes(backgrounds=...)`)
    background: str | None = None

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    @property
    def pil_format(self) -> str:
        return images.FORMATS[self.fmt]

    @property
    def format_name(self) -> str:
        return FORMAT_NAMES[self.fmt]

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0]

    @property
    def stem(self) -> str:
        return self.path.rsplit("/", 1)[1].rsplit(".", 1)[0]

    def recipe(self, edits: list[dict[str, Any]] | tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
        """The check reference for this picture after `edits` (op dicts): see `verifiers.readers.image.recipe`."""
        return recipe(dict(self.spec), self.pil_format, transparent=self.transparent, dpi=self.dpi, edits=edits,
                      background=self.background)

    def sibling(self, fmt: str, suffix: str = "") -> str:
        """A path next to the source: same stem plus `suffix`, extension of `fmt`."""
        return f"{self.folder}/{self.stem}{suffix}{images.EXTENSIONS[fmt]}"


# --- shared nodes -----------------------------------------------------------------------------------

#: Difficulty axes (issue 15), the first level being today's behaviour with the same random draws.
AXES: dict[str, tuple[Any, ...]] = {"location": LOCATION, "lookalikes": LOOKALIKES}


def source_nodes(kinds: tuple[str, ...] | Callable[[Mapping[str, Any]], tuple[str, ...]],
                 fmt_of: Callable[[Mapping[str, Any]], str], *,
                 transparent_if: Callable[[Mapping[str, Any]], bool] = lambda params: False,
                 dpi: float | None = None,
                 size_ok: Callable[[str, tuple[int, int]], bool] = lambda kind, size: True,
                 palettes: tuple[str, ...] = images.PALETTE_NAMES,
                 backgrounds: tuple[str, ...] = ()) -> tuple[Node, ...]:
    """sample -> content -> prepare for pictures of `kinds` (or `kinds(params)`), stored in format `fmt_of(params)`.

    `transparent_if(params)` stores a flat picture's white background as transparent pixels; `dpi` stores a print
    resolution; `size_ok(kind, size)` limits the sizes drawn; `palettes` the colour schemes allowed; `backgrounds`
    ("#RRGGBB") paints a flat picture's white background the first of them, in an order drawn per task, that the
    picture itself does not use (so the background is the only area of that colour)."""

    @node("sample", "sample", ("params",), ("plan",))
    def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        rng = ctx.rng("sample")
        pool = kinds(values["params"]) if callable(kinds) else kinds
        kind = rng.choice([k for k in pool if any(size_ok(k, s) for s in SIZES[k])])
        width, height = rng.choice([s for s in SIZES[kind] if size_ok(kind, s)])
        params = values["params"]
        plan = {"kind": kind, "width": width, "height": height,
                "folder": deepen(rng.choice(FOLDERS[kind]), pick(params, "location", AXES)),
                "fmt": fmt_of(params), "palettes": list(palettes), "transparent": transparent_if(params)}
        if backgrounds:  # only when asked: the plans (and prompts) of other families stay as they were
            plan["backgrounds"] = rng.sample(list(backgrounds), len(backgrounds))
        if pick(params, "lookalikes", AXES) != "0":  # only when moved: the default plan (and prompt) stays as it was
            plan["lookalikes"] = pick(params, "lookalikes", AXES)
        return {"plan": plan}

    def offline(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
        return generate_picture(rng, values["plan"])

    content = llm_node("content", kind="llm", inputs=("plan",), output="picture", prompt="gimp_content.txt",
                       schema=PICTURE_SCHEMA, offline=offline)

    @node("prepare", "prepare", ("plan", "picture"), ("source", "assets", "launch"))
    def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        plan, picture = values["plan"], values["picture"]
        spec = {"kind": plan["kind"], "width": plan["width"], "height": plan["height"], **picture}
        drawn = images.render(spec)
        background = None
        if plan.get("backgrounds"):
            used = {rgb for _, rgb in drawn.convert("RGB").getcolors(1 << 24) or []}
            background = next((c for c in plan["backgrounds"] if _rgb(c) not in used), None)
            if background is None:
                raise WorkflowError(f"every background colour {plan['backgrounds']} is used in the picture itself")
            drawn = images.with_background(drawn, _rgb(background))
        if plan["transparent"]:
            drawn = images.with_transparent_background(drawn)
        fmt = plan["fmt"]
        path = f"{HOME}/{plan['folder']}/{picture['file_stem']}{images.EXTENSIONS[fmt]}"
        data = images.encode(drawn, images.FORMATS[fmt], dpi)
        with Image.open(io.BytesIO(data)) as opened:
            opened.load()
            decoded = opened.copy()
        drawn_by = tuple(sorted((k, v) for k, v in spec.items() if k in images.SPEC_KEYS))
        source = Source(path, fmt, plan["kind"], picture["subject"], decoded, dpi, drawn_by,
                        bool(plan["transparent"]), background)
        copies = [Asset(copy, data) for copy in look_alike_paths(path, plan.get("lookalikes", 0))]
        return {"source": source, "assets": [Asset(path, data), *copies], "launch": ["gimp", path]}

    return sample, content, prepare


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


# --- checks -----------------------------------------------------------------------------------------

def format_check(path: str, fmt: str) -> Check:
    name = FORMAT_NAMES[fmt]
    return Check("format", f"{path} is really a {name} file (by its content, not just its name).",
                 "image.format_is", {"path": path, "format": images.FORMATS[fmt]})


def content_check(path: str, source: Source, edits: list[dict[str, Any]], what: str, *, gray: bool = False,
                  tone: bool = False) -> Check:
    """`path` shows `source` after the image ops `edits`, at full resolution (`gray`: grey levels only; `tone`: any
    tone curve, for edits whose exact tone GIMP decides: brightness, grey weighting)."""
    args: dict[str, Any] = {"path": path, "expected": source.recipe(edits), "what": what}
    if gray:
        args["gray"] = True
    if tone:
        args["tone"] = True
    return Check("content", f"{path} shows {what}.", "image.content_matches", args)


def size_kept_check(path: str, source: Source) -> Check:
    return Check("size", f"{path} has the original size of {source.width} by {source.height} pixels.",
                 "image.size_unchanged", {"path": path, "width": source.width, "height": source.height})


def size_check(path: str, width: int, height: int) -> Check:
    return Check("size", f"{path} is exactly {width} by {height} pixels.", "image.size_equals",
                 {"path": path, "width": width, "height": height})


# --- solutions --------------------------------------------------------------------------------------

def other_format(fmt: str) -> str:
    """The Pillow format a careless export would write behind the right extension."""
    return "JPEG" if fmt in ("png", "tiff", "webp") else "PNG"


def wrong_format_op(path: str, fmt: str) -> dict[str, Any]:
    """Write the edited picture to `path` in another real format than its extension says."""
    return {"op": "image.convert_format", "path": path, "dest": path, "format": other_format(fmt)}


def preview(source: Source, ops: list[dict[str, Any]]) -> Image.Image:
    """The picture after the edit ops of `ops` (exports skipped), computed in memory with the real ops."""
    picture = Picture(Path("/nonexistent"), Path("/nonexistent"), source.image.copy(), source.pil_format,
                      source.dpi)
    known = op_registry()
    for raw in ops:
        if raw["op"] != "image.convert_format":
            known[raw["op"]].fn(picture, **{k: v for k, v in raw.items() if k not in ("op", "path")})
    return picture.image


def clearly_differs(result: Image.Image, expected: Image.Image, *, gray: bool = False) -> bool:
    """True when the sizes differ or the thumbnails differ visibly (`CLEAR_DIFF`, `CLEAR_CORR`).

    The bar is fixed here, not derived from the checks' own thresholds, so a check loosened past it lets a
    kept near-miss pass and the gate reports the rubric as lax."""
    if result.size != expected.size:
        return True
    metric, value = score(result, decode(thumbnail(expected, gray=gray)))
    return value >= CLEAR_DIFF if metric == "difference" else value <= CLEAR_CORR


def _family_source() -> tuple[Node, ...]:
    raise WorkflowError("a GIMP family passes its own source nodes: family(..., source=gc.source_nodes(kinds, "
                        "fmt_of, ...)), since the picture kinds and the file format are the family's")


#: The GIMP app kit: families built with `kit.family.family(NAME, GIMP, source=source_nodes(...), ...)`; the
#: source nodes already prepare the picture, so the goal states no initial state and there is no prepare node.
GIMP = AppKit(apps=(APP,), source=_family_source, state="", prepare=None, instruction=instruction, axes=AXES,
              frame=tree_frame_node, teacher=teacher_node)
