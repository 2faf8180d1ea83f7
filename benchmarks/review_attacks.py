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
from email.utils import parseaddr
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


def _toc_at_start(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    first = docx_paragraphs(root, ops[0]["path"])[0]
    if first.startswith(ops[0]["before"]):
        return False
    apply_ops(root, [{**ops[0], "before": first[:30]}])
    return True


case("writer.table_of_contents", "wrong", "table of contents above the title, not above the asked heading")(
    _toc_at_start)
case("writer.table_of_contents", "wrong", "two tables of contents (one more at the end)")(
    edited(lambda ops, t: ops + [{**ops[0], "at_end": True}]))
case("writer.table_of_contents", "valid", "LibreOffice re-save")(soffice_resave)


def _xref_other_bookmark(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    import docx
    from docx.oxml.ns import qn
    document = docx.Document(str(local(root, ops[0]["path"])))
    names = [b.get(qn("w:name")) for b in document.element.body.iter(qn("w:bookmarkStart"))]
    other = [n for n in names if n and n != ops[0]["name"] and not n.startswith("_")]
    if not other:
        return False
    apply_ops(root, [{**ops[0], "name": other[0]}])
    return True


def _xref_simple_field(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The REF field written as one w:fldSimple (as Word writes a field it made), not begin/instr/separate/end."""
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls, qn
    apply_ops(root, ops)
    path = local(root, ops[0]["path"])
    document = docx.Document(str(path))
    for p in document.element.body.iter(qn("w:p")):
        runs = list(p.iter(qn("w:r")))
        begin = next((i for i, r in enumerate(runs) for c in r.iter(qn("w:fldChar"))
                      if c.get(qn("w:fldCharType")) == "begin"), None)
        if begin is None:
            continue
        instr = "".join(t.text or "" for r in runs[begin:] for t in r.iter(qn("w:instrText")))
        if "REF" not in instr:
            continue
        end = next(i for i, r in enumerate(runs) if i > begin for c in r.iter(qn("w:fldChar"))
                   if c.get(qn("w:fldCharType")) == "end")
        sep = next(i for i, r in enumerate(runs) if i > begin for c in r.iter(qn("w:fldChar"))
                   if c.get(qn("w:fldCharType")) == "separate")
        shown = "".join(t.text or "" for r in runs[sep + 1:end] for t in r.iter(qn("w:t")))
        simple = parse_xml(f'<w:fldSimple {nsdecls("w")} w:instr="{instr.strip()}"><w:r><w:t xml:space="preserve">'
                           f'{shown}</w:t></w:r></w:fldSimple>')
        runs[begin].addprevious(simple)
        for r in runs[begin:end + 1]:
            r.getparent().remove(r)
        document.save(str(path))
        return True
    return False


case("writer.cross_reference", "wrong", "cross-reference to another bookmark of the document")(_xref_other_bookmark)
case("writer.cross_reference", "wrong", "cross-reference inserted, the [ref] placeholder left too")(
    edited(lambda ops, t: [{**ops[0], "at_end": True}]))
case("writer.cross_reference", "valid", "the REF field as one w:fldSimple (as Word writes it)")(_xref_simple_field)
case("writer.cross_reference", "valid", "LibreOffice re-save")(soffice_resave)


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


def _visible_copy(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    position = _deck_titles(root, ops[0]["path"]).index(ops[0]["title"]) + 1
    apply_ops(root, [{"op": "pptx.duplicate_slide", "path": ops[0]["path"], "title": ops[0]["title"],
                      "position": position}])
    return True


case("impress.unhide_slide", "wrong", "a visible copy added, the hidden slide left hidden")(_visible_copy)
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


case("impress.save_odp", "wrong", "saved as ODP, the original pptx deleted")(then(_ods_original_deleted))


def _renamed_not_converted(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    dest = local(root, ops[0]["dest"])
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(local(root, ops[0]["path"]), dest)
    return True


def _soffice_odp(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    import subprocess
    src, dest = local(root, ops[0]["path"]), local(root, ops[0]["dest"])
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "odp",
                        "--outdir", out, str(src)], check=True, capture_output=True, timeout=180)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(out) / (src.stem + ".odp"), dest)
    return True


case("impress.save_odp", "wrong", "a copy of the pptx named .odp (renamed, not converted)")(_renamed_not_converted)
case("impress.save_odp", "valid", "the ODP written by LibreOffice itself (soffice --convert-to)")(_soffice_odp)


def _background_first_only(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    titles = [t for t in _deck_titles(root, ops[0]["path"]) if t]
    if ops[0].get("title") or len(titles) < 2:
        return False
    apply_ops(root, [{**ops[0], "title": titles[0]}])
    return True


def _background_but_last(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    titles = [t for t in _deck_titles(root, ops[0]["path"]) if t]
    if ops[0].get("title") or len(titles) < 2:
        return False
    apply_ops(root, [{**ops[0], "skip": list(ops[0].get("skip") or []) + [titles[-1]]}])
    return True


case("impress.image_background", "wrong", "picture as the background of the first slide only")(
    _background_first_only)
case("impress.image_background", "wrong", "picture as the background of every slide but the last")(
    _background_but_last)
case("impress.image_background", "valid", "picture as the master's background (Impress: apply to all slides)")(
    edited(lambda ops, t: None if ops[0].get("title") or ops[0].get("skip") else [{**ops[0], "master": True}]))
case("impress.image_background", "valid", "LibreOffice re-save")(soffice_resave)


# ---------------------------------------------------------------------------------------------------- chrome

CHROME = "/home/user/.config/google-chrome/Default/"


def _browsed(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The oracle's end state plus what Chrome leaves behind while browsing the task's site: a History with the
    visits, a cache folder, Current Session."""
    apply_ops(root, ops)
    site = next((c["args"].get("site") for c in task["rubric"] if c["args"].get("site")), None) or \
        "http://127.0.0.1:8000/"
    history = local(root, CHROME + "History")
    if not history.exists():  # Chrome makes it on the first visit
        from preparers.ops.chrome_history import build_history
        history.write_bytes(build_history([{"url": site, "title": "Home", "visits": [13_380_000_000_000_000]}]))
    apply_ops(root, [{"op": "chromehist.visit", "path": CHROME + "History", "url": site + "store.html",
                      "title": "Store"}])
    cache = local(root, CHROME + "Cache/Cache_Data")
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "index").write_bytes(b"\0" * 64)
    (local(root, CHROME) / "Current Session").write_bytes(b"SNSS\x01\0\0\0")
    return True


def _bookmark_args(task: dict[str, Any]) -> dict[str, Any]:
    return next(c["args"] for c in task["rubric"] if c["primitive"] == "chrome.page_bookmarked")


case("chrome.web_bookmark", "wrong", "bookmark to the site's home page, not the product page")(
    edited(lambda ops, t: [{"op": "chromebm.add_bookmark", "path": ops[0]["path"], "folder": ops[0]["folder"],
                            "name": ops[0]["name"], "url": _bookmark_args(t)["site"]}]))
case("chrome.web_bookmark", "wrong", "bookmark saved under Other bookmarks, not the asked folder")(
    edited(lambda ops, t: None if ops[0]["folder"] == ["Other bookmarks"] else [
        {"op": "chromebm.add_bookmark", "path": ops[0]["path"], "folder": ["Other bookmarks"],
         "name": ops[0]["name"], "url": ops[0]["url"]}]))
case("chrome.web_bookmark", "valid", "the site browsed first (History, cache, session files)")(_browsed)


def _other_guide(ops: Ops, task: dict[str, Any]) -> Ops | None:
    src = ops[0]["path"]
    others = sorted(a["dest"] for a in task["setup"]["assets"]
                    if a["dest"].startswith(src.rsplit("/", 1)[0] + "/") and a["dest"] != src)
    if not others:
        return None
    return [{**ops[0], "path": others[0], "dest": ops[0]["dest"].rsplit("/", 1)[0] + "/" + others[0].rsplit("/", 1)[1]}]


case("chrome.web_download", "wrong", "downloaded into ~/Downloads (Chrome's default), not the asked folder")(
    edited(lambda ops, t: None if "/Downloads/" in ops[0]["dest"] else [
        {**ops[0], "dest": HOME + "Downloads/" + ops[0]["dest"].rsplit("/", 1)[1]}]))
case("chrome.web_download", "wrong", "another product's care guide downloaded")(edited(_other_guide))
case("chrome.web_download", "valid", "the site browsed first (History, cache, session files)")(_browsed)


def _lookup_other_day(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    o = ops[0]
    m = re.match(r"<td>(\w+)</td>", o["pattern"])
    if m is None:
        return False
    pages = "\n".join(p.read_text(errors="replace") for p in local(root, o["site_dir"]).rglob("*.html"))
    found = [a for a in re.findall(r"<td>\w+</td><td>([^<]+)</td>", pages) if a != o["text"]]
    if not found:
        return False
    apply_ops(root, [{**o, "text": found[0]}])
    return True


case("chrome.web_lookup", "wrong", "another row's value of the same table written")(_lookup_other_day)
case("chrome.web_lookup", "wrong", "answer written beside the asked file (its folder's parent)")(
    edited(lambda ops, t: [{**ops[0], "path": _one_up(ops[0]["path"])}] if ops[0]["path"].count("/") > 4 else None))


def _one_up(path: str) -> str:
    return path.rsplit("/", 2)[0] + "/" + path.rsplit("/", 1)[1]


def _lookup_no_newline(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    _browsed(task, ops, root)
    local(root, ops[0]["path"]).write_text(ops[0]["text"])
    return True


case("chrome.web_lookup", "valid", "answer without a final newline, the site browsed first")(_lookup_no_newline)


# ---------------------------------------------------------------------------------------------------- thunderbird

case("tb.filter_action", "wrong", "filter saved but disabled")(edited(lambda ops, t: [{**ops[0], "enabled": False}]))
case("tb.filter_action", "wrong", "condition 'is' the address, not 'contains' (never matches 'Name <addr>')")(
    edited(lambda ops, t: [{**ops[0], "conditions": [[c[0], "is", c[2]] if c[1] == "contains" else c
                                                     for c in ops[0]["conditions"]]}]
           if any(c[1] == "contains" for c in ops[0]["conditions"]) else None))
case("tb.filter_action", "valid", "filter runs on getting new mail only (type 1, not also manually)")(
    edited(lambda ops, t: [{**ops[0], "type": 1}]))


def _sig_identity(ops: Ops) -> str:
    return re.match(r"(mail\.identity\.\w+)\.", ops[0]["name"]).group(1)  # type: ignore[union-attr]


case("tb.signature", "wrong", "file chosen, 'attach the signature from a file' left unticked")(
    edited(lambda ops, t: [o for o in ops if not o["name"].endswith(".attach_signature")]
           if any(o["name"].endswith(".attach_signature") for o in ops) else None))
case("tb.signature", "wrong", "signature set on another identity (id9)")(
    edited(lambda ops, t: [{**o, "name": o["name"].replace(_sig_identity(ops) + ".", "mail.identity.id9.")}
                           for o in ops]))
case("tb.signature", "valid", "the dialog's OK also writes the defaults sig_bottom and sig_on_reply")(
    edited(lambda ops, t: ops + [{**ops[0], "name": _sig_identity(ops) + ".sig_bottom", "value": True},
                                 {**ops[0], "name": _sig_identity(ops) + ".sig_on_reply", "value": True}]))


case("tb.save_draft", "wrong", "draft saved without the attachment")(
    edited(lambda ops, t: [{**ops[0], "attachments": []}] if ops[0].get("attachments") else None))
case("tb.save_draft", "wrong", "the message saved in Sent (sent, not a draft)")(
    edited(lambda ops, t: [{**ops[0], "folder": "Sent"}]))
case("tb.save_draft", "valid", "recipient typed as the bare address (no display name)")(
    edited(lambda ops, t: [{**ops[0], "to": [parseaddr(a)[1] for a in ops[0]["to"]]}]))


case("tb.export_contacts", "wrong", "exported as vCard under the asked .csv name")(
    edited(lambda ops, t: [{**ops[0], "format": "vcf"}] if ops[0]["format"] == "csv" else
           [{**ops[0], "format": "csv"}]))
case("tb.export_contacts", "wrong", "exported into Documents, not the asked folder")(
    edited(lambda ops, t: [{**ops[0], "dest": HOME + "Documents/" + ops[0]["dest"].rsplit("/", 1)[1]}]
           if ops[0]["dest"].rsplit("/", 1)[0] != HOME + "Documents" else None))


def _export_crlf(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    apply_ops(root, ops)
    path = local(root, ops[0]["dest"])
    data = path.read_bytes()
    if b"\r\n" in data:
        path.write_bytes(data.replace(b"\r\n", b"\n"))
    else:
        path.write_bytes(data.replace(b"\n", b"\r\n"))
    return True


case("tb.export_contacts", "valid", "the same export with the other line ending (CRLF / LF)")(_export_crlf)


case("tb.delete_messages", "wrong", "messages moved to Archives, not deleted")(
    edited(lambda ops, t: [{**ops[0], "target": "Archives"}]))
case("tb.delete_messages", "wrong", "only the first match deleted")(
    edited(lambda ops, t: [{**ops[0], "limit": 1}]))


def _compacted(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The deleted messages' copies dropped from the source mbox (File > Compact Folders), as Thunderbird does."""
    from preparers import thunderbird as tbk
    apply_ops(root, ops)
    source = local(root, ops[0]["path"]) / tbk.folder_file(ops[0]["source"])
    entries = tbk.split_mbox(source.read_bytes())
    kept = [e for e in entries if not tbk.status_flags(e) & tbk.EXPUNGED]
    if len(kept) == len(entries):
        return False
    source.write_bytes(b"".join(kept))
    return True


case("tb.delete_messages", "valid", "the Inbox compacted after the delete (File > Compact Folders)")(_compacted)


# ---------------------------------------------------------------------------------------------------- gimp

def _gimp_config(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The oracle's end state plus what GIMP writes on quitting (its profile) and a thumbnail of the saved file."""
    apply_ops(root, ops)
    conf = root / ".config/GIMP/2.10"
    conf.mkdir(parents=True, exist_ok=True)
    for name in ("sessionrc", "pluginrc", "gimprc", "devicerc", "profilerc"):
        (conf / name).write_text(f"# GIMP {name}\n")
    thumbs = root / ".cache/thumbnails/normal"
    thumbs.mkdir(parents=True, exist_ok=True)
    (thumbs / "0f3c.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return True


def _image_out(ops: Ops) -> str:
    return next((o["dest"] for o in ops if "dest" in o), ops[-1]["path"])


def _pil(root: Path, path: str, change: Callable[[Any], Any], **save: Any) -> None:
    from PIL import Image
    host = local(root, path)
    with Image.open(host) as img:
        fmt = img.format
        out = change(img.copy())
    out.save(host, format=fmt, **save)


def _half_image(img: Any, op: Callable[[Any], Any]) -> Any:
    w, h = img.size
    top = op(img.crop((0, 0, w, h // 2)))
    img.paste(top, (0, 0))
    return img


def _flip_original_too(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    from PIL import Image
    apply_ops(root, ops)
    if "dest" not in ops[-1]:
        return False
    _pil(root, ops[0]["path"], lambda img: img.transpose(Image.Transpose.FLIP_LEFT_RIGHT if
                                                          ops[0]["axis"] == "horizontal" else
                                                          Image.Transpose.FLIP_TOP_BOTTOM))
    return True


def _flip_wrong_folder(ops: Ops, task: dict[str, Any]) -> Ops | None:
    dest = ops[-1].get("dest")
    if dest is None or dest.count("/") < 5:
        return None
    ops[-1]["dest"] = dest.rsplit("/", 2)[0] + "/" + dest.rsplit("/", 1)[1]
    return ops


def _jpeg_quality(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    apply_ops(root, ops)
    out = _image_out(ops)
    if not out.lower().endswith((".jpg", ".jpeg")):
        return _gimp_config(task, [], root)
    _pil(root, out, lambda img: img, quality=95, progressive=True)
    return True


case("gimp.flip", "wrong", "mirrored copy saved, and the original mirrored too")(_flip_original_too)
case("gimp.flip", "wrong", "mirrored copy saved one folder up")(edited(_flip_wrong_folder))
case("gimp.flip", "valid", "exported at JPEG quality 95, progressive (or GIMP's profile written)")(_jpeg_quality)
case("gimp.flip", "valid", "GIMP's profile and a thumbnail written on quitting")(_gimp_config)


def _invert_half(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    from PIL import ImageOps
    _pil(root, ops[0]["path"], lambda img: _half_image(img.convert("RGB"), ImageOps.invert))
    return True


def _invert_gray(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    from PIL import ImageOps
    _pil(root, ops[0]["path"], lambda img: ImageOps.invert(img.convert("L")).convert("RGB"))
    return True


case("gimp.invert", "wrong", "only the top half inverted (a selection was active)")(_invert_half)
case("gimp.invert", "wrong", "desaturated and inverted (a grey negative)")(_invert_gray)
case("gimp.invert", "valid", "GIMP's profile and a thumbnail written on quitting")(_gimp_config)


def _bg_white(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    from PIL import Image
    apply_ops(root, ops)

    def whiten(img: Any) -> Any:
        img = img.convert("RGBA")
        white = Image.new("RGBA", img.size, (255, 255, 255, 255))
        white.alpha_composite(img)
        return white
    _pil(root, _image_out(ops), whiten)
    return True


def _bg_original_deleted(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    apply_ops(root, ops)
    if "dest" not in ops[-1]:
        return False
    local(root, ops[0]["path"]).unlink()
    return True


case("gimp.remove_background", "wrong", "background painted white, not made transparent")(_bg_white)
case("gimp.remove_background", "wrong", "PNG saved, the original deleted")(_bg_original_deleted)
case("gimp.remove_background", "valid", "GIMP's profile and a thumbnail written on quitting")(_gimp_config)


case("gimp.canvas_border", "wrong", "border only left and right (top and bottom 0)")(
    edited(lambda ops, t: [{**ops[0], "top": 0, "bottom": 0}]))


def _border_inside(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The picture shrunk so that picture and border keep the original size."""
    from PIL import Image
    o = ops[0]

    def shrink(img: Any) -> Any:
        w, h = img.size
        inner = img.resize((w - o["left"] - o["right"], h - o["top"] - o["bottom"]))
        out = Image.new(img.mode, (w, h), o["color"])
        out.paste(inner, (o["left"], o["top"]))
        return out
    _pil(root, o["path"], shrink)
    return True


case("gimp.canvas_border", "wrong", "picture shrunk to fit the border inside the old size")(_border_inside)
case("gimp.canvas_border", "valid", "exported at JPEG quality 95, progressive (or GIMP's profile written)")(
    _jpeg_quality)


# ---------------------------------------------------------------------------------------------------- vscode

def _vscode_state(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The oracle's end state plus what VS Code writes as it runs (its user state, a workspace's storage)."""
    apply_ops(root, ops)
    user = root / ".config/Code/User"
    (user / "globalStorage").mkdir(parents=True, exist_ok=True)
    (user / "globalStorage/storage.json").write_text("{}\n")
    (user / "workspaceStorage/1a2b").mkdir(parents=True, exist_ok=True)
    (user / "workspaceStorage/1a2b/workspace.json").write_text("{}\n")
    return True


def _text_edit(change: Callable[[str], str | None]) -> Callable[[dict[str, Any], Ops, Path], bool]:
    def after(task: dict[str, Any], ops: Ops, root: Path) -> bool:
        host = local(root, ops[0]["path"])
        new = change(host.read_text())
        if new is None:
            return False
        host.write_bytes(new.encode())
        return True
    return after


def _comment_out(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    host = local(root, ops[0]["path"])
    before = host.read_text().splitlines(keepends=True)
    apply_ops(root, ops)
    after = host.read_text().splitlines(keepends=True)
    i = next((k for k, (a, b) in enumerate(zip(before, after, strict=False)) if a != b), len(after))
    gone = len(before) - len(after)
    if gone <= 0:
        return False
    commented = [("# " + line if line.strip() else line) for line in before[i:i + gone]]
    host.write_text("".join(before[:i] + commented + before[i + gone:]))
    return True


case("vscode.edit_file", "wrong", "function commented out, not deleted")(_comment_out)
case("vscode.edit_file", "wrong", "function deleted, the file saved with CRLF line endings")(
    then(_text_edit(lambda text: text.replace("\n", "\r\n"))))
case("vscode.edit_file", "valid", "VS Code's user and workspace state written")(_vscode_state)

case("vscode.new_file", "wrong", "entries in reverse order (where the order is asked)")(
    edited(lambda ops, t: [{**ops[0], "text": "\n".join(reversed(ops[0]["text"].strip("\n").split("\n"))) + "\n"}]
           if ops[0]["text"].count("\n") > 1 and any(
               c["args"].get("ordered") for c in t["rubric"] if c["primitive"] == "text.file_entries") else None))
case("vscode.new_file", "wrong", "file made one folder up")(
    edited(lambda ops, t: [{**ops[0], "path": ops[0]["path"].rsplit("/", 2)[0] + "/" +
                            ops[0]["path"].rsplit("/", 1)[1]}]))
case("vscode.new_file", "valid", "no newline after the last entry, VS Code state written")(
    lambda task, ops, root: _vscode_state(task, [{**ops[0], "text": ops[0]["text"].rstrip("\n")}], root))


case("vscode.install_vsix", "wrong", "installed, and the .vsix deleted from Downloads")(
    then(lambda task, ops, root: _unlink(local(root, ops[0]["path"]))))


def _unlink(path: Path) -> bool:
    path.unlink()
    return True


def _vsix_unzipped_only(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """The .vsix unzipped into ~/.vscode/extensions by hand: its extension/ folder, no registry entry."""
    import zipfile
    vsix = local(root, ops[0]["path"])
    name = vsix.stem
    dest = root / ".vscode/extensions" / name
    with zipfile.ZipFile(vsix) as zf:
        for info in zf.infolist():
            if info.filename.startswith("extension/") and not info.is_dir():
                target = dest / info.filename.removeprefix("extension/")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(info))
    return True


case("vscode.install_vsix", "wrong", "unzipped into ~/.vscode/extensions by hand, not registered")(
    _vsix_unzipped_only)
case("vscode.install_vsix", "valid", "VS Code's user and workspace state written")(_vscode_state)


def _git(root: Path, repo: str, *args: str) -> bool:
    import subprocess
    subprocess.run(["git", "-C", str(local(root, repo)), "-c", "user.name=U", "-c", "user.email=u@x", *args],
                   check=True, capture_output=True, timeout=60)
    return True


case("vscode.git_branch", "wrong", "a mistyped branch made first and left behind")(
    then(lambda task, ops, root: _git(root, ops[0]["path"], "branch", ops[0]["name"] + "s")))
case("vscode.git_branch", "wrong", "the branch made and switched to, and a stray tag")(
    then(lambda task, ops, root: _git(root, ops[0]["path"], "tag", "wip")))
case("vscode.git_branch", "valid", "refs packed (git pack-refs --all, as git gc does)")(
    then(lambda task, ops, root: _git(root, ops[0]["path"], "pack-refs", "--all")))

case("vscode.git_commit", "wrong", "committed, and a stray branch 'backup' made")(
    then(lambda task, ops, root: _git(root, ops[0]["path"], "branch", "backup")))
case("vscode.git_commit", "wrong", "message with the issue number dropped / a word changed")(
    edited(lambda ops, t: [{**ops[0], "message": re.sub(r"\s*\(#\d+\)", "", ops[0]["message"])
                            if "(#" in ops[0]["message"] else ops[0]["message"] + " (wip)"}]))
case("vscode.git_commit", "valid", "objects and refs packed afterwards (git gc)")(
    then(lambda task, ops, root: _git(root, ops[0]["path"], "gc", "--quiet")))


# ---------------------------------------------------------------------------------------------------- os

def _env_args(task: dict[str, Any]) -> dict[str, Any]:
    return next(c["args"] for c in task["rubric"] if c["primitive"] == "env.variable_set")


def _env_line(ops: Ops, task: dict[str, Any], line: str, path: str | None = None) -> Ops | None:
    if ops[0]["op"] != "fs.append_text" or _env_args(task).get("syntax") != "shell":
        return None
    return [{**ops[0], "text": line + "\n", **({"path": path} if path else {})}]


def _env_value(task: dict[str, Any]) -> str:
    value = str(_env_args(task)["value"])
    return value.capitalize() if value != value.capitalize() else value + "x"


case("os.env_var", "wrong", "exported from ~/.profile, not the asked file")(
    edited(lambda ops, t: None if ops[0]["path"].endswith("/.profile") or "text" not in ops[0] else
           _env_line(ops, t, ops[0]["text"].strip(), HOME + ".profile")))
case("os.env_var", "wrong", "the value with another case (True for true) / a stray suffix")(
    edited(lambda ops, t: _env_line(ops, t, f"export {_env_args(t)['name']}={_env_value(t)}")))
case("os.env_var", "valid", 'quoted value and a comment line: # pip\\nexport NAME="value"')(
    edited(lambda ops, t: _env_line(ops, t, f"# set by me\nexport {_env_args(t)['name']}=\"{_env_args(t)['value']}\"")))


def _ssh_args(task: dict[str, Any]) -> dict[str, Any]:
    return next(c["args"] for c in task["rubric"] if c["primitive"] == "ssh.host_options")


def _ssh_after_star(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    o = ops[0]
    if o["op"] != "fs.replace_in_file" or o["old"] != "Host *\n":
        return False
    block = o["new"].removesuffix("Host *\n").rstrip("\n")
    host = local(root, o["path"])
    host.write_text(host.read_text().rstrip("\n") + "\n\n" + block + "\n")
    text = host.read_text()
    star = text[text.index("Host *"):]
    return bool(re.search(r"^\s*(User|Port|IdentityFile|HostName)\b", star.split("Host " + _ssh_args(task)["alias"])[0],
                          re.M | re.I))


case("os.ssh_config", "wrong", "entry appended after 'Host *' whose options then win")(_ssh_after_star)
case("os.ssh_config", "wrong", "the Host line names the server, not the alias (`ssh ALIAS` finds nothing)")(
    edited(lambda ops, t: [{**ops[0], "new": ops[0]["new"].replace(
        f"Host {_ssh_args(t)['alias']}\n", f"Host {_ssh_args(t)['hostname']}\n", 1)}]
        if f"Host {_ssh_args(t)['alias']}\n" in ops[0].get("new", "") else None))
case("os.ssh_config", "wrong", "IdentityFile names the public key (.pub)")(
    edited(lambda ops, t: [{**ops[0], "new": re.sub(r"(IdentityFile \S+)", r"\1.pub", ops[0]["new"], count=1)}]
           if "IdentityFile" in ops[0].get("new", "") else None))
case("os.ssh_config", "valid", "keywords in lower case with '=' (hostname=..., port=...)")(
    edited(lambda ops, t: [{**ops[0], "new": re.sub(
        r"^(\s+)(HostName|User|Port|IdentityFile) (\S+)$", lambda m: f"{m.group(1)}{m.group(2).lower()}={m.group(3)}",
        ops[0]["new"], flags=re.M)}] if ops[0]["op"] == "fs.replace_in_file" else None))


case("os.install_wheel", "wrong", "package files installed, no csvpeek command in ~/.local/bin")(
    edited(lambda ops, t: [{**ops[0], "scripts": False}]))
case("os.install_wheel", "wrong", "command installed without the execute bit")(
    edited(lambda ops, t: [{**ops[0], "script_mode": "644"}]))


def _pycache(task: dict[str, Any], ops: Ops, root: Path) -> bool:
    """pip's install: the package byte-compiled (__pycache__/*.pyc beside each module)."""
    apply_ops(root, ops)
    mods = [p for p in (root / ".local/lib").rglob("*.py") if "dist-info" not in str(p)]
    for mod in mods:
        cache = mod.parent / "__pycache__"
        cache.mkdir(exist_ok=True)
        (cache / f"{mod.stem}.cpython-311.pyc").write_bytes(b"\xa7\r\r\n" + b"\0" * 12)
    return bool(mods)


case("os.install_wheel", "valid", "modules byte-compiled as pip does (__pycache__)")(_pycache)


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
