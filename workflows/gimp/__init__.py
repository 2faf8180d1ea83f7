"""The gimp families and their app kit (`kit.py`)."""
