"""Thunderbird real-app tier: real Thunderbird (headless, driven over Marionette) loads a profile or acts as the oracle.

Why: file-level checks read mbox/prefs/filter/address-book files the way Forge wrote them. This tier asks the
real app instead:
- `load_check` dumps what Thunderbird sees in a profile (every Local Folders folder parsed: counts, unread,
  flagged, subjects; filters per server; address-book contacts); `read_files` says what the files say, read
  the way Forge's checks read them; `compare` lists the mismatches (`parses_as_intended` = all three).
- `run_oracle` lets Thunderbird itself carry out an oracle written as `tb.*` ops (privileged JS, one handler
  per op, translated in `_TRANSLATE`), then quit cleanly so it writes its own prefs.js, msgFilterRules.dat,
  abook.sqlite and mbox files; `alternative` then runs the task's rubric on those files.
- `open_and_alternative` is what the tier runs per task: both, from one Thunderbird start when the oracle begins
  with Thunderbird's ops (the load reads, and leaves no file or pref of its own for the oracle's save to write).

Measured on Thunderbird 153: an unescaped "From " body line splits stdlib `mailbox` (and Forge's checks) but
not Thunderbird, which only splits where header lines follow; a garbage msgFilterRules.dat gives
NS_MSG_FILTER_PARSE_ERROR, while unknown actions, broken conditions or missing target folders load silently
(reported here from the filter list); a corrupt abook.sqlite silently disappears from the address books.

Each start is one `_Session`: `--headless --marionette -remote-allow-system-access -no-remote --profile`, its
own process group, HOME and TMPDIR, Marionette on a free port (`marionette.port` 0 in a temporary user.js;
Thunderbird reports the port in `MarionetteActivePort`). Thunderbird never exits by itself headless, so every
session ends by killing its process group; every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import ctypes
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kit.errors import ForgeError
from preparers import tbfilters
from preparers.ops import OpError, apply_ops, resolve, validate
from verifiers.gate.rubric import evaluate_rubric

LOCAL_DIR = "Mail/Local Folders"
_NOT_FOLDERS = {"msgFilterRules.dat", "popstate.dat", "filterlog.html", "junklog.html", "rules.dat"}
_READ, _FLAGGED, _EXPUNGED = 0x1, 0x4, 0x8  # X-Mozilla-Status bits
#: nsMsgFilterAction numbers -> the names msgFilterRules.dat uses.
_ACTION_NAMES = {1: "Move to folder", 2: "Change priority", 3: "Delete", 4: "Mark read", 5: "Ignore thread",
                 6: "Watch thread", 7: "Mark flagged", 9: "Reply", 10: "Forward", 11: "Stop execution",
                 12: "Delete from Pop3 server", 13: "Leave on Pop3 server", 14: "JunkScore",
                 15: "Fetch body from Pop3Server", 16: "Copy to folder", 17: "AddTag", 18: "Ignore subthread",
                 19: "Mark unread", -1: "Custom"}
_NOISE = re.compile(r"Gtk-|GLib|glib warning|^\s*$|^\(thunderbird:")


class ThunderbirdError(ForgeError, RuntimeError):
    """Thunderbird did not start, crashed, or did not finish in time; the message ends with its stderr tail."""


class OracleOpError(ThunderbirdError):
    """Thunderbird ran but refused one of the oracle's ops (e.g. a folder the op names does not exist)."""


@dataclass(frozen=True, order=True)
class FolderInfo:
    total: int
    unread: int
    flagged: int
    subjects: tuple[str, ...]


@dataclass(frozen=True, order=True)
class FilterInfo:
    name: str
    enabled: bool
    type: int
    conditions: tuple[str, ...]  # "AND subject,contains,invoice" | "OR to,is,a b" | "ALL" (`tbfilters.Term.describe`)
    actions: tuple[tuple[str, str], ...]  # sorted (action name, value or target folder URI)


