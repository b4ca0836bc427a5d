"""Snowflake ids and timestamps shaped like Discord's."""

import datetime as dt
import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Generates increasing snowflakes that encode the current time."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def next(self) -> int:
        """A fresh snowflake, greater than every one handed out before."""
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (millis << 22) | (next(self._counter) & 0xFFF)
        self._last = max(value, self._last + 1)
        return self._last

    def next_on_shard(self, shard: int, count: int) -> int:
        """A fresh snowflake that Discord would route to ``shard`` of ``count``
        (``(id >> 22) % count``): the next one, its time moved up to ``count - 1`` ms."""
        value = self.next()
        ahead = (shard - (value >> 22)) % count
        self._last = value + (ahead << 22)
        return self._last


def iso_now() -> str:
    """The current UTC time in Discord's ISO-8601 format."""
    return dt.datetime.now(dt.UTC).isoformat()
