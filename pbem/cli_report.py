"""Report commands (render)."""

from __future__ import annotations
