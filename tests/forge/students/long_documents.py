"""Fails Writer documents of any length (tasks with a `paragraphs` axis)."""

import hashlib


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


class Student:
    def weak(self, task) -> bool:
        return "paragraphs" in task.axes

    def attempt(self, task):
        return chance(task.id, "paragraphs") >= (0.9 if self.weak(task) else 0.05)
