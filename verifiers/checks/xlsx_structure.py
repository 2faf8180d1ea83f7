"""xlsx primitives: structure."""

from __future__ import annotations
