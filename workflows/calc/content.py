"""Offline generator for the "content" LLM node: a realistic spreadsheet table (a scenario).

`generate_table` returns a plain JSON dict (dates as "YYYY-MM-DD" strings) of the shape that
`CONTENT_SCHEMA` describes, so an OpenAI-compatible backend can later be asked for the same thing.

Every table has, in this order: one "key" column (unique text), one "category" column (3-6 values,
each repeated), one "date" column (distinct ISO dates inside one period of one year) and 2 or 3
numeric columns ("int", "money" with 2 decimals, "number" with 1 decimal), each with distinct values.
Rows are never sorted by any column. Each scenario is one frozen `Scenario` record: titles, file
stems, sheet names, column specs with value ranges, and name pools. All randomness comes from the
caller's `random.Random`, so a given rng state always yields the same table.
"""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import product
from typing import Any, Literal

from workflows.answer_checks import repeated as first_repeat

MIN_ROWS = 6
#: The seed tables' cap: up to here every scenario fits (its key pool, number grids and shortest period hold 40
#: distinct values), so the draws are the same for every size. Larger tables (the `rows` axis up to MAX_ROWS) are
#: drawn only from what can hold that many distinct values: `fits` says which scenario and which numeric columns.
SEED_ROWS = 40
MAX_ROWS = 200
_YEARS = (2021, 2022, 2023, 2024, 2025)
_SCALE = {"int": 1, "money": 100, "number": 10}  # integer units per value unit

FIRST_NAMES = (
    "Maria", "James", "Aisha", "Chen", "Olivia", "Mateo", "Priya", "Liam", "Sofia", "Noah",
    "Fatima", "Ethan", "Yuki", "Lucas", "Amara", "Daniel", "Elena", "Omar", "Grace", "Ravi",
    "Hannah", "Diego", "Leila", "Samuel", "Chloe", "Kwame", "Isabel", "Victor", "Nadia", "Tomas",
)
LAST_NAMES = (
    "Lopez", "Smith", "Khan", "Wang", "Brown", "Garcia", "Patel", "Johnson", "Rossi", "Kim",
    "Walker", "Tanaka", "Silva", "Okafor", "Murphy", "Novak", "Haddad", "Nguyen", "Fischer", "Costa",
    "Mensah", "Larsen", "Dubois", "Reyes", "Shah", "Becker", "Moreau", "Ortiz", "Hughes", "Santos",
)


@dataclass(frozen=True)
class KeySpec:
    """Unique row labels: "person" (first x last), "combo" (left x right) or "code" (prefix-digits)."""

    names: tuple[str, ...]
    style: Literal["person", "combo", "code"]
    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()
    digits: int = 5


@dataclass(frozen=True)
class CategorySpec:
    names: tuple[str, ...]
    values: tuple[str, ...]  # at least 6, so 3-6 of them can be drawn


@dataclass(frozen=True)
class NumericSpec:
    names: tuple[str, ...]
    kind: Literal["int", "money", "number"]
    low: float
    high: float
    step: float | None = None  # default: the kind's smallest unit (1, 0.01, 0.1)


@dataclass(frozen=True)
class Scenario:
    name: str
    titles: tuple[str, ...]  # may use {period}, e.g. "Q3 2024"
    stems: tuple[str, ...]  # may use {slug}, e.g. "2024_q3", and {year}
    sheets: tuple[str, ...]  # may use {year}
    key: KeySpec
    category: CategorySpec
    date_names: tuple[str, ...]
    numerics: tuple[NumericSpec, ...]  # 2-4 specs, 2 or 3 are used, in this order


@dataclass(frozen=True)
class Period:
    label: str
    slug: str
    year: int
    start: date
    days: int


