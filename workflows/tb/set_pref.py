"""tb.set_pref: change one Thunderbird setting (signature, reply position, plain-text composing, Bcc, auto-save...).

The prefs are those Thunderbird writes for the account's identity (`mail.identity.id1.*`, as in OSWorld's
Thunderbird tasks) or for the app. Every target value differs from Thunderbird's default, so Thunderbird
keeps the line in prefs.js when it saves. Each setting lists its checks, the oracle's pref writes and two
plausible mistakes (a neighbouring option, a wrong value, a partial entry).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, get_args

from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import count
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.set_pref"
ID = "mail.identity.id1."
PHRASINGS = (
    "In Thunderbird, {ask}.",
    "Please change a Thunderbird setting for me: {ask}.",
    "Using Thunderbird's settings (or Account Settings for my account {email}), {ask}.",
    "I'd like to change how Thunderbird behaves: please {ask}. Make the change in Thunderbird's settings.",
    "Open Thunderbird and {ask}. Leave every other setting as it is.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In Thunderbird, please {ask}.",
    "Could you {ask} in Thunderbird?",
    "Please help me {ask} in Thunderbird; leave my other settings alone.",
    "For my account {email} in Thunderbird, please {ask}.",
    "I'd like Thunderbird changed: please {ask}.",
)
CLOSINGS = ("Best regards", "Kind regards", "Many thanks", "Cheers", "All the best", "Warm regards")
TITLES = ("Project Manager", "Senior Analyst", "Operations Lead", "Account Director", "Product Designer",
          "Data Engineer")
ORGS = ("Alder & Finch Ltd", "Blue Quarry Analytics", "Northbeam Co-op", "Tidewater Labs GmbH", "Kestrel Works Inc",
        "Meridian Health Partners")

Setting = Literal["reply_on_top", "plain_text", "signature", "sig_on_forward", "no_sig_on_reply", "no_auto_quote",
                  "organization", "reply_to", "bcc", "read_delay", "spellcheck_send", "return_receipt", "autosave",
                  "no_new_mail_alert", "attach_vcard", "full_name", "close_on_delete", "dark_theme", "light_theme",
                  "sig_above_quote"]
SETTINGS: tuple[Setting, ...] = get_args(Setting)
Prefs = list[tuple[str, Any]]
#: setting -> (ask, checks [(primitive, args)], oracle prefs, [(why, prefs)] near-misses); built per task.
Plan = tuple[str, list[tuple[str, dict[str, Any]]], Prefs, list[tuple[str, Prefs]]]


def _eq(name: str, value: Any, default: Any = None) -> tuple[str, dict[str, Any]]:
    args: dict[str, Any] = {"name": name, "value": value}
    if default is not None:
        args["default"] = default
    return "tb.pref_equals", args


def _text(name: str, text: str, casefold: bool = False) -> tuple[str, dict[str, Any]]:
    return "tb.pref_text", {"name": name, "text": text, **({"casefold": True} if casefold else {})}


#: extensions.activeThemeID of Thunderbird's built-in themes (Settings > General, or Add-ons and Themes > Themes);
#: "System theme - auto" is the default and leaves the pref unset
THEMES = {"dark": "thunderbird-compact-dark@mozilla.org", "light": "thunderbird-compact-light@mozilla.org",
          "auto": "default-theme@mozilla.org"}


def _theme(want: str) -> Plan:
    other = "light" if want == "dark" else "dark"
    return (f"switch to the built-in {want} theme", [_eq("extensions.activeThemeID", THEMES[want])],
            [("extensions.activeThemeID", THEMES[want])],
            [(f"picks the {other} theme instead", [("extensions.activeThemeID", THEMES[other])]),
             ("picks 'System theme - auto', which follows the desktop instead",
              [("extensions.activeThemeID", THEMES["auto"])])])


def _addr(rng: random.Random, plan: Mapping[str, Any]) -> str:
    owner = plan["owner"]["email"].partition("@")[0]
    return rng.choice((f"assistant@{plan['domain']}", f"{owner}.archive@{plan['domain']}",
                       f"team-inbox@{plan['domain']}", f"records@{plan['domain']}"))


def _settings(rng: random.Random, plan: Mapping[str, Any]) -> dict[Setting, Callable[[], Plan]]:
    owner = plan["owner"]
    full = f"{owner['first']} {owner['last']}"
    n = rng.choice((2, 3, 4, 8, 10))
    minutes = rng.choice((1, 2, 3, 10, 15))
    closing = rng.choice(CLOSINGS)
    signature = f"{closing}, {full} - {rng.choice(TITLES)}"
    org = rng.choice(ORGS)
    addr = _addr(rng, plan)
    typo = addr.replace("@", "@mail.", 1)
    new_last = rng.choice(("Whitfield", "Arden", "Castell", "Marlowe", "Penrose"))
    renamed = f"{owner['first']} {new_last}"
    return {
        "reply_on_top": lambda: (
            "start my replies above the quoted message instead of below it", [_eq(ID + "reply_on_top", 1)],
            [(ID + "reply_on_top", 1)],
            [("chooses 'select the quote' instead of 'start my reply above the quote'", [(ID + "reply_on_top", 2)]),
             ("turns off quoting the original message instead", [(ID + "auto_quote", False)])]),
        "plain_text": lambda: (
            "compose my messages in plain text instead of HTML", [_eq(ID + "compose_html", False)],
            [(ID + "compose_html", False)],
            [("sets the send format to plain text but keeps composing in HTML", [("mail.default_send_format", 1)]),
             ("switches message display to plain text instead", [("mailnews.display.html_as", 1)])]),
        "signature": lambda: (
            f"set the signature text of my account to exactly '{signature}'", [_text(ID + "htmlSigText", signature)],
            [(ID + "htmlSigText", signature)],
            [("types only the closing words", [(ID + "htmlSigText", closing)]),
             ("puts the text into the Organization field instead", [(ID + "organization", signature)])]),
        "sig_on_forward": lambda: (
            "include my signature when I forward messages", [_eq(ID + "sig_on_fwd", True)],
            [(ID + "sig_on_fwd", True)],
            [("turns off the signature for replies instead", [(ID + "sig_on_reply", False)]),
             ("ticks 'attach my vCard' instead", [(ID + "attach_vcard", True)])]),
        "no_sig_on_reply": lambda: (
            "stop adding my signature to replies", [_eq(ID + "sig_on_reply", False)],
            [(ID + "sig_on_reply", False)],
            [("changes the forward option instead", [(ID + "sig_on_fwd", True)]),
             ("moves the signature above the quote instead", [(ID + "sig_bottom", False)])]),
        "no_auto_quote": lambda: (
            "stop quoting the original message automatically when I reply", [_eq(ID + "auto_quote", False)],
            [(ID + "auto_quote", False)],
            [("starts the reply above the quote instead", [(ID + "reply_on_top", 1)]),
             ("drops the signature from replies instead", [(ID + "sig_on_reply", False)])]),
        "organization": lambda: (
            f"set the Organization of my account to '{org}'", [_text(ID + "organization", org)],
            [(ID + "organization", org)],
            [("puts the name into the signature instead", [(ID + "htmlSigText", org)]),
             ("leaves out the last word", [(ID + "organization", org.rsplit(" ", 1)[0])])]),
        "reply_to": lambda: (
            f"make replies to my messages go to {addr} by setting it as the Reply-to address of my account",
            [_text(ID + "reply_to", addr, casefold=True)], [(ID + "reply_to", addr)],
            [("adds the address as a Bcc instead", [(ID + "doBcc", True), (ID + "doBccList", addr)]),
             (f"mistypes the address as {typo}", [(ID + "reply_to", typo)])]),
        "bcc": lambda: (
            f"always send a blind copy (Bcc) of my outgoing messages to {addr}",
            [_eq(ID + "doBcc", True), _text(ID + "doBccList", addr, casefold=True)],
            [(ID + "doBcc", True), (ID + "doBccList", addr)],
            [("types the address but leaves the Bcc box unticked", [(ID + "doBccList", addr)]),
             ("uses Cc instead of Bcc", [(ID + "doCc", True), (ID + "doCcList", addr)])]),
        "read_delay": lambda: (
            f"mark a message as read only after it has been displayed for {n} seconds",
            [_eq("mailnews.mark_message_read.delay", True), _eq("mailnews.mark_message_read.delay.interval", n)],
            [("mailnews.mark_message_read.delay", True), ("mailnews.mark_message_read.delay.interval", n)],
            [("enters the seconds but leaves the delay option off", [("mailnews.mark_message_read.delay.interval", n)]),
             ("enables the delay but keeps the default 5 seconds", [("mailnews.mark_message_read.delay", True)])]),
        "spellcheck_send": lambda: (
            "check spelling before sending a message", [_eq("mail.SpellCheckBeforeSend", True)],
            [("mail.SpellCheckBeforeSend", True)],
            [("turns off spell check as you type instead", [("mail.spellcheck.inline", False)]),
             ("changes the spelling language instead", [("spellchecker.dictionary", "en-GB")])]),
        "return_receipt": lambda: (
            "always request a return receipt when I send a message",
            [_eq("mail.receipt.request_return_receipt_on", True)], [("mail.receipt.request_return_receipt_on", True)],
            [("changes where arriving receipts are filed instead", [("mail.incorporate.return_receipt", 1)]),
             ("stops sending receipts to others instead", [("mail.mdn.report.enabled", False)])]),
        "autosave": lambda: (
            f"auto-save drafts every {count(minutes, 'minute')} while I write",
            [_eq("mail.compose.autosave", True, default=True), _eq("mail.compose.autosaveinterval", minutes)],
            [("mail.compose.autosaveinterval", minutes)],
            [("enters a different number of minutes", [("mail.compose.autosaveinterval", minutes + 5)]),
             ("turns auto-save off", [("mail.compose.autosave", False), ("mail.compose.autosaveinterval", minutes)])]),
        "no_new_mail_alert": lambda: (
            "stop showing an alert when new messages arrive", [_eq("mail.biff.show_alert", False)],
            [("mail.biff.show_alert", False)],
            [("turns off the new-mail sound instead", [("mail.biff.play_sound", False)]),
             ("hides only the message preview in the alert", [("mail.biff.alert.show_preview", False)])]),
        "attach_vcard": lambda: (
            "attach my vCard to the messages I write", [_eq(ID + "attach_vcard", True)],
            [(ID + "attach_vcard", True)],
            [("ticks 'Attach the signature from a file' instead", [(ID + "attach_signature", True)]),
             ("includes the signature in forwards instead", [(ID + "sig_on_fwd", True)])]),
        "full_name": lambda: (
            f"change the name shown on my outgoing mail to '{renamed}'",
            [_text(ID + "fullName", renamed)], [(ID + "fullName", renamed)],
            [("types the name into Organization instead", [(ID + "organization", renamed)]),
             ("appends the new surname instead of replacing the old one", [(ID + "fullName", full + " " + new_last)])]),
        "close_on_delete": lambda: (
            "close the message tab or window when I move or delete the message shown in it",
            [_eq("mail.close_message_window.on_delete", True)], [("mail.close_message_window.on_delete", True)],
            [("stops marking messages as read automatically instead", [("mailnews.mark_message_read.auto", False)]),
             ("makes delete follow the sort order instead", [("mail.delete_matches_sort_order", True)])]),
        "dark_theme": lambda: _theme("dark"),
        "light_theme": lambda: _theme("light"),
        # Account Settings > Composition & Addressing: "start my reply above the quote" and "place my signature below
        # my reply (above the quote)"; the signature choice only exists while replies start above the quote
        "sig_above_quote": lambda: (
            "start my replies above the quoted message and place my signature right below my reply, above the quote",
            [_eq(ID + "reply_on_top", 1), _eq(ID + "sig_bottom", False)],
            [(ID + "reply_on_top", 1), (ID + "sig_bottom", False)],
            [("starts replies above the quote but leaves the signature below the quote",
              [(ID + "reply_on_top", 1)]),
             ("moves the signature above the quote but keeps starting replies below it",
              [(ID + "sig_bottom", False)])]),
    }


class Params(TypedDict):
    setting: Setting


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    ask: str  # the setting as the instruction asks for it
    checks: list[tuple[str, dict[str, Any]]]  # (primitive, args) per check
    oracle: Prefs  # the prefs the oracle writes
    misses: list[tuple[str, Prefs]]  # (why, prefs) per near-miss


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    spec = tc.profile_spec(plan, tc.layout(rng, msgs), contacts=tc.contacts_from(rng, msgs))
    ask, checks, oracle, misses = _settings(rng, plan)[params["setting"]]()
    facts = {"ask": ask, "email": plan["owner"]["email"]}
    return Goal(spec, facts, Target(tc.profile_path(plan), ask, checks, oracle, misses))


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check(f"pref-{i}", f"Thunderbird is set to {t.ask}: {args['name']} is "
                               f"{args.get('value', args.get('text'))!r}.", primitive, {"path": t.profile, **args})
            for i, (primitive, args) in enumerate(t.checks, start=1)]


def solve(target: Target) -> Attempts:
    t = target

    def writes(prefs: Prefs) -> list[dict[str, Any]]:
        return [{"op": "tb.set_pref", "path": t.profile, "name": k, "value": v} for k, v in prefs]

    return Attempts(Attempt(f"set: {t.ask}", writes(t.oracle)),
                    [Attempt(why, writes(prefs)) for why, prefs in t.misses])


WORKFLOW = family(
    NAME, tc.TB,
    description="Change one Thunderbird setting (identity or app preference) to a stated value.",
    knobs={"setting": SETTINGS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
