"""os.pdf_split: copy a stated page range, or one stated page, of a scanned batch PDF into a new PDF; the batch
stays as it is.

The batch holds two or three short documents one after the other (5-9 pages). The check reads the new PDF's pages
(verifiers/readers/pdf.py, bounded): exactly the asked pages, in order. Near-misses: the range off by one, only the
first page of the range (or the page before the asked one), the whole batch copied, the pages cut out of the batch
instead of copied (the batch rewritten without them)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import tree as trees
from preparers.ops.formats import pdf_pages
from preparers.tree import FileSpec
from workflows.os import kit as oc
from workflows.os.pdf_merge import _pages
from workflows.writer.content import KINDS, THEME_NAMES, generate_document

NAME = "os.pdf_split"
PHRASINGS = (
    "Extract {pages} of {source} into a new PDF file, {dest}. The original PDF must stay as it is, with all its "
    "pages.",
    "From the PDF {source}, copy {pages} into a separate file {dest} (nothing else in it). Do not change the "
    "original file.",
    "Using the terminal (for example pdfseparate and pdfunite) or a PDF tool, split {pages} out of {source} into "
    "{dest}. Keep {source} unchanged.",
    "Create {dest} by extracting {pages} of {source}, in the same order. Leave the source PDF untouched.",
    "Copy {pages} of {source} into a PDF of its own, {dest}. The source file keeps every page.",
)
NATURAL = (
    "Could you extract {pages} of {source} into a new PDF, {dest}?",
    "I only need {pages} of {source}: please split that part off into {dest} and keep the original.",
    "Please split {pages} of {source} off into {dest}, leaving the scan itself as it is.",
    "Help me extract {pages} of {source} as a separate PDF at {dest}.",
    "Extract {pages} from {source} into {dest} for me; don't change the original.",
)
BATCHES = ("scan_batch", "scanned_documents", "office_scans", "mail_scan", "scan_001", "document_batch")


class Params(TypedDict):
    what: Literal["range", "page"]


@dataclass(frozen=True)
class Target:
    source: str
    pages: tuple[tuple[str, ...], ...]  # every page of the batch: its text lines
    first: int  # 1-based, inclusive
    last: int
    dest: str


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    files = oc.Files(pool, rng)
    folder = oc.place(oc.home(rng.choice(("Documents/scans", "Downloads", "Documents/paperwork", "Desktop"))),
                      params)
    while True:
        documents = [generate_document(rng, theme=t, kind=rng.choice(KINDS))
                     for t in rng.sample(THEME_NAMES, rng.randint(2, 3))]
        parts = [_pages(rng, d) for d in documents]
        total = sum(len(p) for p in parts)
        if 5 <= total <= 9 and (params["what"] == "page" or any(len(p) >= 2 for p in parts[1:])):
            break
    pages = tuple(page for part in parts for page in part)
    starts = [sum(len(p) for p in parts[:i]) + 1 for i in range(len(parts))]
    if params["what"] == "range":  # one whole document of the batch (not the first), two pages or more
        i = rng.choice([i for i in range(1, len(parts)) if len(parts[i]) >= 2])
        first, last, doc = starts[i], starts[i] + len(parts[i]) - 1, documents[i]
        said = f"pages {first} to {last}"
    else:
        first = last = rng.randint(2, total)
        doc = documents[max(i for i in range(len(parts)) if starts[i] <= first)]
        said = f"page {first}"
    source = f"{folder}/{rng.choice(BATCHES)}.pdf"
    dest = f"{folder}/{doc['file_stem']}.pdf"
    others = [files.new(folder, ext) for ext in rng.sample(("txt", "jpg", "pdf", "png"), 2)]
    others = [o for o in others if o.path not in (source, dest)]
    spec = [FileSpec(source, "pdf", "\n".join(pages[0])), *others]
    facts = {"source": source, "dest": dest, "pages": said}
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts, Target(source, pages, first, last, dest))


def prepare(tree: list[FileSpec], target: Target) -> dict[str, Any]:
    """The tree's files, the batch with all its pages."""
    assets = [replace(a, data=pdf_pages(target.pages)) if a.dest == target.source else a for a in trees.build(tree)]
    return {"assets": assets, "launch": list(oc.LAUNCH)}


def rubric(target: Target) -> list[Check]:
    t = target
    span = f"page {t.first}" if t.first == t.last else f"pages {t.first} to {t.last}"
    split = Check(
        id="split",
        criterion=f"{t.dest} is a PDF holding exactly {span} of {t.source}, in order.",
        primitive="pdf.pages_in_order",
        args={"path": t.dest, "pages": [list(p) for p in t.pages[t.first - 1:t.last]], "sources": [t.source]},
    )
    return [split]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    base = {"op": "fmt.split_pdf", "path": t.source, "dest": t.dest, "first": t.first, "last": t.last}
    total = len(t.pages)
    shifted = ({**base, "first": t.first + 1, "last": t.last + 1} if t.last < total else
               {**base, "first": t.first - 1, "last": t.last - 1})
    if params["what"] == "range":
        short = Attempt("copies only the first page of the range", [{**base, "last": t.first}])
    else:
        short = Attempt("copies the page and the one after it", [{**base, "last": min(t.last + 1, total)}]
                        if t.last < total else [{**base, "first": t.first - 1}])
    return Attempts(
        Attempt(f"copy pages {t.first}-{t.last} of the batch into {t.dest}", [base]),
        [Attempt("counts the pages off by one", [shifted]),
         short,
         Attempt("copies the whole batch", [{**base, "first": 1, "last": total}]),
         Attempt("cuts the pages out of the batch instead of copying them", [{**base, "cut": True}])],
    )


WORKFLOW = family(
    NAME, oc.OS,
    description="Copy a stated page range (one document of a scanned batch) or one stated page of a PDF into a new "
                "PDF, leaving the source PDF unchanged.",
    knobs={"what": ("range", "page")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
