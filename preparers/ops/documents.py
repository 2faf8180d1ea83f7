"""Load and save the documents ops edit, by kind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl


def load(kind: str, host: Path) -> Any:
    if kind == "xlsx":
        if not host.is_file():
            raise FileNotFoundError(f"{host.name}: no such file in the state")
        return openpyxl.load_workbook(host)
    raise ValueError(f"no loader for document kind {kind!r}")


def save(kind: str, document: Any, host: Path) -> None:
    if kind == "xlsx":
        document.save(host)
        return
    raise ValueError(f"no saver for document kind {kind!r}")
