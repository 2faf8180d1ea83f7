"""Pure builders: spec in, bytes out. Deterministic (no clock, no uuid), no I/O beyond what they return."""
