"""The canonical model of a Writer document, and its frame: what may change, and what must stay as it was.

Facts (key -> canonical text), read with the docx reader (verifiers/readers/docx.py) as a person sees the page:
- `body:NNN#text`: the NNN-th block of the body (paragraphs with visible text and tables, in order): `p:` and the
  paragraph's text (whitespace collapsed), or `t:` and a table's cell texts (JSON rows);
- `body:NNN#style`: a paragraph's style, by name (case and spacing ignored);
- `body:NNN#para`: its alignment, list kind and level, line spacing, and whether it starts a new page, all
  effective (direct formatting, style chain, defaults: a page break before the text, after the previous paragraph's
  text or as the paragraph's property all read "starts a page");
- `body:NNN#runs`: its text in runs of equal effective character formatting (bold, italic, underline, strike,
  size, font, colour, highlight, subscript or superscript), consecutive runs of equal formatting merged and blank
  runs joined to the run before: LibreOffice splits and merges runs as it likes, and bold on the run or on the
  style reads the same;
- `#section N`: page size (mm), orientation and margins (mm) of the N-th section; `#header N`, `#footer N`: the
  text of its header and footer (inherited from the section before when not its own; a field as `{PAGE}`, its
  cached result dropped), and their alignment;
- `#props`: the document properties a person sees in File > Properties (title, subject, author, keywords,
  comments, category). Save noise is no fact: modified and created dates, revision, last-modified-by, the
  application, empty paragraphs, bookmarks, run ids, theme and style definitions (only their effects); nor are
  the paragraphs of a table of contents, whose entries are the writing app's (`docx.toc` checks its field).

A frame (`derive`) aligns the initial and the oracle's blocks by text: every oracle block is expected in the end
state in its order, each aspect (text, style, para, runs) either fixed by a digest (the task leaves it as it was)
or free ('*': the task changes it; the goal checks judge what it holds). The other facts keep a digest each, or
are allowed when the task changes them. `judge` aligns the end state's blocks with the expected ones, and names
each change out of scope: "paragraph 7 text changed", "paragraphs 3-6 reordered", "a new paragraph after
paragraph 12", "#section 1 changed".
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from kit import bounded
from verifiers.frame.kinds import FrameKind, register
from verifiers.readers import docx as reader
from verifiers.readers.docx import Doc, W
from verifiers.readers.docx_toc import toc_blocks

if TYPE_CHECKING:
    from verifiers.checks import State

ASPECTS = ("text", "style", "para", "runs")
_DIGEST_CHARS = 10
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PROPS = ("title", "subject", "author", "keywords", "comments", "category")


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:_DIGEST_CHARS]


def _mm(twips: int | None) -> int | None:
    """Twips as whole millimetres: LibreOffice keeps lengths in 1/100 mm, and a re-save moves them by a twip."""
    return None if twips is None else round(twips * 25.4 / 1440)


# --- character formatting ----------------------------------------------------------------------------------

def _on(el: etree._Element | None) -> bool:
    return el is not None and (el.get(W + "val") or "true").lower() not in ("0", "false", "off", "none")


def _colour(el: etree._Element | None) -> str:
    value = (el.get(W + "val") or "") if el is not None else ""
    return "" if value.lower() in ("", "auto", "000000") else value.upper()


_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


#: Theme fonts by the theme part's bytes: a task's documents and their mutants share one theme.
_THEMES: dict[bytes, dict[str, str]] = {}


def _theme_fonts(doc: Doc) -> dict[str, str]:
    """{"major": typeface, "minor": typeface} of the document's theme (LibreOffice writes theme fonts by name)."""
    if "theme fonts" not in doc._memo:
        try:
            blob = doc.document.part.part_related_by(RT.THEME).blob
        except (KeyError, AttributeError):
            blob = b""
        key = hashlib.sha256(blob).digest()
        if key not in _THEMES:
            if len(_THEMES) > 64:
                _THEMES.clear()
            _THEMES[key] = _parse_theme(blob)
        doc._memo["theme fonts"] = _THEMES[key]
    return doc._memo["theme fonts"]  # type: ignore[no-any-return]


def _parse_theme(blob: bytes) -> dict[str, str]:
    fonts: dict[str, str] = {}
    try:
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, no_network=True))
    except (etree.XMLSyntaxError, ValueError):
        return fonts
    for which in ("major", "minor"):
        latin = root.find(f".//{_A}{which}Font/{_A}latin")
        if latin is not None and latin.get("typeface"):
            fonts[which] = latin.get("typeface")
    return fonts


