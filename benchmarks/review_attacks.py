"""Hand-made end states for the families of session 22 (issue 37, review session 23): per accepted task, wrong end
states a lazy or confused agent would leave (half-done work, the right thing in the wrong place, a stray extra change,
the original damaged, a weakened setting, a value typed as text) and valid alternatives (another formula form, a
whole-column range, a documented setting form). Each is built from the task's initial files plus the oracle's ops,
edited, and judged by the whole rubric.

    forge generate -n 6 --family NAME --seed 7 --out OUT/NAME --db OUT/NAME/f.db --real-apps off   # per family
    python benchmarks/review_attacks.py OUT [--per-family 3] [--family NAME ...]
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl

from preparers.ops import apply_ops
from verifiers.gate.rubric import evaluate_rubric

HOME = "/home/user/"
Ops = list[dict[str, Any]]
# (task, oracle ops, state root) -> True when the case applies (the end state is built under root)
Build = Callable[[dict[str, Any], Ops, Path], bool]
CASES: dict[str, list[tuple[str, str, Build]]] = {}


def case(family: str, kind: str, label: str) -> Callable[[Build], Build]:
    def register(build: Build) -> Build:
        CASES.setdefault(family, []).append((kind, label, build))
        return build
    return register


def local(root: Path, path: str) -> Path:
    return root / path.removeprefix(HOME)


def edited(change: Callable[[Ops, dict[str, Any]], Ops | None]) -> Build:
    """A case that applies `change(copy of the oracle's ops, task)` instead of the oracle's ops."""
    def build(task: dict[str, Any], ops: Ops, root: Path) -> bool:
        new = change(copy.deepcopy(ops), task)
        if new is None:
            return False
        apply_ops(root, new)
        return True
    return build


def then(after: Callable[[dict[str, Any], Ops, Path], bool]) -> Build:
    """A case that applies the oracle's ops and then `after` on the end state."""
    def build(task: dict[str, Any], ops: Ops, root: Path) -> bool:
        apply_ops(root, ops)
        return after(task, ops, root)
    return build


def cells_op(ops: Ops) -> dict[str, Any] | None:
    return next((o for o in ops if o["op"] == "xlsx.set_cells"), None)


def formulas(ops: Ops, change: Callable[[str, str], str | None]) -> Ops | None:
    """Rewrite every formula of the first xlsx.set_cells op: change(coord, formula) -> new text (None drops it)."""
    op = cells_op(ops)
    if op is None:
        return None
    new = {}
    for coord, value in op["cells"].items():
        if isinstance(value, str) and value.startswith("="):
            value = change(coord, value)
            if value is None:
                continue
        new[coord] = value
    op["cells"] = new
    return ops


def shift_column(coord: str, by: int = 1) -> str:
    letters, digits = re.match(r"([A-Z]+)(\d+)", coord).groups()  # type: ignore[union-attr]
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    n += by
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out + digits


def whole_columns(formula: str) -> str:
    return re.sub(r"\$([A-Z]+)\$\d+:\$([A-Z]+)\$\d+", r"$\1:$\2", formula)


def with_book(change: Callable[[Any, dict[str, Any], Ops], bool]) -> Build:
    """The oracle's ops, then `change(workbook, task, ops)` on the workbook the ops edit (openpyxl, saved)."""
    def after(task: dict[str, Any], ops: Ops, root: Path) -> bool:
        path = local(root, ops[0]["path"])
        wb = openpyxl.load_workbook(path)
        if not change(wb, task, ops):
            return False
        wb.save(path)
        return True
    return then(after)


# ---------------------------------------------------------------------------------------------------- calc

