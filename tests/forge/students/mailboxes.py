"""Fails tasks over a mailbox of 18 messages or more (an axis: `messages`, at any level)."""

import hashlib


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


class Student:
    def weak(self, task) -> bool:
        level = str(task.axes.get("messages", "0"))
        return int(level.split("-")[0]) >= 18

    def attempt(self, task):
        failed = chance(task.id, "messages") < (0.9 if self.weak(task) else 0.05)
        return not failed
