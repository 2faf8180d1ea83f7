"""Fails Thunderbird tasks (a property of the skill: its app), answering with the checks it failed."""

import hashlib


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


class Student:
    def weak(self, task) -> bool:
        return task.app == "thunderbird"

    def attempt(self, task):
        failed = chance(task.id, "thunderbird") < (0.9 if self.weak(task) else 0.05)
        return (not failed, ["mail_state"] if failed else [])