def _font(doc: Doc, r: etree._Element, p: etree._Element) -> str | None:
    """A run's effective font name, a theme font resolved by the document's theme."""
    el = next((e for e in (doc.run_prop(r, p, "rFonts", a) for a in ("ascii", "asciiTheme")) if e is not None), None)
    if el is None:
        return None
    if el.get(W + "ascii"):
        return el.get(W + "ascii")
    theme = (el.get(W + "asciiTheme") or "").lower()
    return _theme_fonts(doc).get("major" if theme.startswith("major") else "minor", "(theme font)")


def _fmt(doc: Doc, r: etree._Element, p: etree._Element) -> str:
    """A run's effective character formatting as one canonical text ('' for plain default text); computed once per
    direct formatting and paragraph style (what it depends on), as most runs of a document share both."""
    rpr = r.find(W + "rPr")
    key = ("frame fmt", b"" if rpr is None else etree.tostring(rpr), doc.para_style(p))
    if key not in doc._memo:
        doc._memo[key] = _resolved_fmt(doc, r, p)
    return doc._memo[key]  # type: ignore[no-any-return]


def _resolved_fmt(doc: Doc, r: etree._Element, p: etree._Element) -> str:
    parts = [name for name in ("bold", "italic", "underline") if reader.char_value(doc, r, p, name)]
    if _on(doc.run_prop(r, p, "strike")) or _on(doc.run_prop(r, p, "dstrike")):
        parts.append("strike")
    if (size := reader.char_value(doc, r, p, "size")) is not None:
        parts.append(f"size={size:g}")
    if (font := _font(doc, r, p)) is not None:
        parts.append(f"font={font}")
    if colour := _colour(doc.run_prop(r, p, "color", "val")):
        parts.append(f"color={colour}")
    highlight = doc.run_prop(r, p, "highlight", "val")
    if highlight is not None and (highlight.get(W + "val") or "none") != "none":
        parts.append(f"highlight={highlight.get(W + 'val')}")
    shade = doc.run_prop(r, p, "shd", "fill")
    if (fill := (shade.get(W + "fill") or "").upper() if shade is not None else "") not in ("", "AUTO", "FFFFFF"):
        parts.append(f"shade={fill}")
    if position := reader.vertical(doc, r, p):  # subscript or superscript (writer.sub_superscript)
        parts.append(f"script={position}")
    return ",".join(parts)


def _segments(doc: Doc, p: etree._Element) -> list[list[str]]:
    """[[formatting, text], ...]: the paragraph's text in runs of equal formatting (see the module doc)."""
    out: list[list[str]] = []
    for r, text in reader.runs(p):
        if not text:
            continue
        fmt = _fmt(doc, r, p) if text.strip() or not out else out[-1][0]
        if out and out[-1][0] == fmt:
            out[-1][1] += text
        else:
            out.append([fmt, text])
    return [[fmt, reader.norm(text)] for fmt, text in out if text.strip()]


# --- blocks, sections, headers ------------------------------------------------------------------------------

def _para(doc: Doc, p: etree._Element, starts: set[Any]) -> str:
    """A paragraph's effective format (see the module doc), computed once per paragraph properties."""
    ppr = p.find(W + "pPr")
    key = ("frame para", b"" if ppr is None else etree.tostring(ppr))
    if key not in doc._memo:
        listed = reader.list_info(doc, p)
        rule, value = reader.line_spacing_of(doc, p)
        doc._memo[key] = {"align": reader.alignment(doc, p), "list": list(listed) if listed else None,
                          "spacing": [rule, round(value, 2)]}
    return json.dumps({**doc._memo[key], "page": p in starts}, sort_keys=True)


def _field_text(p: etree._Element) -> str:
    """A header or footer paragraph's text, each field as `{NAME}` and its cached result left out."""
    out: list[str] = []
    depth, instr, shown = 0, "", False

    def walk(el: etree._Element) -> None:
        nonlocal depth, instr, shown
        for child in el:
            tag = child.tag
            if tag == W + "fldSimple":
                out.append("{" + ((child.get(W + "instr") or "").split() or ["FIELD"])[0].upper() + "}")
                continue
            if tag == W + "fldChar":
                kind = child.get(W + "fldCharType")
                if kind == "begin":
                    depth, instr, shown = depth + 1, "", False
                elif kind == "separate" and depth:
                    out.append("{" + (instr.split() or ["FIELD"])[0].upper() + "}")
                    shown = True
                elif kind == "end" and depth:
                    if not shown:
                        out.append("{" + (instr.split() or ["FIELD"])[0].upper() + "}")
                    depth -= 1
                continue
            if tag == W + "instrText":
                instr += child.text or ""
                continue
            if tag in (W + "pPr", W + "rPr", W + "delText", W + "del"):
                continue
            if depth == 0:
                if tag == W + "t":
                    out.append(child.text or "")
                elif tag == W + "tab":
                    out.append("\t")
            walk(child)

    walk(p)
    return reader.norm("".join(out))


