"""Thunderbird real-app tier: real Thunderbird (headless, driven over Marionette) loads a profile or acts as the oracle.

Why: file-level checks read mbox/prefs/filter/address-book files the way Forge wrote them. This tier asks the
real app instead, so the gate can say "Thunderbird parses this profile as intended" (`load_check` + `compare`)
and "the rubric passes on what Thunderbird itself wrote" (`run_oracle`, `alternative`).

Each start is one `_Session`: Thunderbird 153 with `--headless --marionette -remote-allow-system-access`, its
own process group, HOME and TMPDIR, Marionette on a free port (`marionette.port` 0 in a temporary user.js;
Thunderbird reports the port in `MarionetteActivePort`). Privileged JS runs in the chrome context. Thunderbird
never exits by itself headless, so every session ends by killing its process group; every wait has a deadline.
"""

from __future__ import annotations

import email.header
import json
import mailbox
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forge.errors import ForgeError

LOCAL_DIR = "Mail/Local Folders"
_NOT_FOLDERS = {"msgFilterRules.dat", "popstate.dat", "filterlog.html", "junklog.html", "rules.dat"}
_READ, _FLAGGED, _EXPUNGED, _HAS_RE = 0x1, 0x4, 0x8, 0x10
#: nsMsgFilterAction numbers -> the names msgFilterRules.dat uses.
_ACTION_NAMES = {1: "Move to folder", 2: "Change priority", 3: "Delete", 4: "Mark read", 5: "Ignore thread",
                 6: "Watch thread", 7: "Mark flagged", 9: "Reply", 10: "Forward", 11: "Stop execution",
                 12: "Delete from Pop3 server", 13: "Leave on Pop3 server", 14: "JunkScore",
                 15: "Fetch body from Pop3Server", 16: "Copy to folder", 17: "AddTag", 18: "Ignore subthread",
                 19: "Mark unread", -1: "Custom"}
_NOISE = re.compile(r"Gtk-|GLib|glib warning|^\s*$|^\(thunderbird:")


class ThunderbirdError(ForgeError, RuntimeError):
    """Thunderbird did not start, crashed, or did not finish in time; the message ends with its stderr tail."""


@dataclass(frozen=True)
class FolderInfo:
    total: int
    unread: int
    flagged: int
    subjects: tuple[str, ...]


@dataclass(frozen=True)
class FilterInfo:
    name: str
    enabled: bool
    type: int
    conditions: tuple[str, ...]  # "AND subject,contains,invoice" | "OR to,is,a b" | "ALL" (values unquoted)
    actions: tuple[tuple[str, str], ...]  # sorted (action name, value or target folder URI)


@dataclass(frozen=True)
class ContactInfo:
    display_name: str
    email: str


