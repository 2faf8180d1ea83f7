"""A wheel installed as a person does it offline: pip, from the file, into the user site."""

from __future__ import annotations

from preparers.teach import q, snippet


@snippet("fs.install_wheel")
def install_wheel(path: str, site: str | None = None, metadata: bool = True, scripts: bool = True,
                  script_mode: str = "755") -> str:
    return f"python3 -m pip install --user --no-index --no-warn-script-location {q(path)}"
