"""Text-processing ops as the pipelines a person types: awk, sort, uniq, and python3's csv module for CSV columns."""

from __future__ import annotations

from preparers.teach import q, snippet


@snippet("fs.filter_field")
def filter_field(path: str, out: str, field: int, value: str) -> str:
    return f"awk '${field} == \"{value}\"' {q(path)} > {q(out)}"


def _csv(path: str, out: str, column: str, unique: bool) -> str:
    values = "sorted(set(values))" if unique else "values"
    return ("python3 - <<'PY'\nimport csv\n"
            f"with open({path!r}, newline='') as f:\n"
            f"    values = [row[{column!r}] for row in csv.DictReader(f)]\n"
            f"with open({out!r}, 'w') as f:\n"
            f"    f.writelines(v + '\\n' for v in {values})\nPY")


@snippet("fs.csv_column")
def csv_column(path: str, out: str, column: str) -> str:
    return _csv(path, out, column, unique=False)


@snippet("fs.csv_unique")
def csv_unique(path: str, out: str, column: str) -> str:
    return _csv(path, out, column, unique=True)


@snippet("fs.count_field")
def count_field(path: str, out: str, field: int) -> str:
    return f"awk '{{print ${field}}}' {q(path)} | sort | uniq -c | sort -k1,1nr -k2,2 > {q(out)}"


@snippet("fs.regex_replace")
def regex_replace(path: str, pattern: str, repl: str, count: int = 0) -> str:
    return ("python3 - <<'PY'\nimport re\nfrom pathlib import Path\n"
            f"p = Path({path!r})\np.write_text(re.sub({pattern!r}, {repl!r}, p.read_text()))\nPY")
