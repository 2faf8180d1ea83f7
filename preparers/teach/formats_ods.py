"""The .ods save (preparers/ops/formats_ods.py) as the shell line a person types: LibreOffice converts headless
(`soffice --convert-to ods` into a scratch folder, then the file is moved to the asked name)."""

from __future__ import annotations

from preparers.teach import HOME, q, snippet


@snippet("fmt.save_ods")
def save_ods(path: str, dest: str, as_copy: bool = False, moved: bool = False, drop_sheet: bool = False,
             drop_row: bool = False) -> str:
    if as_copy or drop_sheet or drop_row:
        raise ValueError("a copied workbook or a lost sheet or row is a near-miss the terminal does not teach")
    parent = dest.rsplit("/", 1)[0]
    mkdir = "" if parent == HOME else f"mkdir -p {q(parent)} && "
    line = (f"out=$(mktemp -d) && soffice --headless --convert-to ods --outdir \"$out\" {q(path)} "
            f"&& {mkdir}mv \"$out\"/* {q(dest)} && rmdir \"$out\"")
    return line + (f" && rm {q(path)}" if moved else "")
