"""docx op for the document setting that records edits as tracked changes (writer.record_changes)."""

from __future__ import annotations

from docx.document import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from preparers.ops import op

#: the children of w:settings that come before w:trackRevisions (ECMA-376 order)
BEFORE = frozenset(qn(f"w:{tag}") for tag in (
    "writeProtection", "view", "zoom", "removePersonalInformation", "removeDateAndTime", "doNotDisplayPageBoundaries",
    "displayBackgroundShape", "printPostScriptOverText", "printFractionalCharacterWidth", "printFormsData",
    "embedTrueTypeFonts", "embedSystemFonts", "saveSubsetFonts", "saveFormsData", "mirrorMargins",
    "alignBordersAndEdges", "bordersDoNotSurroundHeader", "bordersDoNotSurroundFooter", "gutterAtTop",
    "hideSpellingErrors", "hideGrammaticalErrors", "activeWritingStyle", "proofState", "formsDesign",
    "attachedTemplate", "linkStyles", "stylePaneFormatFilter", "stylePaneSortMethod", "documentType", "mailMerge",
    "revisionView"))


def _place(settings: object, el: object) -> None:
    """Insert `el` into w:settings where the schema wants w:trackRevisions (LibreOffice reads it anywhere)."""
    after = next((c for c in settings if c.tag not in BEFORE), None)  # type: ignore[attr-defined]
    if after is None:
        settings.append(el)  # type: ignore[attr-defined]
    else:
        after.addprevious(el)


@op("docx.set_recording")
def set_recording(document: Document, on: bool, value: str | None = None, show: bool | None = None) -> None:
    """Switch Edit > Track Changes > Record on or off (w:trackRevisions in the settings part). `value` writes the
    element with that w:val instead (e.g. "false": present but off; a near-miss's slip); `show` only sets whether
    changes are shown (w:revisionView), leaving recording as it is (the Show / Record mix-up)."""
    settings = document.settings.element
    if show is not None:
        for old in settings.findall(qn("w:revisionView")):
            settings.remove(old)
        view = OxmlElement("w:revisionView")
        view.set(qn("w:markup"), "1" if show else "0")
        view.set(qn("w:insDel"), "1" if show else "0")
        view.set(qn("w:formatting"), "1" if show else "0")
        _place(settings, view)
        return
    for old in settings.findall(qn("w:trackRevisions")):
        settings.remove(old)
    if on or value is not None:
        el = OxmlElement("w:trackRevisions")
        if value is not None:
            el.set(qn("w:val"), value)
        _place(settings, el)
