"""Verifiers: (a) the check vocabulary (`verifiers.checks`), (b) the gate (`verifiers.gate`)."""
