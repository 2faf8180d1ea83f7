"""Hand-made wrong end states for the desktop apps (GIMP, Chrome, file trees, Thunderbird, VS Code) that the
red team of issue 14 found PASSING their rubric; each must now fail it, through the harness of
`tests/verifiers/test_wrong_states.py` (the oracle state must pass first, so a case fails only by its damage).

Beside them, correct end states produced another way (a darker grey weighting of the grayscale picture,
Thunderbird's own pref writes) must still pass: a fix must not make the checks too strict.
"""

from __future__ import annotations

import json
import re
import shutil
import tarfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageOps

from tests.verifiers.test_wrong_states import (
    PREFS,
    Damage,
    _image,
    edit_json,
    judge,
    local,
    mbox_entries,
    one,
    profile,
)

# ---- gimp -----------------------------------------------------------------------------------------------------


def grayscale_inverted(root: Path) -> None:
    """Made grey, and inverted (a negative): a decreasing tone curve is no asked-for tone change."""
    _image(one(root, "Pictures/bondi_afternoon.webp"), lambda i: ImageOps.invert(i.convert("RGB")).convert(i.mode))


def grayscale_darker(root: Path) -> None:
    """NEUTRAL: another grey weighting, a little darker (a monotone tone curve): still the grayscale picture."""
    _image(one(root, "Pictures/bondi_afternoon.webp"), lambda i: i.point(lambda v: int(v * 0.85)))


# ---- chrome ---------------------------------------------------------------------------------------------------

def engine_name_only(root: Path) -> None:
    """The default engine is called 'Google' (shortcut kept) but searches DuckDuckGo."""
    def change(data: Any) -> None:
        data["default_search_provider_data"]["template_url_data"]["url"] = "https://duckduckgo.com/?q={searchTerms}"
    edit_json(root / PREFS, change)


# ---- os -------------------------------------------------------------------------------------------------------

COPY = "Documents/backup/onboarding-copy"


def copy_is_symlink(root: Path) -> None:
    """The 'copy' is an absolute symbolic link to the source folder."""
    shutil.rmtree(root / COPY)
    (root / COPY).symlink_to("/home/user/work/onboarding")


def copy_is_relative_symlink(root: Path) -> None:
    """The 'copy' is a relative symbolic link to the source folder."""
    shutil.rmtree(root / COPY)
    (root / COPY).symlink_to("../../work/onboarding")


def extract_also_on_desktop(root: Path) -> None:
    """Extracted into the asked folder, and onto the Desktop beside the archive as well."""
    with tarfile.open(root / "Desktop/onboarding_handoff.tar.gz") as tar:
        tar.extractall(root / "Desktop", filter="data")


# ---- thunderbird ----------------------------------------------------------------------------------------------

def flag_and_read_all(root: Path) -> None:
    """The right messages flagged, and every Inbox message marked read as well."""
    path = local(root, "Inbox")
    path.write_bytes(re.sub(rb"X-Mozilla-Status: ([0-9a-fA-F]{4})",
                            lambda m: b"X-Mozilla-Status: %04x" % (int(m.group(1), 16) | 0x1), path.read_bytes()))


def inbox_message_duplicated(root: Path) -> None:
    """The right messages flagged, and a copy of an Inbox message (one of the flagged ones) appended to
    Archives."""
    archives = local(root, "Archives")
    archives.write_bytes(archives.read_bytes() + b"\n" + mbox_entries(local(root, "Inbox"))[0])


def archives_message_duplicated(root: Path) -> None:
    """The right messages flagged, and one Archives message appended to Archives a second time."""
    archives = local(root, "Archives")
    archives.write_bytes(archives.read_bytes() + b"\n" + mbox_entries(archives)[0])


def pref_extra_unrelated(root: Path) -> None:
    """The auto-save interval set, and an unrelated composition setting added."""
    path = profile(root) / "prefs.js"
    path.write_text(path.read_text("utf-8") + 'user_pref("mail.compose.default_to_paragraph", true);\n', "utf-8")