@dataclass
class LoadReport:
    """What a profile holds: folders by path ("Inbox/Finance"), filters by server folder name ("Local
    Folders"), contacts by address-book file ("abook.sqlite"), plus problems met on the way."""

    folders: dict[str, FolderInfo] = field(default_factory=dict)
    filters: dict[str, list[FilterInfo]] = field(default_factory=dict)
    address_books: dict[str, list[ContactInfo]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


# --- one Thunderbird start -------------------------------------------------------------------------------

_PORT_PREF = 'user_pref("marionette.port", 0);\n'
_PORT_LINE = re.compile(r'^user_pref\("marionette\.port", *\d+\);\n?', re.MULTILINE)


class _Session:
    """One headless Thunderbird on `profile` until `deadline` (time.monotonic()); always killed on exit."""

    def __init__(self, profile: Path, deadline: float) -> None:
        self.profile = profile
        self.deadline = deadline
        self.tmp = Path(tempfile.mkdtemp(prefix="forge-tb-"))
        self.stderr = self.tmp / "stderr.txt"
        self.proc: subprocess.Popen[bytes] | None = None
        self.client: Any = None
        self._user_js: bytes | None = None

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def fail(self, what: str) -> ThunderbirdError:
        lines = self.stderr.read_text(errors="replace").splitlines() if self.stderr.exists() else []
        tail = "\n".join([line for line in lines if not _NOISE.search(line)][-15:])
        return ThunderbirdError(f"Thunderbird on {self.profile}: {what}; stderr tail:\n{tail or '(empty)'}")

    def __enter__(self) -> _Session:
        try:
            self._start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start(self) -> None:
        from marionette_driver.marionette import Marionette

        if shutil.which("thunderbird") is None:
            raise ThunderbirdError("`thunderbird` is not on PATH; install it: apt-get install -y thunderbird")
        user_js = self.profile / "user.js"
        self._user_js = user_js.read_bytes() if user_js.exists() else None
        user_js.write_bytes((self._user_js or b"") + _PORT_PREF.encode())
        port_file = self.profile / "MarionetteActivePort"
        port_file.unlink(missing_ok=True)
        (self.tmp / "home").mkdir()
        (self.tmp / "tmp").mkdir()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.tmp / "home"),
               "TMPDIR": str(self.tmp / "tmp"), "LANG": "C.UTF-8", "MOZ_CRASHREPORTER_DISABLE": "1",
               "MOZ_DISABLE_AUTO_SAFE_MODE": "1"}
        with self.stderr.open("wb") as err:
            self.proc = subprocess.Popen(
                ["thunderbird", "--headless", "--marionette", "-remote-allow-system-access", "-no-remote",
                 "--profile", str(self.profile)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=self.tmp,
                start_new_session=True)
        port = 0
        while not port:
            if self.proc.poll() is not None:
                raise self.fail(f"exited with code {self.proc.returncode} before Marionette listened")
            if self.left() <= 0:
                raise self.fail("Marionette did not start in time")
            text = port_file.read_text().strip() if port_file.exists() else ""
            port = int(text) if text.isdigit() else 0
            time.sleep(0.05)
        try:
            self.client = Marionette(host="127.0.0.1", port=port, socket_timeout=max(self.left(), 1.0))
            self.client.start_session(timeout=max(int(self.left()), 1))
            self.client.set_context("chrome")
        except Exception as exc:
            raise self.fail(f"no Marionette session ({type(exc).__name__}: {exc})") from None

    def run(self, script: str, *args: Any) -> Any:
        """Run privileged async JS (`arguments[0..]` = args, last argument = resolve) within the deadline."""
        if self.left() <= 0:
            raise self.fail("out of time before running a script")
        try:
            self.client.timeout.script = self.left()
            return self.client.execute_async_script(script, script_args=list(args))
        except Exception as exc:
            raise self.fail(f"script failed ({type(exc).__name__}: {str(exc).splitlines()[0][:300]})") from None

    def quit(self) -> None:
        """Quit cleanly so Thunderbird writes its files; raise if it does not exit in time."""
        assert self.proc is not None
        try:
            self.client.execute_script(
                "Services.tm.dispatchToMainThread(() => Services.startup.quit(Ci.nsIAppStartup.eForceQuit));")
        except Exception as exc:
            raise self.fail(f"quit request failed ({type(exc).__name__}: {exc})") from None
        finally:
            self.client.delete_session(send_request=False)
        try:
            self.proc.wait(timeout=max(self.left(), 0.1))
        except subprocess.TimeoutExpired:
            raise self.fail("did not exit in time after quit") from None
        if self.proc.returncode != 0:
            raise self.fail(f"quit with exit code {self.proc.returncode}")

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.cleanup_ran = True  # we own the process; the driver must not try to close it
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        user_js = self.profile / "user.js"
        if self._user_js is None:
            user_js.unlink(missing_ok=True)
        else:
            user_js.write_bytes(self._user_js)
        (self.profile / "MarionetteActivePort").unlink(missing_ok=True)
        prefs = self.profile / "prefs.js"
        if prefs.exists():  # the port pref is our scaffolding, not part of the state Thunderbird was asked for
            text = prefs.read_text(encoding="utf-8")
            if _PORT_LINE.search(text):
                prefs.write_text(_PORT_LINE.sub("", text), encoding="utf-8")
        shutil.rmtree(self.tmp, ignore_errors=True)


# --- privileged JS ---------------------------------------------------------------------------------------

_PRELUDE = r"""
const done = arguments[arguments.length - 1];
const {MailServices} = ChromeUtils.importESModule("resource:///modules/MailServices.sys.mjs");
const {setTimeout} = ChromeUtils.importESModule("resource://gre/modules/Timer.sys.mjs");
const root = MailServices.accounts.localFoldersServer.rootFolder;
const relPath = f => decodeURIComponent(f.URI.slice(root.URI.length + 1));
function loaded(f) {  // parse the folder's mbox (or check its summary) and wait for FolderLoaded
  return new Promise((res, rej) => {
    const l = {onFolderEvent(folder, ev) {
      if (folder == f && ev == "FolderLoaded") { MailServices.mailSession.RemoveFolderListener(l); res(); } }};
    MailServices.mailSession.AddFolderListener(l, Ci.nsIFolderListener.event);
    setTimeout(() => { MailServices.mailSession.RemoveFolderListener(l); rej(new Error("not loaded in 10 s")); },
               10000);
    f.updateFolder(null);
  });
}
function folderAt(path) {
  let f = root;
  for (const part of path.split("/").filter(p => p)) {
    const child = f.subFolders.find(c => c.name == part);
    if (!child) throw new Error(`no folder ${JSON.stringify(path)} (missing ${JSON.stringify(part)})`);
    f = child;
  }
  return f;
}
"""

_LOAD_JS = _PRELUDE + r"""
(async () => {
  const out = {folders: {}, filters: {}, books: {}, errors: []};
  for (const f of root.descendants) {
    const path = relPath(f);
    try { await loaded(f); } catch (e) { out.errors.push(`folder ${path}: ${e}`); }
    const info = {total: 0, unread: 0, flagged: 0, subjects: []};
    try {
      for (const h of f.messages) {
        info.total++;
        if (!h.isRead) info.unread++;
        if (h.isFlagged) info.flagged++;
        info.subjects.push((h.flags & 0x10 ? "Re: " : "") + h.mime2DecodedSubject);
      }
    } catch (e) { out.errors.push(`folder ${path}: messages not readable: ${e}`); }
    out.folders[path] = info;
  }
  for (const server of MailServices.accounts.allServers) {
    const key = server.localPath.leafName;
    let list;
    try { list = server.getFilterList(null); } catch (e) {
      out.errors.push(`filters of ${key}: ${e.name || e.result || e}`); continue; }
    const filters = [];
    for (let i = 0; i < list.filterCount; i++) {
      const f = list.getFilterAt(i);
      if (f.unparseable) out.errors.push(`filters of ${key}: filter ${JSON.stringify(f.filterName)} is unparseable`);
      const terms = [];
      for (const t of f.searchTerms) terms.push(t.matchAll ? "ALL" : (t.booleanAnd ? "AND " : "OR ") + t.termAsString);
      const actions = [];
      for (const a of f.sortedActionList) {
        const folderAction = a.type == Ci.nsMsgFilterAction.MoveToFolder || a.type == Ci.nsMsgFilterAction.CopyToFolder;
        let value = "";
        if (folderAction) value = a.targetFolderUri;
        else if (a.type == Ci.nsMsgFilterAction.ChangePriority) value = String(a.priority);
        else if (a.type == Ci.nsMsgFilterAction.JunkScore) value = String(a.junkScore);
        else { try { value = a.strValue || ""; } catch (e) {} }
        if (folderAction && !MailServices.folderLookup.getFolderForURL(value))
          out.errors.push(`filters of ${key}: filter ${JSON.stringify(f.filterName)} targets missing folder ${value}`);
        actions.push([a.type, value]);
      }
      filters.push({name: f.filterName, enabled: f.enabled, type: f.filterType, terms, actions});
    }
    if (filters.length) out.filters[key] = filters;
  }
  for (const d of MailServices.ab.directories) {
    const cards = [];
    try {
      for (const c of d.childCards) if (!c.isMailList) cards.push([c.displayName, c.primaryEmail]);
    } catch (e) { out.errors.push(`address book ${d.fileName}: ${e}`); }
    out.books[d.fileName] = cards;
  }
  return out;
})().then(done, e => done({error: String(e)}));
"""


def load_check(profile_dir: Path, timeout: float = 60) -> LoadReport:
    """Start Thunderbird on a copy of `profile_dir`, parse every Local Folders folder, dump what it sees.

    A copy, because this is a check and checks never write (Thunderbird writes .msf files and prefs)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="forge-tb-load-") as tmp:
        copy = Path(tmp) / "profile"
        shutil.copytree(profile_dir, copy, symlinks=True)
        with _Session(copy, start + timeout) as tb:
            data = tb.run(_LOAD_JS)
            tb.quit()
    report = LoadReport(seconds=round(time.monotonic() - start, 2))
    if not isinstance(data, dict) or "error" in data:
        report.errors.append(f"load script failed: {data.get('error') if isinstance(data, dict) else data!r}")
        return report
    report.errors.extend(data["errors"])
    for path, f in data["folders"].items():
        report.folders[path] = FolderInfo(f["total"], f["unread"], f["flagged"], tuple(f["subjects"]))
    for key, filters in data["filters"].items():
        report.filters[key] = [
            FilterInfo(f["name"], f["enabled"], f["type"], tuple(_norm_term(t) for t in f["terms"]),
                       tuple(sorted((_ACTION_NAMES.get(t, str(t)), v) for t, v in f["actions"])))
            for f in filters]
    for book, cards in data["books"].items():
        report.address_books[book] = [ContactInfo(name, mail) for name, mail in cards]
    return report
