"""A write budget per channel: Discord allows about 5 message writes per 5 seconds.

Every post and edit of a channel's messages waits for a slot here instead of
running into a 429; the publisher coalesces what it can while it waits. A write that
never reached Discord, or that Discord's servers failed (5xx), gives its slot back: it
did not count against Discord's limit, and a channel retried while Discord is away must
not wait for slots spent on failures.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import aiohttp
import discord


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says Discord is away (its servers failing, or no connection),
    rather than that this one write was refused."""
    return isinstance(
        error,
        discord.DiscordServerError
        | aiohttp.ClientConnectionError
        | ConnectionError
        | asyncio.TimeoutError,
    )


class WriteBudget:
    """At most ``writes`` per ``window`` seconds per channel (a sliding window).

    The window is a little longer than Discord's, so that requests that leave
    here in time still arrive in time when the network delays one of them.
    """

    def __init__(
        self, writes: int = 5, window: float = 5.5, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.writes = writes
        self.window = window
        self.clock = clock
        self._sent: defaultdict[int, deque[float]] = defaultdict(deque)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def wait_needed(self, channel_id: int) -> float:
        """Seconds until a write to ``channel_id`` fits the budget (0 if it fits now)."""
        sent, now = self._sent[channel_id], self.clock()
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        return 0.0 if len(sent) < self.writes else sent[0] + self.window - now

    @asynccontextmanager
    async def slot(self, channel_id: int) -> AsyncIterator[None]:
        """Hold one write to ``channel_id``: waits while the budget is spent."""
        async with self._locks[channel_id]:
            while (wait := self.wait_needed(channel_id)) > 0:
                await asyncio.sleep(wait)
            sent = self.clock()
            self._sent[channel_id].append(sent)
            try:
                yield
            except BaseException as error:
                if unreachable(error):  # not taken by Discord: the slot is free again
                    with contextlib.suppress(ValueError):
                        self._sent[channel_id].remove(sent)
                raise
