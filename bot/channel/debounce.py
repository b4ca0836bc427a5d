"""The changes told to the channel and not shown yet, and the syncs that wait for them.

A burst of clicks within one turn becomes one edit: the publisher shows news that opens
a decision at once and leaves the rest to a sync ``settle`` seconds later. Meanwhile each
game's newest change is kept here with the events of the changes before it that were not
shown yet, so the waiting sync tells all of them without reading the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.channel.source import Change
from bot.records.games import GameRecord, StoredEvent
from bot.rules import Game

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Told:
    """A game's newest change as the channel keeps it until it is shown."""

    record: GameRecord
    game: Game | None
    stored: list[StoredEvent] = field(default_factory=list)
    """The events stored since :attr:`since`: this change's and those not shown before."""
    since: int | None = None
    """The version from which :attr:`stored` is complete (None: the events are to be read)."""

    @classmethod
    def of(cls, change: Change | Told) -> Told:
        return cls(change.record, change.game, change.stored, change.since)


Sync = Callable[[int, Told | None], Awaitable[None]]
"""Brings a game's channel up to date, from its newest change if one is told."""


class Debounce:
    """Each game's newest change, and the syncs waiting to show it (see the module)."""

    def __init__(self, sync: Sync) -> None:
        self.sync = sync
        self._waiting: dict[int, Told] = {}
        self._newest: dict[int, int] = {}
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._syncing: set[asyncio.Task[None]] = set()
        """Syncs that woke up and are showing their game now."""

    def told(self, change: Change | Told) -> None:
        """Remember ``change`` as its game's newest, its stored events added to those of
        the changes still waiting to be shown."""
        record = change.record
        self._newest[record.id] = max(self._newest.get(record.id, 0), record.version)
        waiting = self._waiting.get(record.id)
        if waiting is not None and waiting.record.version >= record.version:
            return
        kept = Told.of(change)
        if waiting is not None and change.since == waiting.record.version:
            kept = Told(kept.record, kept.game, waiting.stored + kept.stored, waiting.since)
        self._waiting[record.id] = kept

    def newest(self, game_id: int) -> int:
        """The newest version told of ``game_id`` (0: none)."""
        return self._newest.get(game_id, 0)

    def take(self, game_id: int) -> Told | None:
        """The newest change of ``game_id`` waiting to be shown, now to be shown."""
        return self._waiting.pop(game_id, None)

    def forget(self, game_id: int) -> None:
        """Let go of the versions told of a game that ended, or whose sync failed."""
        self._newest.pop(game_id, None)

    @property
    def idle(self) -> bool:
        """Whether no sync is waiting, nor under way."""
        return not self._pending and not self._syncing

    def later(self, game_id: int, delay: float) -> None:
        """Sync ``game_id`` after ``delay`` seconds, unless a sync is already pending."""
        if game_id not in self._pending:
            self._pending[game_id] = asyncio.create_task(self._sync_later(game_id, delay))

    async def _sync_later(self, game_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._pending.pop(game_id, None)
        task = asyncio.current_task()
        if task is not None:
            self._syncing.add(task)
        try:
            await self.sync(game_id, self.take(game_id))
        except Exception:
            log.exception("publishing game %s failed; it is caught up later", game_id)
        finally:
            self._syncing.discard(task)

    async def drain(self) -> None:
        """Run the syncs still waiting, now, and wait for those already showing their
        game (on shutdown and in tests: once it returns, every channel shows what was
        told before it)."""
        while self._syncing:
            await asyncio.gather(*self._syncing, return_exceptions=True)
        while self._pending:
            game_id, task = next(iter(self._pending.items()))
            task.cancel()  # still asleep: it leaves the queue before it syncs
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self._pending.pop(game_id, None)
            try:
                await self.sync(game_id, self.take(game_id))
            except Exception as error:
                log.warning("game %s: the channel still lags (%s)", game_id, error)
