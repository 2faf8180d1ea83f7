"""Fails tasks whose initial files hold a date written out (2024-03-01, 3/1/2024): it reads the files itself,
text files whole and office files' XML (no axis says so: a date can sit in any family's data)."""

import hashlib
import re
import zipfile

DATE = re.compile(r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}\.\d{1,2}\.\d{4})\b")


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def text(path: str) -> str:
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                return " ".join(re.sub(r"<[^>]+>", " ", z.read(n).decode("utf-8", "replace"))
                                for n in z.namelist() if n.endswith(".xml"))
        with open(path, "rb") as f:
            return f.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return ""


class Student:
    def weak(self, task) -> bool:
        return any(DATE.search(text(path)) for rel, path in task.initial_files.items()
                   if rel.rsplit(".", 1)[-1].lower() in ("csv", "txt", "md", "json", "xlsx", "docx", "pptx", "tsv"))

    def attempt(self, task):
        return chance(task.id, "dates") >= (0.9 if self.weak(task) else 0.05)
