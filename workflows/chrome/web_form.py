"""chrome.web_form: fill and send the pickup reservation form of a shop's site (served offline on loopback,
workflows/chrome/site.py): the product, the quantity, the pickup day and the person's name.

The form is sent by GET, so sending it leaves Chrome's History a visit of the confirmation page whose query holds
every field (`chrome.form_sent`). The form lists each product beside its look-alike, its quantity starts at 1 and
its day list at the first open day: a person who leaves a field as it is sends another reservation.

Only Chrome can do it: the site's server runs beside Chrome, and the visit is Chrome's own record in its History
database, which a terminal can only forge (`gui`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict
from urllib.parse import urlencode

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.chrome import EPOCH_DELTA
from workflows.chrome import kit as chc
from workflows.chrome import site as web

NAME = "chrome.web_form"
PHRASINGS = (
    "On the {shop} site at {site}, use the 'Reserve for pickup' form in Google Chrome to reserve the '{product}' "
    "(quantity {qty}) for pickup on {day}, under the name {person}, and send it.",
    "Open {site} ({shop}) in Chrome and send a pickup reservation: product '{product}', quantity {qty}, pickup "
    "day {day}, name {person}.",
    "Using Chrome, fill in the reservation form of the {shop} website ({site}) for the '{product}', quantity "
    "{qty}, to be picked up on {day} by {person}, and submit it.",
    "Reserve the '{product}' at {shop} through the form on {site}: quantity {qty}, pickup on {day}, name "
    "{person}. Send the form in Chrome.",
    "In Google Chrome, go to {site}, open 'Reserve for pickup' and submit a reservation of the '{product}' with "
    "quantity {qty} for {day} in the name of {person}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you reserve the '{product}' for me at {shop} ({site}), quantity {qty}? I'll pick it up on {day}; the "
    "name is {person}.",
    "Please send a pickup reservation on {site} for the '{product}', quantity {qty}, pickup {day}, name {person}.",
    "I want to collect the '{product}' (quantity {qty}) from {shop} on {day}. Reserve it on {site} under "
    "{person}.",
    "Can you submit the reservation form on {site} for me: '{product}', quantity {qty}, {day}, name {person}?",
    "Reserve the '{product}' at {site} for pickup on {day}, quantity {qty}, in the name of {person}.",
)
PEOPLE = ("Dana Whitfield", "Marcus Oyelaran", "Priya Raman", "Tomasz Kowal", "Elena Marquez", "Hannah Becker",
          "Samuel Achebe", "Yuki Tanaka", "Liam O'Connor", "Sofia Rossi")
GUI = ("sending a web form needs the browser: the site's server runs only beside Chrome, and what the form leaves is "
       "Chrome's own record of the visit in its History database, which a terminal could only forge")


class Params(TypedDict):
    quantity: Literal["one", "several"]


@dataclass(frozen=True)
class Target:
    product: str
    fields: dict[str, str]  # what the form must send: product (its value), qty, day, name
    twin: str  # the look-alike product's form value
    other_day: str  # another open day


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[web.WebProfile, Target]:
    profile = chc.base_profile(bookmarks, rng, params)
    site = web.draw_site(rng)
    site = web.Site(site.name, site.kind, site.port, site.products, site.address, site.phone, site.hours, forms=True)
    product = rng.choice(site.products)
    qty = 1 if params["quantity"] == "one" else rng.randint(2, 4)
    days = site.open_days()
    day = rng.choice(days[1:])  # never the day the form shows first
    person = rng.choice(PEOPLE)
    now = rng.uniform(1_700_000_000, 1_717_000_000)
    history = tuple({"url": url, "title": name, "typed": 0,
                     "visits": sorted(int((now - rng.uniform(0, 30 * 86_400) + EPOCH_DELTA) * 1_000_000)
                                      for _ in range(rng.randint(1, 3)))}
                    for _, name, url in profile.links())
    fields = {"product": web.slug(product.name), "qty": str(qty), "day": day, "name": person}
    target = Target(product.name, fields, web.slug(site.twin(product).name),
                    rng.choice([d for d in days if d != day]))
    facts = {"shop": site.name, "site": site.home, "product": product.name, "qty": str(qty),
             "day": day, "person": person}
    return Goal(web.web_profile(profile, site, history), facts, target)


def rubric(profile: web.WebProfile, target: Target) -> list[Check]:
    assert profile.site is not None
    f = target.fields
    return [Check("sent", f"Chrome's history shows the reservation form of {profile.site.home} sent for {f['qty']} "
                          f"of the '{target.product}', pickup on {f['day']}, name {f['name']}.",
                  "chrome.form_sent",
                  {"path": web.HISTORY, "site": profile.site.home, "action": "reserved.html",
                   "product": target.product, "value": f["product"], "qty": int(f["qty"]), "day": f["day"],
                   "name": f["name"]})]


def solve(profile: web.WebProfile, target: Target) -> Attempts:
    site = profile.site
    assert site is not None

    def send(**changes: str) -> list[dict[str, Any]]:
        query = urlencode({**target.fields, **changes})
        return [{"op": "chromehist.visit", "path": web.HISTORY, "url": site.url("reserve.html"),
                 "title": f"Reserve for pickup | {site.name}"},
                {"op": "chromehist.visit", "path": web.HISTORY, "url": site.url(f"reserved.html?{query}"),
                 "title": f"Reservation sent | {site.name}"}]

    qty = target.fields["qty"]
    return Attempts(
        Attempt("fills every field of the reservation form as asked and sends it", send()),
        [Attempt("picks the look-alike product in the form", send(product=target.twin)),
         Attempt("leaves the pickup day at another day", send(day=target.other_day)),
         Attempt("leaves the quantity at 1" if qty != "1" else "types 2 as the quantity",
                 send(qty="1" if qty != "1" else "2")),
         Attempt("fills the form but never sends it", send()[:1])],
    )


WORKFLOW = family(
    NAME, web.WEB,
    description="Fill and send a shop site's pickup reservation form (served offline): product, quantity, pickup day "
                "and name.",
    knobs={"quantity": ("one", "several")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, gui=GUI,
)