def pref_thunderbird_own(root: Path) -> None:
    """NEUTRAL: prefs Thunderbird writes itself on load (measured on Thunderbird 153) added."""
    path = profile(root) / "prefs.js"
    path.write_text(path.read_text("utf-8") + "".join(
        f'user_pref("{k}", {json.dumps(v)});\n' for k, v in (
            ("mail.ui-rdf.version", 61), ("mailnews.tags.$label1.tag", "Important"),
            ("mail.server.server1.storeContractID", "@mozilla.org/msgstore/berkeleystore;1"),
            ("extensions.lastAppVersion", "153.8.0"), ("calendar.timezone.local", "UTC"))), "utf-8")


# ---- vs code --------------------------------------------------------------------------------------------------

def vscode_extra_setting(root: Path) -> None:
    """The minimap setting right, and an unrelated editor.fontSize added."""
    edit_json(root / ".config/Code/User/settings.json", lambda d: d.update({"editor.fontSize": 30}))


def vscode_trust_prompt(root: Path) -> None:
    """NEUTRAL: VS Code's own answer to its workspace-trust prompt written to the user settings."""
    edit_json(root / ".config/Code/User/settings.json",
              lambda d: d.update({"security.workspace.trust.untrustedFiles": "open"}))


CASES: list[tuple[str, Damage]] = [
    ("gimp.grayscale.webp", grayscale_inverted),
    ("chrome.settings.search_engine_google", engine_name_only),
    ("os.copy.folder", copy_is_symlink),
    ("os.copy.folder", copy_is_relative_symlink),
    ("tb.mark.flagged_before_in_inbox", flag_and_read_all),
    ("tb.mark.flagged_before_in_inbox", inbox_message_duplicated),
    ("tb.mark.flagged_before_in_inbox", archives_message_duplicated),
    ("tb.pref.autosave", pref_extra_unrelated),
    ("vscode.settings.minimap_absent", vscode_extra_setting),
    ("os.extract.targz_new_folder", extract_also_on_desktop),
]

NEUTRAL: list[tuple[str, Damage]] = [
    ("gimp.grayscale.webp", grayscale_darker),
    ("tb.pref.autosave", pref_thunderbird_own),
    ("vscode.settings.minimap_absent", vscode_trust_prompt),
]


@pytest.fixture(scope="module")
def built() -> dict[str, tuple[dict[str, Any], Path]]:
    return {}


@pytest.mark.parametrize(("skill_id", "damage"), CASES, ids=[f"{s}-{d.__name__}" for s, d in CASES])
def test_hand_made_wrong_state_fails(tmp_path_factory: pytest.TempPathFactory, built: dict[str, Any],
                                     skill_id: str, damage: Damage) -> None:
    passed, evidence = judge(skill_id, damage, tmp_path_factory.mktemp("case"), built)
    assert not passed, f"{skill_id}: {damage.__doc__ or damage.__name__} PASSES the rubric"
    assert evidence


@pytest.mark.parametrize(("skill_id", "change"), NEUTRAL, ids=[f"{s}-{d.__name__}" for s, d in NEUTRAL])
def test_correct_state_made_differently_passes(tmp_path_factory: pytest.TempPathFactory, built: dict[str, Any],
                                               skill_id: str, change: Damage) -> None:
    passed, evidence = judge(skill_id, change, tmp_path_factory.mktemp("case"), built)
    assert passed, f"{skill_id}: {change.__doc__}: {evidence}"


def test_grayscale_negative_check_sees_an_inversion_directly() -> None:
    """The tone fit keeps dark darker than light: an inverted picture is not a tone change of the original."""
    from verifiers.checks.image_measure import match

    base = Image.linear_gradient("L").resize((128, 96))
    assert match(base.point(lambda v: int(v * 0.8 + 20)), base, gray=True, tone=True)[0]
    assert not match(ImageOps.invert(base), base, gray=True, tone=True)[0]
