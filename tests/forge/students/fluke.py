"""A control: fails half of the tasks at random, but its first-round failures happen to fall on the tasks whose files
have a space in their name (what a chance alignment looks like to the miner). Nothing about spaces holds on fresh
tasks: the probe confirmation must reject the pattern, and the loop must neither steer nor grow from it."""

import hashlib


def chance(task_id: str, salt: str) -> float:
    return int(hashlib.sha256(f"{salt}:{task_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def first_round(task_id: str) -> bool:
    """Round 1's task ids carry the run seed seed * 100 + 1."""
    parts = task_id.split("--")
    return len(parts) >= 2 and parts[1].startswith("s") and parts[1][1:].isdigit() and int(parts[1][1:]) % 100 == 1


class Student:
    def weak(self, task) -> bool:
        return False

    def attempt(self, task):
        if first_round(task.id):
            spaces = any(" " in path.rsplit("/", 1)[-1].rsplit(".", 1)[0] for path in task.initial_files)
            return chance(task.id, "fluke") >= (0.9 if spaces else 0.05)
        return chance(task.id, "fluke") >= 0.5
