"""Seed taxonomy data: one YAML file per app plus `schema.json`. No logic lives here."""

from pathlib import Path

TAXONOMY_DIR = Path(__file__).resolve().parent
