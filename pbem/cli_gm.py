"""GM moderation commands (history, verify, undo, default turns, options)."""

from __future__ import annotations
