"""The LibreOffice tier: real `soffice` opens every office artifact and re-saves every oracle result.

Measured facts this follows: a `soffice --convert-to` call costs ~1 s to
start and ~0.1 s per file, so files are converted in one call per batch and target format; `soffice`
exits 0 even when a file fails, so success is an output file plus the filter it names; the profile sets
formula recalculation on load to "always"; two instances split each batch (two cores), each with its own
profile, HOME and TMPDIR, in bubblewrap (read-only system, its work folder writable, no network), with
the process group killed after.

- `open_check`: each xlsx/docx/pptx asset opens in the expected module (Calc by the filter it exports
  with; Writer/Impress by the PDF's Creator) and the exported text contains strings the file holds.
- `resave`: the files of a state saved again by LibreOffice in their own format — what a GUI agent's
  ctrl+s produces — for the alternative-solution control.
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import shutil
import signal
import subprocess
import unicodedata
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from forge.realapps.infra import machine_caused
from kit.errors import ForgeError
from kit.sandbox import Sandbox, chown_tree

#: extension -> (module, export filter to re-save in the same format)
FORMATS = {
    ".xlsx": ("calc", "xlsx:Calc MS Excel 2007 XML"),
    ".docx": ("writer", "docx:MS Word 2007 XML"),
    ".pptx": ("impress", "pptx:Impress MS PowerPoint 2007 XML"),
}
#: Calc exports every sheet as its own CSV (sheet -1), UTF-8, comma separated.
CSV_ALL_SHEETS = "csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1"
RECALC_ALWAYS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse">\
<value>0</value></prop></item>
</oor:items>
"""
_FILTER_LINE = re.compile(r"convert (?P<src>\S+)(?: -> \S+)? using filter : (?P<filter>.+)$")
PROBES = 8


class RealAppError(ForgeError, RuntimeError):
    """A real application is missing or could not run."""


@dataclass(frozen=True)
class Opened:
    ok: bool
    evidence: str


def available() -> bool:
    return shutil.which("soffice") is not None


class Office:
    """One LibreOffice instance (profile + temp dirs) under `workdir`; calls are batched and sandboxed."""

    def __init__(self, workdir: Path, sandbox: Sandbox | None = None, timeout: float = 600.0,
                 instances: int = 2) -> None:
        if not available():
            raise RealAppError("LibreOffice (soffice) is not installed; install libreoffice-calc-nogui "
                               "libreoffice-writer-nogui libreoffice-impress-nogui, or use --real-apps off")
        self.workdir = workdir
        self.sandbox = sandbox if sandbox is not None and sandbox.enabled else None
        self.timeout = timeout
        self.calls = 0
        self.instances = max(1, instances)
        for i in range(self.instances):  # parallel soffice processes need their own profile, HOME and TMPDIR
            (workdir / f"profile{i}" / "user").mkdir(parents=True, exist_ok=True)
            (workdir / f"profile{i}" / "user" / "registrymodifications.xcu").write_text(RECALC_ALWAYS)
            for name in ("home", "tmp"):
                (workdir / f"{name}{i}").mkdir(exist_ok=True)

    def convert(self, files: list[Path], target: str, label: str) -> dict[Path, tuple[Path | None, str]]:
        """Convert `files` in one soffice call per instance (run in parallel); file -> (output or None, filter)."""
        if not files:
            return {}
        self.calls += 1
        stage = self.workdir / f"{label}-{self.calls}-in"
        outdir = self.workdir / f"{label}-{self.calls}-out"
        stage.mkdir()
        outdir.mkdir()
        staged: dict[str, Path] = {}
        for i, file in enumerate(files):
            name = f"f{i:05d}{file.suffix}"
            shutil.copyfile(file, stage / name)
            staged[name] = file
        if self.sandbox is not None and self.sandbox.as_root:
            chown_tree(self.workdir)
        names = sorted(staged)
        chunks = [names[i::self.instances] for i in range(self.instances) if names[i::self.instances]]
        with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
            outputs = list(pool.map(lambda i: self._soffice(i, target, outdir, [stage / n for n in chunks[i]]),
                                    range(len(chunks))))
        stdout = "\n".join(outputs)
        filters = {Path(m["src"]).name: m["filter"].strip() for m in map(_FILTER_LINE.search, stdout.splitlines())
                   if m}
        ext = target.split(":", 1)[0]
        result: dict[Path, tuple[Path | None, str]] = {}
        for name, original in staged.items():
            out = outdir / f"{Path(name).stem}.{ext}"
            found = out if out.is_file() and out.stat().st_size > 0 else None
            if ext == "csv":  # one file per sheet: <stem>-<Sheet>.csv
                sheets = sorted(outdir.glob(f"{Path(name).stem}-*.csv"))
                found = sheets[0] if sheets else found
            result[original] = (found, filters.get(name, "no output (LibreOffice could not open the file)"))
        cause = machine_caused(stdout)
        if cause is not None and any(out is None for out, _ in result.values()):
            # e.g. bwrap or soffice could not fork: a missing output says nothing about the file
            raise RealAppError(f"soffice failed on this machine ({cause}): {stdout.strip().splitlines()[-1][:300]}")
        return result

    def _soffice(self, instance: int, target: str, outdir: Path, files: list[Path]) -> str:
        cmd = ["soffice", "--headless", "--norestore", "--nolockcheck", "--nodefault",
               f"-env:UserInstallation=file://{self.workdir / f'profile{instance}'}", "--convert-to", target,
               "--outdir", str(outdir), *map(str, files)]
        env = {"PATH": "/usr/bin:/bin", "HOME": str(self.workdir / f"home{instance}"),
               "TMPDIR": str(self.workdir / f"tmp{instance}"), "LANG": "C.UTF-8"}
        if self.sandbox is not None:
            binds = [(str(self.workdir), str(self.workdir), True)]
            cmd = [*self.sandbox.bwrap_args(binds), "env", *[f"{k}={v}" for k, v in env.items()], *cmd]
        return self._run(cmd, env)

    def _run(self, cmd: list[str], env: dict[str, str]) -> str:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=env, text=True, start_new_session=True)
        timed_out = False
        try:
            out, _ = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            out, timed_out = "", True
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if timed_out:  # a loaded machine, not a bad file: the tier turns this into `real-infra` for its tasks
            raise RealAppError(f"soffice did not finish within {self.timeout:.0f} s; the machine may be overloaded")
        return out or ""


