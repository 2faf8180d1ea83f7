"""A control: fails half of the tasks at random (a hash of the task id), nothing to learn."""

import hashlib


class Student:
    def weak(self, task) -> bool:
        return False

    def attempt(self, task):
        return int(hashlib.sha256(f"coin:{task.id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF >= 0.5
