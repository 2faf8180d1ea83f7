"""xlsx primitives: charts."""

from __future__ import annotations
