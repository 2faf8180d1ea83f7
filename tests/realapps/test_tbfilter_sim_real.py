"""The filter simulator (verifiers/frame/tbfilter_sim.py) against real Thunderbird 153, headless over Marionette.

A profile holds probe messages and a filter list of the kinds Forge's tasks and the frame's probes use (subject and
sender terms, `is`/`contains`/negated operators, OR terms, types for new mail only, manual only and both, a disabled
filter, a move followed by a filter for every message). Thunderbird answers two questions: does each filter's
condition hold for each message (`nsIMsgFilter.matchHdr`), and what a manual run of the whole list
(`applyFiltersToFolders`) leaves in each folder. The simulator must say the same. The new-mail context needs mail
arriving through an account, which this tier cannot make: it is modelled from Thunderbird's source (type bits 1
and 32, `nsParseNewMailState`), and the type bits it shares with the manual run are checked here.
"""

from __future__ import annotations

import datetime as dt
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from forge.realapps import thunderbird as rt
from preparers import tbfilters
from preparers import thunderbird as tb
from verifiers.frame import tbfilter_sim as sim

needs_thunderbird = pytest.mark.skipif(shutil.which("thunderbird") is None,
                                       reason="Thunderbird is not installed (apt-get install -y thunderbird)")
T0 = dt.datetime(2024, 6, 3, 9, 0, tzinfo=dt.UTC)
OWNER = "Ann Lee <ann.lee@example.com>"
PROBES = (  # (message id, sender, subject)
    ("p1", "Ana Lopez <ana@alderfinch.com>", "Your TRIP itinerary"),
    ("p2", "Billing <billing@acme.example>", "Invoice 4471 for March"),
    ("p3", "Quill Marrow <quill.marrow@example.invalid>", "Zephyr picnic notes"),
    ("p4", "Ana Lopez <ana@alderfinch.com>", "Quarterly report draft"),
    ("p5", "Sam Ortiz <notifications@parcelpoint.com>", "Re: invoice follow-up"),
    ("p6", "Lopez Team <team@lopez.example>", "Trip photos"),
)
FILTERS = (
    tbfilters.Filter("Trips", (("subject", "contains", "trip"),), (("Move to folder", "Inbox/My Trips"),), type=17),
    tbfilters.Filter("Acme", (("from", "contains", "ACME.example"),), (("Mark flagged", ""),), type=16),
    tbfilters.Filter("Invoices", (("subject", "contains", "invoice"),), (("Copy to folder", "Other"),), type=16),
    tbfilters.Filter("New mail only", (("subject", "contains", "report"),), (("Mark read", ""),), type=1),
    tbfilters.Filter("Off", (), (("Mark flagged", ""),), match="ALL", enabled=False),
    tbfilters.Filter("Ana is", (("from", "is", "Ana Lopez"),), (("Mark read", ""),), type=16),
    tbfilters.Filter("Either", (("subject", "begins with", "Zephyr"), ("from", "contains", "parcelpoint")),
                     (("Mark read", ""),), match="OR", type=16),
    tbfilters.Filter("Not lopez", (("from", "doesn't contain", "lopez"),), (("Mark flagged", ""),), type=16),
    tbfilters.Filter("Everything after", (), (("Mark flagged", ""),), match="ALL", type=16),
)

MATCH_JS = """
const folder = folderAt("Probes");
await loaded(folder);
const list = MailServices.accounts.localFoldersServer.getFilterList(null);
const out = {};
for (let i = 0; i < list.filterCount; i++) {
  const f = list.getFilterAt(i);
  out[f.filterName] = {type: f.filterType, enabled: f.enabled, hits: []};
  for (const h of [...folder.messages]) {
    if (f.MatchHdr(h, folder, folder.msgDatabase, "")) out[f.filterName].hits.push(h.messageId);
  }
}
return out;
"""

RUN_JS = """
const folder = folderAt("Probes");
await loaded(folder);
const list = MailServices.accounts.localFoldersServer.getFilterList(null);
MailServices.filters.applyFiltersToFolders(list, [folder], null);
const snapshot = async () => {
  const out = {};
  for (const path of ["Probes", "Inbox/My Trips", "Other"]) {
    const f = folderAt(path);
    await loaded(f);
    out[path] = [...f.messages].filter(h => !(h.flags & 0x8)).map(h => [h.messageId, h.isRead, h.isFlagged]).sort();
  }
  return JSON.stringify(out);
};
let last = "", same = 0;
for (let tries = 0; tries < 60 && same < 4; tries++) {  // until the folders stop changing
  await new Promise(r => setTimeout(r, 250));
  const now = await snapshot();
  same = now == last ? same + 1 : 0;
  last = now;
}
return JSON.parse(last);
"""


def _async(body: str) -> str:
    """A script body run as an async function whose value goes back through Marionette's callback."""
    return f"(async () => {{ {body} }})().then(done, e => done({{error: String(e)}}));"


def _profile(root: Path) -> Path:
    messages = tuple(tb.Message(mid, sender, OWNER, subject, T0 + dt.timedelta(hours=i), f"Hello {i}\n")
                     for i, (mid, sender, subject) in enumerate(PROBES))
    spec = tb.ProfileSpec("simcheck", tb.Identity("Ann Lee", "ann.lee@example.com"),
                          folders=(tb.Folder("Probes", messages), tb.Folder("Inbox/My Trips"), tb.Folder("Other")),
                          filters=FILTERS)
    for rel, data in tb.build_profile(spec).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root / tb.profile_dir("simcheck")


def _rules() -> list[tbfilters.Rule]:
    return [tbfilters.rule_of(f) for f in FILTERS]


def _probe(sender: str, subject: str) -> sim.Probe:
    return sim.Probe(sender, OWNER, subject)


def _simulated_run() -> dict[str, list[list[Any]]]:
    """What the simulator says a manual run of the list leaves in each folder."""
    out: dict[str, list[list[Any]]] = {"Probes": [], "Inbox/My Trips": [], "Other": []}
    for mid, sender, subject in PROBES:
        read, flagged, where = False, False, "Probes"
        for _, action, value in sim.fired(_rules(), _probe(sender, subject), "manual"):
            read |= action == "Mark read"
            flagged |= action == "Mark flagged"
            if action == "Copy to folder":  # the copy carries the flags the message has by then
                out[value].append([mid, read, flagged])
            where = value if action == "Move to folder" else where
        out[where].append([mid, read, flagged])
    return {k: sorted(v) for k, v in out.items()}


@pytest.mark.slow
@needs_thunderbird
def test_thunderbird_and_the_simulator_agree_on_conditions_types_and_a_manual_run(tmp_path: Path) -> None:
    profile = _profile(tmp_path)
    with rt._Session(profile, time.monotonic() + 90) as session:
        script = (rt._JS / "prelude.js").read_text(encoding="utf-8")
        matched = session.run(script + _async(MATCH_JS))
        assert "error" not in matched, matched
        ran = session.run(script + _async(RUN_JS))
        assert "error" not in ran, ran
    for rule in _rules():
        real = matched[rule.name]
        assert (real["type"], real["enabled"]) == (rule.type, rule.enabled), rule.name
        simulated = sorted(mid for mid, sender, subject in PROBES if sim.rule_holds(rule, _probe(sender, subject)))
        assert sorted(real["hits"]) == simulated, (rule.name, real["hits"], simulated)
    assert ran == _simulated_run()
    assert ran["Inbox/My Trips"] == [["p1", False, False], ["p6", False, False]]  # moved: no later filter saw them
