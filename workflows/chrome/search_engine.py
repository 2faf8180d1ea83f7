"""chrome.search_engine: make one of Chrome's built-in search engines the default.

The engines are the ones Chrome lists for en-US under Settings > Search engine; choosing one writes its data
to `default_search_provider_data.template_url_data` in Preferences (no such entry means Google). The
profile starts with a different default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.chrome import kit as chc

NAME = "chrome.search_engine"
PHRASINGS = (
    "Make {name} (shortcut: {keyword}) the default search engine in Google Chrome.",
    "In Chrome's settings, change the search engine used in the address bar to {name} ({keyword}).",
    "I'd like my Chrome address-bar searches to go to {name} instead of {current}. Set {name}, whose shortcut is "
    "{keyword}, as the default search engine.",
    "Please switch Chrome's default search engine from {current} to {name} (the entry with the shortcut {keyword}).",
    "Configure Google Chrome so that {name} ({keyword}) is the default search engine. Don't change the home page.",
)


@node("goal", "goal", ("params", "bookmarks"), ("profile", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    engine = values["params"]["engine"]
    profile = chc.base_profile(values["bookmarks"], rng)
    others = [e for e in chc.ENGINES if e != engine]
    if engine != "google" and rng.random() < 0.5:
        current = "google"
    else:
        current = rng.choice([e for e in others if e != "google"])
    if current != "google":
        profile = profile.with_prefs(**{"default_search_provider_data.template_url_data": dict(chc.ENGINES[current])})
    data = chc.ENGINES[engine]
    facts = {"name": data["short_name"], "keyword": data["keyword"], "current": chc.ENGINES[current]["short_name"]}
    wrong = rng.choice([e for e in others if e != current])
    return {"profile": profile, "facts": facts, "target": {"engine": engine, "wrong": wrong}}


@node("rubric", "rubric", ("profile", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    data = chc.ENGINES[values["target"]["engine"]]
    check = Check(id="engine", criterion=f"Chrome's default search engine is {data['short_name']} ({data['keyword']}).",
                  primitive="chrome.search_engine",
                  args={"path": chc.PREFERENCES, "name": data["short_name"], "keyword": data["keyword"]})
    return {"rubric": [check, chc.prefs_kept_check(values["profile"].prefs, "default_search_provider_data")]}


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    engine, wrong = values["target"]["engine"], values["target"]["wrong"]
    site = "https://" + {"google": "www.google.com", "bing": "www.bing.com", "yahoo": "www.yahoo.com",
                         "duckduckgo": "duckduckgo.com", "ecosia": "www.ecosia.org"}[engine] + "/"
    return {"solutions": [
        Solution("oracle", f"makes {engine} the default search engine", chc.engine_ops(engine)),
        Solution("near-miss-1", f"picks the wrong entry ({chc.ENGINES[wrong]['short_name']})", chc.engine_ops(wrong)),
        Solution("near-miss-2", "sets the search engine's site as the home page instead",
                 [chc.pref("homepage_is_newtabpage", False), chc.pref("homepage", site)]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(chc.APP,),
    description="Make a stated built-in search engine Chrome's default search engine.",
    knobs={"engine": tuple(chc.ENGINES)},
    nodes=(*chc.source_nodes(), goal, chc.prepare, chc.instruction(NAME, PHRASINGS), rubric, solve),
)
