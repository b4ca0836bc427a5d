"""Showing user input back to the user, safely.

A refusal that repeats what someone typed must stay far inside Discord's
2,000-character message limit, whatever they typed (string options may be
6,000 characters long), so input is always shown through :func:`quote`.
"""

from __future__ import annotations

QUOTE_LIMIT = 40


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` on one line, unprintable characters replaced, cut to ``limit`` with "…"."""
    flat = "".join(c if c.isprintable() else "\ufffd" for c in " ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` shortened and in quotes, ready to go into a message: ``"soon"``."""
    return f'"{shorten(text, limit)}"'
