"""Chrome content and determinism: realistic offline bookmark sets that fit the schema; identical reruns."""

import random

import jsonschema
import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from workflows import families
from workflows.chrome.content import CONTENT_SCHEMA, SITES, generate_profile

CHROME = sorted(name for name in families() if name.startswith("chrome."))


def test_site_library_has_unique_names_and_urls():
    sites = [site for _, pool in SITES.values() for site in pool]
    assert len({name for name, _ in sites}) == len(sites)
    assert len({url for _, url in sites}) == len(sites)


@pytest.mark.parametrize("seed", range(40))
def test_offline_profiles_fit_the_schema_and_never_repeat_a_site(seed):
    profile = generate_profile(random.Random(seed), n_folders=3 + seed % 2)
    jsonschema.validate(profile, CONTENT_SCHEMA)
    links = [*profile["bar"], *profile["other"], *profile["extra"],
             *(b for folder in profile["folders"] for b in folder["bookmarks"])]
    assert len({link["url"] for link in links}) == len(links)
    assert len({folder["name"] for folder in profile["folders"]}) == len(profile["folders"])


@pytest.mark.parametrize("family", CHROME)
def test_same_seed_gives_identical_assets(family):
    workflow = families()[family]
    params = {knob: values[-1] for knob, values in workflow.knobs.items()}
    runs = [workflow.run(NodeContext(params, 5, "chrome.test", 2, OfflineBackend())) for _ in range(2)]
    assert [(a.dest, a.data) for a in runs[0]["assets"]] == [(a.dest, a.data) for a in runs[1]["assets"]]
    assert runs[0]["instruction"] == runs[1]["instruction"]
    other = workflow.run(NodeContext(params, 6, "chrome.test", 2, OfflineBackend()))
    assert [a.data for a in other["assets"]] != [a.data for a in runs[0]["assets"]]
