"""Fails tasks where a file of the initial state has a space in its name (no axis says so)."""

import hashlib


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


class Student:
    def weak(self, task) -> bool:
        return any(" " in path.rsplit("/", 1)[-1].rsplit(".", 1)[0] for path in task.initial_files)

    def attempt(self, task):
        return chance(task.id, "spaces") >= (0.9 if self.weak(task) else 0.05)
