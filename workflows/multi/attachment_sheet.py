"""multi.attachment_sheet: a table mailed as a CSV or xlsx attachment becomes a Calc workbook at a stated path,
optionally sorted by a stated column or given a SUM totals row (Thunderbird -> Calc).

The Inbox also holds an earlier draft of the same table from the same sender (same attachment file name,
other rows), so converting the wrong message shows; the rows themselves are never stated, only where they
come from, and the check compares them by meaning (a CSV import may type "12.50" as 12.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import HOME, Check, Solution
from preparers import thunderbird as tb
from preparers import xlsx
from workflows.calc import kit as cc
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.attachment_sheet"
DIRS = {"documents": "Documents", "desktop": "Desktop", "new_folder": "Documents/{sub}"}
SUBFOLDERS = ("Shared Tables", "From Email", "Team Data", "Imports", "Reports {y}", "Figures {y}")
MKDIR = " Create that folder if it does not exist yet."
TYPES = {"csv": "text/csv", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
PHRASINGS = (
    "In Thunderbird, open the message '{subject}' from {sender} (received {date}). {convert}{mkdir}{post}",
    "The email '{subject}' that {sender} sent on {date} carries the table {filename}. {convert}{mkdir}{post}",
    "Please get the table attached to '{subject}' ({sender}, {date}) into a spreadsheet: {convert_lower}{mkdir}"
    "{post}",
    "Find the mail from {sender} with the subject '{subject}', dated {date}, in Thunderbird. {convert}{mkdir}{post}",
    "Using Thunderbird and LibreOffice Calc, take the attachment {filename} of the message '{subject}' from "
    "{sender} ({date}). {convert}{mkdir}{post}",
)


def _decoy_rows(rng: Any, layout: cc.Layout) -> list[list[Any]]:
    """An earlier draft: two rows fewer and the numeric columns shuffled, so no row is the same."""
    rows = [list(r) for r in layout.rows[:-2]]
    for col in layout.columns_of(*cc.NUMERIC_KINDS):
        values = [r[col] for r in rows]
        rng.shuffle(values)
        values = values[1:] + values[:1] if any(v == r[col] for v, r in zip(values, rows, strict=True)) else values
        for row, value in zip(rows, values, strict=True):
            row[col] = value
    return rows


def _attachment(source: str, filename: str, layout: cc.Layout) -> tb.Attachment:
    data = (mc.csv_bytes(layout.header, layout.rows) if source == "csv"
            else xlsx.build(cc.workbook_spec(layout)))
    return tb.Attachment(filename, TYPES[source], data)


def _post(rng: Any, post: str, layout: cc.Layout, sheet: str, facts: dict[str, Any]) -> dict[str, Any]:
    """What the post-processing step asks for: the column, the sort or the totals cell; states it in `facts`."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    if post.startswith("sort"):
        col = rng.choice(numeric)
        order = "smallest first" if post == "sort_asc" else "largest first"
        facts["post"] = (f" Sort the data rows by the '{layout.header[col]}' column, {order}, keeping the header "
                         "in the first row, and save the workbook again.")
        return {"column": col, "descending": post == "sort_desc"}
    if post == "total_row":
        row = layout.last_row + 1
        clean = [c for c in numeric if mc.clean_of(facts, round(sum(layout.column(c)), 2))]
        col = rng.choice(clean or numeric)
        cell = f"{layout.letter(col)}{row}"
        facts["post"] = (f" On its sheet '{sheet}', type Total in A{row} and enter a SUM formula adding up "
                         f"the '{layout.header[col]}' column in {cell}. Save the workbook again.")
        return {"column": col, "row": row, "cell": cell, "total": round(sum(layout.column(col)), 2)}
    facts["post"] = ""
    return {}


