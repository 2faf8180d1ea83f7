"""A control: passes everything."""


class Student:
    def weak(self, task) -> bool:
        return False

    def attempt(self, task):
        return True
