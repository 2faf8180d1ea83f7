"""Messages deleted in Thunderbird (tb.delete_messages): as Thunderbird 153 deletes in Local Folders, each message
leaves its folder (the entry stays marked expunged, X-Mozilla-Status 0008, until compaction) and is appended to
Trash, where it is live. A message only expunged from its folder and not in Trash was deleted for good (Shift+Delete)
and fails: the task asks for a delete the user can undo."""

from __future__ import annotations

from preparers import thunderbird as tb
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.thunderbird import folder_path, live_messages, require_profile


@primitive("tb.messages_deleted", grounded=("folder", "parent", "field", "value"),
           meaning=Meaning(action=r"delet|trash|remov|get rid", args={"field": Said("mail_field")}))
def messages_deleted(state: State, path: str, folder: str, message_ids: list[str], field: str, value: str,
                     parent: str | None = None) -> Result:
    """Every message of `message_ids` (those of the folder matching `field`/`value`) is gone from the folder and
    live in Trash; no live message of the folder still matches."""
    require_profile(state, path)
    where = folder_path(folder, parent)
    left = [tb.message_id(m) for m in live_messages(state, path, where)]
    still = [i for i in message_ids if i in left]
    if still:
        return fail(f"{len(still)} of the {len(message_ids)} messages with {field} {value!r} are still in {where!r}")
    try:
        matching = [i for m, i in ((m, tb.message_id(m)) for m in live_messages(state, path, where))
                    if tb.matches(m, field, value)]
    except ValueError as exc:
        return fail(f"bad criterion: {exc}")
    if matching:
        return fail(f"{where!r} still holds {len(matching)} live message(s) with {field} {value!r}")
    trash = {tb.message_id(m) for m in live_messages(state, path, "Trash")} if state.is_file(
        f"{path}/{tb.folder_file('Trash')}") else set()
    lost = [i for i in message_ids if i not in trash]
    if lost:
        return fail(f"{len(lost)} of the {len(message_ids)} deleted messages are not in Trash (deleted for good, or "
                    "moved elsewhere)")
    return ok(f"all {len(message_ids)} messages with {field} {value!r} left {where!r} for Trash")