# --- what the files hold -------------------------------------------------------------------------------

def _norm(text: str) -> str:
    """Compare text across exports: NFKC (ligatures), no whitespace, case-folded."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).casefold()


def probes(path: Path) -> list[str]:
    """Up to PROBES distinct text strings the file holds (cell strings, paragraphs, slide texts)."""
    texts: list[str] = []
    try:
        if path.suffix == ".xlsx":
            import openpyxl

            wb = openpyxl.load_workbook(path, read_only=True)
            texts = [str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row
                     if isinstance(v, str) and not v.startswith("=")]
            wb.close()
        elif path.suffix == ".docx":
            import docx

            texts = [p.text for p in docx.Document(str(path)).paragraphs]
        elif path.suffix == ".pptx":
            import pptx

            texts = [para.text for slide in pptx.Presentation(str(path)).slides
                     if slide.element.get("show") not in ("0", "false")  # a hidden slide is not exported
                     for shape in slide.shapes
                     if shape.has_text_frame for para in shape.text_frame.paragraphs]  # bullets export apart
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        return []
    seen: list[str] = []
    for text in texts:
        words = " ".join(text.split()[:6])
        if len(_norm(words)) >= 3 and words not in seen:
            seen.append(words)
    step = max(1, len(seen) // PROBES)
    return seen[::step][:PROBES]


def exported_text(output: Path) -> str:
    if output.suffix == ".csv":
        texts = []
        for sheet in sorted(output.parent.glob(output.name.rsplit("-", 1)[0] + "-*.csv")):
            with sheet.open(newline="", encoding="utf-8", errors="replace") as handle:
                texts += [" ".join(row) for row in csv.reader(handle)]
        return "\n".join(texts)
    run = subprocess.run(["pdftotext", "-q", str(output), "-"], capture_output=True, text=True, timeout=60)
    return run.stdout


def pdf_creator(output: Path) -> str:
    run = subprocess.run(["pdfinfo", str(output)], capture_output=True, text=True, timeout=60)
    match = re.search(r"^Creator:\s*(.+)$", run.stdout, re.MULTILINE)
    return match.group(1).strip() if match else ""


def open_check(office: Office, files: list[Path]) -> dict[Path, Opened]:
    """Does each office file open in its module, with its text intact? One soffice call per module."""
    results: dict[Path, Opened] = {}
    calc = [f for f in files if f.suffix == ".xlsx"]
    docs = [f for f in files if f.suffix in (".docx", ".pptx")]
    for file, (out, used) in office.convert(calc, CSV_ALL_SHEETS, "open-calc").items():
        module_ok = "StarCalc" in used or "calc" in used.casefold()
        results[file] = _judge_open(file, out, module_ok, f"filter {used!r}")
    for file, (out, _) in office.convert(docs, "pdf", "open-docs").items():
        want = FORMATS[file.suffix][0].capitalize()
        creator = pdf_creator(out) if out else ""
        results[file] = _judge_open(file, out, creator == want, f"PDF Creator {creator or 'none'!r}, want {want}")
    return results


def _judge_open(file: Path, out: Path | None, module_ok: bool, how: str) -> Opened:
    if out is None:
        return Opened(False, f"{file.name}: LibreOffice produced no output ({how})")
    if not module_ok:
        return Opened(False, f"{file.name}: opened in the wrong LibreOffice module ({how})")
    text = _norm(exported_text(out))
    wanted = probes(file)
    missing = [p for p in wanted if _norm(p) not in text]
    if len(missing) > len(wanted) // 4:
        return Opened(False, f"{file.name}: the export lacks {len(missing)} of {len(wanted)} strings the file "
                             f"holds, e.g. {missing[:3]}")
    return Opened(True, f"{file.name}: opens ({how}); {len(wanted) - len(missing)}/{len(wanted)} strings exported")


def resave(office: Office, files: list[Path]) -> dict[Path, tuple[Path | None, str]]:
    """Each file saved again by LibreOffice in its own format (grouped: one call per format)."""
    results: dict[Path, tuple[Path | None, str]] = {}
    for ext, (_, target) in FORMATS.items():
        results |= office.convert([f for f in files if f.suffix == ext], target, f"resave-{ext[1:]}")
    return results
