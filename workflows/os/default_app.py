"""os.default_app: make a stated application the default for stated MIME types in ~/.config/mimeapps.list.

The file is a lived-in XDG default-applications keyfile: a `[Default Applications]` section naming the app of
each common type (pictures, PDFs, web links, text, spreadsheets, music, video, mail, archives) and an
`[Added Associations]` section listing the other apps offered in "Open With". Knob `change`: `replace` an existing
default, add a `new` default for a type that only has associations, or a `group` of two or three related types.

The rubric reads the file as the desktop does (verifiers/checks/os_desktop.py): each asked type's default is the
stated desktop id, and every other association is as it was. Near-misses: the app added to the type's
`[Added Associations]` list instead of made its default, the Flatpak-style id of the same app (org.gimp.GIMP.desktop
for gimp.desktop), the neighbouring type of the same kind, a `sed` that swaps the old app for the new one on every
line, a line echoed onto the end of the file (which lands in `[Added Associations]` and drops the type's other
apps), only the first type of a group.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from verifiers.checks.os_desktop import ADDED, DEFAULTS, mimeapps_text
from workflows.os import kit as oc

NAME = "os.default_app"
PATH = oc.home(".config/mimeapps.list")

#: desktop id -> (the name a user calls it, the look-alike id a careless edit writes: a Flatpak's or an old name)
APPS = {
    "org.gnome.eog.desktop": ("Image Viewer", "eog.desktop"),
    "gimp.desktop": ("GIMP", "org.gimp.GIMP.desktop"),
    "org.gnome.Shotwell-Viewer.desktop": ("Shotwell", "shotwell-viewer.desktop"),
    "org.gnome.Evince.desktop": ("Document Viewer", "evince.desktop"),
    "firefox.desktop": ("Firefox", "org.mozilla.firefox.desktop"),
    "chromium.desktop": ("Chromium", "org.chromium.Chromium.desktop"),
    "org.gnome.TextEditor.desktop": ("Text Editor", "gnome-text-editor.desktop"),
    "code.desktop": ("Visual Studio Code", "com.visualstudio.code.desktop"),
    "org.gnome.gedit.desktop": ("gedit", "gedit.desktop"),
    "libreoffice-calc.desktop": ("LibreOffice Calc", "org.libreoffice.LibreOffice.calc.desktop"),
    "org.gnome.gnumeric.desktop": ("Gnumeric", "gnumeric.desktop"),
    "libreoffice-writer.desktop": ("LibreOffice Writer", "org.libreoffice.LibreOffice.writer.desktop"),
    "abiword.desktop": ("AbiWord", "com.abisource.AbiWord.desktop"),
    "vlc.desktop": ("VLC", "org.videolan.VLC.desktop"),
    "org.gnome.Rhythmbox3.desktop": ("Rhythmbox", "rhythmbox.desktop"),
    "org.gnome.Totem.desktop": ("Videos", "totem.desktop"),
    "mpv.desktop": ("mpv", "io.mpv.Mpv.desktop"),
    "thunderbird.desktop": ("Thunderbird", "org.mozilla.Thunderbird.desktop"),
    "org.gnome.Evolution.desktop": ("Evolution", "evolution.desktop"),
    "org.gnome.FileRoller.desktop": ("Archive Manager", "file-roller.desktop"),
    "xarchiver.desktop": ("Xarchiver", "org.xarchiver.Xarchiver.desktop"),
}
#: kind of file -> (its MIME types with the words a user says for each, the apps that open them)
KINDS: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "pictures": ((("image/png", "PNG images"), ("image/jpeg", "JPEG photos"), ("image/gif", "GIF images"),
                  ("image/webp", "WebP images"), ("image/tiff", "TIFF images")),
                 ("org.gnome.eog.desktop", "gimp.desktop", "org.gnome.Shotwell-Viewer.desktop")),
    "web": ((("text/html", "HTML pages"), ("x-scheme-handler/http", "http links"),
             ("x-scheme-handler/https", "https links"), ("application/xhtml+xml", "XHTML pages")),
            ("firefox.desktop", "chromium.desktop")),
    "text": ((("text/plain", "plain text files"), ("text/markdown", "Markdown files"),
              ("text/x-python", "Python scripts"), ("application/json", "JSON files"),
              ("text/x-log", "log files")),
             ("org.gnome.TextEditor.desktop", "code.desktop", "org.gnome.gedit.desktop")),
    "sheets": ((("text/csv", "CSV files"),
                ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "Excel workbooks"),
                ("application/vnd.oasis.opendocument.spreadsheet", "ODS spreadsheets")),
               ("libreoffice-calc.desktop", "org.gnome.gnumeric.desktop")),
    "documents": ((("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Word documents"),
                   ("application/vnd.oasis.opendocument.text", "ODT documents"), ("application/rtf", "RTF files")),
                  ("libreoffice-writer.desktop", "abiword.desktop")),
    "music": ((("audio/mpeg", "MP3 files"), ("audio/flac", "FLAC files"), ("audio/x-wav", "WAV recordings"),
               ("audio/ogg", "Ogg audio files")),
              ("org.gnome.Rhythmbox3.desktop", "vlc.desktop")),
    "video": ((("video/mp4", "MP4 videos"), ("video/x-matroska", "MKV videos"), ("video/webm", "WebM videos")),
              ("org.gnome.Totem.desktop", "vlc.desktop", "mpv.desktop")),
    "mail": ((("x-scheme-handler/mailto", "mailto links"), ("message/rfc822", "saved .eml emails")),
             ("thunderbird.desktop", "org.gnome.Evolution.desktop")),
    "archives": ((("application/zip", "ZIP archives"), ("application/x-compressed-tar", "tar.gz archives"),
                  ("application/x-7z-compressed", "7z archives")),
                 ("org.gnome.FileRoller.desktop", "xarchiver.desktop")),
}
PDF = (("application/pdf", "PDF files"), ("org.gnome.Evince.desktop", "firefox.desktop", "chromium.desktop"))

PHRASINGS = (
    "Edit {path} so that {app_name} ({app}) becomes the default application for {types}. Keep every other "
    "association in the file as it is.",
    "In {path}, set the default application for {types} to {app} ({app_name}). Don't change the defaults or "
    "associations of any other file type.",
    "Using the terminal or a text editor, change {path}: {types} should open with {app} by default. Leave all "
    "other entries unchanged.",
    "Update the XDG default-applications file {path} so that {types} default to {app_name}, whose desktop id is "
    "{app}. Nothing else in the file should change.",
    "Make {app} the default handler for {types} by editing {path}. All other default applications and added "
    "associations stay the same.",
)
NATURAL = (
    "I want {types} to open in {app_name} ({app}) by default. My file associations are in {path}.",
    "Please make {app_name} my default app for {types}; its desktop file is {app} and the settings live in {path}.",
    "{types_cap} keep opening in {old_name}. Could you set {app} as their default in {path}?",
    "Could you change {path} so that {app} is the default for {types}? Leave my other apps alone.",
    "From now on {types} should open with {app_name} ({app}) by default. The defaults are kept in {path}.",
)


class Params(TypedDict):
    change: Literal["replace", "new", "group"]


@dataclass(frozen=True)
class Target:
    entries: dict[str, dict[str, list[str]]]  # {section: {mime: [desktop ids]}} as the file has them
    text: str  # the file as it is
    mimes: list[str]  # the types to give the new default
    app: str  # the desktop id to make their default
    old: str  # the app that opens them now
    neighbour: str  # a type of the same kind that is not asked
    kind_mimes: list[str]  # every type of that kind in [Default Applications]


def _spoken(pairs: list[tuple[str, str]]) -> str:
    """'PNG images (image/png) and JPEG photos (image/jpeg)'."""
    parts = [f"{words} ({mime})" for mime, words in pairs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _associations(rng: random.Random, kind: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(defaults, added associations) of one kind of file: each type defaults to the kind's usual app; some list
    one or two others in "Open With"."""
    pairs, apps = KINDS[kind] if kind != "pdf" else ((PDF[0],), PDF[1])
    usual = apps[0]
    defaults = {mime: [usual] for mime, _ in pairs}
    added = {}
    for mime, _ in pairs:
        if rng.random() < 0.5:
            added[mime] = [usual, *rng.sample(apps[1:], rng.randint(1, len(apps) - 1))]
    return defaults, added


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    change = params["change"]
    kind = rng.choice([k for k, (pairs, _) in KINDS.items() if len(pairs) >= (3 if change == "group" else 2)])
    pairs, apps = KINDS[kind]
    others = rng.sample([k for k in (*KINDS, "pdf") if k != kind], rng.randint(4, 6))
    defaults: dict[str, list[str]] = {}
    added: dict[str, list[str]] = {}
    for name in [*others, kind]:
        d, a = _associations(rng, name)
        defaults.update(d)
        added.update(a)
    order = list(defaults)
    rng.shuffle(order)
    defaults = {m: defaults[m] for m in order}
    old = apps[0]
    app = rng.choice(apps[1:])
    count = rng.randint(2, len(pairs) - 1) if change == "group" else 1
    asked = rng.sample(list(pairs), count)
    asked.sort(key=lambda p: pairs.index(p))
    mimes = [m for m, _ in asked]
    neighbour = next(m for m, _ in pairs if m not in mimes)
    if change == "new":  # the type has no default yet: "Open With" offers the usual app (and maybe a third)
        mime = mimes[0]
        del defaults[mime]
        rest = [a for a in apps if a not in (old, app)]
        added[mime] = [old, *rest[:rng.randint(0, len(rest))]]
    elif mimes[0] in added and added[mimes[0]][0] != old:
        added[mimes[0]] = [old, *[a for a in added[mimes[0]] if a != old]]
    added = {m: added[m] for m in order if m in added}
    entries = {DEFAULTS: defaults, ADDED: added}
    text = mimeapps_text(entries)
    kind_mimes = [m for m, _ in pairs if m in defaults]
    types = _spoken(asked)
    facts = {"path": PATH, "app": app, "app_name": APPS[app][0], "types": types,
             "types_cap": types[0].upper() + types[1:], "old_name": APPS[old][0]}
    spec = [FileSpec(PATH, "text", text)]
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts,
                Target(entries, text, mimes, app, old, neighbour, kind_mimes))


