"""Clicks far faster than a person makes them: answered calmly, at no other cost.

Every interaction of a member takes a token from that member's bucket, which holds
:data:`BURST` tokens and fills up again in :data:`REFILL` seconds (10 at once, then one
every half second: far more than a person clicks, even racing through a turn). An
interaction that finds the bucket empty is answered at once, privately and in the
member's language, that the clicks come faster than the bot takes them, and goes no
further: no handler runs, no service is called, the store is not read. It takes no
token, so a member who keeps hammering is let through again at the bucket's pace.

The buckets are kept in memory, for at most :data:`KEPT` members: the one unseen
longest is dropped first (a dropped member merely starts again with a full bucket,
as an idle one would). Autocomplete requests, sent by Discord as a member types,
neither count nor are refused.

The throttle stands in front of discord.py's ``INTERACTION_CREATE`` parser, behind the
stopping bot's gate (:class:`bot.cogs.fallback.Gate`), so an answer it sends is handling
the gate waits for (both are put there by :meth:`bot.app.QwixxBot.front`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.cogs.discord_private import Parser
from bot.cogs.fallback import answer_raw

log = logging.getLogger(__name__)
BURST = 10
"""Interactions a member may send at once."""
REFILL = 5.0
"""Seconds in which an empty bucket fills up again (:data:`BURST` in as many seconds)."""
KEPT = 10_000
"""Members whose bucket is kept; beyond, the one unseen longest is dropped."""
AUTOCOMPLETE = discord.InteractionType.autocomplete.value


class ClickBuckets:
    """A token bucket per member, at most ``kept`` of them (least recently seen go)."""

    def __init__(
        self,
        burst: int = BURST,
        refill: float = REFILL,
        kept: int = KEPT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if burst < 1 or refill <= 0 or kept < 1:
            raise ValueError("a bucket holds at least one token, refills and is kept")
        self.burst = burst
        self.rate = burst / refill
        """Tokens a second."""
        self.kept = kept
        self.clock = clock
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()
        """member → (tokens, when they were counted), least recently seen first."""

    def take(self, member: int) -> bool:
        """Whether ``member`` may go on now (a token taken); False: too fast."""
        now = self.clock()
        tokens, then = self._buckets.pop(member, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[member] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        return len(self._buckets)


def member_of(data: dict[str, Any]) -> int | None:
    """The id of whoever sent the interaction (a member in a server, a user in a DM)."""
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    found = user.get("id")
    return int(found) if found is not None else None


class Throttle:
    """A parser of ``INTERACTION_CREATE`` in front of ``parse`` (discord.py's): an
    interaction goes on if its member has a token, else it is answered with
    :meth:`slow_down`."""

    def __init__(self, client: discord.Client, buckets: ClickBuckets, parse: Parser) -> None:
        self.buckets = buckets
        self.throttled = 0
        """Interactions answered that they came too fast."""
        self._client = client
        self._parse = parse
        self._answers: set[asyncio.Task[None]] = set()

    def receive(self, data: dict[str, Any]) -> None:
        member = member_of(data)
        if member is None or data.get("type") == AUTOCOMPLETE or self.buckets.take(member):
            self._parse(data)
            return
        self.throttled += 1
        log.debug("interaction %s of member %s refused: too fast", data.get("id"), member)
        task = asyncio.get_running_loop().create_task(
            self.slow_down(data), name=f"qwixx-too-fast-{data.get('id')}"
        )
        self._answers.add(task)
        task.add_done_callback(self._answers.discard)

    async def slow_down(self, data: dict[str, Any]) -> None:
        """The one answer a throttled interaction costs: private, in the member's language."""
        await answer_raw(self._client, data, "error.too_fast")
