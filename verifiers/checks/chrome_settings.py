"""chrome settings primitives beyond the home page, startup and search engine: privacy switches of the profile's
`Preferences` file, read the way Chrome reads them.

Chrome leaves a setting out of Preferences while it has its default value, so a missing key is the default; a value
of the wrong type is one Chrome ignores (it falls back to the default), so it never counts as the asked value.
Privacy and security keys, as chrome://settings writes them:
- Do Not Track: `enable_do_not_track` (default false);
- Safe Browsing: `safebrowsing.enabled` (default true) and `safebrowsing.enhanced` (default false): Enhanced
  protection is both true, Standard protection enabled but not enhanced, No protection both false;
- third-party cookies: `profile.cookie_controls_mode` (0 allow, 1 block in Incognito only (the default), 2 block);
- clearing cookies and site data when all windows close: the default cookie content setting
  `profile.default_content_setting_values.cookies` is 4 (session only); 1 or unset allows them to stay, 2 blocks
  every cookie.
"""

from __future__ import annotations

from typing import Any

from preparers.ops.json_doc import get_at, has_key
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.json import chrome_prefs

#: The privacy changes `chrome.privacy` knows, each the lexicon value ("privacy" domain) that says it.
PRIVACY = ("dnt_on", "dnt_off", "sb_enhanced", "sb_standard", "sb_off", "tpc_block", "tpc_allow", "exit_clear",
           "exit_keep")
DNT = "enable_do_not_track"
SB_ENABLED, SB_ENHANCED = "safebrowsing.enabled", "safebrowsing.enhanced"
COOKIE_MODE = "profile.cookie_controls_mode"
COOKIES = "profile.default_content_setting_values.cookies"
#: cookie_controls_mode values as the Third-party cookies page names them.
MODES = {0: "allow third-party cookies", 1: "block third-party cookies in Incognito only",
         2: "block third-party cookies"}
#: default cookie content setting values.
COOKIE_SETTINGS = {1: "allow (keep) cookies", 2: "block every cookie", 4: "clear cookies when all windows close"}


def _typed(prefs: dict[str, Any], key: str, kind: type, default: Any) -> tuple[Any, str]:
    """The value Chrome uses for `key` and how it reads in evidence: unset -> default; a value of another type is
    ignored by Chrome (the default applies), and said so."""
    if not has_key(prefs, key):
        return default, f"{key} unset (default {default!r})"
    value = get_at(prefs, key)
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        return default, f"{key} = {value!r}, a {type(value).__name__} Chrome ignores (default {default!r} applies)"
    return value, f"{key} = {value!r}"


@primitive("chrome.privacy", grounded=("change",),
           meaning=Meaning(action=r"track|safe browsing|protection|cookie|privacy",
                           args={"change": Said("privacy")}))
def privacy(state: State, path: str, change: str) -> Result:
    """The privacy setting `change` (one of `PRIVACY`) holds in the Preferences file `path`: Do Not Track on / off,
    Safe Browsing at Enhanced / Standard / No protection, third-party cookies blocked / allowed, cookies and site
    data cleared / kept when all windows close."""
    if change not in PRIVACY:
        return fail(f"check misconfigured: change={change!r}, not one of {list(PRIVACY)}")
    prefs = chrome_prefs(state, path)
    if change in ("dnt_on", "dnt_off"):
        value, said = _typed(prefs, DNT, bool, False)
        if value is (change == "dnt_on"):
            return ok(f"Do Not Track is {'on' if value else 'off'} ({said})")
        return fail(f"Do Not Track is {'on' if value else 'off'}, expected {'on' if change == 'dnt_on' else 'off'} "
                    f"({said})")
    if change.startswith("sb_"):
        enabled, said_on = _typed(prefs, SB_ENABLED, bool, True)
        enhanced, said_enh = _typed(prefs, SB_ENHANCED, bool, False)
        level = "off" if not enabled else "enhanced" if enhanced else "standard"
        names = {"enhanced": "Enhanced protection", "standard": "Standard protection", "off": "No protection"}
        want = change[3:]
        if level != want or (want == "off" and enhanced):
            extra = " (yet still marked enhanced)" if level == want else ""
            return fail(f"Safe Browsing is at {names[level]}{extra}, expected {names[want]} ({said_on}; {said_enh})")
        return ok(f"Safe Browsing is at {names[level]} ({said_on}; {said_enh})")
    if change in ("tpc_block", "tpc_allow"):
        mode, said = _typed(prefs, COOKIE_MODE, int, 1)
        asked = 2 if change == "tpc_block" else 0
        if mode != asked:
            return fail(f"Chrome is set to {MODES.get(mode, f'cookie mode {mode}')}, expected to "
                        f"{MODES[asked]} ({said})")
        return ok(f"Chrome is set to {MODES[asked]} ({said})")
    setting, said = _typed(prefs, COOKIES, int, 1)
    if change == "exit_clear":
        if setting != 4:
            return fail(f"the default cookie setting is to {COOKIE_SETTINGS.get(setting, f'value {setting}')}, "
                        f"not to clear cookies and site data when all windows close ({said})")
        return ok(f"cookies and site data are cleared when all windows close ({said})")
    if setting != 1:
        return fail(f"the default cookie setting is to {COOKIE_SETTINGS.get(setting, f'value {setting}')}, expected "
                    f"sites to keep their cookies after Chrome closes ({said})")
    return ok(f"sites keep their cookies after Chrome closes ({said})")


