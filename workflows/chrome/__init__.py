"""The chrome families and their app kit (`kit.py`)."""