def _part_facts(doc: Doc, sect: etree._Element, kind: str, previous: str | None) -> str | None:
    """The canonical text of a section's default header or footer (`kind`), or `previous` when it has none."""
    ref = next((el for el in sect.findall(f"{W}{kind}Reference") if el.get(W + "type", "default") == "default"), None)
    if ref is None:
        return previous
    try:
        part = doc.document.part.related_parts[ref.get(_R + "id")]
        root = part.element
    except (KeyError, AttributeError):
        return previous
    lines = [(text, reader.alignment(doc, p)) for p in root.iter(W + "p") if (text := _field_text(p))]
    return json.dumps(lines) if lines else None


def _section(sect: etree._Element) -> str:
    size, margins = sect.find(W + "pgSz"), sect.find(W + "pgMar")
    width, height = _mm(reader.twips(size, "w")), _mm(reader.twips(size, "h"))
    orient = (size.get(W + "orient") if size is not None else None) or "portrait"
    return json.dumps({"page": [width, height], "orient": orient,
                       "margins": [_mm(reader.twips(margins, side)) for side in ("top", "bottom", "left", "right")]})


def document_facts(doc: Doc) -> dict[str, str]:
    """The canonical model of a parsed document (see the module doc). Reads only: `doc` may be shared by checks."""
    facts: dict[str, str] = {}
    starts = {p for how, p in reader.page_starts(doc) if how == "start" and p is not None}
    n = 0
    contents = toc_blocks(doc)
    for index, block in enumerate(doc.blocks()):
        if index in contents:
            continue  # a table of contents: its entries are the writing app's (writer.table_of_contents)
        if block.tag == W + "tbl":
            n += 1
            key = f"body:{n:03d}"
            facts[f"{key}#text"] = "t:" + json.dumps(reader.grid(block))
            cells = [[_segments(doc, p) for p in tc.iter(W + "p")] for tr in block.findall(W + "tr")
                     for tc in tr.findall(W + "tc")]
            facts[f"{key}#runs"] = json.dumps(cells)
            continue
        text = doc.text(block)
        if not text:
            continue  # an empty paragraph: spacing a re-save adds or drops; a break in it counts for the next one
        n += 1
        key = f"body:{n:03d}"
        facts[f"{key}#text"] = "p:" + text
        facts[f"{key}#style"] = reader._style_key(doc.style_name(doc.para_style(block)))
        facts[f"{key}#para"] = _para(doc, block, starts)
        facts[f"{key}#runs"] = json.dumps(_segments(doc, block))
    header: str | None = None
    footer: str | None = None
    for i, sect in enumerate(reader.sections(doc), 1):
        facts[f"#section {i}"] = _section(sect)
        header, footer = _part_facts(doc, sect, "header", header), _part_facts(doc, sect, "footer", footer)
        if header:
            facts[f"#header {i}"] = header
        if footer:
            facts[f"#footer {i}"] = footer
    try:  # not `document.core_properties`, which adds python-docx's own to a document that has none
        props = doc.document.part.package.part_related_by(RT.CORE_PROPERTIES).core_properties
    except (KeyError, AttributeError):
        props = None
    seen = {name: reader.norm(str(getattr(props, name, "") or "")) for name in _PROPS}
    if any(seen.values()):
        facts["#props"] = json.dumps({k: v for k, v in seen.items() if v}, sort_keys=True)
    return facts


def read(path: Path) -> dict[str, str]:
    """The canonical model of the docx file at `path` (bounded read)."""
    return document_facts(reader.from_bytes(bounded.read_file(path, bounded.MAX_FILE_BYTES)))


def _state_facts(state: State, path: str) -> dict[str, str]:
    return document_facts(reader.load(state, path))  # the `Doc` the other docx checks (and the mutants) share


def _edited(document: Any) -> dict[str, str]:
    return document_facts(reader.index(document))


