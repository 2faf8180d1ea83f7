"""fs.install_wheel: install a pure-Python wheel into the user site, as `pip install --user --no-index WHEEL` does.

The wheel at `path` is unpacked into ~/.local/lib/pythonX.Y/site-packages (X.Y: the running interpreter's
version), its `.dist-info` folder included (that is what makes Python and pip see it installed), and each
`console_scripts` entry point becomes an executable launcher in ~/.local/bin. pip also writes INSTALLER and
byte-code; nothing checks those. The slips, for near-misses: `site` unpacks elsewhere (a path relative to the
home), `metadata=False` leaves the .dist-info out, `scripts=False` writes no launcher, `script_mode` gives it other
permission bits.
"""

from __future__ import annotations

import configparser
import io
import sys
import zipfile

from kit import bounded
from preparers.ops import HOME, OpError, op, resolve
from preparers.ops.fs import FsHandle, _need

LAUNCHER = """#!/usr/bin/python3
# -*- coding: utf-8 -*-
import re
import sys
from {module} import {func}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({func}())
"""


def user_site() -> str:
    """The user site of the running interpreter, relative to the home."""
    return f".local/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"


def console_scripts(text: str) -> dict[str, str]:
    """entry_points.txt -> {command: "module:func"}."""
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return dict(parser["console_scripts"]) if parser.has_section("console_scripts") else {}


@op("fs.install_wheel")
def install_wheel(h: FsHandle, site: str | None = None, metadata: bool = True, scripts: bool = True,
                  script_mode: str = "755") -> None:
    _need(h.host)
    data = bounded.read_file(h.host)
    if not bounded.is_zip(data):
        raise OpError(f"fs.install_wheel: {h.host.name} is not a wheel (zip)")
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        bounded.check_zip_members(zf.infolist())
        for info in zf.infolist():
            if not info.is_dir():
                files[info.filename] = zf.read(info)
    target = resolve(h.root, f"{HOME}/{(site or user_site()).strip('/')}")
    entry_points = ""
    for name, body in sorted(files.items()):
        if ".." in name.split("/") or name.startswith("/"):
            raise OpError(f"fs.install_wheel: unsafe member {name!r}")
        top = name.split("/", 1)[0]
        if top.endswith(".dist-info") and name.endswith("/entry_points.txt"):
            entry_points = body.decode("utf-8")
        if top.endswith(".dist-info") and not metadata:
            continue
        out = target / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(body)
    if not scripts:
        return
    for command, entry in console_scripts(entry_points).items():
        module, _, func = entry.partition(":")
        launcher = resolve(h.root, f"{HOME}/.local/bin/{command}")
        launcher.parent.mkdir(parents=True, exist_ok=True)
        launcher.write_text(LAUNCHER.format(module=module.strip(), func=func.strip()))
        launcher.chmod(int(script_mode, 8))
