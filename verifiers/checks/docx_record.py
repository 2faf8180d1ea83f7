"""docx primitive for the document setting that records edits as tracked changes (writer.record_changes).

`docx.recording` reads w:trackRevisions in the settings part (Edit > Track Changes > Record in LibreOffice, which
keeps it in the file on a re-save). The frame reads no settings, so this check alone judges them (Show,
w:revisionView, stays on); the text the frame keeps.
"""

from __future__ import annotations

from docx.opc.constants import RELATIONSHIP_TYPE as RT

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import W, load

_OFF = ("0", "false", "off")


@primitive("docx.recording", grounded=("path", "recording"),
           meaning=Meaning(action=r"track|record|changes|revision", args={"recording": Said("recording")}))
@guarded
def recording(state: State, path: str, recording: str) -> Result:
    """The document records edits as tracked changes (`recording` "on": a w:trackRevisions setting that is not
    switched off by its w:val) or does not ("off": no such setting, or one switched off)."""
    doc = load(state, path)
    try:
        settings = doc.document.part.part_related_by(RT.SETTINGS).element
    except (KeyError, AttributeError):
        settings = None
    marks = [] if settings is None else settings.findall(W + "trackRevisions")
    on = any((m.get(W + "val") or "true").strip().lower() not in _OFF for m in marks)
    said = "records changes" if on else (
        "has the setting switched off" if marks else "has no change-recording setting")
    if on != (recording == "on"):
        return fail(f"{path} {said}, expected recording {recording}")
    # Show (View > Track Changes > Show, w:revisionView) is a setting beside Record that no task changes: switching
    # it off hides the tracked changes from whoever opens the file next (the frame reads no settings)
    views = [] if settings is None else settings.findall(W + "revisionView")
    if any((v.get(W + name) or "true").strip().lower() in _OFF for v in views for name in ("markup", "insDel")):
        return fail(f"{path} {said}, but its tracked changes are set not to be shown (w:revisionView), "
                    f"a setting the task does not change")
    return ok(f"{path} {said} (recording {recording})")
