"""os.install_wheel: install a Python package offline from a wheel in ~/Downloads into the user site.

"IT sent me this .whl, there's no internet on this box: install it for my user." The preparer builds a tiny genuine
wheel (`name-version-py3-none-any.whl`: the package's modules, a .dist-info with METADATA, WHEEL, top_level.txt,
RECORD with each file's sha256, and for `entry` = `command` an entry_points.txt with a console script), zipped
deterministically (fixed timestamps). Knob `entry`: `library` (the package must import) or `command` (its command
must also be on the user's PATH, ~/.local/bin). The rubric reads the user site of any python3.X as Python and pip
do (`py.wheel_installed`: .dist-info with METADATA name and version and RECORD, each module file with the wheel's
bytes) and the launcher (`py.console_script`); the tree frame keeps the visible home (the wheel stays in Downloads)
and never walks ~/.local, so pip's own byte-code and bookkeeping are free.

Near-misses: the wheel unzipped beside itself in ~/Downloads, into ~/.local/lib/pythonX.Y without site-packages,
the modules copied without their .dist-info (Python imports it, pip does not know it), the older wheel beside it
installed instead; command: no launcher (modules unzipped by hand), a launcher that is not executable.
"""

from __future__ import annotations

import base64
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.fs_wheel import user_site
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.install_wheel"
DOWNLOADS = oc.home("Downloads")
#: distribution -> (summary, {module file: source}, command, "module:func"); versions are drawn per task
PACKAGES: dict[str, tuple[str, dict[str, str], str, str]] = {
    "csvpeek": ("Preview CSV files in the terminal", {
        "csvpeek/__init__.py": '"""Preview CSV files in the terminal."""\n\n__version__ = "{version}"\n',
        "csvpeek/cli.py": 'import csv\nimport sys\n\n\ndef main() -> int:\n    with open(sys.argv[1], newline="") as f:'
                          '\n        for i, row in enumerate(csv.reader(f)):\n            if i == 10:\n'
                          '                break\n            print(" | ".join(row))\n    return 0\n',
    }, "csvpeek", "csvpeek.cli:main"),
    "tidyunits": ("Convert and tidy measurement units", {
        "tidyunits/__init__.py": '"""Convert and tidy measurement units."""\n\nfrom tidyunits.convert import '
                                 'convert\n\n__version__ = "{version}"\n',
        "tidyunits/convert.py": 'FACTORS = {"km": 1000.0, "m": 1.0, "cm": 0.01, "mi": 1609.344, "ft": 0.3048}\n\n\n'
                                'def convert(value: float, src: str, dst: str) -> float:\n'
                                '    return value * FACTORS[src] / FACTORS[dst]\n',
        "tidyunits/cli.py": 'import sys\n\nfrom tidyunits.convert import convert\n\n\ndef main() -> int:\n'
                            '    value, src, dst = sys.argv[1:4]\n    print(convert(float(value), src, dst))\n'
                            '    return 0\n',
    }, "tidyunits", "tidyunits.cli:main"),
    "mdtoc": ("Make a table of contents for Markdown files", {
        "mdtoc.py": '"""Make a table of contents for Markdown files."""\n\nimport re\nimport sys\n\n'
                    '__version__ = "{version}"\n\n\ndef toc(text: str) -> list[str]:\n'
                    '    return [f"{\'  \' * (len(m[1]) - 1)}- {m[2]}" for m in '
                    're.finditer(r"^(#+) (.+)$", text, re.M)]\n\n\ndef main() -> int:\n'
                    '    print("\\n".join(toc(open(sys.argv[1]).read())))\n    return 0\n',
    }, "mdtoc", "mdtoc:main"),
    "harbour_invoices": ("Number and total the team's invoices", {
        "harbour_invoices/__init__.py": '"""Number and total the team\'s invoices."""\n\n__version__ = "{version}"\n',
        "harbour_invoices/numbering.py": 'def next_number(last: str) -> str:\n    prefix, _, n = last.rpartition("-")\n'
                                         '    return f"{prefix}-{int(n) + 1:04d}"\n',
        "harbour_invoices/cli.py": 'import sys\n\nfrom harbour_invoices.numbering import next_number\n\n\n'
                                   'def main() -> int:\n    print(next_number(sys.argv[1]))\n    return 0\n',
    }, "harbour-invoice", "harbour_invoices.cli:main"),
}
TASKS = {
    "library": "Install the Python package in {wheel} for my user (into my user site-packages, as "
               "`pip install --user` does); this machine has no internet, so install it from that file.",
    "command": "Install the Python package in {wheel} for my user (into my user site-packages, as "
               "`pip install --user` does), so that its `{command}` command is installed in ~/.local/bin; there is "
               "no internet here, so install it from that file.",
}
PHRASINGS = (
    "{task} Leave the wheel where it is and change nothing else.",
    "Offline install: {task_lc} Keep every other file as it is.",
    "Using the terminal: {task_lc} Don't move or delete the wheel.",
    "{task} Do not touch any other file in my home folder.",
    "I need {name} {version} on this computer. {task}",
)
NATURAL = (
    "Please {ask}.",
    "Could you set up {name} for me? Please {ask}.",
    "IT sent me a package file. Can you {ask}?",
    "Quick one: {ask}.",
    "Help me get {name} working: {ask}.",
)
#: the natural register's request, shorter than TASKS
ASKS = {
    "library": "install the Python package {wheel} into my user site-packages (no internet here, so from that file)",
    "command": "install the Python package {wheel} into my user site-packages, with its `{command}` command in "
               "~/.local/bin (no internet here)",
}


