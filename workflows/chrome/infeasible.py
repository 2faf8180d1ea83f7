"""chrome.infeasible: a request about a real Chrome profile that the browser or the profile cannot satisfy; decline.

Kinds (workflows.infeasible_kit): `feature` asks for what no browser does (download the whole internet for offline
use, open a bookmarked site as it will look next year, pages you can smell); `missing` names a bookmark the profile
does not have; `contradiction` asks for a bookmark deleted yet kept clickable on the bar, or renamed while keeping
its name. The near-misses are an eager agent's stand-ins: a bookmark folder made, a bookmark renamed, the nearest
bookmark edited, one half of the contradiction.
"""

from __future__ import annotations

import random
from typing import Any

from kit.family import Goal, family
from workflows.chrome import kit as chc
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve

NAME = "chrome.infeasible"
PHRASINGS = (
    "In Google Chrome, {request.inline}.",
    "Change my Chrome setup: {request.inline}. Don't change anything else.",
    "Please update my browser. {request}",
    "Using Google Chrome, {request.inline}. Leave the other bookmarks and settings as they are.",
    "One job in Chrome for you: {request.inline}.",
)
NATURAL = (
    "In Chrome, please {request.inline}.",
    "Could you help me with my browser? I'd like you to {request.inline}.",
    "I need a hand with Chrome: {request.inline}.",
    "Quick favour with my Chrome bookmarks and settings: {request.inline}.",
    "Here's what I want done in my web browser. Please {request.inline}.",
)
GHOSTS = ("Tax Portal 2026", "Old Intranet", "Recipe Vault", "Team Wiki (archived)", "Gym Timetable",
          "Parking Permit")


def _label(folder: list[str]) -> str:
    return " > ".join(folder)


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Impossible]:
    profile = chc.base_profile(bookmarks, rng, params)
    links = [link for link in profile.links() if len(link[0]) >= 2] or profile.links()
    folder, name, url = rng.choice(links)
    kind = params["impossible"]
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    if kind == "feature":
        choice = rng.randrange(3)
        why = f"Chrome has no such feature: {KIND_TEXT[kind]}"
        if choice == 0:
            request = "Make Chrome download the whole internet onto this computer so I can browse every site offline."
        elif choice == 1:
            request = f"Make the bookmark '{name}' in {_label(folder)} open that site as it will look next year."
        else:
            request = f"Set up Chrome so that I can smell the pages I visit, starting with the bookmark '{name}'."
        slips = (("makes an 'Offline' bookmark folder as a stand-in",
                  (chc.bm("add_folder", folder=[chc.ROOT_OF["bar"]], name="Offline"),)),
                 (f"renames the bookmark '{name}' as a stand-in",
                  (chc.bm("rename", folder=folder, name=name, new_name=f"{name} (next year)"),)))
    elif kind == "missing":
        taken = {n.casefold() for _, n, _ in profile.links()}
        ghost = rng.choice([g for g in GHOSTS if g.casefold() not in taken])
        request = f"Rename my bookmark '{ghost}' in {_label(folder)} to '{ghost} - old'."
        why = f"{_label(folder)} holds no bookmark named '{ghost}' (nor does any other folder)"
        slips = ((f"renames '{name}' instead",
                  (chc.bm("rename", folder=folder, name=name, new_name=f"{ghost} - old"),)),
                 (f"adds a bookmark '{ghost} - old' pointing at {url}",
                  (chc.bm("add_bookmark", folder=folder, name=f"{ghost} - old", url=url),)))
    elif rng.random() < 0.5:
        request = (f"Delete the bookmark '{name}' from {_label(folder)}, but keep it there so I can still click it "
                   f"every morning.")
        why = "a bookmark cannot be deleted and stay in its folder at once"
        slips = (("deletes the bookmark", (chc.bm("delete", folder=folder, name=name),)),
                 ("moves the bookmark to Other bookmarks as a compromise",
                  (chc.bm("move_bookmark", folder=folder, name=name, to=[chc.ROOT_OF["other"]]),)))
    else:
        request = (f"Rename the bookmark '{name}' in {_label(folder)} to '{name} (work)', while making sure it keeps "
                   f"the name '{name}'.")
        why = "a bookmark cannot be renamed and keep its current name at once"
        slips = (("renames the bookmark", (chc.bm("rename", folder=folder, name=name, new_name=f"{name} (work)"),)),
                 ("adds a renamed copy beside it",
                  (chc.bm("add_bookmark", folder=folder, name=f"{name} (work)", url=url),)))
    return Goal(profile, {"request": request}, Impossible(chc.BOOKMARKS, why, slips))


WORKFLOW = family(
    NAME, chc.CHROME,
    description="Decline a Chrome request that cannot be done (a feature the browser lacks, a bookmark that is not "
                "there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
