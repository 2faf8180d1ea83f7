"""Install a VS Code extension from a .vsix the way VS Code does (Extensions: Install from VSIX...), for
vscode.install_vsix: the files under the package's `extension/` go to
~/.vscode/extensions/<publisher>.<name>-<version>/ (the package's manifest beside them as `.vsixmanifest`), and
extensions.json lists the new extension in place of any older version of it, whose folder goes away.

The slips are the near-misses' mistakes: the whole package unzipped as it is (`nested`), the folder named without
its version (`versioned=False`), extensions.json not updated (`register=False`), the older version's entry left
beside the new one (`keep_old`), extensions.json rewritten with the new extension only (`drop_others`).
"""

from __future__ import annotations

import io
import json
import posixpath
import shutil
import zipfile

from kit import bounded
from preparers.ops import OpError, op
from preparers.ops.fs import FsHandle
from preparers.vscode import EXTENSIONS_DIR, extension_entry, render_extensions

PREFIX = "extension/"


@op("fs.install_vsix")
def install_vsix(h: FsHandle, extensions: str = EXTENSIONS_DIR, timestamp: int = 1715679000000,
                 nested: bool = False, versioned: bool = True, register: bool = True, keep_old: bool = False,
                 drop_others: bool = False) -> None:
    """Install the .vsix at `path` into the extensions folder `extensions`."""
    data = bounded.read_file(h.host)
    bounded.check_zip(data)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        package = json.loads(zf.read(PREFIX + "package.json"))
        ident = f"{package['publisher']}.{package['name']}"
        version = str(package["version"])
        folder = f"{ident}-{version}" if versioned else ident
        dest = h.locate(f"{extensions.rstrip('/')}/{folder}")
        for info in zf.infolist():
            name = info.filename
            if info.is_dir() or (not nested and not name.startswith(PREFIX) and name != "extension.vsixmanifest"):
                continue
            rel = name if nested else (".vsixmanifest" if name == "extension.vsixmanifest" else name[len(PREFIX):])
            norm = posixpath.normpath(rel)
            if norm.startswith(("/", "..")):
                raise OpError(f"fs.install_vsix: member {name!r} leaves the extension folder")
            target = dest / norm
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
    if not register:
        return
    listing = h.locate(f"{extensions.rstrip('/')}/extensions.json")
    entries = json.loads(bounded.read_file(listing)) if listing.is_file() else []
    same = [e for e in entries if str(e.get("identifier", {}).get("id", "")).lower() == ident.lower()]
    if not keep_old:
        for old in same:
            stale = h.locate(f"{extensions.rstrip('/')}/{old.get('relativeLocation', '')}")
            if old.get("relativeLocation") and stale != dest and stale.is_dir():
                shutil.rmtree(stale)
        entries = [e for e in entries if e not in same]
    if drop_others:
        entries = [e for e in entries if e in same]
    entries.append(extension_entry(ident, version, {"installedTimestamp": timestamp, "pinned": True,
                                                     "source": "vsix"}))
    listing.parent.mkdir(parents=True, exist_ok=True)
    listing.write_text(render_extensions(entries), encoding="utf-8")