@node("goal", "goal", ("params", "content", "plan"), ("setup", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, content, plan = values["params"], values["content"], values["plan"]
    mail_plan = plan["mailbox"]
    source = params["source"]
    layout = cc.layout_from(content["table"], plan["table"])
    background = tc.messages(content["mailbox"], mail_plan)
    first, last = mc.person(rng, avoid=(mail_plan["owner"]["first"], mail_plan["owner"]["last"]))
    sender = (f"{first} {last}", f"{mc.local_part(first, last)}@{mail_plan['domain']}")
    filename = f"{content['table']['file_stem']}.{source}"
    early, late = mc.dates_between(background, rng, 2)
    decoy_layout = layout.with_rows(_decoy_rows(rng, layout))
    body = (f"Hi {mail_plan['owner']['first']},\n\nAttached is {filename} with the {layout.title}. Let me know "
            f"if anything looks off.\n\nThanks,\n{first}\n")
    wanted = mc.message(mail_plan, sender, layout.title, body, late, [_attachment(source, filename, layout)])
    draft = mc.message(mail_plan, sender, f"Draft: {layout.title}", body.replace("Attached is", "A first draft:"),
                       early, [_attachment(source, filename, decoy_layout)], read=True)
    spec = mc.mail_profile(rng, mail_plan, background, [draft, wanted])
    sub = rng.choice(SUBFOLDERS).format(y=late.year)
    dest = f"{HOME}/{DIRS[params['dest']].format(sub=sub)}/{content['table']['file_stem']}.xlsx"
    convert = (f"Open {filename} in LibreOffice Calc and save it as an xlsx workbook at {dest}." if source == "csv"
               else f"Save {filename} as {dest} and open it in LibreOffice Calc.")
    facts: dict[str, Any] = {"subject": layout.title, "sender": sender[1], "date": mc.mail_date(late),
                             "filename": filename, "dest": dest, "convert": convert,
                             "convert_lower": convert[0].lower() + convert[1:],
                             "mkdir": MKDIR if params["dest"] == "new_folder" else ""}
    sheet = layout.sheet if source == "xlsx" else content["table"]["file_stem"][:31]
    post = _post(rng, params["post"], layout, sheet, facts)
    target = {"profile": tc.profile_path(mail_plan), "dest": dest, "filename": filename, "sheet": sheet,
              "message": wanted.message_id, "draft": draft.message_id, "header": layout.header,
              "rows": [list(r) for r in layout.rows], "ref": layout.data_ref, "letters":
              [layout.letter(i) for i in range(layout.width)], "last_row": layout.last_row, **post}
    return {"setup": mc.Setup((("tb", spec),)), "facts": facts, "target": target}


@node("rubric", "rubric", ("params", "target", "setup"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t, post = values["target"], values["params"]["post"]
    rows = t["rows"]
    if post.startswith("sort"):
        rows = mc.sort_rows(rows, t["column"], t["descending"])
    checks = [Check("table", f"{t['dest']} holds the table of {t['filename']} from the stated message (header and "
                             "all rows" + (", sorted as asked" if post.startswith("sort") else "") + ").",
                    "multi.sheet_table", {"path": t["dest"], "header": t["header"], "rows": mc.table_values(rows),
                                          "below_ok": post == "total_row"})]
    if post == "total_row":
        row, letter = t["row"], t["letters"][t["column"]]
        checks += [
            Check("label", f"A{row} of sheet '{t['sheet']}' reads Total.", "xlsx.cell_value",
                  {"path": t["dest"], "sheet": t["sheet"], "cell": f"A{row}", "expected": "Total"}),
            Check("total", f"{t['cell']} holds a SUM formula over the whole column.", "xlsx.formula_value",
                  {"path": t["dest"], "sheet": t["sheet"], "cell": t["cell"], "function": "SUM",
                   "ref": f"{letter}2:{letter}{t['last_row']}", "expected": t["total"]}),
        ]
    return {"rubric": [*checks, *mc.mail_kept(values["setup"])]}


def _steps(t: Mapping[str, Any], source: str, message: str, dest: str, *, post: str, skip: str = "",
           flip: bool = False, short_sum: bool = False, typed_total: bool = False) -> list[dict[str, Any]]:
    """Save the attachment, convert it (CSV), then sort or add the totals row, with optional slips."""
    profile = t["profile"]
    save = {"path": profile, "folder": "Inbox", "message_id": message, "filename": t["filename"]}
    if source == "csv":
        csv_path = f"{HOME}/Downloads/{t['filename']}"
        steps = [mc.op("tb.save_attachment", **save, dest=csv_path)]
        if skip != "convert":
            steps.append(mc.op("multi.csv_to_xlsx", csv_path, dest=dest))
    else:
        steps = [mc.op("tb.save_attachment", **save, dest=dest)]
    if skip in ("convert", "post"):
        return steps
    if post.startswith("sort"):
        steps.append(mc.op("xlsx.sort_rows", dest, sheet=t["sheet"], ref=t["ref"], key_column=t["letters"][t["column"]],
                           descending=t["descending"] != flip))
    elif post == "total_row":
        letter, last = t["letters"][t["column"]], t["last_row"] - (1 if short_sum else 0)
        value: Any = t["total"] if typed_total else f"=SUM({letter}2:{letter}{last})"
        steps.append(mc.op("xlsx.set_cells", dest, sheet=t["sheet"], cells={f"A{t['row']}": "Total", t["cell"]: value}))
    return steps


@node("solve", "solve", ("params", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t, params = values["target"], values["params"]
    source, post = params["source"], params["post"]
    right = (t["message"], t["dest"])
    solutions = [Solution("oracle", "save the attachment, make it an xlsx workbook at the stated path"
                          + ("" if post == "none" else f", then {post.replace('_', ' ')}"),
                          _steps(t, source, *right, post=post)),
                 Solution("near-miss-1", "takes the same-named attachment of the earlier draft message",
                          _steps(t, source, t["draft"], t["dest"], post=post))]
    if post == "none":
        downloads = f"{HOME}/Downloads/{t['dest'].rsplit('/', 1)[1]}"
        solutions.append(Solution("near-miss-2", "saves the workbook in Downloads instead of the stated folder",
                                  _steps(t, source, t["message"], downloads, post=post)))
        if source == "csv":
            solutions.append(Solution("near-miss-3", "saves the CSV but never turns it into an xlsx workbook",
                                      _steps(t, source, *right, post=post, skip="convert")))
    else:
        solutions.append(Solution("near-miss-2", "stops after saving the workbook, skipping the asked step",
                                  _steps(t, source, *right, post=post, skip="post")))
        if post.startswith("sort"):
            solutions.append(Solution("near-miss-3", "sorts in the opposite order",
                                      _steps(t, source, *right, post=post, flip=True)))
        else:
            solutions.append(Solution("near-miss-3", "the SUM range stops one row short of the data",
                                      _steps(t, source, *right, post=post, short_sum=True)))
            solutions.append(Solution("near-miss-4", "types the total as a number instead of a formula",
                                      _steps(t, source, *right, post=post, typed_total=True)))
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(mc.TB, mc.CALC),
    description="Turn a table mailed as a CSV or xlsx attachment into a Calc workbook at a stated path, "
                "optionally sorted or with a totals row.",
    knobs={"source": ("csv", "xlsx"), "post": ("none", "sort_asc", "sort_desc", "total_row"),
           "dest": ("documents", "desktop", "new_folder")},
    nodes=(*mc.source_nodes(table={}, mailbox={"kind": "pdf"}), goal, mc.prepare,
           mc.instruction(NAME, PHRASINGS), rubric, solve),
)
