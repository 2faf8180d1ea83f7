"""xlsx ops: structure."""

from __future__ import annotations