_REGISTRY: tuple[Scenario, ...] = tuple(sorted((
    Scenario(
        name="budget",
        titles=("Department Budget {period}", "{period} Budget vs Actual", "Operating Budget Review"),
        stems=("budget_{slug}", "operating_budget", "budget_vs_actual_{year}", "dept_budget"),
        sheets=("Budget", "Budget {year}", "Line Items", "Spending"),
        key=KeySpec(("Line Item", "Budget Line"), "combo",
                    left=("Annual", "Quarterly", "Regional", "Team", "Vendor", "Contract", "Client",
                          "Staff"),
                    right=("Software", "Travel", "Training", "Events", "Hardware", "Consulting",
                           "Licenses", "Catering")),
        category=CategorySpec(("Department", "Cost Center"),
                              ("Marketing", "Finance", "Operations", "Engineering", "Legal",
                               "Facilities", "Human Resources")),
        date_names=("Approved On", "Approval Date"),
        numerics=(
            NumericSpec(("Budgeted", "Planned"), "money", 1500, 80000),
            NumericSpec(("Actual", "Spent To Date"), "money", 200, 85000),
            NumericSpec(("Invoices", "Invoice Count"), "int", 1, 150),
        ),
    ),
    Scenario(
        name="event_registrations",
        titles=("Conference Registrations {period}", "Summit Attendee List", "Event Signups {period}"),
        stems=("event_registrations", "registrations_{slug}", "summit_attendees_{year}", "signups"),
        sheets=("Registrations", "Attendees", "Signups {year}", "Guest List"),
        key=KeySpec(("Attendee", "Guest", "Participant"), "person"),
        category=CategorySpec(("Ticket Type", "Pass"),
                              ("General", "VIP", "Student", "Early Bird", "Speaker", "Exhibitor",
                               "Virtual")),
        date_names=("Registered On", "Signup Date"),
        numerics=(
            NumericSpec(("Amount Paid", "Fee"), "money", 25, 1200),
            NumericSpec(("Lead Days", "Days Before Event"), "int", 1, 240),
            NumericSpec(("Distance Km", "Travel Km"), "number", 0.5, 950),
        ),
    ),
    Scenario(
        name="expenses",
        titles=("Expense Claims {period}", "Team Expense Report", "{period} Reimbursements"),
        stems=("expense_claims_{slug}", "expenses", "expense_report_{year}", "reimbursements_{slug}"),
        sheets=("Expenses", "Claims", "Expenses {year}", "Receipts"),
        key=KeySpec(("Expense ID", "Claim ID", "Receipt No"), "code", prefixes=("EXP-", "CLM-"),
                    digits=5),
        category=CategorySpec(("Expense Type", "Category"),
                              ("Travel", "Meals", "Lodging", "Software", "Office Supplies",
                               "Mileage", "Training")),
        date_names=("Expense Date", "Submitted"),
        numerics=(
            NumericSpec(("Amount", "Claimed"), "money", 4, 2500),
            NumericSpec(("Tax", "Sales Tax"), "money", 0.2, 210),
            NumericSpec(("Reimbursed", "Paid Out"), "money", 3, 2400),
        ),
    ),
    Scenario(
        name="fleet_maintenance",
        titles=("Fleet Maintenance Log {period}", "Vehicle Service History", "{period} Fleet Repairs"),
        stems=("fleet_maintenance", "fleet_service_{slug}", "vehicle_repairs_{year}", "fleet_log"),
        sheets=("Maintenance", "Service Log", "Fleet {year}", "Repairs"),
        key=KeySpec(("Vehicle", "Unit ID", "Fleet No"), "code", prefixes=("TRK-", "VAN-", "BUS-"),
                    digits=4),
        category=CategorySpec(("Service Type", "Work Type"),
                              ("Oil Change", "Brake Service", "Tire Rotation", "Inspection",
                               "Transmission", "Battery Swap", "Alignment")),
        date_names=("Service Date", "Serviced On"),
        numerics=(
            NumericSpec(("Odometer", "Mileage"), "int", 8000, 240000),
            NumericSpec(("Labor Hours", "Shop Hours"), "number", 0.5, 14),
            NumericSpec(("Parts Cost", "Parts"), "money", 15, 4200),
            NumericSpec(("Labor Cost", "Labor Charge"), "money", 60, 2600),
        ),
    ),
    Scenario(
        name="grades",
        titles=("Gradebook {period}", "Student Scores", "{period} Course Results"),
        stems=("gradebook_{slug}", "student_scores", "grades_{year}", "course_results"),
        sheets=("Grades", "Scores", "Gradebook", "Class {year}"),
        key=KeySpec(("Student", "Learner"), "person"),
        category=CategorySpec(("Course", "Subject"),
                              ("Algebra", "Biology", "World History", "Chemistry", "Literature",
                               "Physics", "Geometry")),
        date_names=("Exam Date", "Graded On"),
        numerics=(
            NumericSpec(("Midterm", "Midterm Score"), "int", 35, 100),
            NumericSpec(("Final Exam", "Final Score"), "int", 30, 100),
            NumericSpec(("Homework", "Assignments"), "int", 40, 100),
            NumericSpec(("Project", "Lab Work"), "int", 45, 100),
        ),
    ),
    Scenario(
        name="inventory",
        titles=("Warehouse Inventory {period}", "Stock Levels", "{period} Stock Count"),
        stems=("inventory", "stock_levels_{slug}", "inventory_{year}", "stock_count_{slug}"),
        sheets=("Inventory", "Stock", "Stock {year}", "Items"),
        key=KeySpec(("Product", "Item"), "combo",
                    left=("Desk Lamp", "Office Chair", "Monitor Arm", "Label Printer", "USB Hub",
                          "Standing Desk", "Webcam", "Headset", "Keyboard", "Paper Shredder"),
                    right=("X100", "LX20", "Pro 3", "S5", "Mini 2", "Max", "Air 7", "K9")),
        category=CategorySpec(("Warehouse", "Location"),
                              ("North Depot", "Main Hub", "Dock B", "East Annex", "Store Room",
                               "West Yard")),
        date_names=("Last Restock", "Received On"),
        numerics=(
            NumericSpec(("On Hand", "In Stock"), "int", 0, 900),
            NumericSpec(("Reorder Level", "Reorder Point"), "int", 5, 200),
            NumericSpec(("Unit Cost", "Cost Each"), "money", 2, 800),
        ),
    ),
    Scenario(
        name="payroll",
        titles=("Payroll Summary {period}", "Employee Pay Register", "{period} Payroll"),
        stems=("payroll_{slug}", "pay_register", "payroll_summary_{year}", "payroll"),
        sheets=("Payroll", "Pay Register", "Payroll {year}", "Staff"),
        key=KeySpec(("Employee", "Staff Member"), "person"),
        category=CategorySpec(("Department", "Team"),
                              ("Engineering", "Finance", "Marketing", "Operations", "Support",
                               "Legal", "Design")),
        date_names=("Review Date", "Start Date"),
        numerics=(
            NumericSpec(("Hours Worked", "Regular Hours"), "number", 60, 184),
            NumericSpec(("Hourly Rate", "Pay Rate"), "money", 18, 95),
            NumericSpec(("Overtime", "Overtime Hrs"), "number", 0, 30),
            NumericSpec(("Gross Pay", "Gross"), "money", 1800, 14000),
        ),
    ),
    Scenario(
        name="project_hours",
        titles=("Project Timesheets {period}", "Consultant Hours", "{period} Billable Hours"),
        stems=("timesheets_{slug}", "project_hours", "billable_hours_{year}", "timesheet"),
        sheets=("Timesheet", "Hours", "Hours {year}", "Projects"),
        key=KeySpec(("Consultant", "Team Member"), "person"),
        category=CategorySpec(("Project", "Engagement"),
                              ("Apollo Migration", "Website Refresh", "Data Warehouse",
                               "Mobile App", "CRM Rollout", "Security Audit")),
        date_names=("Week Ending", "Logged On"),
        numerics=(
            NumericSpec(("Billable Hours", "Billable"), "number", 2, 60),
            NumericSpec(("Admin Hours", "Internal Hours"), "number", 0, 20),
            NumericSpec(("Hourly Rate", "Bill Rate"), "money", 45, 220),
            NumericSpec(("Tasks Closed", "Tickets Closed"), "int", 1, 80),
        ),
    ),
    Scenario(
        name="property_listings",
        titles=("Active Listings {period}", "Property Listings", "{period} Home Sales Pipeline"),
        stems=("listings_{slug}", "property_listings", "active_listings_{year}", "homes_for_sale"),
        sheets=("Listings", "Properties", "Listings {year}", "Homes"),
        key=KeySpec(("Address", "Property"), "combo",
                    left=("14", "27", "103", "256", "8", "311", "75", "442"),
                    right=("Oak Lane", "Maple Street", "Birch Road", "Cedar Avenue", "Elm Court",
                           "Willow Way", "Harbor View", "Hillcrest Drive")),
        category=CategorySpec(("Home Type", "Style"),
                              ("Condo", "Townhouse", "Detached", "Duplex", "Loft", "Bungalow")),
        date_names=("Listed On", "List Date"),
        numerics=(
            NumericSpec(("Floor Area", "Square Feet"), "int", 450, 4800),
            NumericSpec(("Asking Price", "List Price"), "money", 120000, 1450000, step=100),
            NumericSpec(("Days On Market", "Market Days"), "int", 1, 240),
            NumericSpec(("Lot Acres", "Lot Size"), "number", 0.1, 12),
        ),
    ),
    Scenario(
        name="sales",
        titles=("{period} Regional Sales", "Sales Pipeline {period}", "Closed Deals by Rep"),
        stems=("regional_sales_{slug}", "sales", "closed_deals_{year}", "rep_sales_{slug}"),
        sheets=("Sales", "Deals", "Sales {year}", "Pipeline"),
        key=KeySpec(("Rep", "Sales Rep", "Account Owner"), "person"),
        category=CategorySpec(("Region", "Territory"),
                              ("North", "South", "East", "West", "Central", "Pacific")),
        date_names=("Close Date", "Order Date"),
        numerics=(
            NumericSpec(("Units", "Units Sold"), "int", 1, 500),
            NumericSpec(("Revenue", "Deal Value"), "money", 500, 95000),
            NumericSpec(("Commission", "Bonus"), "money", 50, 9000),
        ),
    ),
    Scenario(
        name="shipments",
        titles=("Outbound Shipments {period}", "Shipment Tracker", "{period} Freight Log"),
        stems=("shipments_{slug}", "shipment_tracker", "freight_log_{year}", "outbound"),
        sheets=("Shipments", "Freight", "Outbound {year}", "Tracker"),
        key=KeySpec(("Shipment ID", "Tracking No", "Waybill"), "code", prefixes=("SHP-",), digits=6),
        category=CategorySpec(("Carrier", "Shipper"),
                              ("FedEx", "UPS", "DHL", "USPS", "Maersk", "Purolator")),
        date_names=("Ship Date", "Dispatched"),
        numerics=(
            NumericSpec(("Weight Kg", "Gross Kg"), "number", 0.5, 950),
            NumericSpec(("Packages", "Parcels"), "int", 1, 120),
            NumericSpec(("Freight Cost", "Shipping Fee"), "money", 12, 3800),
            NumericSpec(("Distance Km", "Route Km"), "int", 20, 4800),
        ),
    ),
    Scenario(
        name="support_tickets",
        titles=("Support Tickets {period}", "Help Desk Queue", "{period} Ticket Review"),
        stems=("support_tickets_{slug}", "helpdesk_queue", "tickets_{year}", "support_log"),
        sheets=("Tickets", "Help Desk", "Queue {year}", "Support"),
        key=KeySpec(("Ticket", "Ticket ID", "Case No"), "code", prefixes=("TCK-", "INC-"), digits=5),
        category=CategorySpec(("Channel", "Source"),
                              ("Phone", "Email", "Chat", "Portal", "Walk In", "Social")),
        date_names=("Opened On", "Created"),
        numerics=(
            NumericSpec(("Response Minutes", "First Reply Min"), "int", 1, 480),
            NumericSpec(("Resolution Hours", "Hours Open"), "number", 0.2, 96),
            NumericSpec(("Messages", "Replies"), "int", 1, 75),
        ),
    ),
), key=lambda s: s.name))

