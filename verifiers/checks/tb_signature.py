"""An identity's signature (Account Settings > Signature text, or "Attach the signature from a file").

Thunderbird keeps it in the identity's prefs: `htmlSigText` (the typed text; used unless `attach_signature`),
or `attach_signature` true with the file in `sig_file-rel` (`[ProfD]`-relative, read first) or `sig_file` (an
absolute path). The identity is found by its address among those an account lists (`mail.account.*.identities`):
an identity no account lists never signs anything."""

from __future__ import annotations

import posixpath
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.thunderbird import _plain
from verifiers.meaning import Meaning
from verifiers.readers.thunderbird import effective_prefs

HOME = "/home/user"


def identity_of(prefs: dict[str, Any], email: str) -> str | None:
    """The id ("id2") of the listed identity whose address is `email` (case-insensitive), else None."""
    for name, value in sorted(prefs.items()):
        if not (name.startswith("mail.account.") and name.endswith(".identities") and isinstance(value, str)):
            continue
        for ident in (i.strip() for i in value.split(",")):
            address = prefs.get(f"mail.identity.{ident}.useremail")
            if ident and isinstance(address, str) and address.strip().casefold() == email.casefold():
                return ident
    return None


def signature_file(prefs: dict[str, Any], ident: str, profile: str) -> str | None:
    """The signature file's absolute path as Thunderbird resolves it (the -rel pref first), else None."""
    rel = prefs.get(f"mail.identity.{ident}.sig_file-rel")
    if isinstance(rel, str) and rel.strip():
        for prefix, base in (("[ProfD]", profile), ("[Home]", HOME)):
            if rel.startswith(prefix):
                return posixpath.normpath(posixpath.join(base, rel[len(prefix):]))
    absolute = prefs.get(f"mail.identity.{ident}.sig_file")
    if isinstance(absolute, str) and absolute.strip().startswith("/"):
        return posixpath.normpath(absolute.strip())
    return None


@primitive("tb.signature_set", grounded=("email", "lines", "file"),
           meaning=Meaning(action=r"signature"))
def signature_set(state: State, path: str, email: str, lines: list[str] | None = None,
                  file: str | None = None) -> Result:
    """The identity with address `email` signs with exactly `lines` (its signature text, trimmed per line; no
    signature file attached instead), or, with `file`, with that file ("Attach the signature from a file")."""
    if (lines is None) == (file is None):
        return fail("check misconfigured: give either lines or file")
    prefs = effective_prefs(state, path)
    ident = identity_of(prefs, email)
    if ident is None:
        return fail(f"no account lists an identity {email}")
    attach = prefs.get(f"mail.identity.{ident}.attach_signature") is True
    where = f"identity {email} ({ident})"
    if file is not None:
        found = signature_file(prefs, ident, path)
        want = posixpath.normpath(file)
        if found != want:
            return fail(f"{where}: signature file is {found or 'not set'}, not {want}")
        if not attach:
            return fail(f"{where}: {want} is chosen but 'Attach the signature from a file' is off")
        return ok(f"{where} signs with the file {want}")
    text = prefs.get(f"mail.identity.{ident}.htmlSigText")
    want_text = "\n".join(line.strip() for line in lines or [])
    if not isinstance(text, str) or _plain(text) != want_text:
        return fail(f"{where}: signature text is {text!r}, expected {want_text!r}")
    if attach:
        return fail(f"{where}: the text is set, but a signature file is attached instead")
    return ok(f"{where} signs with the {len(lines or [])} lines asked for")