@dataclass(frozen=True, order=True)
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


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL Thunderbird if this Python process dies without cleaning up (its
    content processes then exit with it), so a killed gate worker leaves no 330 MB orphan behind."""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class _Session:
    """One headless Thunderbird on `profile` until `deadline` (time.monotonic()); always killed on exit."""

    def __init__(self, profile: Path, deadline: float) -> None:
        self.profile = profile
        self.deadline = deadline
        self.tmp = Path(tempfile.mkdtemp(prefix="forge-tb-"))
        self.stderr = self.tmp / "stderr.txt"
        self.proc: subprocess.Popen[bytes] | None = None
        self.client: Any = None
        self._user_js: bytes | None = None  # the profile's own user.js, restored on exit
        self._wrote_user_js = False

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
        self._wrote_user_js = True
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
                start_new_session=True, preexec_fn=_die_with_parent)
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
            self.client.timeout.script = max(int(self.left()), 1)
            return self.client.execute_async_script(script, script_args=list(args))
        except Exception as exc:
            raise self.fail(f"script failed ({type(exc).__name__}: {str(exc).splitlines()[0][:300]})") from None

    def quit(self, *, wait: bool = True) -> None:
        """Ask Thunderbird to quit; with `wait`, require a clean exit in time (so its files are written)."""
        assert self.proc is not None
        try:
            self.client.execute_script(
                "Services.tm.dispatchToMainThread(() => Services.startup.quit(Ci.nsIAppStartup.eForceQuit));")
        except Exception as exc:
            raise self.fail(f"quit request failed ({type(exc).__name__}: {exc})") from None
        finally:
            self.client.delete_session(send_request=False)
        if not wait:  # nothing to keep: the process group is killed on exit
            return
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
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        user_js = self.profile / "user.js"
        if self._wrote_user_js and self._user_js is None:
            user_js.unlink(missing_ok=True)
        elif self._wrote_user_js and self._user_js is not None:
            user_js.write_bytes(self._user_js)
        (self.profile / "MarionetteActivePort").unlink(missing_ok=True)
        prefs = self.profile / "prefs.js"
        if prefs.exists():  # the port pref is our scaffolding, not part of the state Thunderbird was asked for
            text = prefs.read_text(encoding="utf-8")
            if _PORT_LINE.search(text):
                prefs.write_text(_PORT_LINE.sub("", text), encoding="utf-8")
        shutil.rmtree(self.tmp, ignore_errors=True)


# --- privileged JS ---------------------------------------------------------------------------------------

_JS = Path(__file__).with_name("js")


def _script(name: str) -> str:
    """Privileged JS run in Thunderbird's chrome context: js/prelude.js followed by js/<name>.js."""
    return (_JS / "prelude.js").read_text(encoding="utf-8") + (_JS / f"{name}.js").read_text(encoding="utf-8")


_LOAD_JS = _script("load")