_BY_NAME: dict[str, Scenario] = {s.name: s for s in _REGISTRY}
SCENARIOS: tuple[str, ...] = tuple(s.name for s in _REGISTRY)

_COLUMN_NAME = {"type": "string", "minLength": 2, "maxLength": 20,
                "pattern": "^[A-Z][A-Za-z0-9]*( [A-Z0-9][A-Za-z0-9]*)*$"}
CONTENT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Spreadsheet table scenario",
    "type": "object",
    "additionalProperties": False,
    "required": ["scenario", "title", "file_stem", "sheet", "columns", "rows"],
    "properties": {
        "scenario": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "title": {"type": "string", "minLength": 3, "maxLength": 80},
        "file_stem": {"type": "string", "pattern": "^[a-z0-9_]+$", "maxLength": 60},
        "sheet": {"type": "string", "pattern": "^[A-Za-z0-9_][A-Za-z0-9 _]{1,18}[A-Za-z0-9_]$"},
        "columns": {
            "type": "array", "minItems": 5, "maxItems": 6,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "kind"],
                "properties": {
                    "name": _COLUMN_NAME,
                    "kind": {"enum": ["key", "category", "date", "int", "money", "number"]},
                },
            },
        },
        "rows": {
            "type": "array", "minItems": MIN_ROWS, "maxItems": MAX_ROWS,
            "items": {"type": "array", "minItems": 5, "maxItems": 6,
                      "items": {"type": ["string", "number"]}},
        },
    },
}


