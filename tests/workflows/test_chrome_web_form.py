"""chrome.web_form: the family through the gate with every mutant, the site's reservation form, the History visit op,
and the check on hand-made History databases (the form page only, a value left at its default, a name in other case,
an address with no visit left, a file that is no database)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlencode

import pytest

from preparers.ops import apply_ops
from preparers.ops.chrome_history import build_history
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome import site as web
from workflows.chrome.web_form import GUI, NATURAL, PHRASINGS, WORKFLOW

SITE = replace(web.draw_site(random.Random(3)), forms=True)
PRODUCT = SITE.products[4]
FIELDS = {"product": web.slug(PRODUCT.name), "qty": "3", "day": SITE.open_days()[2], "name": "Priya Raman"}
T = 13_350_000_000_000_000


@pytest.mark.slow
@pytest.mark.parametrize("quantity", ["one", "several"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, quantity):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"quantity": quantity}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "chrome.form_sent"
        assert (task["rubric"][0]["args"]["qty"] == 1) == (quantity == "one")


def test_the_form_lists_every_product_and_open_day_and_sends_by_get():
    files = SITE.files()
    form = files["reserve.html"].decode()
    assert '<form action="reserved.html" method="get">' in form and "reserved.html" in files
    assert all(f'<option value="{web.slug(p.name)}">' in form for p in SITE.products)
    assert all(f'<option value="{d}">' in form for d in SITE.open_days())
    assert "reserve.html" not in web.draw_site(random.Random(3)).files()  # only the form family ships it


def _home(tmp_path: Path, *queries: dict[str, str], form_page: bool = True) -> Path:
    host = tmp_path / web.HISTORY.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(build_history([{"url": "https://www.rei.com/", "title": "REI", "visits": [T]}]))
    ops = [{"op": "chromehist.visit", "path": web.HISTORY, "url": SITE.url("reserve.html"), "title": "Reserve"}]
    ops = ops if form_page else []
    ops += [{"op": "chromehist.visit", "path": web.HISTORY, "url": SITE.url(f"reserved.html?{urlencode(q)}"),
             "title": "Sent"} for q in queries]
    if ops:
        apply_ops(tmp_path, ops)
    return tmp_path


def _check(root: Path) -> tuple[bool, str]:
    result = run_check(State(root), "chrome.form_sent",
                       {"path": web.HISTORY, "site": SITE.home, "action": "reserved.html", "product": PRODUCT.name,
                        "value": FIELDS["product"], "qty": 3, "day": FIELDS["day"], "name": FIELDS["name"]})
    return result.passed, result.evidence


def test_the_check_accepts_the_sent_form_and_rejects_wrong_end_states(tmp_path):
    assert _check(_home(tmp_path / "ok", FIELDS))[0]
    assert _check(_home(tmp_path / "case", {**FIELDS, "name": " priya raman "}, form_page=False))[0]
    assert _check(_home(tmp_path / "retry", {**FIELDS, "qty": "1"}, FIELDS))[0]  # sent again, corrected
    passed, evidence = _check(_home(tmp_path / "unsent"))
    assert not passed and "never sent" in evidence
    passed, evidence = _check(_home(tmp_path / "qty", {**FIELDS, "qty": "1"}))
    assert not passed and "qty='1'" in evidence
    assert not _check(_home(tmp_path / "noname", {k: v for k, v in FIELDS.items() if k != "name"}))[0]
    other = "/".join(SITE.home.split("/")[:2]) + "//127.0.0.1:1/"
    root = _home(tmp_path / "port")
    apply_ops(root, [{"op": "chromehist.visit", "path": web.HISTORY, "title": "x",
                      "url": f"{other}reserved.html?{urlencode(FIELDS)}"}])
    assert not _check(root)[0]  # another server's page
    bad = _home(tmp_path / "bad")
    (bad / web.HISTORY.removeprefix("/home/user/")).write_text("not a database")
    assert not _check(bad)[0]


def test_the_visit_op_counts_a_second_visit_on_the_same_row(tmp_path):
    root = _home(tmp_path, FIELDS, FIELDS)
    import sqlite3
    conn = sqlite3.connect(root / web.HISTORY.removeprefix("/home/user/"))
    rows = conn.execute("SELECT visit_count FROM urls WHERE url LIKE '%reserved.html%'").fetchall()
    assert rows == [(2,)] and conn.execute("SELECT COUNT(*) FROM visits").fetchone()[0] == 4
    conn.close()


def test_every_phrasing_states_each_field_and_the_family_says_why_it_needs_the_gui():
    facts = {"shop": SITE.name, "site": SITE.home, "product": PRODUCT.name, "qty": "3", "day": FIELDS["day"],
             "person": FIELDS["name"]}
    for phrasing in (*PHRASINGS, *NATURAL):
        text = phrasing.format(**facts)
        assert all(v in text for v in (SITE.home, PRODUCT.name, "quantity 3", FIELDS["day"], FIELDS["name"]))
    assert "History" in GUI
