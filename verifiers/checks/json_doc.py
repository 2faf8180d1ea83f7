"""json primitives: a value at a key path of a JSON (or JSONC) file.

Files are parsed leniently by `verifiers.readers.json` (comments and trailing commas allowed) because apps such as
VS Code accept and keep them. Values compare by JSON meaning (`same_value`): 14 equals 14.0, but `true` is not 1 and
"14" is not 14. Key paths are dotted strings or lists of keys, as in the `json.*` edit ops.
"""

from __future__ import annotations

import json
from typing import Any

from preparers.ops.json_doc import KeyPath, get_at, has_key, key_path
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.grounding import kept_json_values
from verifiers.meaning import Meaning, Visible
from verifiers.readers.json import load


def same_value(actual: Any, expected: Any, *, unordered: bool = False) -> bool:
    """JSON equality: numbers by value, booleans only equal booleans; `unordered` compares lists as multisets."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    if isinstance(expected, int | float):
        return isinstance(actual, int | float) and float(actual) == float(expected)
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return False
        if unordered:
            rest = list(actual)
            for item in expected:
                match = next((i for i, a in enumerate(rest) if same_value(a, item)), None)
                if match is None:
                    return False
                rest.pop(match)
            return True
        return all(same_value(a, e) for a, e in zip(actual, expected, strict=True))
    if isinstance(expected, dict):
        return (isinstance(actual, dict) and set(actual) == set(expected)
                and all(same_value(actual[k], v) for k, v in expected.items()))
    return type(actual) is type(expected) and actual == expected


def show(value: Any) -> str:
    """A value as JSON text for evidence (shortened)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def where(key: KeyPath) -> str:
    return " > ".join(str(k) for k in key_path(key)) or "<root>"


@primitive("json.value_equals", grounded=("path", "value"),
           meaning=Meaning(action=r"set|change|make|switch|enable|disable|turn"))
def value_equals(state: State, path: str, key: KeyPath, value: Any, unordered: bool = False) -> Result:
    """The value at `key` in the JSON file `path` equals `value`."""
    data = load(state, path)
    if not has_key(data, key):
        return fail(f"{path}: no value at {where(key)}")
    actual = get_at(data, key)
    if not same_value(actual, value, unordered=unordered):
        return fail(f"{path}: {where(key)} = {show(actual)}, expected {show(value)}")
    return ok(f"{path}: {where(key)} = {show(actual)}")


@primitive("json.values_kept", grounded=("values",),
           meaning=Meaning(action=None, why="guards the values a task leaves alone",
                           args={"values": Visible(kept_json_values)}))
def values_kept(state: State, path: str, values: list[list[Any]], unset: list[KeyPath] | None = None) -> Result:
    """Each `[key path, value]` in `values` (what the task leaves alone) still holds that value in `path`, and
    each key path of `unset` (settings the file did not have and the task does not ask for) is still absent: an
    added setting is a change too, and `values` alone cannot see it.

    Grounded in the initial state, not the instruction: each key must be in the file the student is given."""
    data = load(state, path)
    changed = [(key, get_at(data, key) if has_key(data, key) else None, has_key(data, key)) for key, value in values
               if not has_key(data, key) or not same_value(get_at(data, key), value)]
    if changed:
        return fail(f"{path}: {len(changed)} of {len(values)} values that should stay were changed or removed: "
                    + ", ".join(f"{where(k)} (now {show(v) if there else 'unset'})" for k, v, there in changed[:5]))
    added = [key for key in unset or [] if has_key(data, key)]
    if added:
        return fail(f"{path}: {len(added)} settings were added that the task does not ask for: "
                    + ", ".join(f"{where(k)} = {show(get_at(data, k))}" for k in added[:5]))
    return ok(f"{path}: all {len(values)} other values are unchanged" + (", nothing added" if unset else ""))


@primitive("json.key_absent", grounded=("path",), meaning=Meaning(action=r"remov|delet|unset|reset|clear|default"))
def key_absent(state: State, path: str, key: KeyPath) -> Result:
    """The JSON file `path` has no value at `key`."""
    data = load(state, path)
    if has_key(data, key):
        return fail(f"{path}: {where(key)} is still present ({show(get_at(data, key))})")
    return ok(f"{path}: no value at {where(key)}")


@primitive("json.list_contains", grounded=("path", "item"), meaning=Meaning(action=r"add|append|include|insert|list"))
def list_contains(state: State, path: str, key: KeyPath, item: Any) -> Result:
    """The list at `key` in the JSON file `path` holds an item equal to `item`."""
    data = load(state, path)
    value = get_at(data, key)
    if not isinstance(value, list):
        return fail(f"{path}: {where(key)} is not a list ({show(value) if has_key(data, key) else 'missing'})")
    if not any(same_value(v, item) for v in value):
        return fail(f"{path}: {where(key)} has no item {show(item)} (items: {show(value)})")
    return ok(f"{path}: {where(key)} holds {show(item)}")
