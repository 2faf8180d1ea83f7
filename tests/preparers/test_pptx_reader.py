"""Parses the gate keeps and copies (`kit.parsecache.copied`): decks (`preparers.pptx.read_deck`) and pictures
(`preparers.image.decoded`). A copy must be what a fresh parse gives, and no caller's edit may reach another's."""

from __future__ import annotations

import io
from typing import Any

import pytest
from lxml import etree
from PIL import Image
from pptx import Presentation

from kit import parsecache
from preparers import image as imageio
from preparers import pptx as deckio

SPEC = {"slides": [{"layout": "title_slide", "title": "Q3 Review", "subtitle": "Finance team"},
                   {"layout": "title_content", "title": "Highlights", "bullets": ["Revenue up", "Churn down"],
                    "levels": [0, 1], "notes": "Open with the headline."},
                   {"layout": "two_content", "title": "Pros and Cons", "columns": [["a"], ["b"]]}],
        "author": "Finance Team"}


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    parsecache.clear()


def _deck_bytes() -> bytes:
    prs = deckio.build_presentation(SPEC)
    picture = io.BytesIO(imageio.encode(Image.new("RGB", (40, 30), (200, 40, 40)), "PNG"))
    prs.slides[2].shapes.add_picture(picture, 0, 0)
    return deckio.to_bytes(prs)


def _reachable(obj: object) -> list[object]:
    seen: set[int] = set()
    found, stack = [], [obj]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (str, bytes, int, float, type, type(None))):
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, etree._Element):
            continue
        if isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack += list(item)
        if hasattr(item, "__dict__"):
            stack += list(vars(item).values())
        stack += [getattr(item, slot) for slot in getattr(type(item), "__slots__", ()) if hasattr(item, slot)]
    return found


def _edit(prs: object) -> bytes:
    deckio.add_slide(prs, {"layout": "title_only", "title": "Added"})  # type: ignore[arg-type]
    deckio.title_shape(prs.slides[0]).text_frame.text = "Renamed"  # type: ignore[attr-defined]
    return deckio.to_bytes(prs)  # type: ignore[arg-type]


def test_a_fresh_parse_holds_whole_trees_only() -> None:
    """A deep copy of an element that is not its tree's root comes out detached from the copied tree: the kept
    parse may reference root elements only, and no open file but the stream it was read from."""
    prs = deckio._parse_deck(_deck_bytes())
    objects = _reachable(prs)
    elements = [o for o in objects if isinstance(o, etree._Element)]
    assert len(elements) > 10
    assert [e.tag for e in elements if e.getparent() is not None] == []
    assert [o for o in objects if isinstance(o, io.IOBase)] == [prs.part.package._pkg_file]


def test_deck_copies_edit_and_save_like_a_fresh_parse() -> None:
    data = _deck_bytes()
    want = _edit(Presentation(io.BytesIO(data)))
    assert _edit(deckio.read_deck(data)) == want  # the first call: a copy of the parse, not the parse itself
    assert _edit(deckio.read_deck(data)) == want  # the first caller's edits did not reach the kept parse
    untouched = deckio.read_deck(data)
    assert deckio.titles(untouched) == ["Q3 Review", "Highlights", "Pros and Cons"]
    assert deckio.to_bytes(untouched) == deckio.to_bytes(Presentation(io.BytesIO(data)))


def _ops(prs: Any) -> bytes:
    """What ops and checks do to a deck, all on one copy: a slide added, notes made where there were none, a
    picture added, a slide dropped, the layouts read (a placeholder's inherited position)."""
    deckio.add_slide(prs, {"layout": "title_content", "title": "More", "bullets": ["x"]})
    prs.slides[0].notes_slide.notes_text_frame.text = "New notes"
    picture = io.BytesIO(imageio.encode(Image.new("RGB", (20, 20), (0, 90, 200)), "PNG"))
    prs.slides[1].shapes.add_picture(picture, 10, 10)
    assert [(s.left, s.top) for slide in prs.slides for s in deckio.placeholders(slide, "body")]
    entry = list(prs.slides._sldIdLst)[2]
    prs.part.drop_rel(entry.rId)
    prs.slides._sldIdLst.remove(entry)
    return deckio.to_bytes(prs)


