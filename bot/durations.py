"""Durations as people type and read them: ``"1h30m"`` to seconds and back.

Turn times, check-in windows and the grace before forgetting are all shown this way,
by the service, the channel and the adapter alike.
"""

from __future__ import annotations

import re

from bot.i18n.words import t
from bot.text import quote

MINUTE, HOUR, DAY = 60, 3600, 86400
SHORTEST, LONGEST = 5 * MINUTE, 7 * DAY
"""The shortest and longest duration :func:`parse_duration` takes."""
UNITS = {"m": MINUTE, "h": HOUR, "d": DAY}
PART = re.compile(r"([0-9]+)([mhd])")
LONGEST_TEXT = 20
"""No duration needs more: ``"1d 23h 59m"`` is 10 characters."""


class DurationError(ValueError):
    """A turn time that cannot be read or lies outside 5m-7d; the message says which."""


def parse_duration(text: str) -> int:
    """``"5m"``, ``"90m"``, ``"1h30m"``, ``"24h"``, ``"7d"`` → seconds (5 minutes to 7 days).

    Strict on purpose: other scripts' digits (full-width ``５m``) and repeated units
    (``1m1m…``) are refused, not guessed at; the refusal quotes the input shortened.
    """
    cleaned = "".join(text.lower().split())
    if len(cleaned) > LONGEST_TEXT:
        raise DurationError(t("duration.too_long", text=quote(text)))
    if not cleaned.isascii():
        raise DurationError(t("duration.not_read", text=quote(text)))
    parts = PART.findall(cleaned)
    if not cleaned or PART.sub("", cleaned):
        raise DurationError(t("duration.not_duration", text=quote(text)))
    units = [unit for _, unit in parts]
    if len(set(units)) < len(units):
        raise DurationError(t("duration.repeats", text=quote(text)))
    seconds = sum(int(n) * UNITS[unit] for n, unit in parts)
    if not SHORTEST <= seconds <= LONGEST:
        raise DurationError(t("duration.range", text=quote(text)))
    return seconds


def format_duration(seconds: int) -> str:
    """The shortest exact text: ``86400`` → ``"24h"``, ``5400`` → ``"1h30m"``."""
    if seconds % DAY == 0 and seconds >= 2 * DAY:
        return f"{seconds // DAY}d"
    hours, rest = divmod(seconds, HOUR)
    minutes = rest // MINUTE
    return (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes or not hours else "")
