"""Fails tasks whose instruction says "only" (a property of the wording, not of the skill)."""

import hashlib
import re


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


class Student:
    def weak(self, task) -> bool:
        return re.search(r"\bonly\b", task.instruction, re.IGNORECASE) is not None

    def attempt(self, task):
        return chance(task.id, "only") >= (0.9 if self.weak(task) else 0.05)