def generate_table(rng: random.Random, *, n_rows: int, scenario: str | None = None) -> dict:
    """Deterministic for a given rng state. Never use the global random module, time, uuid."""
    if isinstance(n_rows, bool) or not isinstance(n_rows, int) or not MIN_ROWS <= n_rows <= MAX_ROWS:
        raise ValueError(f"n_rows must be an int between {MIN_ROWS} and {MAX_ROWS}, got {n_rows!r}")
    if scenario is None:
        scenario = rng.choice(scenarios_for(n_rows))  # SCENARIOS itself up to SEED_ROWS
    if scenario not in _BY_NAME:
        raise ValueError(f"unknown scenario {scenario!r}; expected one of {', '.join(SCENARIOS)}")
    spec = _BY_NAME[scenario]
    if not fits(scenario, n_rows):
        raise ValueError(f"scenario {scenario!r} cannot hold {n_rows} distinct rows; pick one of "
                         f"{', '.join(scenarios_for(n_rows))}")
    period = _pick_period(rng, n_rows)
    numerics = _pick_numerics(rng, _numerics_for(spec, n_rows))
    columns = [
        {"name": rng.choice(spec.key.names), "kind": "key"},
        {"name": rng.choice(spec.category.names), "kind": "category"},
        {"name": rng.choice(spec.date_names), "kind": "date"},
        *({"name": rng.choice(n.names), "kind": n.kind} for n in numerics),
    ]
    values = [
        _key_values(rng, spec.key, n_rows),
        _category_values(rng, spec.category.values, n_rows),
        _date_values(rng, period, n_rows),
        *(_numeric_values(rng, n, n_rows) for n in numerics),
    ]
    rows = [list(row) for row in zip(*values, strict=True)]
    while any(_is_monotonic([row[i] for row in rows]) for i in range(len(columns))):
        rng.shuffle(rows)
    return {
        "scenario": spec.name,
        "title": rng.choice(spec.titles).format(period=period.label),
        "file_stem": rng.choice(spec.stems).format(slug=period.slug, year=period.year),
        "sheet": rng.choice(spec.sheets).format(year=period.year),
        "columns": columns,
        "rows": rows,
    }