def load_check(profile_dir: Path, timeout: float = 60) -> LoadReport:
    """Start Thunderbird on a copy of `profile_dir`, parse every Local Folders folder, dump what it sees.

    A copy, because this is a check and checks never write (Thunderbird writes .msf files and prefs)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="forge-tb-load-") as tmp:
        copy = Path(tmp) / "profile"
        shutil.copytree(profile_dir, copy, symlinks=True)
        with _Session(copy, start + timeout) as tb:
            report = _load(tb, start)
            tb.quit(wait=False)  # the copy is thrown away, so a clean exit buys nothing but ~0.5 s
    return report


def _load(tb: _Session, start: float) -> LoadReport:
    """What the running Thunderbird `tb` loaded from its profile (`start`: when its clock started)."""
    data = tb.run(_LOAD_JS)
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


# --- what the files say ------------------------------------------------------------------------------------

_RE_PREFIX = re.compile(r"^(\s*re(\[\d+\])?:\s*)+", re.IGNORECASE)
_PRIORITIES = {"2": "Lowest", "3": "Low", "4": "Normal", "5": "High", "6": "Highest"}
_BOOK_FILE = re.compile(r"(abook(-\d+)?|history)\.sqlite")


def _norm_subject(subject: str) -> str:
    """Whitespace collapsed and any Re:/RE:/Re[2]: run as one "Re: " (Thunderbird keeps only a has-Re flag)."""
    text = " ".join(subject.split())
    stripped = _RE_PREFIX.sub("", text)
    return ("Re: " + stripped) if stripped != text else text


def _norm_term(term: str) -> str:
    """A term as Thunderbird reports it ("AND " + termAsString, or "ALL") in the form `read_files` gives: read by
    the one filter-format module, so quoting and escaping cannot make the two sides differ."""
    if term == "ALL":
        return term
    boolean, _, text = term.partition(" ")
    try:
        return tbfilters.parse_term(text, boolean).describe()
    except ValueError:  # not a term Forge knows how to read: compare it as Thunderbird printed it
        return term


def _decode(raw: str | None) -> str:
    if raw is None:
        return ""
    try:
        return str(email.header.make_header(email.header.decode_header(str(raw))))
    except (ValueError, LookupError):
        return str(raw)


def _read_mbox(path: Path) -> FolderInfo:
    """Counts and subjects of an mbox as stdlib `mailbox` splits it, skipping expunged (0008) copies."""
    box = mailbox.mbox(str(path), create=False)
    total = unread = flagged = 0
    subjects = []
    try:
        for msg in box.itervalues():
            try:
                status = int(str(msg.get("X-Mozilla-Status", "0")).strip() or "0", 16)
            except ValueError:
                status = 0
            if status & _EXPUNGED:
                continue
            total += 1
            unread += not status & _READ
            flagged += bool(status & _FLAGGED)
            subjects.append(_decode(msg.get("Subject")))
    finally:
        box.close()
    return FolderInfo(total, unread, flagged, tuple(subjects))


def _walk_folders(directory: Path, prefix: str, report: LoadReport) -> None:
    for entry in sorted(directory.iterdir()):
        name = entry.name
        if entry.is_dir() or name.startswith(".") or name.endswith(".msf") or name in _NOT_FOLDERS:
            continue
        path = prefix + name
        try:
            report.folders[path] = _read_mbox(entry)
        except Exception as exc:  # an unreadable mbox is a finding, not a crash
            report.errors.append(f"folder {path}: {type(exc).__name__}: {exc}")
        sub = directory / (name + ".sbd")
        if sub.is_dir():
            _walk_folders(sub, path + "/", report)


def _read_filters(path: Path) -> list[FilterInfo]:
    """msgFilterRules.dat as Thunderbird reads it (`preparers.tbfilters`); raises ValueError naming the line that
    does not fit."""
    return [FilterInfo(r.name, r.enabled, r.type, ("ALL",) if r.match_all else tuple(t.describe() for t in r.terms),
                       tuple(sorted(r.actions)))
            for r in tbfilters.parse(path.read_text(encoding="utf-8"), path.name)]


def _vcard_field(vcard: str, name: str) -> str:
    match = re.search(rf"^{name}(;[^:\r\n]*)?:(.*?)\r?$", vcard, re.MULTILINE | re.IGNORECASE)
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), match.group(2)) if match else ""


def _read_book(path: Path) -> list[ContactInfo]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cards: dict[str, dict[str, str]] = {}
        for card, name, value in conn.execute("SELECT card, name, value FROM properties ORDER BY rowid"):
            cards.setdefault(card, {})[name] = value or ""
    finally:
        conn.close()
    out = []
    for props in cards.values():
        vcard = props.get("_vCard", "")
        out.append(ContactInfo(props.get("DisplayName") or _vcard_field(vcard, "FN"),
                               props.get("PrimaryEmail") or _vcard_field(vcard, "EMAIL")))
    return out


def read_files(profile_dir: Path) -> LoadReport:
    """What the profile's files say, read the way Forge's checks read them (stdlib mailbox, plain parsers)."""
    report = LoadReport()
    local = profile_dir / LOCAL_DIR
    if local.is_dir():
        _walk_folders(local, "", report)
    else:
        report.errors.append(f"{LOCAL_DIR} is missing")
    mail = profile_dir / "Mail"
    for rules in sorted(mail.glob("*/msgFilterRules.dat")) if mail.is_dir() else []:
        try:
            filters = _read_filters(rules)
        except (ValueError, UnicodeDecodeError) as exc:
            report.errors.append(f"filters of {rules.parent.name}: {exc}")
            continue
        if filters:
            report.filters[rules.parent.name] = filters
    for book in sorted(profile_dir.glob("*.sqlite")):
        if _BOOK_FILE.fullmatch(book.name):
            try:
                report.address_books[book.name] = _read_book(book)
            except sqlite3.Error as exc:
                report.errors.append(f"address book {book.name}: {type(exc).__name__}: {exc}")
    return report


def _diff(what: str, want: list[Any], got: list[Any]) -> str | None:
    missing, extra = Counter(want) - Counter(got), Counter(got) - Counter(want)
    if not missing and not extra:
        return None
    return f"{what}: only in the files {sorted(missing.elements())}; only in Thunderbird {sorted(extra.elements())}"


def compare(expected: LoadReport, report: LoadReport) -> list[str]:
    """Mismatches between what the files say (`read_files`) and what Thunderbird showed (`load_check`)."""
    out = [f"files: {e}" for e in expected.errors] + [f"thunderbird: {e}" for e in report.errors]
    for path in sorted(set(expected.folders) | set(report.folders)):
        want, got = expected.folders.get(path), report.folders.get(path)
        if got is None:
            out.append(f"folder {path}: in the files but Thunderbird does not show it")
        elif want is None:
            if got.total:  # Thunderbird creates empty special folders (Trash, Unsent Messages) itself
                out.append(f"folder {path}: Thunderbird shows {got.total} messages but the files have no such folder")
        else:
            out += [f"folder {path}: the files say {name}={getattr(want, name)}, Thunderbird {getattr(got, name)}"
                    for name in ("total", "unread", "flagged") if getattr(want, name) != getattr(got, name)]
            diff = _diff(f"folder {path} subjects", [_norm_subject(s) for s in want.subjects],
                         [_norm_subject(s) for s in got.subjects])
            out += [diff] if diff else []
    for key in sorted(set(expected.filters) | set(report.filters)):
        wants, gots = expected.filters.get(key, []), report.filters.get(key, [])
        if [f.name for f in wants] != [f.name for f in gots]:
            out.append(f"filters of {key}: the files name {[f.name for f in wants]}, "
                       f"Thunderbird {[f.name for f in gots]}")
            continue
        for want_f, got_f in zip(wants, gots, strict=True):
            out += [f"filter {key}/{want_f.name}: the files say {name}={getattr(want_f, name)!r}, "
                    f"Thunderbird {getattr(got_f, name)!r}"
                    for name in ("enabled", "type", "conditions", "actions")
                    if _filter_value(want_f, name) != _filter_value(got_f, name)]
    for book in sorted(set(expected.address_books) | set(report.address_books)):
        want_c, got_c = expected.address_books.get(book), report.address_books.get(book)
        if got_c is None:
            out.append(f"address book {book}: in the files but Thunderbird did not load it")
        elif want_c is None:
            if got_c:
                out.append(f"address book {book}: Thunderbird shows {len(got_c)} contacts but there is no such file")
        else:
            diff = _diff(f"address book {book}", want_c, got_c)
            out += [diff] if diff else []
    return out


def missing() -> str:
    """What the Thunderbird tier lacks on this machine ('' when nothing): the app, or its Marionette driver."""
    import importlib.util

    if shutil.which("thunderbird") is None:
        return "Thunderbird is not installed (apt-get install thunderbird)"
    if importlib.util.find_spec("marionette_driver") is None:
        return "the Python package marionette-driver is not installed (pip install marionette-driver)"
    return ""


def profile_of(task: dict[str, Any], state: Path) -> Path | None:
    """The task's Thunderbird profile inside a state root (the folder of its prefs.js asset), None without one."""
    for asset in task["setup"]["assets"]:
        if asset.get("app") == "thunderbird" and asset["dest"].endswith("/prefs.js"):
            return resolve(state, asset["dest"]).parent
    return None


