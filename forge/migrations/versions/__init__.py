"""One file per schema revision, named NNNN_slug.py; `python -m forge.database revision "what changed"` adds one."""
