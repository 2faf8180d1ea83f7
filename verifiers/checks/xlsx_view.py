"""xlsx primitive for "change how the sheet is shown" tasks (calc.view_settings): the sheet's saved view options,
its row and column headers and its zero values shown or hidden (sheetView showRowColHeaders / showZeros; absent
means shown); the grid lines (showGridLines), which no task changes, stay as they were.

The frame does not model view options, so the check reads both: the one the task changes has its new state, the
other keeps the state it had (hiding the zeros when asked to hide the headers is a wrong answer)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Prose

#: view option -> (the words that name it, the sheetView attribute)
OPTIONS = {"headers": (r"(?:row and column |column and row )?headers|row numbers|column letters",
                       "showRowColHeaders"),
           "zeros": (r"zero values|zeros?\b|0 values", "showZeros")}
SHOW = r"\b(?:show|display|turn(?:ed)? on|visible|bring back|unhide)"
HIDE = r"\b(?:hide|hidden|turn(?:ed)? off|don't show|do not show|not shown|blank)"


def _says_option(text: str, args: Mapping[str, Any]) -> str | None:
    asked = str(args.get("asked"))
    if asked not in OPTIONS:
        return f"asked={asked!r} is no view option"
    if not re.search(rf"\b(?:{OPTIONS[asked][0]})", text, re.IGNORECASE):
        return f"the instruction does not name the {asked}"
    others = [o for o in OPTIONS if o != asked and re.search(rf"\b(?:{OPTIONS[o][0]})", text, re.IGNORECASE)]
    if others:
        return f"the instruction also names the {others[0]}"
    shown = bool(args.get(asked))
    if not re.search(SHOW if shown else HIDE, text, re.IGNORECASE):
        return f"the instruction does not ask to {'show' if shown else 'hide'} the {asked}"
    return None


def _shown(view: Any, attribute: str) -> bool:
    value = getattr(view, attribute, None)
    return value is None or bool(value)


@primitive("xlsx.sheet_view", grounded=("path", "sheet", "asked"),
           meaning=Meaning(action=r"show|display|hide|hidden|turn|visible|unhide|view",
                           args={"asked": Prose(_says_option)}))
def sheet_view(state: State, path: str, sheet: str, asked: str, headers: bool, zeros: bool,
               gridlines: bool = True) -> Result:
    """`sheet` shows its row and column headers when `headers` (hides them otherwise) and its zero values when
    `zeros`; `asked` names the option the task changes (the other one keeps its state, and so do the grid lines,
    shown unless `gridlines` is False: hiding them too is a stray change the frame would not see)."""
    ws = state.sheet(path, sheet)
    views = list(getattr(ws, "views", None) and ws.views.sheetView or [])
    if not views:
        return fail(f"{sheet} has no sheet view")
    view = views[0]
    problems = []
    for option, want in (("headers", headers), ("zeros", zeros), ("grid lines", gridlines)):
        seen = _shown(view, OPTIONS[option][1] if option in OPTIONS else "showGridLines")
        if seen != want:
            role = "asked" if option == asked else "kept"
            problems.append(f"the {option} are {'shown' if seen else 'hidden'} ({role}: "
                            f"{'shown' if want else 'hidden'})")
    state_text = f"headers {'shown' if headers else 'hidden'}, zero values {'shown' if zeros else 'hidden'}"
    if problems:
        return fail(f"{sheet}: {'; '.join(problems)}")
    return ok(f"{sheet}: {state_text}")
