"""Which Discord shards this process runs: ``QWIXX_SHARDS`` such as ``0-1/4``.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``; a process
that runs some of the shards owns exactly those guilds, and fires the timers of their
games only. The syntax is ``IDS/COUNT`` where IDS is a comma-separated list of shard
ids and ranges: ``3/4``, ``0-1/4``, ``0,2/4``.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 65_536
"""Far more than any bot needs (Discord asks for one shard per 2,500 guilds at most)."""


class ShardError(ValueError):
    """``QWIXX_SHARDS`` cannot be read; the message says why."""


def _digits(text: str) -> bool:
    """ASCII digits only (``int`` would also take other scripts' digits)."""
    return text.isascii() and text.isdigit()


def shard_of(guild_id: int, count: int) -> int:
    """The shard that Discord sends ``guild_id``'s events to."""
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class ShardPlan:
    """Shards ``ids`` of ``count``: the part of Discord this process serves."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ShardError(f"the shard count must be 1 to {MAX_SHARDS}, got {self.count}")
        if not self.ids:
            raise ShardError("no shard ids given")
        wrong = [i for i in self.ids if not 0 <= i < self.count]
        if wrong:
            raise ShardError(
                f"shard ids must be 0 to {self.count - 1} for {self.count} shards, got {wrong[0]}"
            )
        if len(set(self.ids)) != len(self.ids) or list(self.ids) != sorted(self.ids):
            raise ShardError("shard ids must be distinct and in increasing order")

    @classmethod
    def parse(cls, text: str) -> ShardPlan:
        """``"0-1/4"`` → shards 0 and 1 of 4."""
        ids_text, slash, count_text = text.replace(" ", "").partition("/")
        if not slash or not _digits(count_text):
            raise ShardError("expected IDS/COUNT such as 0-1/4, 3/4 or 0,2/4")
        count = int(count_text)
        ids: list[int] = []
        for part in ids_text.split(","):
            first, dash, last = part.partition("-")
            if not _digits(first) or (dash and not _digits(last)):
                raise ShardError(f"{part[:20]!r} is not a shard id or a range such as 0-3")
            low, high = int(first), int(last if dash else first)
            if high < low:
                raise ShardError(f"the range {part[:20]} runs backwards")
            # ids past the count are refused below; the first one past it is enough to
            # say so (a range is not spelled out to its end: it may be huge)
            ids.extend(range(low, min(high, max(low, min(count, MAX_SHARDS))) + 1))
        if len(set(ids)) != len(ids):
            raise ShardError("a shard id is given twice")
        return cls(tuple(sorted(ids)), count)

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s events come to this process."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"{','.join(map(str, self.ids))}/{self.count}"