# --- fonts (Settings > Appearance > Customize fonts) ----------------------------------------------------------

#: Font settings by name: (Preferences key, Chrome's default on Linux, how the evidence names it). Sizes are
#: integers in pixels; families are font names, written per script (`Zyyy`: the one Customize fonts edits).
FONTS: dict[str, tuple[str, Any, str]] = {
    "size": ("webkit.webprefs.default_font_size", 16, "font size"),
    "minimum": ("webkit.webprefs.minimum_font_size", 0, "minimum font size"),
    "standard": ("webkit.webprefs.fonts.standard.Zyyy", "Times New Roman", "standard font"),
    "serif": ("webkit.webprefs.fonts.serif.Zyyy", "Times New Roman", "serif font"),
    "sans": ("webkit.webprefs.fonts.sansserif.Zyyy", "Arial", "sans-serif font"),
    "fixed": ("webkit.webprefs.fonts.fixed.Zyyy", "Monospace", "fixed-width font"),
}


@primitive("chrome.font", grounded=("setting", "value"),
           meaning=Meaning(action=r"font|text size", args={"setting": Said("font_setting")}))
def font(state: State, path: str, setting: str, value: int | str) -> Result:
    """Chrome's font setting `setting` (one of `FONTS`) is `value` in the Preferences file `path`: a size in pixels
    (an integer: a size written as text or with a fraction is one Chrome ignores) or a font family name (compared
    without regard to case or surrounding spaces, as fontconfig matches names)."""
    if setting not in FONTS:
        return fail(f"check misconfigured: setting={setting!r}, not one of {list(FONTS)}")
    key, default, label = FONTS[setting]
    prefs = chrome_prefs(state, path)
    actual, said = _typed(prefs, key, int if isinstance(default, int) else str, default)
    same = actual == value if isinstance(value, int) else str(actual).strip().casefold() == value.strip().casefold()
    if not same:
        return fail(f"the {label} is {actual!r}, expected {value!r} ({said})")
    return ok(f"the {label} is {actual!r} ({said})")


# --- the profile's name (Settings > You and Google > Customize your Chrome profile) ---------------------------

@primitive("chrome.profile_name", grounded=("name",), meaning=Meaning(action=r"name|rename|call|label"))
def profile_name(state: State, path: str, name: str) -> Result:
    """The profile in `path` (its Preferences) is named `name` (exactly, spaces around it aside), and is not marked
    as using a default name (Chrome then shows a generated one, "Person 1", whatever `profile.name` says)."""
    prefs = chrome_prefs(state, path)
    actual, said = _typed(prefs, "profile.name", str, "")
    default, said_default = _typed(prefs, "profile.using_default_name", bool, True)
    if actual.strip() != name.strip():
        return fail(f"the profile is named {actual!r}, expected {name!r} ({said})")
    if default:
        return fail(f"the profile's name is {actual!r}, but Chrome is told to use a default name instead "
                    f"({said_default})")
    return ok(f"the profile is named {actual!r} ({said_default})")



# --- chrome://flags (Local State: browser.enabled_labs_experiments) ---------------------------------------------

#: a flag's setting by the option index Chrome stores after '@' (no entry: the Default option)
FLAG_OPTIONS = {"enabled": 1, "disabled": 2}
LABS = "browser.enabled_labs_experiments"


@primitive("chrome.flag", grounded=("flag", "setting"),
           meaning=Meaning(action=r"flag|experiment", args={"setting": Said("flag_setting")}))
def flag(state: State, path: str, flag: str, setting: str, others: list[str]) -> Result:
    """In Chrome's Local State (`path`), the chrome://flags experiment `flag` is set to `setting` ("enabled",
    "disabled", or "default": no entry), and every other entry of `others` (the flags the task leaves alone) is
    still there."""
    if setting not in (*FLAG_OPTIONS, "default"):
        return fail(f"check misconfigured: setting={setting!r}")
    data = chrome_prefs(state, path)
    entries = get_at(data, LABS, [])
    if not isinstance(entries, list):
        return fail(f"{LABS} is {entries!r}, not a list of flags")
    mine = [str(e) for e in entries if str(e).split("@")[0] == flag]
    want = [] if setting == "default" else [f"{flag}@{FLAG_OPTIONS[setting]}"]
    if mine != want:
        shown = ", ".join(mine) if mine else "no entry (Default)"
        return fail(f"the flag {flag} reads {shown}, expected {want[0] if want else 'no entry (Default)'}")
    lost = [o for o in others if o not in [str(e) for e in entries]]
    if lost:
        return fail(f"the flag {flag} is {setting}, but other flags were reset: {', '.join(lost[:5])}")
    return ok(f"the flag {flag} is {setting} ({', '.join(mine) or 'no entry'}); {len(others)} other flag(s) kept")
