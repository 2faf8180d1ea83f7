"""xlsx ops: format."""

from __future__ import annotations
