"""The impress families and their app kit (`kit.py`)."""
