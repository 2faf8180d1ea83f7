"""Forge's checker as one self-contained file (a Python zipapp) that an OSWorld task runs on its VM.

Where no OSWorld metric expresses a rubric check faithfully, the exported evaluator runs
`python3 checker.pyz RUBRIC.json /home/user` through a `vm_command_line` getter and scores its stdout
with `exact_match` against `PASS_LINE`. The archive holds the check primitives and the Forge modules they
import (found by importing them in a fresh interpreter, so new check modules are picked up without a list
to maintain) plus the pure-Python libraries they use (openpyxl, python-docx, python-pptx ...). Compiled
libraries (lxml, Pillow, numpy) cannot travel in a zip: the VM's python3 must provide them; without them
the checker prints `FAIL_LINE` and names the missing module on stderr, so the task scores 0, never 1.
An index (primitive -> module) travels in the archive, so a run imports only the check modules its rubric
uses. Modules are also shipped as bytecode for the building Python (used when the VM's Python matches).

The archive is deterministic (sorted entries, fixed timestamps): the same checkout gives the same bytes.
"""

from __future__ import annotations

import importlib.util
import io
import json
import marshal
import subprocess
import sys
import sysconfig
import zipfile
from functools import cache
from pathlib import Path

PASS_LINE = "forge-rubric: pass\n"
FAIL_LINE = "forge-rubric: fail\n"
_OWN = ("kit", "verifiers", "preparers")
_EPOCH = (1980, 1, 1, 0, 0, 0)

_MAIN = '''"""Forge rubric checker: python3 checker.pyz RUBRIC.json STATE_ROOT -> one verdict line on stdout."""
import importlib
import json
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    rubric, root = sys.argv[1], Path(sys.argv[2])
    checks = json.loads(Path(rubric).read_text(encoding="utf-8"))
    index = json.loads(pkgutil.get_data("verifiers", "checks_index.json") or b"{}")
    try:
        import verifiers.checks as registry
        from verifiers.checks import State, fail, run_check

        # Import only the check modules this rubric uses (a docx task need not load python-pptx): the
        # registry's import-everything step becomes a no-op; an unknown primitive still fails by name.
        registry.import_submodules = lambda package: ()
        for module in sorted({index[c["primitive"]] for c in checks if c["primitive"] in index}):
            importlib.import_module(module)
    except ImportError as exc:  # a compiled library (lxml, Pillow) missing on this machine
        print(f"cannot load the checks: {exc}; install python3-lxml and python3-pil", file=sys.stderr)
        sys.stdout.write(FAIL_LINE)
        return 1
    state = State(root)
    passed = True
    for check in checks:
        try:
            result = run_check(state, check["primitive"], check["args"])
        except Exception as exc:  # a verdict is always printed; the evidence names what went wrong
            result = fail(f"{type(exc).__name__}: {exc}")
        print(f"{'PASS' if result.passed else 'FAIL'} {check['id']}: {result.evidence}", file=sys.stderr)
        passed = passed and result.passed
    sys.stdout.write(PASS_LINE if passed else FAIL_LINE)
    return 0


PASS_LINE = @PASS@
FAIL_LINE = @FAIL@

if __name__ == "__main__":
    sys.exit(main())
'''
MAIN = _MAIN.replace("@PASS@", repr(PASS_LINE)).replace("@FAIL@", repr(FAIL_LINE))

_PROBE = """
import json, sys
before = set(sys.modules)
from verifiers.checks import registry
registry()
files = sorted({getattr(sys.modules[m], '__file__', None) or '' for m in set(sys.modules) - before})
print(json.dumps({"files": files, "index": {name: p.fn.__module__ for name, p in sorted(registry().items())}}))
"""


def _probe() -> tuple[list[Path], dict[str, str]]:
    """Files of every module the check registry loads (in a fresh interpreter: nothing else imported), and
    primitive name -> the module defining it."""
    root = Path(__file__).resolve().parents[2]
    ran = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=root, check=True)
    found = json.loads(ran.stdout)
    return [Path(f) for f in found["files"] if f], dict(found["index"])


def _archive_members(files: list[Path]) -> dict[str, Path]:
    """Archive name -> file: Forge's own modules, and whole pure-Python packages from site-packages."""
    root = Path(__file__).resolve().parents[2]
    site = {Path(p).resolve() for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])}
    members: dict[str, Path] = {}
    for file in files:
        file = file.resolve()
        if file.is_relative_to(root) and file.relative_to(root).parts[0] in _OWN:
            members[file.relative_to(root).as_posix()] = file
            continue
        base = next((s for s in site if file.is_relative_to(s)), None)
        if base is None:
            continue  # the standard library
        top = base / file.relative_to(base).parts[0]
        if top.is_file():
            if top.suffix == ".py":
                members[top.name] = top
            continue
        if any(p.suffix in (".so", ".pyd") for p in top.rglob("*")):
            continue  # a compiled package: the VM's python3 provides it (or the check fails)
        for part in sorted(top.rglob("*")):
            if part.is_file() and "__pycache__" not in part.parts and part.suffix != ".pyc":
                members[part.relative_to(base).as_posix()] = part
    return members


def _bytecode(source: bytes, name: str) -> bytes:
    """An unchecked hash-based .pyc (no timestamp: deterministic bytes). zipimport uses it when the VM's
    Python has the same version and compiles the source otherwise; it saves ~1 s of compiling per run."""
    code = compile(source, name, "exec", dont_inherit=True)
    return bytes(importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little")
                 + importlib.util.source_hash(source) + marshal.dumps(code))


@cache
def checker_bytes() -> bytes:
    """The zipapp's bytes (built once per process: an export writes it once, tests export several times)."""
    files, index = _probe()
    members = {name: path.read_bytes() for name, path in _archive_members(files).items()}
    members["verifiers/checks_index.json"] = json.dumps(index, sort_keys=True).encode()
    members["__main__.py"] = MAIN.encode()
    raw = io.BytesIO()
    raw.write(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            archive.writestr(zipfile.ZipInfo(name, _EPOCH), members[name], zipfile.ZIP_DEFLATED)
            if name.endswith(".py") and name != "__main__.py":
                archive.writestr(zipfile.ZipInfo(f"{name}c", _EPOCH), _bytecode(members[name], name),
                                 zipfile.ZIP_DEFLATED)
    return raw.getvalue()


def build_checker(target: Path) -> Path:
    """Write the checker zipapp to `target` (deterministic bytes); returns `target`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_bytes(checker_bytes())
    tmp.chmod(0o755)
    tmp.replace(target)
    return target
