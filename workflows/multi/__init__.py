"""The multi families and their app kit (`kit.py`)."""