def parses_as_intended(profile_dir: Path, timeout: float = 60) -> tuple[bool, str]:
    """One Thunderbird start: does Thunderbird see what the profile's files say? (ok, evidence)."""
    return _as_intended(read_files(profile_dir), load_check(profile_dir, timeout))


def _as_intended(expected: LoadReport, report: LoadReport) -> tuple[bool, str]:
    mismatches = compare(expected, report)
    if mismatches:
        return False, "; ".join(mismatches)
    return True, (f"Thunderbird sees what the files say in {report.seconds} s: {len(report.folders)} folders, "
                  f"{sum(len(f) for f in report.filters.values())} filters, "
                  f"{sum(len(c) for c in report.address_books.values())} contacts")


def _filter_value(flt: FilterInfo, name: str) -> Any:
    if name == "actions":  # the file says "Highest", Thunderbird reports the priority number
        return tuple(sorted((a, _PRIORITIES.get(v, v) if a == "Change priority" else v) for a, v in flt.actions))
    return getattr(flt, name)


# --- Thunderbird as the oracle -----------------------------------------------------------------------------

_ORACLE_JS = _script("oracle")


def _select(a: dict[str, Any]) -> dict[str, Any]:
    return {"field": a["field"], "value": a["value"], "limit": a.get("limit")}


