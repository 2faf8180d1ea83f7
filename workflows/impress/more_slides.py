"""Slides that fit any deck, for the bigger levels of the Impress `deck_slides` axis (issue 15: "size").

A scenario's templates hold 10 slides, 3 of them kept spare for the add-a-slide tasks, so a generated deck has at
most 7 content slides. A longer deck (8-12, 14-20 slides) is that deck plus housekeeping slides every real deck of
any topic may carry (open questions, a glossary, ground rules, sources): their titles appear in no scenario, so
titles stay unique across the deck and its spare slides (tasks name slides by title). They are added after the
content node (model or offline), so the model is never asked for more slides than its schema allows.
"""

from __future__ import annotations

import random
from typing import Any

#: (title, six bullets, two speaker notes): four bullets are shown, two kept as `extra` material.
GENERIC: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Open Questions", ("Who owns the follow-up on each item", "Which dates are still tentative",
                        "What we need from other teams", "Where the final numbers will be shared",
                        "How feedback will be collected", "When we meet again"),
     ("Collect questions in the shared document.", "Answer the quick ones live.")),
    ("Meeting Ground Rules", ("One conversation at a time", "Cameras on when possible", "Phones on silent",
                              "Park side topics for later", "Start and finish on time", "Decisions go in the notes"),
     ("Read the rules aloud once.", "Ask if anyone wants to add a rule.")),
    ("Glossary of Terms", ("Owner: the person accountable for an item", "Milestone: a dated checkpoint",
                           "Blocker: an issue that stops progress", "Scope: what is included in the work",
                           "Baseline: the agreed starting plan", "Sign-off: a formal approval"),
     ("Point to the glossary when a term comes up.", "Ask if any term is unclear.")),
    ("Useful Links", ("Shared folder with all slides", "Team calendar with key dates", "Feedback form",
                      "Recorded sessions library", "Policy handbook on the intranet", "Contact list for each team"),
     ("Links are in the meeting invite.", "Check that everyone can open the folder.")),
    ("Recent Wins", ("Positive feedback from two key customers", "A process step removed from the weekly routine",
                     "New joiners settled in quickly", "A long-standing issue finally closed",
                     "Good turnout at the last session", "A partner praised our response time"),
     ("Thank the people behind each win.", "Keep this part short and upbeat.")),
    ("Assumptions", ("Staffing stays at the current level", "No major change in priorities",
                     "Suppliers deliver as agreed", "Budget is confirmed as planned",
                     "Systems remain available during the period", "Stakeholders review drafts on time"),
     ("Flag any assumption that looks shaky.", "Assumptions are reviewed every month.")),
    ("Out of Scope", ("Changes to unrelated systems", "New hiring beyond the plan", "Work for other regions",
                      "Custom requests from single users", "Long-term strategy questions", "Office moves"),
     ("Out of scope does not mean never.", "Log new requests for the next cycle.")),
    ("Parking Lot", ("Naming of the internal newsletter", "Ideas for the next offsite",
                     "Better meeting room booking", "A shared calendar for holidays",
                     "Templates for weekly updates", "A quieter space for focused work"),
     ("Parked items are reviewed at the end.", "Add new items on sticky notes.")),
    ("Action Items Recap", ("Send the summary to all attendees", "Update the tracker with new owners",
                            "Book the follow-up session", "Share the slides on the intranet",
                            "Confirm open dates with each team", "Collect feedback by the end of the week"),
     ("Read the owners aloud.", "Record each action in the notes.")),
    ("Feedback Received", ("Sessions felt too long", "More examples were requested",
                           "Slides were clear and easy to follow", "Handouts would help",
                           "Questions should come earlier", "A short recap at the end was welcome"),
     ("Feedback came from the last survey.", "Say what we changed in response.")),
    ("Sources and References", ("Internal reports from the last quarter", "Team surveys",
                                "Notes from stakeholder interviews", "Published industry studies",
                                "Figures from the finance system", "Minutes of earlier meetings"),
     ("Sources are listed in full in the shared folder.", "Figures are rounded.")),
    ("Discussion Points", ("What worked well this period", "What we should stop doing",
                           "Where we need more support", "Which risks worry us most",
                           "How we share progress", "What to celebrate next time"),
     ("Give each point about five minutes.", "Capture answers on the whiteboard.")),
    ("Thank You", ("Thank you for your time", "Slides follow by email", "Questions are welcome at any time",
                   "Feedback helps us improve", "The recording will be shared", "See you at the next session"),
     ("End on time.", "Remind everyone about the feedback form.")),
)
#: How many generic slides a deck can take (the largest level adds 20 - 7 = 13).
MAX_EXTRA = len(GENERIC)


def generic_slide(rng: random.Random, entry: tuple[str, tuple[str, ...], tuple[str, ...]]) -> dict[str, Any]:
    title, bullets, notes = entry
    shown = rng.sample(bullets, 6)
    return {"title": title, "bullets": shown[:4], "extra": shown[4:], "notes": rng.choice(notes)}


def lengthen(rng: random.Random, content: dict[str, Any], n_slides: int) -> dict[str, Any]:
    """`content` (a deck as `workflows.impress.content.DECK_SCHEMA` shapes it) with generic slides inserted at
    random places among its content slides until it has `n_slides`; a deck as long already is returned as it is.
    Titles already in the deck or its spare slides are skipped, so every title stays unique."""
    slides = list(content["slides"])
    if len(slides) >= n_slides:
        return content
    taken = {s["title"].casefold() for s in [*slides, *content.get("spare", [])]} | {str(content["title"]).casefold()}
    pool = [entry for entry in GENERIC if entry[0].casefold() not in taken]
    need = n_slides - len(slides)
    if need > len(pool):
        raise ValueError(f"n_slides={n_slides}, but only {len(slides) + len(pool)} slides are possible")
    for entry in rng.sample(pool, need):
        slides.insert(rng.randint(0, len(slides)), generic_slide(rng, entry))
    return {**content, "slides": slides}
