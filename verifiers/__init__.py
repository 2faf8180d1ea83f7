"""Verifiers: (a) the vocabulary a family author extends: check primitives (`verifiers.checks`), mutators
(`verifiers.mutants`), the grounding vocabulary (`lexicon`, `extract`, `grounding`, `roundtrip`) and the safe formula
evaluator; (b) the gate that authors never touch (`verifiers.gate`), which runs them."""
