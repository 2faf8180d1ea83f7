"""Exports of accepted tasks: OSWorld task files (`osworld`, scored by OSWorld's own metrics through
`evaluator` and the shipped `checker`) and one table for training pipelines (`dataset`: JSONL / Parquet).
All read the same tasks (`source.accepted_packages`)."""
