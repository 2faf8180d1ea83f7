"""The VLC media player families and their app kit (`kit.py`)."""