def _half(ops: Ops) -> Ops | None:
    op = cells_op(ops)
    if op is None:
        return None
    keys = [k for k, v in op["cells"].items() if isinstance(v, str) and v.startswith("=")]
    keys.sort(key=lambda k: int(re.sub(r"\D", "", k)))
    for k in keys[len(keys) // 2:]:
        del op["cells"][k]
    return ops


def _moved_right(ops: Ops, task: dict[str, Any]) -> Ops | None:
    op = cells_op(ops)
    if op is None:
        return None
    op["cells"] = {shift_column(k): v for k, v in op["cells"].items()}
    return ops


case("calc.rank_column", "wrong", "rank column one column right of the asked one")(edited(_moved_right))
case("calc.rank_column", "wrong", "half the rows ranked")(edited(lambda ops, t: _half(ops)))
case("calc.rank_column", "valid", "whole-column range RANK(D2,$D:$D)")(
    edited(lambda ops, t: formulas(ops, lambda c, f: whole_columns(f))))


def _pct_format_on_source(ops: Ops, task: dict[str, Any]) -> Ops | None:
    for o in ops:
        if o["op"] == "xlsx.set_number_format":
            col = re.match(r"[A-Z]+", o["ref"]).group()  # type: ignore[union-attr]
            src = re.search(r"-([A-Z]+)\d+\)", cells_op(ops)["cells"][o["ref"].split(":")[0]])  # type: ignore[index]
            if src is None:
                return None
            o["ref"] = o["ref"].replace(col, src.group(1))
            return ops
    return None


case("calc.percent_change", "wrong", "percent format put on the source column, not the new one")(
    edited(_pct_format_on_source))
case("calc.percent_change", "wrong", "formulas times 100 (12.5 shown as 1250%)")(
    edited(lambda ops, t: formulas(ops, lambda c, f: f"=({f[1:]})*100")))
case("calc.percent_change", "valid", "=E2/D2-1 form")(
    edited(lambda ops, t: formulas(ops, lambda c, f: re.sub(r"=\((\w+)-(\w+)\)/\2$", r"=\1/\2-1", f))))


def _off_by_row(ops: Ops, task: dict[str, Any]) -> Ops | None:
    op = cells_op(ops)
    if op is None:
        return None
    first = min((k for k, v in op["cells"].items() if isinstance(v, str) and v.startswith("=")),
                key=lambda k: int(re.sub(r"\D", "", k)))
    row = int(re.sub(r"\D", "", first))
    op["cells"][first] = re.sub(rf"(?<![$A-Z])([A-Z]+){row}(?!\d)", lambda m: f"{m.group(1)}{row + 1}",
                                op["cells"][first])
    return ops


case("calc.date_diff", "wrong", "first row's formula copied from the row below (refers to row 3)")(
    edited(_off_by_row))
case("calc.date_diff", "wrong", "date column moved one column right")(edited(_moved_right))
case("calc.date_diff", "valid", "mixed reference $C2 in every row")(
    edited(lambda ops, t: formulas(ops, lambda c, f: re.sub(r"(?<![$A-Z])([A-Z])(\d+)(?![\d(])", r"$\1\2", f))))


def _other_sheet_view(ops: Ops, task: dict[str, Any]) -> Ops | None:
    return None


def _wrong_sheet(wb: Any, task: dict[str, Any], ops: Ops) -> bool:
    return False


def _view_on_other_sheet(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    path = local(root, ops[0]["path"])
    wb = openpyxl.load_workbook(path)
    others = [n for n in wb.sheetnames if n != ops[0]["sheet"]]
    if not others:
        return False
    apply_ops(root, [{**ops[0], "sheet": others[0]}])
    return True


def _view_plus_gridlines(wb: Any, task: dict[str, Any], ops: Ops) -> bool:
    view = wb[ops[0]["sheet"]].sheet_view
    if view.showGridLines is False:
        return False
    view.showGridLines = False
    return True


def _active_and_cursor(wb: Any, task: dict[str, Any], ops: Ops) -> bool:
    sheet = ops[0].get("sheet")
    if sheet is None or sheet not in wb.sheetnames:
        return False
    wb.active = wb.sheetnames.index(sheet)
    for ws in wb.worksheets:
        ws.sheet_view.tabSelected = ws.title == sheet
    wb[sheet].sheet_view.selection[0].activeCell = "C3"
    wb[sheet].sheet_view.selection[0].sqref = "C3"
    return True


case("calc.view_settings", "wrong", "setting changed on another sheet, not the asked one")(_view_on_other_sheet)
case("calc.view_settings", "wrong", "the asked setting plus grid lines hidden too")(with_book(_view_plus_gridlines))
case("calc.view_settings", "valid", "the asked sheet left active with the cursor moved (as Calc saves)")(
    with_book(_active_and_cursor))


def _label_literal(ops: Ops, task: dict[str, Any]) -> Ops | None:
    op = cells_op(ops)
    return None if op is None else ops


def _cond_rows_down(ops: Ops, task: dict[str, Any]) -> Ops | None:
    op = cells_op(ops)
    if op is None:
        return None
    op["cells"] = {re.sub(r"\d+", lambda m: str(int(m.group()) + 1), k): v for k, v in op["cells"].items()}
    return ops


case("calc.conditional_sum", "wrong", "summary formulas one row down (beside the wrong labels)")(
    edited(_cond_rows_down))
case("calc.conditional_sum", "wrong", "last summary cell left empty")(
    edited(lambda ops, t: formulas(ops, lambda c, f: None if c == max(
        cells_op(ops)["cells"], key=lambda k: int(re.sub(r"\D", "", k))) else f)))  # type: ignore[index]
case("calc.conditional_sum", "valid", "whole-column ranges AVERAGEIF($B:$B,H2,$D:$D)")(
    edited(lambda ops, t: formulas(ops, lambda c, f: whole_columns(f))))


def _values_rounded(ops: Ops, task: dict[str, Any]) -> Ops | None:
    check = next(c for c in task["rubric"] if c["primitive"] == "xlsx.values_pasted")
    a = check["args"]
    return [{"op": "xlsx.set_cells", "path": a["path"], "sheet": a.get("sheet") or ops[0]["sheet"],
             "cells": {c: float(round(v)) for c, v in zip(a["cells"], a["expected"], strict=True)}}]


def _values_typed(ops: Ops, task: dict[str, Any]) -> Ops | None:
    check = next(c for c in task["rubric"] if c["primitive"] == "xlsx.values_pasted")
    a = check["args"]
    return [{"op": "xlsx.set_cells", "path": a["path"], "sheet": ops[0]["sheet"],
             "cells": dict(zip(a["cells"], a["expected"], strict=True))}]


def _half_pasted(ops: Ops, task: dict[str, Any]) -> Ops | None:
    first, last = ops[0]["ref"].split(":")
    a, b = int(re.sub(r"\D", "", first)), int(re.sub(r"\D", "", last))
    letters = re.sub(r"\d", "", last)
    ops[0]["ref"] = f"{first}:{letters}{(a + b) // 2}"
    return ops


case("calc.paste_values", "wrong", "values rounded to whole numbers")(edited(_values_rounded))
case("calc.paste_values", "wrong", "only the top half pasted")(edited(_half_pasted))
case("calc.paste_values", "valid", "each value typed in by hand (the same numbers)")(edited(_values_typed))


def _ods_original_deleted(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    local(root, ops[0]["path"]).unlink()
    return True


def _ods_wrong_name(ops: Ops, task: dict[str, Any]) -> Ops | None:
    src = ops[0]["path"]
    ops[0]["dest"] = src.rsplit(".", 1)[0] + ".ods"
    return None if ops[0]["dest"] == task["rubric"][0]["args"]["path"] else ops


def _soffice_ods(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    import subprocess
    src, dest = local(root, ops[0]["path"]), local(root, ops[0]["dest"])
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "ods",
                        "--outdir", out, str(src)], check=True, capture_output=True, timeout=180)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(out) / (src.stem + ".ods"), dest)
    return True


case("calc.save_ods", "wrong", "saved as ODS, the original xlsx deleted")(then(_ods_original_deleted))
case("calc.save_ods", "wrong", "ODS saved beside the original under its own name, not the asked one")(
    edited(_ods_wrong_name))
case("calc.save_ods", "valid", "the ODS written by LibreOffice itself (soffice --convert-to)")(_soffice_ods)


def _zero_text(ops: Ops, task: dict[str, Any]) -> Ops | None:
    for o in ops:
        if o["op"] == "xlsx.fill_blanks" and o.get("fill") == "zero":
            check = next(c for c in task["rubric"] if c["primitive"] == "xlsx.blanks_filled")
            o.update(op="xlsx.set_cells", cells={c: "0" for c in check["args"]["cells"]})
            for k in ("fill", "ref"):
                o.pop(k, None)
            return ops
    return None


def _freeze_b2(ops: Ops, task: dict[str, Any]) -> Ops | None:
    for o in ops:
        if o["op"] == "xlsx.freeze_panes" and o["cell"] == "A2":
            o["cell"] = "B2"
            return ops
    return None


def _currency_plain(ops: Ops, task: dict[str, Any]) -> Ops | None:
    for o in ops:
        if o["op"] == "xlsx.set_number_format" and "[$$-409]" in o["number_format"]:
            o["number_format"] = '"$"#,##0.00'
            return ops
    return None


case("calc.multi_edit", "wrong", "blank cells given the text '0', not the number")(edited(_zero_text))
case("calc.multi_edit", "wrong", "first row and first column frozen (B2), not the header row")(edited(_freeze_b2))
case("calc.multi_edit", "valid", 'currency written "$"#,##0.00 (Excel\'s form)')(edited(_currency_plain))


# ---------------------------------------------------------------------------------------------------- writer

def soffice_resave(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The oracle's end state, then its document opened and saved again by LibreOffice in the same format (what a
    person using Writer, Calc or Impress leaves)."""
    import subprocess
    apply_ops(root, ops)
    path = local(root, ops[0]["path"])
    filters = {".docx": 'docx:"MS Word 2007 XML"', ".pptx": 'pptx:"Impress MS PowerPoint 2007 XML"',
               ".xlsx": 'xlsx:"Calc MS Excel 2007 XML"'}
    if path.suffix not in filters:
        return False
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to",
                        filters[path.suffix].replace('"', ""), "--outdir", out, str(path)],
                       check=True, capture_output=True, timeout=180)
        shutil.copyfile(Path(out) / path.name, path)
    return True


def docx_paragraphs(root: Path, path: str) -> list[str]:
    import docx
    return [p.text for p in docx.Document(str(local(root, path))).paragraphs if p.text.strip()]


def _picture_at_start(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    first = docx_paragraphs(root, ops[0]["path"])[0]
    apply_ops(root, [{**ops[0], "after": first[:30]}])
    return True


case("writer.insert_image", "wrong", "picture put after the first paragraph, not at the end")(_picture_at_start)
case("writer.insert_image", "wrong", "picture inserted twice")(edited(lambda ops, t: ops + ops))
def _picture_args(task: dict[str, Any]) -> dict[str, Any]:
    return next(c["args"] for c in task["rubric"] if c["primitive"] == "docx.picture")


case("writer.insert_image", "valid", "picture scaled down to 8 cm wide, aspect kept (no width asked)")(
    edited(lambda ops, t: None if _picture_args(t).get("width_cm") else [
        {**ops[0], "width_cm": 8.0, "height_cm": 8.0 * _picture_args(t)["ratio"]}]))
case("writer.insert_image", "valid", "LibreOffice re-save")(soffice_resave)

case("writer.hyperlink", "wrong", "link to the site's home page, not the asked address")(
    edited(lambda ops, t: [{**ops[0], "url": re.sub(r"^(https?://[^/]+).*", r"\1/", ops[0]["url"])}]
           if re.match(r"^https?://[^/]+/.", ops[0]["url"]) else None))


def _link_and_bold(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    para = next(p for p in docx_paragraphs(root, ops[0]["path"]) if ops[0]["phrase"] in p)
    apply_ops(root, ops + [{"op": "docx.format_chars", "path": ops[0]["path"], "paragraph_start": para[:30],
                            "phrase": ops[0]["phrase"], "bold": True}])
    return True


case("writer.hyperlink", "wrong", "linked, and the phrase made bold too")(_link_and_bold)
case("writer.hyperlink", "valid", "LibreOffice re-save")(soffice_resave)


def _footnote_inline(ops: Ops, task: dict[str, Any]) -> Ops | None:
    o = ops[0]
    return [{"op": "docx.replace_text", "path": o["path"], "old": o["phrase"], "new": f"{o['phrase']} ({o['text']})"}]


def _footnote_paragraph_end(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    o = ops[0]
    text = next(p for p in docx_paragraphs(root, o["path"]) if p.startswith(o["paragraph_start"]))
    end = text.rstrip()[-12:]
    if o["phrase"].endswith(end) or text.count(end) != 1:
        return False
    apply_ops(root, [{**o, "phrase": end}])
    return True


case("writer.footnote", "wrong", "note typed into the text in brackets, no footnote")(edited(_footnote_inline))
case("writer.footnote", "wrong", "footnote at the end of the paragraph, not after the phrase")(_footnote_paragraph_end)
case("writer.footnote", "valid", "LibreOffice re-save")(soffice_resave)


def _bookmark_next(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    paras = docx_paragraphs(root, ops[0]["path"])
    i = next(i for i, p in enumerate(paras) if p.startswith(ops[0]["paragraph_start"]))
    if i + 1 >= len(paras):
        return False
    apply_ops(root, [{**ops[0], "paragraph_start": paras[i + 1][:30]}])
    return True


def _point_bookmark(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """A collapsed bookmark at the heading's start (Insert > Bookmark with the cursor there, nothing selected)."""
    import docx
    from docx.oxml.ns import qn
    apply_ops(root, ops)
    path = local(root, ops[0]["path"])
    document = docx.Document(str(path))
    for start in document.element.body.iter(qn("w:bookmarkStart")):
        if start.get(qn("w:name")) == ops[0]["name"]:
            ident = start.get(qn("w:id"))
            end = next(e for e in document.element.body.iter(qn("w:bookmarkEnd")) if e.get(qn("w:id")) == ident)
            end.getparent().remove(end)
            start.addnext(end)
            document.save(str(path))
            return True
    return False


case("writer.bookmark", "wrong", "bookmark on the paragraph after the asked one")(_bookmark_next)
case("writer.bookmark", "wrong", "the asked bookmark plus a stray second one ('name_old')")(
    edited(lambda ops, t: ops + [{**ops[0], "name": ops[0]["name"] + "_old"}]))
case("writer.bookmark", "valid", "a point bookmark at the heading's start (nothing selected)")(_point_bookmark)
case("writer.bookmark", "valid", "LibreOffice re-save")(soffice_resave)


case("writer.record_changes", "wrong", "recording set, and the change markup hidden too")(
    edited(lambda ops, t: ops + [{**ops[0], "show": False}]))
case("writer.record_changes", "wrong", "the opposite: recording switched on")(
    edited(lambda ops, t: [{**ops[0], "on": not ops[0]["on"]}]))
case("writer.record_changes", "valid", "w:trackRevisions written with an explicit w:val (0 / 1)")(
    edited(lambda ops, t: [{**ops[0], "value": "1" if ops[0]["on"] else "0"}]))
case("writer.record_changes", "valid", "LibreOffice re-save")(soffice_resave)


# ---------------------------------------------------------------------------------------------------- impress

def _deck_titles(root: Path, path: str) -> list[str]:
    import pptx
    deck = pptx.Presentation(str(local(root, path)))
    return [s.shapes.title.text if s.shapes.title is not None else "" for s in deck.slides]


def _unhidden_and_moved(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    titles = _deck_titles(root, ops[0]["path"])
    if titles[-1] == ops[0]["title"]:
        return False
    apply_ops(root, ops + [{"op": "pptx.move_slide", "path": ops[0]["path"], "title": ops[0]["title"],
                            "position": len(titles)}])
    return True


def _show_attribute(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    import pptx
    apply_ops(root, ops)
    path = local(root, ops[0]["path"])
    deck = pptx.Presentation(str(path))
    for slide in deck.slides:
        if slide.shapes.title is not None and slide.shapes.title.text == ops[0]["title"]:
            slide._element.set("show", "1")
    deck.save(str(path))
    return True


case("impress.unhide_slide", "wrong", "a visible copy added, the hidden slide left hidden")(
    lambda task, ops, root: bool(apply_ops(root, [{"op": "pptx.duplicate_slide", "path": ops[0]["path"],
        "title": ops[0]["title"], "position": _deck_titles(root, ops[0]["path"]).index(ops[0]["title"]) + 1}]))
    or True)
case("impress.unhide_slide", "wrong", "unhidden and moved to the end")(_unhidden_and_moved)
case("impress.unhide_slide", "valid", 'show="1" written instead of the attribute removed')(_show_attribute)
case("impress.unhide_slide", "valid", "LibreOffice re-save")(soffice_resave)

case("impress.footer", "wrong", "footer text with a dash for the colon")(
    edited(lambda ops, t: [{**ops[0], "text": ops[0]["text"].replace(":", " -")}] if ":" in ops[0]["text"] else
           [{**ops[0], "text": ops[0]["text"] + "."}]))
case("impress.footer", "wrong", "footer set, and slide numbers turned on too")(
    edited(lambda ops, t: ops + [{"op": "pptx.set_slide_numbers", "path": ops[0]["path"], "skip": ops[0]["skip"]}]))
case("impress.footer", "valid", "LibreOffice re-save")(soffice_resave)


def _numbers_but_one(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    titles = [t for t in _deck_titles(root, ops[0]["path"]) if t]
    skip = list(ops[0].get("skip") or [])
    rest = [t for t in titles[1:] if t not in skip]
    if not rest:
        return False
    apply_ops(root, [{**ops[0], "skip": skip + [rest[-1]]}])
    return True


case("impress.slide_number", "wrong", "numbers on every slide but the last")(_numbers_but_one)
case("impress.slide_number", "wrong", "numbers set, and a footer text typed too")(
    edited(lambda ops, t: ops + [{"op": "pptx.set_footer", "path": ops[0]["path"], "skip": ops[0]["skip"],
                                  "text": "Page"}]))
case("impress.slide_number", "valid", "LibreOffice re-save")(soffice_resave)


def _layout_also_other(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    others = next(c["args"]["others"] for c in task["rubric"] if c["primitive"] == "pptx.layout_linked")
    other = [o for o in others[1:] if o != ops[0]["title"]]
    if not other:
        return False
    apply_ops(root, ops + [{**ops[0], "title": other[0]}])
    return True


case("impress.slide_layout", "wrong", "the asked slide and the next one both relinked")(_layout_also_other)
case("impress.slide_layout", "wrong", "the layout of the slide before the asked one changed instead")(
    lambda task, ops, root: _layout_instead(task, ops, root))


def _layout_instead(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    titles = _deck_titles(root, ops[0]["path"])
    i = titles.index(ops[0]["title"])
    if i == 0:
        return False
    apply_ops(root, [{**ops[0], "title": titles[i - 1]}])
    return True


case("impress.slide_layout", "valid", "LibreOffice re-save")(soffice_resave)


# ---------------------------------------------------------------------------------------------------- driver

def home(package: Path, root: Path) -> dict[str, Any]:
    task = json.loads((package / "task.json").read_text())
    for asset in task["setup"]["assets"]:
        dest = local(root, asset["dest"])
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(package / asset["file"], dest)
    return task


def oracle_ops(package: Path, task: dict[str, Any]) -> Ops:
    return json.loads((package / task["solutions"]["oracle"]).read_text())["ops"]


def judge(task: dict[str, Any], root: Path) -> tuple[bool, str]:
    outcomes = evaluate_rubric(task, root)
    failed = [f"{o.id}: {o.evidence}"[:160] for o in outcomes if not o.passed]
    return not failed, "; ".join(failed[:2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-family", type=int, default=3)
    parser.add_argument("--family", action="append")
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    rows = []
    for family, cases in CASES.items():
        if options.family and family not in options.family:
            continue
        packages = sorted(p.parent for p in (options.out / family).glob("*/*/task.json")
                          if p.parts[-3] != "rejected")[:options.per_family]
        for package in packages:
            for kind, label, build in cases:
                with tempfile.TemporaryDirectory() as state:
                    root = Path(state)
                    task = home(package, root)
                    try:
                        applied = build(task, oracle_ops(package, task), root)
                    except Exception as exc:  # noqa: BLE001 - a case that cannot be built is reported, not fatal
                        rows.append((family, package.name, kind, label, "error", f"{type(exc).__name__}: {exc}"))
                        continue
                    if not applied:
                        continue
                    passed, why = judge(task, root)
                    bad = passed if kind == "wrong" else not passed
                    rows.append((family, package.name, kind, label, "LAX" if bad and kind == "wrong" else
                                 "STRICT" if bad else "ok", why))
                    for path in root.rglob("*"):
                        if path.is_dir() and not path.is_symlink():
                            path.chmod(0o755)
    tally: Counter[tuple[str, str, str]] = Counter()
    for family, name, kind, label, verdict, why in rows:
        tally[(family.split(".")[0], kind, verdict)] += 1
        print(f"{verdict:6} {family:26} {name[:18]:18} {kind:5} {label[:70]:70} {why[:150]}")
    print()
    for app in sorted({k[0] for k in tally}):
        wrong = sum(v for k, v in tally.items() if k[:2] == (app, "wrong") and k[2] != "error")
        valid = sum(v for k, v in tally.items() if k[:2] == (app, "valid") and k[2] != "error")
        print(f"{app:8} wrong passed {tally[(app, 'wrong', 'LAX')]}/{wrong}  "
              f"valid rejected {tally[(app, 'valid', 'STRICT')]}/{valid}  "
              f"errors {tally[(app, 'wrong', 'error')] + tally[(app, 'valid', 'error')]}")
    if options.json:
        options.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