def test_copies_share_layouts_yet_no_edit_of_one_reaches_another() -> None:
    data = _deck_bytes()
    want = _ops(Presentation(io.BytesIO(data)))
    first, second = deckio.read_deck(data), deckio.read_deck(data)
    assert first.slide_layouts[0].part is second.slide_layouts[0].part  # shared, not copied
    assert first.slides[0].part is not second.slides[0].part
    assert _ops(first) == want
    assert _ops(second) == want  # the first copy's edits reached neither the kept parse nor this copy
    assert deckio.to_bytes(deckio.read_deck(data)) == deckio.to_bytes(Presentation(io.BytesIO(data)))


def test_pictures_decode_as_pillow_does_and_copies_are_independent() -> None:
    source = Image.new("RGBA", (30, 20), (10, 200, 30, 128))
    data = imageio.encode(source, "PNG", 150)
    with Image.open(io.BytesIO(data)) as opened:
        opened.load()
        want = (opened.format, opened.mode, opened.size, dict(opened.info), opened.tobytes())
    first = imageio.decoded(data)
    assert (first.format, first.mode, first.size, first.info, first.tobytes()) == want
    first.paste((0, 0, 0, 255), (0, 0, 30, 20))
    first.info["dpi"] = (1, 1)
    again = imageio.decoded(data)
    assert (again.format, again.mode, again.size, again.info, again.tobytes()) == want


def test_what_is_kept_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imageio, "DECODED_MAX_PIXELS", 100)
    imageio.decoded(imageio.encode(Image.new("RGB", (20, 20)), "PNG"))  # 400 pixels: decoded, not kept
    assert parsecache._copied == {}
    for shade in range(parsecache.COPIED + 3):
        imageio.decoded(imageio.encode(Image.new("L", (5, 5), shade), "PNG"))
    assert len(parsecache._copied) == parsecache.COPIED


def test_a_file_that_does_not_parse_raises_and_is_not_kept() -> None:
    with pytest.raises(Image.UnidentifiedImageError):
        imageio.decoded(b"not a picture")
    with pytest.raises(Exception, match="zip|Package"):
        deckio.read_deck(b"PK\x03\x04 not a deck")
    assert parsecache._copied == {}


P = "http://schemas.openxmlformats.org/presentationml/2006/main"
#: shapes whose placeholder element python-pptx's XPath and the walk must agree on: no first element, a comment
#: before it, a ph under the second child only, two nvPr, a ph that is not the first child of nvPr
ODD_SHAPES = [
    f'<p:sp xmlns:p="{P}"/>',
    f'<p:sp xmlns:p="{P}"><!-- c --><p:nvSpPr><p:cNvPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr></p:sp>',
    f'<p:sp xmlns:p="{P}"><p:x/><p:nvSpPr><p:nvPr><p:ph/></p:nvPr></p:nvSpPr></p:sp>',
    f'<p:sp xmlns:p="{P}"><p:nvSpPr><p:nvPr/><p:nvPr><p:ext/><p:ph idx="3"/><p:ph idx="4"/></p:nvPr></p:nvSpPr></p:sp>',
    f'<p:sp xmlns:p="{P}"><p:nvSpPr><p:nvPr><p:extLst/></p:nvPr></p:nvSpPr></p:sp>',
]


def test_placeholder_lookup_finds_what_the_xpath_finds() -> None:
    from pptx.oxml import parse_xml

    prs = Presentation(io.BytesIO(_deck_bytes()))
    shapes = [s._element for slide in prs.slides for s in slide.shapes]
    shapes += [s._element for layout in prs.slide_layouts for s in layout.placeholders]
    shapes += [parse_xml(xml) for xml in ODD_SHAPES]
    found = 0
    for element in shapes:
        expected = element.xpath("./*[1]/p:nvPr/p:ph")  # python-pptx's own XPath, its namespaces
        assert element.ph is (expected[0] if expected else None), etree.tostring(element)[:200]
        found += bool(expected)
    assert found > len(ODD_SHAPES)  # real placeholders were compared, not only misses
