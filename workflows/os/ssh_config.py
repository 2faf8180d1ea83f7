"""os.ssh_config: add or change a host entry in the OpenSSH client config ~/.ssh/config, keeping the others.

The home holds ~/.ssh (mode 700) with a config of 3-4 `Host` blocks and a closing `Host *` block (keep-alives), the
key pairs the entries name and known_hosts. Knob `change`: `add` a new alias (HostName, User, Port, IdentityFile),
move an existing host to a new `port`, or give it another `identity` key. The rubric resolves the config as
`ssh -G ALIAS` does (`ssh.host_options`: the first value obtained wins, IdentityFile must be the asked key alone),
requires every other host to resolve as before (`ssh.hosts_kept`) and every other line, comments included, to stay
(`fs.lines_kept`); the tree frame keeps the keys, known_hosts and the rest of the home.

Near-misses: add: the public key as IdentityFile, the Host line naming the server instead of the alias, the port
forgotten, the options appended without a Host line (they land in `Host *` and change every host), the file
overwritten with the one entry; port: a second Port line under the old one (ssh keeps the first), the neighbouring
host's port changed, `Port N` appended at the end (inside `Host *`); identity: the public key, a second IdentityFile
under the old one, the neighbouring host's key changed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.ssh_config"
SSH = oc.home(".ssh")
PATH = f"{SSH}/config"
#: alias -> (HostName, User, the key's name under ~/.ssh)
HOSTS = {
    "nas": ("nas.home.lan", "admin", "id_ed25519_nas"),
    "pi": ("raspberrypi.local", "pi", "id_ed25519_pi"),
    "build": ("build01.harbourline.net", "ci", "id_ed25519_build"),
    "web": ("web-03.harbourline.net", "deploy", "id_ed25519_deploy"),
    "backup": ("backup.harbourline.net", "borg", "id_ed25519_backup"),
    "gpu": ("gpu2.lab.harbourline.net", "research", "id_ed25519_lab"),
    "vps": ("203.0.113.25", "admin", "id_ed25519_vps"),
    "bastion": ("bastion.harbourline.net", "ops", "id_ed25519_work"),
}
PORTS = ("2222", "2200", "2022", "22022", "8022", "4422")
HEADER = ("# OpenSSH client configuration (man ssh_config)", "# One block per host I connect to; keys live in ~/.ssh.",
          "")
WILDCARD = ("Host *", "    ServerAliveInterval 60", "    AddKeysToAgent yes")
PHRASINGS = (
    "{task} The SSH client config is {path}; keep every other entry and comment in it as it is.",
    "Edit my SSH client configuration {path}: {task_lc} Leave the other host entries unchanged.",
    "Using a text editor or the terminal: {task_lc} (file: {path}). Nothing else in the file may change.",
    "Please update {path}. {task} All other hosts must keep working exactly as before.",
    "I need a change in my SSH setup ({path}): {task_lc} Don't touch the other entries.",
)
NATURAL = (
    "In my {path}: {task_lc}",
    "Could you sort out my SSH config {path}? {task}",
    "Quick SSH change in {path}, please: {task_lc}",
    "{task} That's in {path}; my other hosts should keep working.",
    "Please help me with {path}: {task_lc}",
)


class Params(TypedDict):
    change: Literal["add", "port", "identity"]


@dataclass(frozen=True)
class Target:
    change: str
    alias: str
    hostname: str
    user: str
    port: str  # the port asked (add, port); the entry's port otherwise
    key: str  # the key file asked (add, identity), as ~/.ssh/NAME
    old: dict[str, str]  # the entry's options before (port, identity)
    others: dict[str, dict[str, str]]  # every other alias -> its options ("" where unset)
    neighbour: str  # another alias with a Port line
    text: str  # the config as prepared


def _block(alias: str, options: Mapping[str, str]) -> list[str]:
    return [f"Host {alias}", *(f"    {k} {v}" for k, v in options.items() if v), ""]


def _options(alias: str, port: str) -> dict[str, str]:
    hostname, user, key = HOSTS[alias]
    return {"HostName": hostname, "User": user, "Port": port, "IdentityFile": f"~/.ssh/{key}"}


def _key_files(key: str, user: str) -> list[FileSpec]:
    """A key pair as ssh-keygen leaves it (the private half 600); the bytes are placeholders, never a real key."""
    body = f"-----BEGIN OPENSSH PRIVATE KEY-----\nplaceholder for {key}, not a real key\n" \
           f"-----END OPENSSH PRIVATE KEY-----\n"
    return [FileSpec(f"{SSH}/{key}", "text", body, mode=0o600),
            FileSpec(f"{SSH}/{key}.pub", "text", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{key[-6:]} {user}@laptop\n")]


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    change = params["change"]
    aliases = list(HOSTS)
    rng.shuffle(aliases)
    existing, spare = aliases[:3], aliases[3]
    ports = rng.sample(PORTS, 5)
    entries = {a: _options(a, ports[i]) for i, a in enumerate(existing)}
    entries["github.com"] = {"HostName": "github.com", "User": "git", "Port": "", "IdentityFile": "~/.ssh/id_ed25519"}
    order = [*existing, "github.com"]
    rng.shuffle(order)
    lines = [*HEADER, *(line for a in order for line in _block(a, entries[a])), *WILDCARD]
    text = "\n".join(lines) + "\n"
    if change == "add":
        alias, port = spare, ports[3]
        hostname, user, keyname = HOSTS[alias]
        key = f"~/.ssh/{keyname}"
        old: dict[str, str] = {}
        task = (f"Add a host entry '{alias}' so that `ssh {alias}` connects to {hostname} on port {port} as user "
                f"{user}, with the key {oc.home('.ssh/' + keyname)}.")
    else:
        alias = existing[0]
        hostname, user, keyname = HOSTS[alias]
        old = dict(entries[alias])
        port, key = old["Port"], old["IdentityFile"]
        if change == "port":
            port = ports[4]
            task = (f"The server {hostname} moved its SSH port from {old['Port']} to {port}: make the '{alias}' "
                    f"entry use port {port}.")
        else:
            keyname = f"{keyname}_2025"
            key = f"~/.ssh/{keyname}"
            task = (f"I made a new key for '{alias}' ({hostname}): make that entry use "
                    f"{oc.home('.ssh/' + keyname)} instead of {oc.home('.ssh/' + HOSTS[alias][2])}.")
    spec = [FileSpec(PATH, "text", text, mode=0o600),
            FileSpec(f"{SSH}/known_hosts", "text", "".join(f"{entries[a]['HostName']} ssh-ed25519 "
                                                            f"AAAAC3NzaC1lZDI1NTE5AAAAIHk{i}q\n"
                                                            for i, a in enumerate(order)), mode=0o644)]
    keys = {HOSTS[a][2] for a in existing} | {"id_ed25519", key.rsplit("/", 1)[1]}
    for name in sorted(keys):
        spec += _key_files(name, user)
    others = {a: entries[a] for a in order if a != alias}
    neighbour = next(a for a in existing if a != alias)
    facts = {"task": task, "task_lc": task[0].lower() + task[1:], "path": PATH}
    target = Target(change, alias, hostname, user, port, key, old, others, neighbour, text)
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    asked: dict[str, str] = {"hostname": t.hostname, "user": t.user, "port": t.port, "identity_file": oc.home(
        t.key.removeprefix("~/"))}
    if t.change == "port":
        asked = {"hostname": t.hostname, "port": t.port}
    elif t.change == "identity":
        asked = {"hostname": t.hostname, "identity_file": asked["identity_file"]}
    said = ", ".join(f"{k} {v}" for k, v in asked.items())
    replaced = {"port": f"    Port {t.old.get('Port')}", "identity": f"    IdentityFile {t.old.get('IdentityFile')}"}
    kept = [line for line in t.text.splitlines() if line != replaced.get(t.change)]
    return [
        Check("entry", f"`ssh {t.alias}`, resolved from {PATH} as ssh does, uses {said}.", "ssh.host_options",
              {"path": PATH, "alias": t.alias, **asked}),
        # the tree frame sees only that the config changed: the other hosts and lines are these checks' to keep
        Check("hosts", f"Every other host in {PATH} resolves as before.", "ssh.hosts_kept",
              {"path": PATH, "hosts": t.others}),
        Check("lines", f"Every other line of {PATH}, comments included, is still there in order.", "fs.lines_kept",
              {"path": PATH, "lines": kept}),
    ]


def _swap(old: str, new: str) -> dict[str, Any]:
    return {"op": "fs.replace_in_file", "path": PATH, "old": old + "\n", "new": new + "\n", "count": 1}


def solve(target: Target) -> Attempts:
    t = target
    pub = f"{t.key}.pub"
    if t.change == "add":
        options = {"HostName": t.hostname, "User": t.user, "Port": t.port, "IdentityFile": t.key}
        block = _block(t.alias, options)

        def entry(lines: list[str]) -> dict[str, Any]:  # before `Host *`, as a careful person puts it
            return _swap("Host *", "\n".join(lines) + "\nHost *")
        return Attempts(Attempt("adds the host block before `Host *`", [entry(block)]), [
            Attempt("gives the public key as IdentityFile", [entry(_block(t.alias, {**options, "IdentityFile": pub}))]),
            Attempt("names the server, not the alias, on the Host line", [entry(_block(t.hostname, options))]),
            Attempt("forgets the Port line", [entry(_block(t.alias, {**options, "Port": ""}))]),
            Attempt("appends the options without a Host line (they land in `Host *`)",
                    [{"op": "fs.append_text", "path": PATH, "text": "\n".join(block[1:])}]),
            Attempt("overwrites the config with the one entry",
                    [{"op": "fs.write_text", "path": PATH, "text": "\n".join(block)}]),
        ])
    host = f"Host {t.alias}"
    if t.change == "port":
        line, new = f"    Port {t.old['Port']}", f"    Port {t.port}"
        neighbour = f"    Port {t.others[t.neighbour]['Port']}"
        return Attempts(Attempt("changes the entry's Port line", [_swap(line, new)]), [
            Attempt("adds a second Port line under the old one (ssh keeps the first)", [_swap(line, f"{line}\n{new}")]),
            Attempt("changes the neighbouring host's port", [_swap(neighbour, new)]),
            Attempt("appends the Port line at the end of the file (inside `Host *`)",
                    [{"op": "fs.append_text", "path": PATH, "text": f"Port {t.port}\n"}]),
            Attempt("puts the Port line above the Host line (in the block before)",
                    [_swap(host, f"Port {t.port}\n{host}")]),
        ])
    line, new = f"    IdentityFile {t.old['IdentityFile']}", f"    IdentityFile {t.key}"
    neighbour = f"    IdentityFile {t.others[t.neighbour]['IdentityFile']}"
    return Attempts(Attempt("changes the entry's IdentityFile line", [_swap(line, new)]), [
        Attempt("gives the public key", [_swap(line, f"    IdentityFile {pub}")]),
        Attempt("adds the new key under the old one, leaving the old key tried first", [_swap(line, f"{line}\n{new}")]),
        Attempt("changes the neighbouring host's key", [_swap(neighbour, new)]),
    ])


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # ssh reads ~/.ssh/config and nothing else
    description="Add a host entry (HostName, User, Port, IdentityFile) to ~/.ssh/config, or change an entry's port "
                "or key, keeping every other host and line as it was.",
    knobs={"change": ("add", "port", "identity")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
