"""`image.file_size_at_most`: a picture file is no bigger than a stated number of kilobytes (an upload limit)."""

from __future__ import annotations

from pathlib import Path

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.image import load


def _byte_size(host: Path) -> int:
    return host.stat().st_size


@primitive("image.file_size_at_most", grounded=("path", "max_kb"),
           meaning=Meaning(action=r"KB|kilobytes?|file size|smaller|under|at most|limit"))
def file_size_at_most(state: State, path: str, max_kb: int) -> Result:
    """The file at `path` is a picture (it decodes: an empty or damaged file is no smaller version of the photo)
    and holds at most `max_kb` kilobytes (1 KB = 1000 bytes, as upload forms count them)."""
    load(state, path)  # a file that does not decode fails here, with the reader's evidence
    size = state.read(path, _byte_size, "file")
    limit = max_kb * 1000
    if size > limit:
        return fail(f"{path} is {size:,} bytes, over the limit of {max_kb} KB ({limit:,} bytes)")
    return ok(f"{path} is {size:,} bytes, within {max_kb} KB ({limit:,} bytes)")
