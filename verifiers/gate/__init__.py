"""The gate: the verifier stages that accept or reject a whole task package, which a family author never touches.

stages (the stage order, cheap first, and `run_gate`); controls (initial state -> solution -> rubric, in the
sandboxed check worker); rubric (run a rubric's checks on a state); mutation (every mutator on the oracle's end
state); content (would a person believe the files); readback and judge (the optional model stages).
What an author extends lives one folder up: readers and checks (`verifiers.checks`), mutators
(`verifiers.mutants`), and the grounding vocabulary (`verifiers.lexicon`, `verifiers.extract`, `verifiers.grounding`).
"""
