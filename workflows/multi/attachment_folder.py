"""multi.attachment_folder: save the attachments of a stated message, or of every Inbox message tagged with a
stated project word, into subfolders of a stated folder chosen by a rule (month received, sender name, file
type), keeping or date-prefixing the file names (Thunderbird -> files).

The target paths are derived by the rule, so the check lists the whole folder (exact relative paths and bytes).
Look-alike mail (the same sender about another project, or an earlier issue of the same document) is the
plausible wrong pick; message times are mid-day, so local and UTC dates agree.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, deepen, pick
from kit.family import Attempt, Attempts, Goal, family
from kit.ids import digest
from kit.model import HOME, Check
from preparers import thunderbird as tb
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.attachment_folder"
SENDERS = (("Northwind Cloud Billing", "billing@northwindcloud.com"),
           ("Lumen Office Supplies", "invoices@lumensupply.com"), ("Harbor Print Shop", "orders@harborprint.com"),
           ("Keystone Facilities", "accounts@keystonefm.com"),
           ("Brightline Legal", "billing@brightlinelegal.com"))
CODENAMES = ("Falcon", "Juniper", "Bluebird", "Northstar", "Cedarline", "Lighthouse", "Marigold", "Sandpiper")
ROOTS = ("Documents/Paperwork", "Documents/Filed Mail", "Documents/Accounts", "Documents/Project Files")
KINDS = {"pdf": ("Invoice {n}", "invoice_{n}.pdf", "application/pdf"),
         "csv": ("{m} statement", "statement_{n}.csv", "text/csv"),
         "txt": ("Receipt {n}", "receipt_{n}.txt", "text/plain")}
RULES = {"month": "named YYYY-MM for the month of receipt",
         "sender": "named exactly as Thunderbird shows the sender's name (not the address)",
         "type": "named PDF, CSV or TXT by file type"}
DATED = " Prefix each saved file's name with its message's date (YYYY-MM-DD) and an underscore."
#: Difficulty axes (issue 15): the size of the mailbox (the Thunderbird kit's), how deep the stated folder sits,
#: and more look-alike mail (the same senders about another project, a day after their real one).
AXES = {"messages": mc.MESSAGES, "location": LOCATION, "noise": mc.NOISE}
PHRASINGS = (
    "Save {what} into {root}, putting each file in a subfolder {rule}. Create the folders you need.{naming}",
    "In Thunderbird, take {what} and file what you save under {root}: each file goes into a subfolder {rule} "
    "(create missing folders).{naming}",
    "Please store {what} in {root}. Sort the files into subfolders {rule}, creating them as needed.{naming}",
    "Using Thunderbird and the file manager, save {what} below {root}, one subfolder per group, each subfolder "
    "{rule}.{naming} Create folders where missing.",
    "File {what} into {root}: every saved file belongs in a subfolder {rule}. Make the folders as needed.{naming}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please save {what.bare} into subfolders of {root} {rule.bare}.{naming}",
    "I want {what.bare} filed under {root}, in subfolders {rule.bare}.{naming}",
    "Could you sort {what.bare} under {root}, in folders {rule.bare}?{naming}",
    "Save {what.bare} to {root}, grouped into subfolders {rule.bare}.{naming}",
    "File {what.bare} for me in subfolders of {root} {rule.bare}.{naming}",
)


class Params(TypedDict):
    rule: Literal["month", "sender", "type"]
    scope: Literal["one", "all"]
    naming: Literal["keep", "dated"]


@dataclass(frozen=True)
class Target:
    profile: str
    root: str  # the folder the subfolders go into
    chosen: list[tb.Message]  # the messages whose attachments are saved
    decoy: tb.Message  # the look-alike message (same project for scope "one")


def _doc(rng: Any, plan: Mapping[str, Any], sender: tuple[str, str], kind: str, word: str, when: dt.datetime
         ) -> tb.Message:
    number = str(rng.randint(1000, 9999))
    subject_t, name_t, ctype = KINDS[kind]
    covered = when.replace(day=1) - dt.timedelta(days=1)  # a statement covers the month before it is sent
    subject = f"{word}: " + subject_t.format(n=number, m=f"{covered:%B}")
    filename = name_t.format(n=f"{number}" if kind != "csv" else f"{covered:%Y_%m}_{number[:2]}")
    lines = [f"{sender[0]}", f"Project {word}", f"Reference {number}", f"Amount due: EUR {rng.randint(90, 9000)}.00"]
    data = tb.text_pdf("\n".join(lines)) if kind == "pdf" else (
        ("item,amount\n" + "".join(f"line {i},{rng.randint(5, 900)}.00\n" for i in range(1, 5))) if kind == "csv"
        else "\n".join(lines) + "\n").encode("utf-8")
    what = {"pdf": f"invoice {number}", "csv": f"the statement for {covered:%B %Y}", "txt": f"receipt {number}"}[kind]
    body = (f"Hello {plan['owner']['first']},\n\nPlease find attached {what} for the {word} project. Let us know if "
            f"you have any questions.\n\nKind regards,\n{sender[0]}\n")
    return mc.message(plan, sender, subject, body, when, [tb.Attachment(filename, ctype, data)], read=True)


def _times(rng: Any, plan: Mapping[str, Any], k: int) -> list[dt.datetime]:
    """`k` mid-day times on distinct days of the window, spread over at least two months."""
    start = dt.date.fromisoformat(plan["start"])
    tz = dt.timezone(dt.timedelta(minutes=plan["utc_offset"]))
    while True:
        days = sorted(rng.sample(range(2, plan["days"] - 1), k))
        out = [dt.datetime.combine(start + dt.timedelta(days=d), dt.time(rng.randint(10, 15), rng.randint(0, 59)), tz)
               for d in days]
        if len({(t.year, t.month) for t in out}) >= 2:
            return out


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    plan = plan["mailbox"]
    background = tc.messages(content["mailbox"], plan)
    word, other_word = rng.sample([w for w in CODENAMES if not any(w in m.subject for m in background)], 2)
    senders = rng.sample(SENDERS, 3)
    times = _times(rng, plan, 5)
    kinds = rng.sample(list(KINDS), 3)
    group = [_doc(rng, plan, senders[i], kinds[i], word, times[i]) for i in range(3)]
    decoys = [_doc(rng, plan, senders[0], kinds[0], other_word, times[3]),
              _doc(rng, plan, senders[1], kinds[1], word if params["scope"] == "one" else other_word, times[4])]
    decoys += [_doc(rng, plan, senders[2 - i], kinds[2 - i], other_word, times[2 - i] + dt.timedelta(days=1))
               for i in range(mc.EXTRA[pick(params, "noise", AXES)])]
    chosen = group if params["scope"] == "all" else [group[1]]
    spec = mc.mail_profile(rng, plan, background, [*group, *decoys])
    root = f"{HOME}/{deepen(rng.choice(ROOTS), pick(params, 'location', AXES))}"
    if params["scope"] == "all":
        what = f"the attachments of every Inbox message with a subject starting '{word}:'"
    else:
        m = group[1]
        what = f"the attachment of the message '{m.subject}' from {tc.address(m)} (received {mc.mail_date(m.date)})"
    facts = {"what": what, "root": root, "rule": RULES[params["rule"]],
             "naming": DATED if params["naming"] == "dated" else ""}
    return Goal(mc.Setup((("tb", spec),)), facts, Target(tc.profile_path(plan), root, chosen, decoys[1]))


def _folder(m: tb.Message, rule: str, slip: bool = False) -> str:
    if rule == "month":
        return f"{m.date:%m-%Y}" if slip else f"{m.date:%Y-%m}"
    if rule == "sender":
        return tc.address(m) if slip else m.sender.rsplit(" <", 1)[0].strip('"')
    ext = m.attachments[0].filename.rsplit(".", 1)[1]
    return ext if slip else ext.upper()


def _files(msgs: list[tb.Message], rule: str, dated: bool, *, flat: bool = False, slip: bool = False
           ) -> dict[str, tuple[tb.Message, str]]:
    """Relative path under the root -> (message, attachment name)."""
    out = {}
    for m in msgs:
        name = m.attachments[0].filename
        saved = f"{m.date:%Y-%m-%d}_{name}" if dated else name
        out[saved if flat else f"{_folder(m, rule, slip)}/{saved}"] = (m, name)
    return out


def rubric(params: Params, target: Target) -> list[Check]:
    t, p = target, params
    files = _files(t.chosen, p["rule"], p["naming"] == "dated")
    contents = {rel: digest(m.attachments[0].data) for rel, (m, _) in files.items()}
    return [Check("filed", f"{t.root} holds exactly {sorted(files)}, each the attachment of its message.",
                  "fs.dir_listing", {"path": t.root, "names": sorted(files), "recursive": True,
                                     "contents": contents})]


def solve(params: Params, target: Target) -> Attempts:
    t, p = target, params
    rule, dated = p["rule"], p["naming"] == "dated"

    def save(msgs: list[tb.Message], **how: Any) -> list[dict[str, Any]]:
        return [mc.op("tb.save_attachment", t.profile, folder="Inbox", message_id=m.message_id, filename=name,
                      dest=f"{t.root}/{rel}")
                for rel, (m, name) in _files(msgs, rule, how.pop("dated", dated), **how).items()]

    chosen = t.chosen
    misses = [
        Attempt("saves everything directly in the folder, without subfolders", save(chosen, flat=True)),
        Attempt({"month": "writes the month folders as MM-YYYY", "sender": "names the folders after "
                 "the sender's address", "type": "writes the type folders in lower case"}[rule],
                save(chosen, slip=True)),
        Attempt("keeps the original file names" if dated else "prefixes the file names with the date",
                save(chosen, dated=not dated)),
    ]
    if p["scope"] == "all":
        misses.append(Attempt("misses one of the tagged messages", save(chosen[:-1])))
    else:
        misses.append(Attempt("saves the attachment of the other message of the project", save([t.decoy])))
    return Attempts(Attempt("save each attachment into the subfolder the rule names", save(chosen)), misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.TB, mc.OS), mailbox=mc.passing("messages", kind="pdf")),
    description="Save mail attachments into subfolders chosen by a rule (month, sender, file type), keeping or "
                "date-prefixing the names.",
    knobs={"rule": tuple(RULES), "scope": ("one", "all"), "naming": ("keep", "dated")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
