"""The parse cache of a check worker (`kit.parsecache`): files under a folder marked hot are parsed once per
content, a folder marked again is not walked again, and a file rewritten since is read afresh, never served
from what its old bytes parsed to."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kit import parsecache


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    parsecache.clear()


def test_a_hot_folder_parses_once_per_content_and_never_serves_old_bytes(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "initial"
    folder.mkdir()
    (folder / "a.txt").write_text("first")
    parsed: list[bytes] = []

    def parser(data: io.BytesIO) -> list[str]:
        parsed.append(data.getvalue())
        return [data.getvalue().decode()]

    walks = 0
    real = Path.rglob

    def counted(self: Path, pattern: str):  # type: ignore[no-untyped-def]
        nonlocal walks
        walks += 1
        return real(self, pattern)

    monkeypatch.setattr(Path, "rglob", counted)
    for _ in range(3):
        with parsecache.hot_folder(folder):
            assert parsecache.parse(folder / "a.txt", "text", parser) == ["first"]
    assert (walks, parsed) == (1, [b"first"])  # one walk, one parse; the rest from the cache

    (folder / "a.txt").write_text("second, longer")  # the same folder, rewritten: its kept digests are stale
    with parsecache.hot_folder(folder):
        assert parsecache.parse(folder / "a.txt", "text", parser) == ["second, longer"]
    assert parsed[-1] == b"second, longer"
    assert parsecache.parse(folder / "a.txt", "text", parser) == ["second, longer"]  # outside: parsed again
