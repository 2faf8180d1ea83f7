"""Installing a .vsix as a person at a terminal does it when `code --install-extension` is not at hand
(`preparers.ops.fs_vsix`): unzip the package's extension/ folder where VS Code keeps extensions, then list it in
extensions.json in place of any older version."""

from __future__ import annotations

from preparers.teach import NotTeachable, snippet
from preparers.vscode import EXTENSIONS_DIR


@snippet("fs.install_vsix")
def install_vsix(path: str, extensions: str = EXTENSIONS_DIR, timestamp: int = 1715679000000, nested: bool = False,
                 versioned: bool = True, register: bool = True, keep_old: bool = False,
                 drop_others: bool = False) -> str:
    if nested or not versioned or not register or keep_old or drop_others:
        raise NotTeachable("fs.install_vsix: the slips are near-misses, not a way to teach")
    return f"""python3 - <<'PY'
import json, shutil, time, zipfile
from pathlib import Path
ext = Path({extensions!r})
with zipfile.ZipFile({path!r}) as zf:
    pkg = json.loads(zf.read('extension/package.json'))
    ident, version = pkg['publisher'] + '.' + pkg['name'], pkg['version']
    dest = ext / f'{{ident}}-{{version}}'
    for name in zf.namelist():
        if name.endswith('/'):
            continue
        if name == 'extension.vsixmanifest':
            rel = '.vsixmanifest'
        elif name.startswith('extension/'):
            rel = name[len('extension/'):]
        else:
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_bytes(zf.read(name))
listing = ext / 'extensions.json'
entries = json.loads(listing.read_text()) if listing.exists() else []
for old in [e for e in entries if e['identifier']['id'].lower() == ident.lower()]:
    shutil.rmtree(ext / old['relativeLocation'], ignore_errors=True)
    entries.remove(old)
where = str(dest)
entries.append({{'identifier': {{'id': ident}}, 'version': version,
                'location': {{'$mid': 1, 'fsPath': where, 'external': 'file://' + where, 'path': where,
                             'scheme': 'file'}},
                'relativeLocation': dest.name,
                'metadata': {{'installedTimestamp': int(time.time() * 1000), 'pinned': True, 'source': 'vsix'}}}})
listing.write_text(json.dumps(entries, separators=(',', ':')))
PY"""
