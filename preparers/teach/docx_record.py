"""Snippet of the record-changes op (preparers/ops/docx_record.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.set_recording")
def set_recording(doc: str, path: str, on: bool, value: str | None = None, show: bool | None = None) -> str:
    lines = ["from docx.oxml import OxmlElement", "from docx.oxml.ns import qn",
             f"settings = {doc}.settings.element"]
    if show is not None:
        flag = "1" if show else "0"
        return "\n".join([*lines, "view = OxmlElement('w:revisionView')",
                          *(f"view.set(qn('w:{a}'), {flag!r})" for a in ("markup", "insDel", "formatting")),
                          "settings.insert(0, view)"])
    lines += ["for old in settings.findall(qn('w:trackRevisions')):", "    settings.remove(old)"]
    if on or value is not None:
        lines += ["track = OxmlElement('w:trackRevisions')  # Edit > Track Changes > Record",
                  *([f"track.set(qn('w:val'), {value!r})"] if value is not None else []),
                  "# it belongs before w:defaultTabStop in the settings' order",
                  "tab = settings.find(qn('w:defaultTabStop'))",
                  "tab.addprevious(track) if tab is not None else settings.append(track)"]
    lines.append("print('recording:', settings.find(qn('w:trackRevisions')) is not None)")
    return "\n".join(lines)
