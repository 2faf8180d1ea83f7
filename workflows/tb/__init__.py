"""The tb families and their app kit (`kit.py`)."""