#: The one translation table, kept in step with preparers/ops/thunderbird.py: Forge op (args, state root) -> the
#: JS handler's arguments (`kind` names the handler), or None when Thunderbird cannot express that op here (it
#: then runs through Forge's own `preparers.ops.apply_ops`). Ops missing here (other apps) go to Forge too.
_TRANSLATE: dict[str, Callable[[dict[str, Any], Path | None], dict[str, Any] | None]] = {
    "tb.create_folder": lambda a, home: {"kind": "create_folder", "folder": a["folder"]},
    "tb.move_messages": lambda a, home: {"kind": "move_messages", "source": a["source"], "target": a["target"],
                                         "copy": bool(a.get("copy", False)), **_select(a)},
    "tb.add_filter": lambda a, home: {"kind": "add_filter", "name": a["name"], "enabled": a.get("enabled", True),
                                      "type": a.get("type", 17), "match": a.get("match", "AND"),
                                      "conditions": [list(c) for c in a["conditions"]],
                                      "actions": [list(x) for x in a["actions"]]},
    "tb.add_contact": lambda a, home: {"kind": "add_contact", "display_name": a["display_name"],
                                       "email": a["email"], "first": a.get("first", ""), "last": a.get("last", ""),
                                       "book": a.get("book", "abook.sqlite")},
    # a pref typed into user.js is a file edit, not something Thunderbird's UI does
    "tb.set_pref": lambda a, home: ({"kind": "set_pref", "name": a["name"], "value": a["value"]}
                                    if a.get("file", "prefs.js") == "prefs.js" else None),
    "tb.mark_read": lambda a, home: {"kind": "mark_read", "folder": a["folder"], "value": a.get("read", True),
                                     **_select(a)},
    "tb.mark_flagged": lambda a, home: {"kind": "mark_flagged", "folder": a["folder"],
                                        "value": a.get("flagged", True), **_select(a)},
    "tb.tag_messages": lambda a, home: {"kind": "tag_messages", "folder": a["folder"], "tag": a["tag"], **_select(a)},
    # the destination is a host path, so Thunderbird can save only when the state root is known
    "tb.save_attachment": lambda a, home: None if home is None else {
        "kind": "save_attachment", "folder": a["folder"], "message_id": a["message_id"],
        "filename": a["filename"], "dest": str(resolve(home, a["dest"]))},
    # File > Save As writes through a file dialog the JS handler has no form of: Forge writes the .eml
    "tb.save_message": lambda a, home: None,
    # Save as Draft goes through a compose window (nsIMsgCompose with its editor and attachment bucket) that the
    # JS handler has no form of: Forge appends the draft to the Drafts mbox, and Thunderbird then loads it
    "tb.save_draft": lambda a, home: None,
    # Address Book > Tools > Export writes through a file picker the JS handler has no form of: Forge writes the file
    "tb.export_contacts": lambda a, home: None,
}


