"""One file per schema revision, named NNNN_slug.py; `python -m forge.schema revision "what changed"` adds one."""