# --- the frame -----------------------------------------------------------------------------------------------

Block = dict[str, str]  # aspect -> canonical text ('kind': 'p' or 't')


def blocks(facts: Mapping[str, str]) -> list[Block]:
    """The body's blocks in order, each {aspect: value} plus its kind."""
    found: dict[str, Block] = {}
    for key, value in facts.items():
        if key.startswith("body:"):
            number, _, aspect = key.partition("#")
            found.setdefault(number, {})[aspect] = value
    out = []
    for number in sorted(found):
        block = found[number]
        block["kind"] = block.get("text", "p:")[:1]
        block["key"] = number
        out.append(block)
    return out


def _is_free(key: str, free: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(key, region) for region in free)


def _expected(block: Block, oracle_number: str, initial: Block | None, free: tuple[str, ...]) -> str:
    """One expected block as text: `kind|text|style|para|runs|align`, each a digest or '*' (free)."""
    cells = []
    for aspect in ASPECTS:
        value = block.get(aspect, "")
        fixed = initial is not None and initial.get(aspect, "") == value and not _is_free(
            f"{initial['key']}#{aspect}", free) and not _is_free(f"{oracle_number}#{aspect}", free)
        cells.append(_digest(value) if fixed else "*")
    return "|".join([block["kind"], *cells, _digest(block.get("text", ""))])


