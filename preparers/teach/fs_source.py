"""Function re-indents and deletions as a developer scripts them at a terminal (`preparers.ops.fs_source`):
python3 reads the module with `ast` to find the function's lines, then rewrites the file."""

from __future__ import annotations

from preparers.teach import NotTeachable, q, snippet


@snippet("fs.reindent_function")
def reindent_function(path: str, function: str, width: int = 4, first_only: bool = False) -> str:
    if first_only:
        return f"sed -i 's/^\\t/{' ' * width}/' {q(path)}"
    return ("python3 - <<'PY'\nimport ast\nfrom pathlib import Path\n"
            f"p = Path({path!r})\nlines = p.read_text().split('\\n')\n"
            f"fn = next(n for n in ast.parse(p.read_text()).body if getattr(n, 'name', '') == {function!r})\n"
            "for i in range(fn.lineno - 1, fn.end_lineno):\n"
            "    body = lines[i].lstrip('\\t')\n"
            f"    lines[i] = ' ' * ({width} * (len(lines[i]) - len(body))) + body\n"
            "p.write_text('\\n'.join(lines))\nPY")


@snippet("fs.delete_function")
def delete_function(path: str, function: str, keep_decorators: bool = False, partial: bool = False,
                    comment_out: bool = False) -> str:
    if partial or comment_out:
        raise NotTeachable("fs.delete_function: a partial or commented-out deletion is a slip, not a way to teach")
    first = "fn.lineno" if keep_decorators else "min([fn.lineno] + [d.lineno for d in fn.decorator_list])"
    return ("python3 - <<'PY'\nimport ast\nfrom pathlib import Path\n"
            f"p = Path({path!r})\nlines = p.read_text().split('\\n')\n"
            f"fn = next(n for n in ast.parse(p.read_text()).body if getattr(n, 'name', '') == {function!r})\n"
            f"start, end = {first} - 1, fn.end_lineno\n"
            "while end < len(lines) - 1 and not lines[end].strip():\n    end += 1\n"
            "p.write_text('\\n'.join(lines[:start] + lines[end:]))\nPY")
