"""The calc families and their app kit (`kit.py`)."""