def _key_pool(key: KeySpec) -> int:
    if key.style == "code":
        return 9 * 10 ** (key.digits - 1)
    return len(FIRST_NAMES) * len(LAST_NAMES) if key.style == "person" else len(key.left) * len(key.right)


def _grid(spec: NumericSpec) -> int:
    """How many distinct values a numeric column of this spec can hold."""
    scale = _SCALE[spec.kind]
    step = round(spec.step * scale) if spec.step else 1
    return (round(spec.high * scale) - round(spec.low * scale)) // step + 1


def _numerics_for(spec: Scenario, n_rows: int) -> tuple[NumericSpec, ...]:
    """The scenario's numeric specs that hold n_rows distinct values (all of them up to SEED_ROWS)."""
    return spec.numerics if n_rows <= SEED_ROWS else tuple(n for n in spec.numerics if _grid(n) >= n_rows)


def fits(scenario: str, n_rows: int) -> bool:
    """True when the scenario can make a table of n_rows distinct keys, dates and numbers (every one can up to
    SEED_ROWS; at 200 rows the combo-keyed ones and the grades run out of labels or scores)."""
    spec = _BY_NAME[scenario]
    return n_rows <= SEED_ROWS or (_key_pool(spec.key) >= n_rows and len(_numerics_for(spec, n_rows)) >= 2
                                   and n_rows <= 365)


