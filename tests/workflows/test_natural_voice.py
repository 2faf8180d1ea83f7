"""The natural register of the GIMP, Chrome, VS Code, OS, Thunderbird, multi-app and VLC families reads as a user's
goal.

Fast checks over every natural template of those families, filled with the facts of one real task each (every
knob combination would re-render every picture; natural tasks go through the real gate in the register tests):
the template fills (it names only facts the goal produces), the text names no menu path or dialog a user would
not say, is at least 8 words long, and no two templates fill to the same text. A template that breaks these fails
here, naming the family and the filled text.
"""

from __future__ import annotations

import re

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from tests.workflows.test_families import combinations
from workflows import families
from workflows.common import natural_phrasings, spoken

APPS = ("gimp", "chrome", "vscode", "os", "tb", "multi", "vlc")
FAMILIES = sorted(name for name in families() if name.split(".", 1)[0] in APPS)
#: What a user would not say: menu paths ("Image > Scale Image"), dialogs and settings pages by their UI names.
UI = re.compile(r"\w \> \w|Tools \>|File \>|Edit \>|Preferences|Account Settings|Message Filters|Export As|"
                r"Print Size|bookmark manager|chrome://|settings editor|Keyboard Shortcuts editor|alpha channel|"
                r"unlink the chain", re.IGNORECASE)


def filled(name: str) -> list[str]:
    workflow = families()[name]
    params = combinations(workflow)[0]
    facts = workflow.run(NodeContext(params, 1, "test.skill", 0, OfflineBackend()))["facts"]
    return [" ".join(t.format(**spoken(facts)).split()) for t in natural_phrasings(name)]


def test_every_family_of_these_apps_has_natural_phrasings():
    missing = [name for name in FAMILIES if len(natural_phrasings(name)) < 5]
    assert not missing, f"families with fewer than 5 natural phrasings: {missing}"


@pytest.mark.parametrize("name", FAMILIES)
def test_natural_phrasings_fill_and_speak_as_a_user(name):
    texts = filled(name)
    ui = [text for text in texts if UI.search(text)]
    assert not ui, f"{name}: natural phrasings that name a menu path or dialog: {ui}"
    sizes = [len(text.split()) for text in texts]
    assert min(sizes) >= 8, f"{name}: a natural phrasing under 8 words: {texts[sizes.index(min(sizes))]!r}"
    assert len(set(texts)) == len(texts), f"{name}: two natural phrasings fill to the same text"