class Params(TypedDict):
    entry: Literal["library", "command"]


@dataclass(frozen=True)
class Target:
    entry: str
    wheel: str
    old_wheel: str  # an older wheel of the same package beside it
    name: str
    version: str
    files: dict[str, str]  # module file (in site-packages) -> sha256
    command: str
    entry_point: str


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel_members(name: str, version: str, summary: str, modules: Mapping[str, str], command: str | None,
                  entry_point: str) -> list[FileSpec]:
    """The members of a genuine wheel, RECORD last (each file's urlsafe-base64 sha256 and size)."""
    dist = f"{name.replace('-', '_')}-{version}.dist-info"
    top = sorted({m.split("/", 1)[0].removesuffix(".py") for m in modules})
    texts = {path: source.replace("{version}", version) for path, source in modules.items()}
    texts[f"{dist}/METADATA"] = (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
                                 f"Author: Harbourline IT\nRequires-Python: >=3.8\n")
    texts[f"{dist}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.41.2)\nRoot-Is-Purelib: true\nTag: " \
                             "py3-none-any\n"
    if command:
        texts[f"{dist}/entry_points.txt"] = f"[console_scripts]\n{command} = {entry_point}\n"
    texts[f"{dist}/top_level.txt"] = "\n".join(top) + "\n"
    record = "".join(f"{p},{_hash(t.encode())},{len(t.encode())}\n" for p, t in texts.items())
    texts[f"{dist}/RECORD"] = record + f"{dist}/RECORD,,\n"
    return [FileSpec(path, "text", text) for path, text in texts.items()]


def _module_texts(members: list[FileSpec]) -> dict[str, str]:
    return {m.path: hashlib.sha256(m.text.encode()).hexdigest() for m in members if ".dist-info/" not in m.path}


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    entry = params["entry"]
    name = rng.choice(sorted(PACKAGES))
    summary, modules, command, entry_point = PACKAGES[name]
    major, minor = rng.randint(0, 3), rng.randint(1, 14)
    version, older = f"{major}.{minor}.{rng.randint(0, 9)}", f"{major}.{minor - 1}.{rng.randint(0, 9)}"
    with_command = command if entry == "command" else None
    file_stem = name.replace("-", "_")
    wheel = f"{DOWNLOADS}/{file_stem}-{version}-py3-none-any.whl"
    old_wheel = f"{DOWNLOADS}/{file_stem}-{older}-py3-none-any.whl"
    members = wheel_members(name, version, summary, modules, with_command, entry_point)
    old_members = wheel_members(name, older, summary, modules, with_command, entry_point)
    spec = [FileSpec(wheel, "zip", members=tuple(members)), FileSpec(old_wheel, "zip", members=tuple(old_members)),
            FileSpec(f"{DOWNLOADS}/README-install.txt", "text",
                     f"{name} {version}: {summary}.\nBuilt by Harbourline IT for Python 3.8 or newer.\n")]
    task = TASKS[entry].format(wheel=wheel, command=command)
    facts = {"task": task, "task_lc": task[0].lower() + task[1:], "name": name, "version": version,
             "wheel": wheel, "ask": ASKS[entry].format(wheel=wheel, command=command)}
    target = Target(entry, wheel, old_wheel, name, version, _module_texts(members), command, entry_point)
    return Goal(oc.dress(rng, params, pool, spec, wheel, facts), facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    checks = [Check("installed", f"{t.name} {t.version} from {t.wheel} is installed in the user site-packages of a "
                                 f"python3.X (its .dist-info with METADATA and RECORD, and {len(t.files)} module "
                                 f"file(s) with the wheel's bytes).",
                    "py.wheel_installed", {"wheel": t.wheel, "name": t.name, "version": t.version, "files": t.files})]
    if t.entry == "command":
        checks.append(Check("command", f"~/.local/bin/{t.command} is an executable launcher of {t.entry_point}.",
                            "py.console_script", {"command": t.command, "entry": t.entry_point}))
    return checks


def solve(target: Target) -> Attempts:
    t = target
    install = {"op": "fs.install_wheel", "path": t.wheel}
    misses = [
        Attempt("unzips the wheel beside itself in ~/Downloads", [{**install, "site": "Downloads"}]),
        Attempt("unzips it into the python folder, not its site-packages",
                [{**install, "site": user_site().removesuffix("/site-packages")}]),
        Attempt("copies the modules without their .dist-info", [{**install, "metadata": False}]),
        Attempt("installs the older wheel beside it", [{**install, "path": t.old_wheel}]),
    ]
    if t.entry == "command":
        misses += [Attempt("installs the modules but writes no launcher", [{**install, "scripts": False}]),
                   Attempt("writes a launcher that is not executable", [{**install, "script_mode": "644"}])]
    return Attempts(Attempt(f"pip install --user --no-index {t.wheel}", [install]), misses)


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # the download is in ~/Downloads, as the instruction says
    description="Install a Python package offline from a wheel in ~/Downloads into the user site (as pip install "
                "--user does), with its command in ~/.local/bin when it has one.",
    knobs={"entry": ("library", "command")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
