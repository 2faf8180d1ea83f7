"""The .odp save (preparers/ops/formats_odp.py) as the shell line a person types: LibreOffice converts headless
(`soffice --headless --convert-to odp` into a scratch folder, then the file is moved to the asked name)."""

from __future__ import annotations

from preparers.teach import HOME, q, snippet


@snippet("fmt.save_odp")
def save_odp(path: str, dest: str, as_copy: bool = False, moved: bool = False, drop_last: bool = False) -> str:
    if as_copy or drop_last:
        raise ValueError("a copied deck or a dropped slide is a near-miss the terminal does not teach")
    parent = dest.rsplit("/", 1)[0]
    mkdir = "" if parent == HOME else f"mkdir -p {q(parent)} && "
    line = (f"out=$(mktemp -d) && soffice --headless --convert-to odp --outdir \"$out\" {q(path)} "
            f"&& {mkdir}mv \"$out\"/* {q(dest)} && rmdir \"$out\"")
    return line + (f" && rm {q(path)}" if moved else "")
