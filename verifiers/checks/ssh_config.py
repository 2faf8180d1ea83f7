"""OpenSSH client config (~/.ssh/config), read as `ssh -G ALIAS` resolves it.

The file is a list of `Keyword value` (or `Keyword=value`) lines; keywords are case-insensitive; `#` starts a
comment line. Lines before the first `Host` apply to every host; a `Host pat1 pat2 ...` line starts a block that
applies when one of its patterns (`*`, `?`, a leading `!` negating) matches the alias. For each keyword the FIRST
value obtained wins (so a block after `Host *` cannot override what `Host *` sets), except IdentityFile, whose values
accumulate. A `Match` block is not evaluated: its options are skipped (the prepared files have none).
"""

from __future__ import annotations

import fnmatch
import re
import shlex

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning
from verifiers.readers.tree import read_text

MAX_LINES = 5000
_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9]*)(?:\s*=\s*|\s+)(.*?)\s*$")
MULTI = {"identityfile", "certificatefile", "localforward", "remoteforward", "dynamicforward", "sendenv", "setenv"}


def _matches(patterns: list[str], alias: str) -> bool:
    hit = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if fnmatch.fnmatchcase(alias, pattern.removeprefix("!")):
            if negated:
                return False
            hit = True
    return hit


def _value(raw: str) -> str:
    try:
        words = shlex.split(raw, comments=True)
    except ValueError:
        return raw
    return " ".join(words)


def resolve(text: str, alias: str) -> dict[str, list[str]]:
    """keyword (lowercase) -> its values for `alias`: one (the first obtained) for most keywords, all for IdentityFile
    and the other accumulating ones."""
    out: dict[str, list[str]] = {}
    active = True
    for line in text.splitlines()[:MAX_LINES]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if not match:
            continue
        key, value = match.group(1).lower(), _value(match.group(2))
        if key == "host":
            active = _matches(value.split(), alias)
            continue
        if key == "match":
            active = False
            continue
        if not active:
            continue
        if key in MULTI:
            out.setdefault(key, []).append(value)
        elif key not in out:
            out[key] = [value]
    return out


def _same(key: str, got: str, want: str) -> bool:
    if key == "identityfile":
        home = "/home/user"
        return got.replace("~", home, 1).replace("%d", home) == want.replace("~", home, 1)
    if key == "hostname":
        return got.lower() == want.lower()
    return got == want


def _problems(text: str, alias: str, options: dict[str, str]) -> list[str]:
    """What differs from `options` ({Keyword: value}; "" for a keyword that must stay unset) for `alias`; an
    accumulating keyword (IdentityFile) must resolve to that one value alone (an old key left tried first or
    after it is not the key asked for)."""
    resolved = resolve(text, alias)
    problems = []
    for key, want in options.items():
        values = resolved.get(key.lower(), [])
        if not want:
            if values:
                problems.append(f"{key} is set to {values} where it was not set")
        elif not values:
            problems.append(f"{key} is not set (expected {want!r})")
        elif len(values) > 1:
            problems.append(f"{key} lists {values}, expected only {want!r}")
        elif not _same(key.lower(), values[0], want):
            problems.append(f"{key} resolves to {values[0]!r}, expected {want!r}")
    return problems


@primitive("ssh.host_options", grounded=("path", "alias", "hostname", "user", "port", "identity_file"),
           meaning=Meaning(action=r"add|entry|set|change|config|connect|host"))
@guarded
def host_options(state: State, path: str, alias: str, hostname: str | None = None, user: str | None = None,
                 port: str | None = None, identity_file: str | None = None) -> Result:
    """`ssh ALIAS` resolves HostName, User, Port and IdentityFile (those given) to these values, reading the config
    at `path` as ssh does (first value obtained wins; IdentityFile: the first one tried; `~` is the home)."""
    options = {k: v for k, v in (("HostName", hostname), ("User", user), ("Port", port),
                                 ("IdentityFile", identity_file)) if v is not None}
    if not options:
        return fail("check misconfigured: no options")
    problems = _problems(read_text(state, path), alias, options)
    if problems:
        return fail(f"{path}: for host '{alias}', {'; '.join(problems[:4])}")
    return ok(f"{path}: host '{alias}' resolves to " + ", ".join(f"{k} {v}" for k, v in options.items()))


@primitive("ssh.hosts_kept", grounded=("path",),
           meaning=Meaning(action=None, why="the other hosts' settings, kept around the entry the task adds or "
                                            "changes (an option written above the first Host line changes them all)"))
@guarded
def hosts_kept(state: State, path: str, hosts: dict[str, dict[str, str]]) -> Result:
    """Each alias of `hosts` still resolves each of its options to the value it had ("" for unset)."""
    text = read_text(state, path)
    problems = [f"'{alias}': {p}" for alias, options in hosts.items() for p in _problems(text, alias, options)]
    if problems:
        return fail(f"{path}: other hosts changed: {'; '.join(problems[:4])}")
    return ok(f"{path}: all {len(hosts)} other hosts resolve as before")