def _translate(raw: dict[str, Any], home: Path | None = None) -> dict[str, Any] | None:
    """The JS form of one op, None when Forge must apply it; a ValueError names a missing argument."""
    fn = _TRANSLATE.get(raw.get("op", ""))
    try:
        return fn(raw, home) if fn else None
    except KeyError as exc:
        raise ValueError(f"op {raw.get('op')}: missing argument {exc}") from None


def _segments(ops: list[dict[str, Any]], home: Path | None = None) -> list[tuple[bool, list[dict[str, Any]]]]:
    """Consecutive runs of ops, each flagged True when Thunderbird carries it out (order is kept)."""
    runs: list[tuple[bool, list[dict[str, Any]]]] = []
    for raw in ops:
        by_tb = _translate(raw, home) is not None
        if runs and runs[-1][0] == by_tb:
            runs[-1][1].append(raw)
        else:
            runs.append((by_tb, [raw]))
    return runs


def run_oracle(profile_dir: Path, ops: list[dict[str, Any]], timeout: float = 90, *,
               home: Path | None = None, opening: Callable[[_Session], None] | None = None) -> str:
    """Let Thunderbird itself carry out `ops` on `profile_dir`, quitting cleanly so it writes its own files.

    Ops Thunderbird cannot express here run through `preparers.ops.apply_ops` on `home` (the state root
    standing for /home/user, required only then), in order. `opening(session)` runs in the first Thunderbird
    session before its ops (an exception from it ends the session, unsaved, and propagates). Returns one note per
    op; raises `ThunderbirdError` (with Thunderbird's stderr tail) on a failed op, a crash or the deadline."""
    validate(ops)
    deadline = time.monotonic() + timeout
    notes: list[str] = []
    for by_tb, run in _segments(ops, home):
        if not by_tb:
            if home is None:
                raise ValueError(f"ops {[r.get('op') for r in run]} need Forge's apply_ops: pass home=<state root>")
            apply_ops(home, run)
            notes += [f"{raw['op']}: applied by Forge ("
                      f"{'Thunderbird cannot express it here' if raw['op'] in _TRANSLATE else 'not a Thunderbird op'})"
                      for raw in run]
            continue
        translated = [_translate(raw, home) for raw in run]
        with _Session(profile_dir, deadline) as tb:
            if opening is not None:
                opening(tb)
                opening = None
            result = tb.run(_ORACLE_JS, translated)
            if not isinstance(result, dict) or "error" in result:
                error = tb.fail(f"oracle failed: {result.get('error') if isinstance(result, dict) else result!r}")
                raise OracleOpError(str(error))
            tb.quit()
        notes += [f"{raw['op']}: done by Thunderbird" for raw in run]
    return "; ".join(notes)


def _profile_in(ops: list[dict[str, Any]], state: Path) -> Path:
    """The profile folder inside a state root: the `path` of the oracle's first tb.* op (every tb.* op has one)."""
    first = next(raw for raw in ops if str(raw.get("op", "")).startswith("tb."))
    return resolve(state, first["path"])


def _oracle_ops(package_root: Path, task: dict[str, Any]) -> tuple[list[dict[str, Any]] | None, str]:
    """The oracle's ops when Thunderbird can carry them out, else (None, why the alternative is skipped)."""
    oracle = task["solutions"]["oracle"]
    if not oracle.endswith(".json"):
        return None, f"skipped: the oracle {oracle} is a script, which Thunderbird cannot carry out"
    ops = json.loads((package_root / oracle).read_text(encoding="utf-8")).get("ops", [])
    if not any(str(raw.get("op", "")).startswith("tb.") for raw in ops):
        return None, "skipped: the oracle has no Thunderbird op, so Thunderbird would write nothing of its own"
    return ops, ""