def derive(initial: Mapping[str, str], oracle: Mapping[str, str],
           free: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The frame of a task from the canonical models of its initial and oracle documents: the oracle's blocks in
    order with what each must keep (`body`), the other facts the task changes (`allowed`), the digests of those it
    keeps (`kept`), and the family's freedoms (`free`: region pattern -> reason)."""
    free = dict(free or {})
    regions = tuple(free)
    before, after = blocks(initial), blocks(oracle)
    matcher = difflib.SequenceMatcher(None, [b.get("text", "") for b in before], [b.get("text", "") for b in after],
                                      autojunk=False)
    partner: dict[int, Block] = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("equal", "replace"):
            for i, j in zip(range(i1, i2), range(j1, j2), strict=False):
                partner[j] = before[i]
    body = [_expected(block, block["key"], partner.get(j), regions) for j, block in enumerate(after)]
    allowed: dict[str, str] = {}  # the aspects the task changes (by the oracle's numbering), freedoms apart
    for j, block in enumerate(after):
        for aspect in ASPECTS:
            key, was = f"{block['key']}#{aspect}", partner.get(j)
            if (was is None or was.get(aspect, "") != block.get(aspect, "")) and not _is_free(key, regions) and (
                    was is None or not _is_free(f"{was['key']}#{aspect}", regions)):
                allowed[key] = "*"
    rest_initial = {k: v for k, v in initial.items() if not k.startswith("body:")}
    rest_oracle = {k: v for k, v in oracle.items() if not k.startswith("body:")}
    for key in sorted(set(rest_initial) | set(rest_oracle)):
        if rest_initial.get(key) != rest_oracle.get(key) and not _is_free(key, regions):
            allowed[key] = "*"
    kept = {key: _digest(value) for key, value in sorted(rest_initial.items())
            if key not in allowed and not _is_free(key, regions)}
    return {"allowed": allowed, "kept": kept, "free": free, "body": body}


def _name(kind: str) -> str:
    return "table" if kind == "t" else "paragraph"


def _ordinals(kinds: list[str]) -> list[str]:
    """'paragraph 7' / 'table 2' for each block, numbered per kind."""
    count: dict[str, int] = {}
    out = []
    for kind in kinds:
        count[kind] = count.get(kind, 0) + 1
        out.append(f"{_name(kind)} {count[kind]}")
    return out


def _span(names: list[str]) -> str:
    """'paragraphs 3-6' for consecutive names of one kind, else the names listed."""
    kinds = {n.split()[0] for n in names}
    numbers = [int(n.split()[1]) for n in names]
    if len(names) > 1 and len(kinds) == 1 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{kinds.pop()}s {numbers[0]}-{numbers[-1]}"
    return ", ".join(names)


def _out_of_order(position: Mapping[int, int]) -> list[list[int]]:
    """The expected blocks whose end positions are out of their order, as runs of consecutive numbers: a block is
    out of order when one before it stands after it in the end state, or one after it before it."""
    order = sorted(position)
    involved: set[int] = set()
    highest = -1
    for i in order:
        if highest > position[i]:
            involved.add(i)
        highest = max(highest, position[i])
    lowest = None
    for i in reversed(order):
        if lowest is not None and lowest < position[i]:
            involved.add(i)
        lowest = position[i] if lowest is None else min(lowest, position[i])
    spans: list[list[int]] = []
    for i in sorted(involved):
        if spans and spans[-1][-1] == i - 1:
            spans[-1].append(i)
        else:
            spans.append([i])
    return spans


def _show(block: Block) -> str:
    text = block.get("text", "")[2:]
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def _compare(want: list[str], got: Block, name: str) -> list[str]:
    problems = []
    for aspect, cell in zip(ASPECTS, want[1:5], strict=True):
        if cell == "*" or cell == _digest(got.get(aspect, "")):
            continue
        if aspect == "text":
            problems.append(f"{name} text changed (now {_show(got)})")
        elif aspect == "style":
            problems.append(f"{name} style changed (now {got.get('style', '')!r})")
        elif aspect == "para":
            problems.append(f"{name} paragraph format changed (now {got.get('para', '')})")
        else:
            problems.append(f"{name} character formatting changed")
    return problems


def judge(frame: Mapping[str, Any], end: Mapping[str, str]) -> list[str]:
    """Every change of `end` out of the frame, one phrase each (empty: the end state lies inside it)."""
    allowed: Mapping[str, str] = frame["allowed"]
    kept: Mapping[str, str] = frame["kept"]
    regions = tuple(frame.get("free") or ())
    want = [line.split("|") for line in frame.get("body") or []]
    got = blocks(end)
    names = _ordinals([w[0] for w in want])
    problems: list[str] = []
    keys_want = [f"{w[0]}{w[5]}" for w in want]  # aligned by the oracle's text (a free text aligns by it too)
    keys_got = [f"{g['kind']}{_digest(g.get('text', ''))}" for g in got]
    removed: list[int] = []
    added: list[tuple[int, int]] = []  # (end index, index of the expected block before it, -1 at the start)
    matched: list[tuple[int, int]] = []
    matcher = difflib.SequenceMatcher(None, keys_want, keys_got, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        pairs = list(zip(range(i1, i2), range(j1, j2), strict=False)) if tag in ("equal", "replace") else []
        for i, j in pairs:
            if want[i][0] == got[j]["kind"]:
                problems += _compare(want[i], got[j], names[i])
                matched.append((i, j))
            else:
                removed.append(i)
                added.append((j, i - 1))
        removed += list(range(i1 + len(pairs), i2))
        added += [(j, i2 - 1) for j in range(j1 + len(pairs), j2)]
    position = {i: j for i, j in matched}
    spare = list(added)
    for i in removed:  # a block found elsewhere in the end state: moved, not removed
        hit = next((n for n, (j, _) in enumerate(spare) if keys_got[j] == keys_want[i]), None)
        if hit is not None:
            position[i] = spare.pop(hit)[0]
    problems += [f"{_span([names[i] for i in span])} reordered" for span in _out_of_order(position)]
    problems += [f"{names[i]} removed" for i in removed if i not in position]
    for j, before in spare:
        where = f"after {names[before]}" if before >= 0 else "at the start"
        problems.append(f"a new {_name(got[j]['kind'])} {where} ({_show(got[j])})")
    rest = {k: v for k, v in end.items() if not k.startswith("body:")}
    for key in sorted(set(kept) | set(rest)):
        if key in allowed or _is_free(key, regions):
            continue
        if key not in kept:
            problems.append(f"{key} was added ({rest[key][:60]})")
        elif key not in rest:
            problems.append(f"{key} was removed")
        elif kept[key] != _digest(rest[key]):
            problems.append(f"{key} changed (now {rest[key][:80]})")
    return list(dict.fromkeys(problems))


KIND = register(FrameKind(
    name="docx", noun="document", matches=lambda dest: dest.endswith(".docx"), read=read, edited=_edited,
    derive=derive, judge=judge, state_facts=_state_facts, extra_args=("body",),
    new_file={"#props": "a new document's properties are its writing app's",
              "#section *": "a new document's page setup is its writing app's"},
    kept_criterion="Nothing else in {dest} changed: every paragraph, table, header, footer, page setting and "
                   "document property the task does not ask to change is as it was, in the same order, with the "
                   "same text, style and formatting, and nothing was added.",
    made_criterion="{dest} holds nothing beyond what the task asks: no other paragraph, table, header or footer."))
