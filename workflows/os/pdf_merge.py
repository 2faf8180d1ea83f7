"""os.pdf_merge: merge PDFs into one new PDF, in a stated order or in the order of their file names; the source
PDFs stay as they are.

Each source is a short document of one to three pages (a memo, minutes, a letter). The check reads the merged
PDF's pages (verifiers/readers/pdf.py, bounded): exactly the sources' pages, in the asked order. Near-misses: the
files merged alphabetically when another order was stated (or in reverse), two sources swapped, one source left
out, the merge written over the first source instead of a new file."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import tree as trees
from preparers.ops.formats import PAGE_LINES, pdf_pages, wrap
from preparers.tree import FileSpec
from workflows.os import kit as oc
from workflows.writer.content import KINDS, THEME_NAMES, generate_document

NAME = "os.pdf_merge"
PHRASINGS = (
    "Merge {what} into one new PDF file, {dest}, {how}. Keep the original PDFs as they are.",
    "Combine {what} into a single PDF saved as {dest}; the pages must come {how}. Do not change or delete the "
    "source files.",
    "Using the terminal (for example pdfunite) or a PDF tool, join {what} into {dest}, {how}. The separate PDFs "
    "must stay where they are, unchanged.",
    "I need one PDF, {dest}, made by merging {what} {how}. Leave the original files untouched.",
    "Create {dest} by concatenating {what}, {how}. Every page of each file goes in; the originals stay as they are.",
)
NATURAL = (
    "Could you merge {what} into one PDF, {dest}, {how}?",
    "Please combine {what} into {dest}, {how}; keep the originals.",
    "I have to send one file: merge {what} into {dest}, {how}.",
    "Help me combine {what} into the single PDF {dest}, {how}.",
    "Join {what} into {dest} for me, {how}, without touching the separate files.",
)
OUTPUTS = ("complete_packet", "combined", "all_documents", "board_pack", "submission", "merged")


class Params(TypedDict):
    order: Literal["stated", "by_name"]


@dataclass(frozen=True)
class Target:
    folder: str
    sources: tuple[str, ...]  # in the asked order
    pages: Mapping[str, tuple[tuple[str, ...], ...]]  # source -> its pages' text lines
    dest: str

    def lines(self, order: tuple[str, ...]) -> list[list[str]]:
        return [list(page) for source in order for page in self.pages[source]]


def _pages(rng: random.Random, document: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """A document laid out on 1-3 pages: the title and front matter first, its sections shared out, the
    closing lines last."""
    sections = [[s["heading"], *s["paragraphs"]] for s in document["sections"]]
    count = rng.randint(1, min(3, len(sections)))
    cuts = sorted(rng.sample(range(1, len(sections)), count - 1)) if count > 1 else []
    groups = [sections[a:b] for a, b in zip([0, *cuts], [*cuts, len(sections)], strict=True)]
    pages = []
    for i, group in enumerate(groups):
        blocks = [document["title"], *document["front"]] if i == 0 else []
        blocks += [text for section in group for text in section]
        if i == len(groups) - 1:
            blocks += list(document["closing"])
        lines = [line for line in wrap(blocks) if line.strip()]
        pages += [tuple(lines[j:j + PAGE_LINES]) for j in range(0, len(lines), PAGE_LINES)]
    return tuple(pages)


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", "Downloads", f"Documents/{project}/pdf",
                                          "Desktop/to_send"))), params)
    count = rng.randint(3, 4)
    themes = rng.sample(THEME_NAMES, count)
    documents = [generate_document(rng, theme=theme, kind=rng.choice(KINDS)) for theme in themes]
    names = [f"{folder}/{d['file_stem']}.pdf" for d in documents]
    pages = {name: _pages(rng, d) for name, d in zip(names, documents, strict=True)}
    by_name = tuple(sorted(names, key=lambda p: p.rsplit("/", 1)[1]))
    if params["order"] == "by_name":
        order = by_name
        what = f"all {count} PDF files in {folder}"
        how = "in alphabetical order of their file names"
    else:
        order = tuple(names)
        while order in (by_name, by_name[::-1]) or order[1::-1] + order[2:] == by_name:
            order = tuple(rng.sample(names, count))
        what = ", ".join(order[:-1]) + f" and {order[-1]}"
        how = "in exactly the order listed"
    dest = f"{folder}/{project.replace('-', '_')}_{rng.choice(OUTPUTS)}.pdf"
    others = [files.new(folder, ext) for ext in rng.sample(("txt", "docx", "jpg", "csv"), 2)]
    spec = [*(FileSpec(name, "pdf", "\n".join(pages[name][0])) for name in names), *others]
    facts = {"what": what, "dest": dest, "how": how, "folder": folder}
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts, Target(folder, order, pages, dest))


def prepare(tree: list[FileSpec], target: Target) -> dict[str, Any]:
    """The tree's files, each source PDF with all its pages (the tree's own PDFs have one)."""
    assets = [replace(a, data=pdf_pages(target.pages[a.dest])) if a.dest in target.pages else a
              for a in trees.build(tree)]
    return {"assets": assets, "launch": list(oc.LAUNCH)}


def rubric(target: Target) -> list[Check]:
    t = target
    merged = Check(
        id="merged",
        criterion=f"{t.dest} is one PDF holding every page of {', '.join(t.sources)}, in that order "
                  f"({sum(len(t.pages[s]) for s in t.sources)} pages).",
        primitive="pdf.pages_in_order",
        args={"path": t.dest, "pages": t.lines(t.sources), "sources": list(t.sources)},
    )
    return [merged]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    merge = {"op": "fmt.merge_pdf", "path": t.dest}
    by_name = tuple(sorted(t.sources, key=lambda p: p.rsplit("/", 1)[1]))
    wrong_order = (Attempt("merges the files in alphabetical order instead of the stated one",
                           [{**merge, "sources": list(by_name)}]) if params["order"] == "stated" else
                   Attempt("merges the files in reverse alphabetical order",
                           [{**merge, "sources": list(by_name[::-1])}]))
    swapped = [t.sources[1], t.sources[0], *t.sources[2:]]
    return Attempts(
        Attempt(f"merge the {len(t.sources)} PDFs in the asked order into {t.dest}",
                [{**merge, "sources": list(t.sources)}]),
        [wrong_order,
         Attempt("swaps the first two files", [{**merge, "sources": swapped}]),
         Attempt("leaves the last file out", [{**merge, "sources": list(t.sources[:-1])}]),
         Attempt("writes the merge over the first source instead of a new file",
                 [{"op": "fmt.merge_pdf", "path": t.sources[0], "sources": list(t.sources)}])],
    )


WORKFLOW = family(
    NAME, oc.OS,
    description="Merge 3-4 PDFs (1-3 pages each) into one new PDF, in a stated order or in the order of their "
                "file names, leaving the source PDFs unchanged.",
    knobs={"order": ("stated", "by_name")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
