"""One loop fires what is due: reminders and expired decisions, stored as data.

Nothing sleeps per game. After downtime the first pass resolves every overdue
deadline in order; compare-and-set in the service makes a second firing a no-op.
Each pass also brings every channel that lags the store up to date, the one that has
lagged longest first, so a post that failed (or a process killed before it posted) is a
delay, never a lost turn; then it runs the adapter's other catch-ups (the daily rankings
owed), each on its own. While Discord cannot be reached, what fires is stored and not
published, and the catch-up stops at its first failed write: a tick costs one try.
A process that runs some of the bot's shards fires the games of its own guilds only.
Each pass also deletes the data of the servers that removed the bot longer than the
grace period ago (``QWIXX_FORGET_SERVER_AFTER``).

Once started, and every hour after, the finished games without a review (ended before
reviews were kept, whose review a stop cut short, or daily challenges whose day is now
over) are reviewed in the background, newest first and paced
(:meth:`bot.service.review.ReviewKeeper.backfill`); a final message waiting for its
accuracies is then edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.channel.publisher import Publisher
from bot.heartbeat import Heartbeat
from bot.records.errors import StoreError
from bot.service.games import GameService
from bot.service.keeper import shard_ids
from bot.service.outcome import Outcome
from bot.service.privacy import PrivacyService
from bot.shards import ShardPlan

log = logging.getLogger(__name__)

CatchUp = Callable[[ShardPlan | None], Awaitable[int]]
"""Brings something owed up to date for the shards given; how many it wrote."""
REVIEW_AGAIN = 3600.0
"""Seconds between two passes over the finished games without a review."""


class Timers:
    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        interval: float = 15.0,
        shards: ShardPlan | None = None,
        privacy: PrivacyService | None = None,
        catch_ups: Sequence[CatchUp] = (),
        publish: Callable[[Outcome], Awaitable[None]] | None = None,
        heartbeat: Heartbeat | None = None,
    ) -> None:
        self.service = service
        self.heartbeat = heartbeat
        """Touched after each pass, failed or not: the loop runs (``qwixx-bot health``)."""
        self.privacy = privacy
        self.catch_ups = tuple(catch_ups)
        """What else each tick brings up to date, after the channels (the daily rankings
        that owe finishes): each is told the shards of this process."""
        self.publisher = publisher
        self.publish = publish or publisher.publish
        """Tells of a change that fired (the adapter moves open sheets on, then publishes)."""
        self.interval = interval
        self.shards = shards
        self._task: asyncio.Task[None] | None = None
        self._reviews: asyncio.Task[None] | None = None

    async def tick(self) -> int:
        """Fire everything due now, then catch up every channel that lags the store;
        how many games changed."""
        fired = 0
        for game_id in await self.service.deadlines.due(self.shards):
            try:
                outcome = await self.service.deadlines.fire(game_id)
                if outcome is None:
                    continue
                fired += 1
                reminder = bool(outcome.events) and outcome.events[0].kind == "reminder"
                if self.publisher.outage.since is not None:
                    if not reminder:  # the catch-up shows it once Discord is back
                        await self.publisher.lags(game_id)
                    continue
                if reminder:
                    await self.publisher.remind(outcome)
                else:
                    await self.publish(outcome)
            except Exception as error:
                self.publisher.outage.failed(error)
                log.exception("timer of game %s failed; it is tried again next tick", game_id)
        await self.publisher.catch_up(self.shards)
        for catch_up in self.catch_ups:
            try:
                await catch_up(self.shards)
            except Exception:
                log.exception("%s failed; tried again next tick", catch_up.__qualname__)
        if self.privacy is not None:
            try:
                await self.privacy.forget_departed()
            except Exception:
                log.exception("deleting departed servers' data failed; tried again next tick")
        return fired

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="qwixx-timers")
        if self._reviews is None:
            self._reviews = asyncio.create_task(self._review_earlier(), name="qwixx-reviews")

    async def _review_earlier(self) -> None:
        while True:
            try:
                await self.service.endings.reviews.backfill(
                    shard_ids(self.shards), shown=self._show_review
                )
            except Exception:
                log.exception("reviewing earlier games failed; tried again in an hour")
            await asyncio.sleep(REVIEW_AGAIN)

    async def _show_review(self, game_id: int) -> None:
        """A final message may now show the accuracies, unless Discord is away or the
        channel is behind since an outage: the catch-up shows them then, in its order."""
        if self.publisher.outage.since is None:
            try:
                if (await self.service.keeper.read(game_id)).record.behind_since is None:
                    await self.publisher.sync(game_id)
            except Exception as error:
                log.warning("game %s: its accuracies are shown later (%s)", game_id, error)

    async def stop(self) -> None:
        self.service.endings.stop_reviews()
        if self._reviews is not None:
            self._reviews.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reviews
            self._reviews = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except StoreError as error:  # the database away: the next tick tries again
                log.warning("a timer pass failed (%s); the next one tries again", error)
            except Exception:
                log.exception("a timer pass failed; the next one tries again")
            if self.heartbeat is not None:
                self.heartbeat.beat()
            await asyncio.sleep(self.interval)
