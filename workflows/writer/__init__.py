"""The writer families and their app kit (`kit.py`)."""
