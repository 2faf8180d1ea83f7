"""The OpenDocument reader: an .odt/.ods/.odp file's declared type and its text, read bounded (issue 38).

An end state's file is untrusted: the zip's directory is judged (kit.bounded: member count, sizes, ratio) before a
byte is inflated; `mimetype` and `content.xml` are read up to `MAX_XML` bytes each, parsed by lxml with entities
unresolved and no network, and walked without recursion. A file that is no zip, lacks either part or is not
well-formed raises, which a check turns into a failed check.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from kit import bounded
from verifiers.readers import Source

MAX_XML = 32 << 20
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"


@dataclass(frozen=True)
class OdfText:
    """The declared type (the `mimetype` part) and the body's text: paragraphs and headings outside tables in
    document order, and the text of every table cell."""

    mimetype: str
    paragraphs: tuple[str, ...]
    cells: tuple[str, ...]


def _read(archive: zipfile.ZipFile, name: str) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > MAX_XML:
        raise bounded.LimitExceeded(f"{name} declares {info.file_size} bytes, over the {MAX_XML >> 20} MB limit")
    with archive.open(info) as handle:
        data = handle.read(MAX_XML + 1)
    if len(data) > MAX_XML:
        raise bounded.LimitExceeded(f"{name} inflates past the {MAX_XML >> 20} MB limit")
    return data


def _text(element: etree._Element) -> str:
    """A paragraph's text as shown: spans followed, text:s as spaces, tabs and line breaks as whitespace."""
    parts: list[str] = []
    stack: list[tuple[etree._Element, bool]] = [(element, False)]
    while stack:
        node, tail = stack.pop()
        if tail:
            parts.append(node.tail or "")
            continue
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag == f"{{{TEXT}}}s":
            parts.append(" " * int(node.get(f"{{{TEXT}}}c", "1") or 1))
        elif tag in (f"{{{TEXT}}}tab", f"{{{TEXT}}}line-break"):
            parts.append(" ")
        elif tag in (f"{{{TEXT}}}note", f"{{{OFFICE}}}annotation"):
            pass  # a footnote or a comment is no part of the paragraph's line
        else:
            parts.append(node.text or "")
            for child in reversed(list(node)):
                stack.append((child, True))
                stack.append((child, False))
    return "".join(parts)


def content_root(host: Path) -> tuple[str, etree._Element]:
    """(mimetype, the parsed content.xml) of an OpenDocument file, every member and the XML parse bounded."""
    data = bounded.read_file(host)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        bounded.check_zip_members(archive.infolist(), office=True)
        mimetype = _read(archive, "mimetype").decode("ascii", "replace").strip()
        content = _read(archive, "content.xml")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False)
    root = etree.fromstring(content, parser)
    return mimetype, root


def load_odf(host: Path) -> OdfText:
    mimetype, root = content_root(host)
    body = root.find(f"{{{OFFICE}}}body")
    paragraphs: list[str] = []
    cells: list[str] = []
    if body is not None:
        stack = list(reversed(list(body)))
        while stack:
            node = stack.pop()
            tag = node.tag if isinstance(node.tag, str) else ""
            if tag in (f"{{{TEXT}}}p", f"{{{TEXT}}}h"):
                paragraphs.append(_text(node))
            elif tag == f"{{{TABLE}}}table-cell":
                cells.append(" ".join(_text(p) for p in node.iter(f"{{{TEXT}}}p", f"{{{TEXT}}}h")))
            else:
                stack.extend(reversed(list(node)))
    return OdfText(mimetype, tuple(paragraphs), tuple(cells))


def load(state: Source, path: str) -> OdfText:
    return state.read(path, load_odf, "OpenDocument file")