def alternative(package_root: Path, task: dict[str, Any], oracle_state: Path, initial_state: Path,
                timeout: float = 90, *, opening: Callable[[_Session], None] | None = None) -> tuple[bool, str]:
    """Alternative-solution control: Thunderbird carries out the oracle on a copy of the initial state, then
    the rubric must pass on the files Thunderbird wrote. Returns (all checks passed, evidence). `opening`: as
    for `run_oracle` (it runs on the copy, before any op).

    A crash or timeout raises `ThunderbirdError` (an infrastructure failure, never evidence against the task);
    an op Thunderbird refuses is (False, evidence)."""
    ops, skipped = _oracle_ops(package_root, task)
    if ops is None:
        return True, skipped
    with tempfile.TemporaryDirectory(prefix="forge-tb-alt-") as tmp:
        state = Path(tmp) / "home"
        shutil.copytree(initial_state, state, symlinks=True)
        try:
            notes = run_oracle(_profile_in(ops, state), ops, timeout, home=state, opening=opening)
        except OracleOpError as exc:
            return False, str(exc).split("; stderr tail:")[0]
        except OpError as exc:  # a Forge-applied op that no longer fits what Thunderbird wrote before it
            return False, f"Forge could not apply an oracle op after Thunderbird's: {exc}"
        outcomes = evaluate_rubric(task, state)
    failed = [o for o in outcomes if not o.passed]
    if not failed:
        return True, f"all {len(outcomes)} checks pass on what Thunderbird wrote ({notes})"
    on_forge = {o.id: o.passed for o in evaluate_rubric(task, oracle_state)}
    return False, "; ".join(
        f"{o.id} FAILS on what Thunderbird wrote{' but passes on the Forge oracle' if on_forge.get(o.id) else ''}"
        f" ({o.evidence})" for o in failed)


class _NotAsIntended(Exception):
    """Thunderbird does not see what the profile's files say: the real-open stage failed, nothing more to run."""


def open_and_alternative(package_root: Path, task: dict[str, Any], oracle_state: Path, initial_state: Path,
                         timeout: float = 90) -> list[tuple[str, bool, str, float]]:
    """The tier's two Thunderbird stages, `real-open` (`parses_as_intended` on the initial profile) then
    `alternative`, as [(stage, passed, evidence, seconds)], stopping at the first that fails; Thunderbird failing
    to run (a crash, the deadline) ends the list with a failed `real-infra` stage.

    One Thunderbird start does both when the oracle's first ops are Thunderbird's: it loads the initial profile,
    the load is judged, then the same session carries out the oracle (a Thunderbird start is ~3 s of CPU). The load
    only reads (Thunderbird's own .msf summaries aside), so what the oracle then writes is what a session of its
    own writes (tests/realapps/test_thunderbird.py compares the two). Otherwise, two starts."""
    profile = profile_of(task, initial_state)
    assert profile is not None, "open_and_alternative needs a task with a Thunderbird profile"
    ops, _ = _oracle_ops(package_root, task)
    try:
        together = ops is not None and _segments(ops, initial_state)[0][0]
    except (OpError, ValueError):  # an op that cannot even be translated: `alternative` says so, as ever
        together = False
    stages: list[tuple[str, bool, str, float]] = []
    start = time.monotonic()
    try:
        if not together:
            ok, evidence = parses_as_intended(profile, timeout)
            stages.append(("real-open", ok, evidence, time.monotonic() - start))
            if ok:
                start = time.monotonic()
                ok, evidence = alternative(package_root, task, oracle_state, initial_state, timeout)
                stages.append(("alternative", ok, evidence, time.monotonic() - start))
            return stages
        expected = read_files(profile)

        def opening(tb: _Session) -> None:
            ok, evidence = _as_intended(expected, _load(tb, start))
            stages.append(("real-open", ok, evidence, time.monotonic() - start))
            if not ok:
                raise _NotAsIntended(evidence)

        ok, evidence = alternative(package_root, task, oracle_state, initial_state, timeout, opening=opening)
        stages.append(("alternative", ok, evidence, time.monotonic() - start - stages[0][3]))
    except _NotAsIntended:
        pass
    except ThunderbirdError as exc:
        stages.append(("real-infra", False, f"Thunderbird could not run: {exc}", time.monotonic() - start))
    return stages