def rubric(params: Params, target: Target) -> list[Check]:
    t = target
    return [
        Check("default", f"In {PATH}, the default application of {', '.join(t.mimes)} is {t.app}.",
              "desktop.mime_default",
              {"path": PATH, "mimes": list(t.mimes), "app": t.app}),
        Check("kept", f"Every other association in {PATH} is as it was.", "desktop.mimeapps_kept",
              {"path": PATH, "entries": t.entries, "mimes": list(t.mimes), "app": t.app}),
    ]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    base = {"op": "fs.mime_default", "path": PATH, "mimes": list(t.mimes), "app": t.app}
    wrong_id = APPS[t.app][1]
    misses = [Attempt(f"writes the look-alike desktop id {wrong_id} instead of {t.app}", [{**base, "app": wrong_id}])]
    if params["change"] == "new":
        line = f"{t.mimes[0]}={t.app};\n"
        misses += [Attempt("echoes the line onto the end of the file, where it replaces the type's added "
                           "associations", [{"op": "fs.append_text", "path": PATH, "text": line}]),
                   Attempt("adds the app at the end of the type's added associations, behind the app that opens it",
                           [{**base, "section": ADDED, "place": "last"}])]
    else:
        misses += [Attempt("adds the app to the type's added associations instead of making it the default",
                           [{**base, "section": ADDED, "place": "first"}]),
                   Attempt(f"swaps {t.old} for {t.app} on every line of the file",
                           [{"op": "fs.replace_in_file", "path": PATH, "old": t.old, "new": t.app}])]
    if params["change"] == "group":
        misses.append(Attempt("changes only the first of the types", [{**base, "mimes": t.mimes[:1]}]))
    else:
        misses.append(Attempt("changes the neighbouring type of the same kind instead",
                              [{**base, "mimes": [t.neighbour]}]))
    return Attempts(Attempt("makes the app the default of exactly the asked types", [base]), misses)


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # the file lives where the desktop reads it
    description="Make a stated application the default for stated file types (MIME types) in "
                "~/.config/mimeapps.list, keeping every other association.",
    knobs={"change": ("replace", "new", "group")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