def scenarios_for(n_rows: int) -> tuple[str, ...]:
    """The scenarios that fit a table of n_rows (SCENARIOS itself up to SEED_ROWS, so seed draws are unchanged)."""
    return tuple(name for name in SCENARIOS if fits(name, n_rows))


def _pick_period(rng: random.Random, n_rows: int) -> Period:
    """A year, half, quarter or (for small tables) month with at least n_rows distinct days."""
    year = rng.choice(_YEARS)
    kinds = ["year", "half", "quarter", "quarter"] + (["month", "month"] if n_rows <= 28 else [])
    if n_rows > SEED_ROWS:  # only big tables drop the periods too short for them: seed draws stay as they were
        kinds = [k for k in kinds if {"year": 365, "half": 181, "quarter": 90}[k] >= n_rows]
    kind = rng.choice(kinds)
    if kind == "year":
        return Period(str(year), str(year), year, date(year, 1, 1), 365 + calendar.isleap(year))
    if kind == "month":
        month = rng.randint(1, 12)
        abbr = calendar.month_abbr[month].lower()
        days = calendar.monthrange(year, month)[1]
        return Period(f"{calendar.month_name[month]} {year}", f"{abbr}_{year}", year,
                      date(year, month, 1), days)
    parts = 2 if kind == "half" else 4
    index = rng.randrange(parts)
    months = 12 // parts
    start = date(year, 1 + index * months, 1)
    end = date(year + 1, 1, 1) if index == parts - 1 else date(year, 1 + (index + 1) * months, 1)
    tag = f"{'H' if parts == 2 else 'Q'}{index + 1}"
    return Period(f"{tag} {year}", f"{year}_{tag.lower()}", year, start, (end - start).days)


def _pick_numerics(rng: random.Random, specs: tuple[NumericSpec, ...]) -> list[NumericSpec]:
    count = min(rng.choice((2, 3)), len(specs))
    return [specs[i] for i in sorted(rng.sample(range(len(specs)), count))]


def _key_values(rng: random.Random, key: KeySpec, n: int) -> list[str]:
    if key.style == "code":
        low = 10 ** (key.digits - 1)
        numbers = rng.sample(range(low, 10 * low), n)
        return [f"{rng.choice(key.prefixes)}{number}" for number in numbers]
    left, right = (FIRST_NAMES, LAST_NAMES) if key.style == "person" else (key.left, key.right)
    return [f"{a} {b}" for a, b in rng.sample(list(product(left, right)), n)]


