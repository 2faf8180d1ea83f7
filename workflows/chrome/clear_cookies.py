"""chrome.clear_cookies: delete the cookies of one site (on every subdomain: the person wants to be signed out of it
or reset it), or every cookie but one site's (a clean slate that keeps them signed in where they work), leaving the
rest of the cookie store as it is.

The profile gets a Cookies database (preparers/ops/chrome_cookies.py) with cookies of the person's bookmarked sites:
domain cookies (".site"), host-only ones ("www.site") and a sign-in subdomain's ("accounts.site"), so a person who
deletes only what one host shows leaves the others behind.

No frame reads the Cookies database (Chrome's own, beside the files the frame knows), so the rubric guards the
cookies it keeps itself (`chrome.cookies_kept`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.axes import pick
from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from preparers.chrome import EPOCH_DELTA
from preparers.ops.chrome_cookies import build_cookies, cookie_host, of_site
from preparers.ops.chrome_history import host_of
from workflows.chrome import kit as chc

NAME = "chrome.clear_cookies"
COOKIES = f"{chc.PROFILE_DIR}/Cookies"
PHRASINGS = (
    "In Google Chrome, {what}. {rest}",
    "Open Chrome's site data settings and {what}. {rest}",
    "Clean up Chrome's cookies: {what}. {rest}",
    "Using Google Chrome's privacy settings, {what}. {rest}",
    "Please {what} in Chrome. {rest}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{why} Can you {what} in Chrome?",
    "Please {what} in my Chrome. {rest}",
    "{why} Please {what}.",
    "Could you {what} in Chrome? {rest}",
    "I'd like Chrome to {what}, nothing more.",
)
REST = {"site": "Leave the other sites' cookies in place.",
        "keep_site": "Leave Chrome's other data and settings alone."}
NAMES = ("_ga", "_gid", "session", "sid", "csrftoken", "consent", "lang", "remember_me", "auth_token", "prefs",
         "cart_id", "theme", "__Secure-sid", "tz")
SIGN_IN = ("accounts", "login", "auth", "id")
LOOKALIKE_SUFFIXES = ("hq", "app", "fans", "status", "community")
WHY = {"site": "That site keeps showing me the wrong account.",
       "keep_site": "I want a clean slate, but I must stay signed in to that one site."}
AXES: dict[str, tuple[Any, ...]] = {"cookies": ("usual", "many"), "lookalikes": ("none", "some")}


@dataclass(frozen=True)
class Profile(chc.Profile):
    """The Chrome profile with its cookie store (the cookies `build_cookies` takes)."""

    cookies: tuple[dict[str, Any], ...] = ()


@node("prepare", "prepare", ("profile",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Any) -> Any:
    out = dict(chc.prepare.fn(ctx, values))
    profile: Profile = values["profile"]
    out["assets"] = [*out["assets"], Asset(COOKIES, build_cookies(profile.cookies), app="chrome")]
    return out


KIT = replace(chc.CHROME, prepare=prepare, axes=AXES)


class Params(TypedDict):
    scope: Literal["site", "keep_site"]


@dataclass(frozen=True)
class Target:
    site: str  # the site whose cookies go (scope site) or stay (keep_site)
    keep: bool  # keep_site: every other site's cookies go
    main: str  # the site's host-only cookie host (www.site)
    neighbour: str  # another site with cookies: the "wrong site" near-miss
    lookalikes: tuple[str, ...]  # sites whose names contain the site's name


def _site(host: str) -> str:
    labels = host.removeprefix("www.").split(".")
    keep = 3 if len(labels) > 2 and len(labels[-1]) == 2 and labels[-2] in ("co", "com", "org", "ac", "gov") else 2
    return ".".join(labels[-keep:])


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[Profile, Target]:
    base = chc.base_profile(bookmarks, rng)
    many = pick(params, "cookies", AXES) == "many"
    now = rng.uniform(1_700_000_000, 1_717_000_000)
    cookies: list[dict[str, Any]] = []
    taken: set[tuple[str, str]] = set()

    def add(host: str, count: int) -> None:
        for name in rng.sample(NAMES, count):
            if (host, name) in taken:
                continue
            taken.add((host, name))
            created = now - rng.uniform(0, 200 * 86_400)
            cookies.append({"host": host, "name": name, "path": "/",
                            "created": int((created + EPOCH_DELTA) * 1_000_000),
                            "expires": int((created + rng.uniform(30, 400) * 86_400 + EPOCH_DELTA) * 1_000_000),
                            "secret": rng.randbytes(rng.randint(16, 48)), "httponly": rng.random() < 0.4})

    sites: dict[str, str] = {}  # site -> its main host, in bookmark order
    for _, _, url in base.links():
        host = host_of(url)
        sites.setdefault(_site(host), host)
    for site, host in sites.items():
        add(f".{site}", rng.randint(1, 3) + (2 if many else 0))
        if host != site or rng.random() < 0.5:
            add(host, rng.randint(1, 2) + (1 if many else 0))
    site, neighbour = rng.sample(list(sites), 2)
    main = sites[site] if sites[site] != site else f"www.{site}"
    add(main, 2)
    add(f"{rng.choice(SIGN_IN)}.{site}", 2)
    lookalikes: list[str] = []
    if pick(params, "lookalikes", AXES) == "some":
        label = site.split(".")[0]
        for suffix in rng.sample(LOOKALIKE_SUFFIXES, 2):
            lookalikes.append(f"{label}{suffix}.com")
            add(f".{label}{suffix}.com", 2)
    rng.shuffle(cookies)
    profile = Profile(base.bookmarks, base.prefs, base.nest, cookies=tuple(cookies))
    keep = params["scope"] == "keep_site"
    what = (f"delete every cookie except those of {site} (keep its subdomains' cookies too)" if keep else
            f"delete all cookies of {site}, including those of its subdomains")
    return Goal(profile, {"what": what, "why": WHY[params["scope"]], "rest": REST[params["scope"]]},
                Target(site, keep, main, neighbour, tuple(lookalikes)))


def rubric(profile: Profile, target: Target) -> list[Check]:
    t = target
    kept = [[c["host"], c["name"], c["path"]] for c in profile.cookies if of_site(c["host"], t.site) == t.keep]
    args: dict[str, Any] = {"path": COOKIES, **({"except_site": t.site} if t.keep else {"site": t.site})}
    what = f"of any site but {t.site}" if t.keep else f"of {t.site} (on any of its subdomains)"
    return [Check("removed", f"Chrome stores no cookie {what}.", "chrome.cookies_removed", args),
            Check("cookies_kept", f"Every cookie {'of ' + t.site if t.keep else 'of the other sites'} is still "
                  "stored.", "chrome.cookies_kept", {"path": COOKIES, "cookies": kept})]


def _delete(**args: Any) -> dict[str, Any]:
    return {"op": "chromecookies.delete", "path": COOKIES, **args}


def solve(profile: Profile, target: Target) -> Attempts:
    t = target
    misses = [Attempt("deletes every cookie", [_delete(everything=True)])]
    if not t.keep:
        oracle = _delete(site=t.site)
        misses += [Attempt(f"deletes only the cookies set by {t.main}, missing the site's domain and sign-in cookies",
                           [_delete(hosts=[t.main])]),
                   Attempt("deletes another site's cookies instead", [_delete(site=t.neighbour)])]
        if t.lookalikes:
            misses.append(Attempt("also deletes the cookies of sites whose names merely contain the site's name",
                                  [oracle, _delete(site=t.lookalikes[0])]))
    else:
        oracle = _delete(except_site=t.site)
        others = sorted({cookie_host(c["host"]) for c in profile.cookies if not of_site(c["host"], t.site)})
        misses += [Attempt(f"keeps only the cookies of {t.main}, deleting the site's domain and sign-in cookies",
                           [_delete(hosts=[*others, *(cookie_host(c["host"]) for c in profile.cookies
                                                      if of_site(c["host"], t.site) and cookie_host(c["host"])
                                                      != t.main)])]),
                   Attempt("deletes only one other site's cookies", [_delete(site=t.neighbour)]),
                   Attempt("deletes the other sites' cookies but one", [_delete(hosts=others[1:])])]
        if t.lookalikes:
            misses.append(Attempt("keeps the cookies of every site whose name contains the site's name",
                                  [_delete(hosts=[h for h in others if t.site.split(".")[0] not in h])]))
    return Attempts(Attempt("deletes exactly the cookies asked", [oracle]), misses)


WORKFLOW = family(
    NAME, KIT,
    description="Delete the cookies of one site (every subdomain) or every cookie but one site's from Chrome's "
                "cookie store, keeping the rest.",
    knobs={"scope": ("site", "keep_site")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
