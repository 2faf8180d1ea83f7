"""The vscode families and their app kit (`kit.py`)."""
