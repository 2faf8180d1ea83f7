"""Fails tasks where some file of the initial state lies four or more folders below the home (the layout of the
files, whatever the skill's `location` axis says)."""

import hashlib


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


class Student:
    def weak(self, task) -> bool:
        return any(path.count("/") >= 4 for path in task.initial_files)

    def attempt(self, task):
        return chance(task.id, "deep") >= (0.9 if self.weak(task) else 0.05)
