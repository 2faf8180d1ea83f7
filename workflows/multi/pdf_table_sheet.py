"""multi.pdf_table_sheet: the line-item table printed in a supplier's PDF invoice typed into a new Calc workbook
(header, one row per item in the invoice's order, numbers as numbers), optionally with a totals row (PDF -> Calc).

The invoice also prints its subtotal, VAT and total due below the items, which are no items. Near-misses: those
summary lines typed as items, the money typed as text ("1,234.50"), the last item missed, and with a totals row
the total due (VAT included) instead of the sum of the amounts (without one, the header row left out)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, deepen, pick
from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers.teach import q
from preparers.tree import FileSpec
from workflows.multi import kit as mc
from workflows.os import kit as oc

NAME = "multi.pdf_table_sheet"
#: vendor -> (its address line, the items it bills: description, lowest and highest unit price)
VENDORS: dict[str, tuple[str, tuple[tuple[str, float, float], ...]]] = {
    "Brightline Office Supply": ("14 Mill Road, Leeds LS2 7HQ", (
        ("Copy paper A4, box of 5 reams", 18, 32), ("Ballpoint pens, pack of 50", 6, 14),
        ("Desk organiser, mesh", 9, 21), ("Lever arch files, pack of 10", 11, 24),
        ("Whiteboard markers, set", 4, 9), ("Ergonomic desk lamp", 28, 65), ("Sticky notes, 12 pads", 3, 8),
        ("Shredder bags, roll of 50", 12, 26))),
    "Northgate IT Services": ("Unit 3, Harbour Park, Bristol BS1 6XN", (
        ("Laptop setup and imaging", 45, 90), ("Network switch, 24 port", 160, 340),
        ("On-site support, per hour", 55, 95), ("USB-C docking station", 85, 180),
        ("Backup software licence, 1 year", 40, 120), ("Patch cables, pack of 10", 9, 22),
        ("Wireless access point", 95, 210), ("Password manager seat, 1 year", 18, 45))),
    "Harbor Catering Co.": ("2 Quay Street, Glasgow G1 4AE", (
        ("Sandwich platter, 10 people", 38, 70), ("Fruit bowl, large", 14, 28), ("Coffee service, per person", 2, 5),
        ("Vegetarian lunch box", 7, 13), ("Pastry selection, 24 pieces", 26, 48),
        ("Bottled water, case of 24", 8, 16), ("Soup and bread, per person", 4, 9), ("Delivery and setup", 15, 35))),
    "Summit Print & Copy": ("88 High Street, Oxford OX1 4BG", (
        ("Business cards, 500", 24, 55), ("Brochure print, 100 copies", 90, 180), ("Poster A2, colour", 9, 19),
        ("Roll-up banner with stand", 70, 140), ("Binding, per document", 2, 6), ("Letterheads, 1000", 60, 120),
        ("Flyers A5, 1000", 45, 95), ("Design proof, per hour", 35, 70))),
}
CLIENTS = ("Westbrook Dental Practice", "Lumen Architects LLP", "Crescent Community Trust", "Fernhill Primary School",
           "Orbit Logistics Ltd", "Maple Street Veterinary Clinic")
#: Difficulty axes (issue 15): how deep the invoice's folder sits, and older invoices of the same supplier beside it
#: (other numbers, other items: typing the wrong one shows).
AXES = {"location": LOCATION, "noise": mc.NOISE}
HEADER = ["Description", "Quantity", "Unit Price", "Amount"]
SHEETS = ("Items", "Invoice Lines", "Line Items", "Purchases")
VAT = 0.2
TOTAL = (" Below the last item, add a row with 'Total' in column A and the sum of the Amount column in column D "
         "(the items only, before VAT).")
PHRASINGS = (
    "The PDF invoice {pdf} has a table of line items. Type that table into a new LibreOffice Calc workbook "
    "{workbook}, sheet '{sheet}': the header {header} in row 1, then one row per line item in the order the "
    "invoice lists them, numbers as numbers (not text).{total} Save it as xlsx.",
    "Copy the line items of the invoice {pdf} into a new spreadsheet {workbook} with a sheet named '{sheet}'. Row "
    "1 holds the header {header}; below it, one row per item as printed, with quantities, unit prices and amounts "
    "as numbers. The subtotal, VAT and total lines are not items.{total} Save in xlsx format.",
    "Open {pdf} and transfer its item table to Calc: create {workbook} (sheet '{sheet}') with the header {header} "
    "and one row per invoice line, in the same order, numeric cells as numbers.{total} Keep the xlsx format.",
    "I need the items billed in {pdf} in a workbook. Make {workbook} whose sheet '{sheet}' starts with the header "
    "{header}, followed by every line item of the invoice in its order (numbers typed as numbers).{total} Save it "
    "as xlsx.",
    "Using a PDF viewer and LibreOffice Calc, re-type the line-item table of {pdf} into the new workbook "
    "{workbook}, sheet '{sheet}': header {header}, then the items in invoice order with numeric values as "
    "numbers.{total} Save as xlsx.",
)
NATURAL = (
    "Could you type the line items of the invoice {pdf} into a new workbook {workbook} (sheet '{sheet}', header "
    "{header})?{total}",
    "Please get the item table from {pdf} into {workbook}, sheet '{sheet}', under the header {header}.{total}",
    "I'd like the invoice lines of {pdf} in a spreadsheet: {workbook}, sheet '{sheet}', header {header}, items "
    "in order.{total}",
    "Help me put the billed items of {pdf} into {workbook} (sheet '{sheet}', columns {header}).{total}",
    "Turn the line-item table in {pdf} into the workbook {workbook}, sheet '{sheet}', with the header "
    "{header}.{total}",
)


class Params(TypedDict):
    total: Literal["none", "total_row"]


@dataclass(frozen=True)
class Target:
    pdf: str
    workbook: str
    sheet: str
    items: tuple[tuple[str, int, float, float], ...]  # description, quantity, unit price, amount

    @property
    def subtotal(self) -> float:
        return round(sum(i[3] for i in self.items), 2)

    @property
    def due(self) -> float:
        return round(self.subtotal * (1 + VAT), 2)


def _money(value: float) -> str:
    return f"{value:,.2f}"


def _invoice(vendor: str, number: str, day: dt.date, client: str, items: tuple[tuple[str, int, float, float], ...],
             subtotal: float) -> str:
    address = VENDORS[vendor][0]
    lines = [vendor, address, "", "INVOICE", f"Invoice number: {number}      Date: {day.isoformat()}",
             f"Bill to: {client}", "", "Description                                   Qty      Unit price      Amount"]
    lines += [f"{d:<44}{q:>5}{_money(p):>16}{_money(a):>12}" for d, q, p, a in items]
    vat = round(subtotal * VAT, 2)
    lines += ["", f"Subtotal{_money(subtotal):>72}", f"VAT 20%{_money(vat):>73}",
              f"Total due{_money(round(subtotal + vat, 2)):>71}", "", "Payment due within 30 days. Thank you."]
    return "\n".join(lines)


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    pool: Mapping[str, Any] = content["pool"]
    vendor = rng.choice(sorted(VENDORS))
    picked = rng.sample(VENDORS[vendor][1], rng.randint(4, 7))
    items = []
    for description, low, high in picked:
        quantity = rng.randint(1, 12)
        price = round(rng.uniform(low, high), 2)
        items.append((description, quantity, price, round(quantity * price, 2)))
    day = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randint(0, 330))
    number = f"INV-{rng.randint(1000, 9999)}"
    base = rng.choice(("Downloads", "Documents/invoices", "Documents/finance"))
    folder = f"{HOME}/{deepen(base, pick(params, 'location', AXES))}"
    slug = vendor.split()[0].lower()
    pdf = f"{folder}/{slug}_{number.lower().replace('-', '_')}.pdf"
    target = Target(pdf, f"{HOME}/Documents/{slug}_{number.lower().replace('-', '_')}_items.xlsx",
                    rng.choice(SHEETS), tuple(items))
    files = oc.Files(pool, rng)
    others = [files.new(folder, ext) for ext in rng.sample(("pdf", "txt", "jpg", "docx"), 2)]
    spec = [FileSpec(pdf, "pdf", _invoice(vendor, number, day, rng.choice(CLIENTS), target.items, target.subtotal)),
            *(o for o in others if o.path != pdf)]
    for _ in range(mc.EXTRA[pick(params, "noise", AXES)]):  # drawn last: the default level keeps its draws
        older = tuple((d, q, p, round(q * p, 2)) for d, q, p in (
            (d, rng.randint(1, 12), round(rng.uniform(lo, hi), 2))
            for d, lo, hi in rng.sample(VENDORS[vendor][1], rng.randint(3, 6))))
        other = f"INV-{rng.randint(1000, 9999)}"
        path = f"{folder}/{slug}_{other.lower().replace('-', '_')}.pdf"
        if path != pdf and all(s.path != path for s in spec):
            when = day - dt.timedelta(days=rng.randint(30, 200))
            spec.append(FileSpec(path, "pdf", _invoice(vendor, other, when, rng.choice(CLIENTS), older,
                                                       round(sum(i[3] for i in older), 2))))
    facts = {"pdf": pdf, "workbook": target.workbook, "sheet": target.sheet, "header": mc.quoted(HEADER),
             "total": TOTAL if params["total"] == "total_row" else ""}
    return Goal(mc.Setup((("tree", spec),)), facts, target)


def _rows(t: Target, total: str, *, summary: bool = False, as_text: bool = False, drop_last: bool = False,
          due: bool = False, empty: Any = None) -> list[list[Any]]:
    """The table's data rows; `empty` stands in the summary cells left blank (None for a workbook, "" for the
    check, which reads an empty cell as empty text)."""
    items = t.items[:-1] if drop_last else t.items
    rows: list[list[Any]] = [[d, q, _money(p), _money(a)] if as_text else [d, q, p, a] for d, q, p, a in items]
    if summary:  # the printed summary lines read as if they were items
        vat = round(t.subtotal * VAT, 2)
        rows += [["Subtotal", empty, empty, t.subtotal], ["VAT 20%", empty, empty, vat],
                 ["Total due", empty, empty, t.due]]
    if total == "total_row":
        rows.append(["Total", empty, empty, t.due if due else round(sum(i[3] for i in items), 2)])
    return rows


def rubric(params: Params, target: Target) -> list[Check]:
    t = target
    rows = _rows(t, params["total"], empty="")
    what = f"the {len(t.items)} line items of {t.pdf}" + (" and a totals row" if params["total"] == "total_row" else "")
    return [Check("typed", f"Sheet '{t.sheet}' of {t.workbook} holds the header {HEADER} and {what}, in the "
                           "invoice's order, numbers as numbers.",
                  "multi.sheet_table", {"path": t.workbook, "sheet": t.sheet, "header": HEADER, "rows": rows,
                                        "typed": True})]


def solve(params: Params, target: Target) -> Attempts:
    t, total = target, params["total"]

    def write(rows: list[list[Any]], header: bool = True) -> list[dict[str, Any]]:
        return [mc.op("multi.write_xlsx", t.workbook, sheet=t.sheet, rows=([HEADER] if header else []) + rows)]

    misses = [Attempt("types the subtotal, VAT and total lines as items too", write(_rows(t, total, summary=True))),
              Attempt("types the money as text, as printed", write(_rows(t, total, as_text=True))),
              Attempt("misses the last line item", write(_rows(t, total, drop_last=True)))]
    if total == "total_row":
        misses.append(Attempt("puts the total due (VAT included) in the totals row", write(_rows(t, total, due=True))))
    else:
        misses.append(Attempt("leaves out the header row", write(_rows(t, total), header=False)))
    return Attempts(Attempt("type the invoice's line items under the header", write(_rows(t, total))), misses)


def teach(params: Params, target: Target) -> str:
    """The table read off the PDF at the terminal (poppler's pdftotext keeps the printed columns), not typed from
    the answer: every line between the table's header and the subtotal that ends in a quantity and two amounts."""
    t = target
    total = ("rows.append(['Total', None, None, round(sum(r[3] for r in rows), 2)])\n"
             if params["total"] == "total_row" else "")
    code = (
        "import re, subprocess\nfrom openpyxl import Workbook\n"
        f"text = subprocess.run(['pdftotext', '-layout', {t.pdf!r}, '-'], capture_output=True, text=True, "
        "check=True).stdout\n"
        "lines = text.splitlines()\n"
        "start = next(i for i, line in enumerate(lines) if line.strip().startswith('Description'))\n"
        "item = re.compile(r'\\s*(.+?)\\s+(\\d+)\\s+([\\d,]+\\.\\d\\d)\\s+([\\d,]+\\.\\d\\d)\\s*$')\n"
        "rows = []\n"
        "for line in lines[start + 1:]:\n"
        "    if line.strip().startswith('Subtotal'):\n"
        "        break\n"
        "    m = item.match(line)\n"
        "    if m:\n"
        "        rows.append([m.group(1), int(m.group(2)), float(m.group(3).replace(',', '')), "
        "float(m.group(4).replace(',', ''))])\n"
        f"{total}"
        f"wb = Workbook()\nws = wb.active\nws.title = {t.sheet!r}\nws.append({HEADER!r})\n"
        "for row in rows:\n    ws.append(row)\n"
        f"wb.save({t.workbook!r})\n"
    )
    folder = t.workbook.rsplit("/", 1)[0]
    return f"mkdir -p {q(folder)} && python3 - <<'PY'\n{code}PY"


WORKFLOW = family(
    NAME, mc.app_kit((mc.OS, mc.CALC), pool={}),
    description="Type the line-item table of a PDF invoice into a new Calc workbook (header, items in order, numbers "
                "as numbers), optionally with a totals row.",
    knobs={"total": ("none", "total_row")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, teach=teach,
    axes=AXES,
)
