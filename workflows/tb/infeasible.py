"""tb.infeasible: a request about a real Thunderbird profile that the mail client or the mailbox cannot satisfy.

Kinds (workflows.infeasible_kit): `feature` asks for what no mail client does (unsend a message someone else sent
you, show next week's mail today, make a mail delete itself from the sender's computer); `missing` names a message
subject the mailbox does not hold; `contradiction` asks for a message moved to Archives yet kept in the Inbox, or
flagged while staying unflagged. The near-misses are an eager agent's stand-ins: the message flagged or moved, the
nearest message moved, a folder made, one half of the contradiction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kit.family import Goal, family
from preparers import thunderbird as tb
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve
from workflows.tb import kit as tc

NAME = "tb.infeasible"
PHRASINGS = (
    "In Thunderbird, {request.inline}.",
    "Please do this in my Thunderbird mail: {request.inline}. Leave every other message as it is.",
    "Using Thunderbird, {request.inline}.",
    "One job in my mailbox for you. {request}",
    "Open Thunderbird and {request.inline}. Nothing else in the mailbox should change.",
)
NATURAL = (
    "In my mail, please {request.inline}.",
    "Could you help me with Thunderbird? I'd like you to {request.inline}.",
    "I need a hand with my email: {request.inline}.",
    "Quick favour with my inbox: {request.inline}.",
    "Here's what I want done in my mailbox. Please {request.inline}.",
)
GHOSTS = ("Updated seating plan for Friday", "Your parcel is on its way", "Minutes of the March board meeting",
          "Reminder: library books due", "Welcome to the volunteer team", "Quote for the kitchen repairs")


def _unique(msgs: list[tb.Message], inbox: list[tb.Message]) -> list[tb.Message]:
    """Inbox messages whose subject no other message's subject contains (so a subject names exactly one)."""
    return [m for m in inbox if m.subject and sum(m.subject.casefold() in o.subject.casefold() for o in msgs) == 1]


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Impossible]:
    msgs = tc.messages(mailbox, plan)
    folders = tc.layout(rng, msgs)
    candidates = _unique(msgs, list(folders["Inbox"])) or list(folders["Inbox"])
    message = rng.choice(candidates)
    subject, sender = message.subject, tc.address(message)
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    profile = tc.profile_path(plan)
    pick = {"path": profile, "folder": "Inbox", "field": "subject", "value": subject}
    kind = params["impossible"]
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    flag = ("flags the message as a stand-in", ({"op": "tb.mark_flagged", **pick},))
    if kind == "feature":
        choice = rng.randrange(3)
        why = f"Thunderbird has no such feature: {KIND_TEXT[kind]}"
        if choice == 0:
            request = f"Unsend the message '{subject}' that {sender} sent me, so it vanishes from their sent mail too."
        elif choice == 1:
            request = (f"Show me in my Inbox the replies to '{subject}' that I will receive next week, so I can read "
                       f"them today.")
        else:
            request = f"Make the message '{subject}' delete itself from {sender}'s own computer as well."
        slips = (flag, ("moves the message to Archives as a stand-in",
                        ({"op": "tb.move_messages", "path": profile, "source": "Inbox", "target": "Archives",
                          "field": "subject", "value": subject},)))
    elif kind == "missing":
        taken = {m.subject.casefold() for m in msgs}
        ghost = rng.choice([g for g in GHOSTS if g.casefold() not in taken])
        request = f"Move the message with the subject '{ghost}' from the Inbox to the Archives folder."
        why = f"no message in the mailbox has the subject '{ghost}'"
        slips = ((f"moves the message '{subject}' instead",
                  ({"op": "tb.move_messages", "path": profile, "source": "Inbox", "target": "Archives",
                    "field": "subject", "value": subject},)),
                 (f"makes a folder named '{ghost}'", ({"op": "tb.create_folder", "path": profile, "folder": ghost},)))
    elif rng.random() < 0.5:
        request = (f"Move the message '{subject}' from {sender} to the Archives folder, while keeping it in the "
                   f"Inbox as well (no copies: the one message in both places).")
        why = "one message cannot sit in two folders at once without a copy"
        move = {"op": "tb.move_messages", "path": profile, "source": "Inbox", "target": "Archives",
                "field": "subject", "value": subject}
        slips = (("moves the message to Archives", (move,)),
                 ("copies the message to Archives", ({**move, "copy": True},)))
    else:
        request = f"Flag the message '{subject}' from {sender} as important, but make sure it does not carry a flag."
        why = "a message cannot be flagged and unflagged at once"
        slips = (("flags the message", ({"op": "tb.mark_flagged", **pick},)),
                 ("moves the message to Archives instead",
                  ({"op": "tb.move_messages", "path": profile, "source": "Inbox", "target": "Archives",
                    "field": "subject", "value": subject},)))
    return Goal(spec, {"request": request}, Impossible(profile, why, slips))


WORKFLOW = family(
    NAME, tc.TB,
    description="Decline a Thunderbird request that cannot be done (a feature the mail client lacks, a message that "
                "is not there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
