"""docx primitive for a hyperlink on a phrase (writer.hyperlink).

`docx.hyperlink` reads every link of the body as a person sees it (a `w:hyperlink` element and its relationship's
target, or a HYPERLINK field, simple or complex) and asks whether exactly the asked mentions of a phrase are links
to the asked address, and nothing else is. A link changes no text, so the frame keeps the text; the links' own
look (blue, underlined) is the task's to change in the paragraphs that get one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import Doc, W, load

R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_INSTR = re.compile(r'^\s*HYPERLINK\s+(?:"([^"]*)"|(\S+))(?:.*?\\l\s+"([^"]*)")?', re.IGNORECASE)
MAX_PARAGRAPHS = 20000


def same_url(a: str | None, b: str) -> bool:
    """Two addresses are the same link: scheme and host in any case, a final slash aside."""
    if a is None:
        return False
    try:
        x, y = urlsplit(a.strip()), urlsplit(b.strip())
    except ValueError:
        return False
    return ((x.scheme.lower(), x.netloc.lower(), x.path.rstrip("/"), x.query, x.fragment)
            == (y.scheme.lower(), y.netloc.lower(), y.path.rstrip("/"), y.query, y.fragment))


def _field_url(instr: str) -> str | None:
    m = _INSTR.match(instr)
    if not m:
        return None
    url = m.group(1) if m.group(1) is not None else m.group(2)
    return url if url else ("#" + m.group(3) if m.group(3) else None)


def _target(doc: Doc, link: etree._Element) -> str | None:
    rid = link.get(R + "id")
    if rid:
        try:
            rel = doc.document.part.rels[rid]
            return str(rel.target_ref)
        except (KeyError, AttributeError):
            return None
    anchor = link.get(W + "anchor")
    return "#" + anchor if anchor else None


def linked_text(doc: Doc, p: etree._Element) -> tuple[str, list[str | None]]:
    """The paragraph's text and, for each character, the address of the link it belongs to (None: no link)."""
    text: list[str] = []
    urls: list[str | None] = []
    stack: list[dict[str, object]] = []  # complex fields: {"instr": str, "shown": bool}

    def field_url() -> str | None:
        for f in reversed(stack):
            if f["shown"]:
                return _field_url(str(f["instr"]))
        return None

    def walk(el: etree._Element, url: str | None) -> None:
        for child in el:
            tag = child.tag
            if tag in (W + "pPr", W + "rPr", W + "del", W + "moveFrom"):
                continue
            if tag == W + "hyperlink":
                walk(child, _target(doc, child))
            elif tag == W + "fldSimple":
                walk(child, _field_url(child.get(W + "instr") or "") or url)
            elif tag == W + "r":
                for part in child:
                    if part.tag == W + "fldChar":
                        kind = part.get(W + "fldCharType")
                        if kind == "begin":
                            stack.append({"instr": "", "shown": False})
                        elif kind == "separate" and stack:
                            stack[-1]["shown"] = True
                        elif kind == "end" and stack:
                            stack.pop()
                    elif part.tag == W + "instrText" and stack and not stack[-1]["shown"]:
                        stack[-1]["instr"] = str(stack[-1]["instr"]) + (part.text or "")
                    elif part.tag in (W + "t", W + "tab"):
                        if stack and not stack[-1]["shown"]:
                            continue
                        piece = part.text or "" if part.tag == W + "t" else "\t"
                        text.append(piece)
                        urls.extend([url or field_url()] * len(piece))
            else:
                walk(child, url)

    walk(p, None)
    return "".join(text), urls


def _spans(urls: list[str | None]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for i, url in enumerate(urls):
        if url is None:
            continue
        if out and out[-1][1] == i and out[-1][2] == url:
            out[-1] = (out[-1][0], i + 1, url)
        else:
            out.append((i, i + 1, url))
    return out


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


@primitive("docx.hyperlink", grounded=("path", "phrase", "url", "scope"),
           meaning=Meaning(action=r"link|hyperlink", args={"scope": Said("occurrence")}))
@guarded
def hyperlink(state: State, path: str, phrase: str, url: str, scope: str = "all") -> Result:
    """Every mention of `phrase` in the body (`scope` "all"), or only the first ("first"), is a link to `url`
    covering exactly those words (spaces around them aside); no other text of the body is a link."""
    doc = load(state, path)
    mentions: list[tuple[int, int]] = []  # (paragraph number, start)
    links: list[tuple[int, int, int, str]] = []  # (paragraph number, start, end, address)
    texts: list[str] = []
    for n, p in enumerate(doc.body.iter(W + "p")):
        if n >= MAX_PARAGRAPHS:
            return fail(f"{path} has more than {MAX_PARAGRAPHS} paragraphs")
        text, urls = linked_text(doc, p)
        texts.append(text)
        mentions += [(n, m.start()) for m in re.finditer(re.escape(phrase), text)]
        for a, b, address in _spans(urls):
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a < b:
                links.append((n, a, b, address))
    if not mentions:
        return fail(f"{phrase!r} no longer occurs in {path}")
    wanted = mentions if scope == "all" else mentions[:1]
    problems = []
    for n, start in wanted:
        hit = next((link for link in links if link[0] == n and link[1] <= start < link[2]), None)
        where = f"mention {mentions.index((n, start)) + 1} of {len(mentions)}"
        if hit is None:
            problems.append(f"{where} is not a link")
        elif not same_url(hit[3], url):
            problems.append(f"{where} links to {hit[3]!r}, expected {url!r}")
        elif (hit[1], hit[2]) != (start, start + len(phrase)):
            problems.append(f"the link of {where} covers {_short(texts[n][hit[1]:hit[2]])}, not just the phrase")
    wanted_spans = {(n, start, start + len(phrase)) for n, start in wanted}
    extra = [link for link in links if (link[0], link[1], link[2]) not in wanted_spans
             and not any(link[0] == n and link[1] <= s < link[2] for n, s in wanted)]
    if extra:
        n, a, b, address = extra[0]
        problems.append(f"{len(extra)} other link(s), e.g. {_short(texts[n][a:b])} to {address!r}")
    which = f"all {len(mentions)} mentions" if scope == "all" else f"the first of {len(mentions)} mentions"
    if problems:
        return fail(f"{which} of {phrase!r} should link to {url}: {'; '.join(problems[:4])}")
    return ok(f"{which} of {phrase!r} link to {url}, and no other text is a link")