def _category_values(rng: random.Random, pool: tuple[str, ...], n: int) -> list[str]:
    """3-6 distinct values, each used at least twice (possible since n >= 6)."""
    chosen = rng.sample(pool, rng.randint(3, min(6, len(pool), n // 2)))
    values = chosen * 2 + [rng.choice(chosen) for _ in range(n - 2 * len(chosen))]
    rng.shuffle(values)
    return values


def _date_values(rng: random.Random, period: Period, n: int) -> list[str]:
    return [(period.start + timedelta(days=d)).isoformat() for d in rng.sample(range(period.days), n)]


def _numeric_values(rng: random.Random, spec: NumericSpec, n: int) -> list[int | float]:
    """n distinct values on the spec's grid between low and high, in random order."""
    scale = _SCALE[spec.kind]
    low, high = round(spec.low * scale), round(spec.high * scale)
    step = round(spec.step * scale) if spec.step else 1
    units: list[int | float] = [low + i * step for i in rng.sample(range((high - low) // step + 1), n)]
    if spec.kind == "int":
        return units
    return [round(u / scale, 2 if spec.kind == "money" else 1) for u in units]


def _is_monotonic(values: list[Any]) -> bool:
    pairs = list(zip(values, values[1:], strict=False))
    return all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs)


# --- what the Calc families need of a model's table (beyond CONTENT_SCHEMA) ----------------------------------

NUMERIC_KINDS = ("int", "money", "number")
#: Decimals a value of each numeric kind may have (money is written with 2, number with 1).
_DECIMALS = {"int": 0, "money": 2, "number": 1}


def check_table(table: Any, values: Any = None) -> str:
    """'' when a model's table has the shape every Calc family relies on, else what is wrong (one sentence, with
    the column and value): columns key, category, date, then 2-3 numeric ones; every row as wide as the header;
    unique column names and keys; 2-6 categories each used at least twice; ISO dates that parse and differ; numbers
    that are numbers of their kind, distinct per column; no column already sorted (a sort task would be done).
    Never raises, whatever JSON it is given."""
    try:
        return _table_problem(table)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:  # a shape the schema let through
        return f"the table cannot be read ({type(exc).__name__}: {exc})"


def _table_problem(table: dict[str, Any]) -> str:
    columns, rows = table["columns"], table["rows"]
    kinds = [c["kind"] for c in columns]
    names = [str(c["name"]).strip() for c in columns]
    if kinds[:3] != ["key", "category", "date"] or not 2 <= len(kinds[3:]) <= 3 or any(
            k not in NUMERIC_KINDS for k in kinds[3:]):
        return (f"columns must be key, category, date, then 2-3 of {list(NUMERIC_KINDS)} in this order, "
                f"got kinds {kinds}")
    if len({n.casefold() for n in names}) != len(names):
        return f"column names must be unique, got {names}"
    for i, row in enumerate(rows):
        if len(row) != len(columns):
            return f"row {i + 1} has {len(row)} cells but there are {len(columns)} columns"
    keys = [row[0] for row in rows]
    if not all(isinstance(k, str) and k.strip() for k in keys):
        return f"column {names[0]!r} (key) must hold non-empty text, got {_first_bad(keys, str)!r}"
    repeated = first_repeat(keys)
    if repeated is not None:
        return f"column {names[0]!r} (key) must hold unique values, but {repeated!r} appears twice"
    categories = [row[1] for row in rows]
    if not all(isinstance(c, str) and c.strip() for c in categories):
        return f"column {names[1]!r} (category) must hold text, got {_first_bad(categories, str)!r}"
    counts = {c: categories.count(c) for c in categories}
    if not 2 <= len(counts) <= 6 or min(counts.values()) < 2:
        return (f"column {names[1]!r} (category) must use 2-6 values, each at least twice, got "
                f"{dict(sorted(counts.items()))}")
    for i, row in enumerate(rows):
        if not is_iso_date(row[2]):
            return f"column {names[2]!r} (date) row {i + 1}: {row[2]!r} is not a date written YYYY-MM-DD"
    repeated = first_repeat([row[2] for row in rows])
    if repeated is not None:
        return f"column {names[2]!r} (date) must hold distinct dates, but {repeated!r} appears twice"
    for col, kind in enumerate(kinds[3:], start=3):
        column = [row[col] for row in rows]
        for i, value in enumerate(column):
            if isinstance(value, bool) or not isinstance(value, int | float):
                return f"column {names[col]!r} ({kind}) row {i + 1}: {value!r} is not a number"
            if round(value, _DECIMALS[kind]) != value:
                return (f"column {names[col]!r} ({kind}) row {i + 1}: {value!r} has more than "
                        f"{_DECIMALS[kind]} decimals")
            if not -1e9 < value < 1e9:
                return f"column {names[col]!r} ({kind}) row {i + 1}: {value!r} is out of range"
        repeated = first_repeat(column)
        if repeated is not None:
            return f"column {names[col]!r} ({kind}) must hold distinct values, but {repeated!r} appears twice"
    for col in range(len(kinds)):  # the offline generator's contract: no column comes sorted
        if _is_monotonic([row[col] for row in rows]):
            return f"column {names[col]!r} is already sorted; shuffle the rows"
    return ""


def is_iso_date(value: Any) -> bool:
    """True for a real calendar date written YYYY-MM-DD ("2024-02-30" and "last week" are not)."""
    if not isinstance(value, str) or len(value) != 10:
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _first_bad(values: list[Any], kind: type) -> Any:
    return next((v for v in values if not isinstance(v, kind) or not str(v).strip()), None)
