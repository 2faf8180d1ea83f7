"""Snippet of the hyperlink op (preparers/ops/docx_link.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.add_hyperlink")
def add_hyperlink(doc: str, path: str, phrase: str, url: str, scope: str = "all", whole_paragraph: bool = False
                  ) -> str:
    lines = [
        "import copy",
        "from docx.opc.constants import RELATIONSHIP_TYPE as RT",
        "from docx.oxml import OxmlElement",
        "from docx.oxml.ns import qn",
        "from docx.shared import RGBColor",
        "from docx.text.run import Run",
        f"phrase, url = {phrase!r}, {url!r}",
        f"rid = {doc}.part.relate_to(url, RT.HYPERLINK, is_external=True)",
        "",
        "def link_words(run, start, end):",
        "    # split the run into before / linked words / after, each keeping the run's formatting",
        "    text, r = run.text, run._r",
        "    parts = []",
        "    for piece in (text[:start], text[start:end], text[end:]):",
        "        twin = copy.deepcopy(r)",
        "        r.addprevious(twin)",
        "        Run(twin, run._parent).text = piece",
        "        parts.append(twin)",
        "    r.getparent().remove(r)",
        "    link = OxmlElement('w:hyperlink')",
        "    link.set(qn('r:id'), rid)",
        "    parts[1].addprevious(link)",
        "    link.append(parts[1])",
        "    words = Run(parts[1], run._parent)",
        "    words.font.color.rgb = RGBColor(0x05, 0x63, 0xC1)",
        "    words.font.underline = True",
        "    for twin in (parts[0], parts[2]):",
        "        if not Run(twin, run._parent).text:",
        "            twin.getparent().remove(twin)",
        "    return Run(parts[2], run._parent) if parts[2].getparent() is not None else None",
        "",
        "linked = 0",
        f"for p in {doc}.paragraphs:",
    ]
    stop = "        if linked:\n            break\n" if scope == "first" else ""
    if whole_paragraph:
        lines += ["    if phrase in p.text and p.runs" + (" and not linked" if scope == "first" else "") + ":",
                  "        for run in list(p.runs):",
                  "            link_words(run, 0, len(run.text))",
                  "        linked += 1"]
    else:
        lines += ["    for run in list(p.runs):",
                  *([stop.rstrip("\n")] if stop else []),
                  "        while run is not None and phrase in run.text" + (" and not linked" if scope == "first"
                                                                             else "") + ":",
                  "            start = run.text.index(phrase)",
                  "            run = link_words(run, start, start + len(phrase))",
                  "            linked += 1"]
    lines.append("print('linked', linked, 'mention(s) of', repr(phrase))")
    return "\n".join(lines)
