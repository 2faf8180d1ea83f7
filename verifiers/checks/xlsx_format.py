"""xlsx primitives: format."""

from __future__ import annotations
