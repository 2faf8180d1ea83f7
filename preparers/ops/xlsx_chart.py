"""xlsx ops: charts."""

from __future__ import annotations
