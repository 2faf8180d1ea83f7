"""The os families and their app kit (`kit.py`)."""
