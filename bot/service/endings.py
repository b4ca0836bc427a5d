"""What a game's final message tells beyond the game itself: each winner's wins on the
server, a solo game's personal best before it, the people's ratings and their change,
and, once the game is reviewed, their accuracies (see :mod:`bot.service.review`).

A game that ends is reviewed in the background, once in this process, while its final
message is posted without the accuracies; the channel is told once they are stored. A
stop or a failure before then leaves the review to the next pass over the unreviewed
games, at start-up and hourly (:meth:`bot.timers.Timers.start`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

from bot.records.games import GameRecord
from bot.records.options import Options
from bot.rules import Game
from bot.service.rated import RatingService
from bot.service.ratings import told
from bot.service.review import ReviewKeeper
from bot.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ending:
    """The facts of a final message (each empty or None when it does not tell them)."""

    wins: dict[int, int] = field(default_factory=dict)
    """Each winner's counted wins on the server, every variant together."""
    best: int | None = None
    """The solo player's best score of the variant here before this game."""
    ratings: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Each rated person's rating after the game as read, and its change."""
    accuracies: dict[int, float] | None = None
    """The people's accuracies (None: the game is not reviewed yet)."""


class Endings:
    """The facts of final messages; :attr:`reviews` keeps the reviews they wait for."""

    def __init__(
        self,
        store: Store,
        lock: Callable[[int], AbstractAsyncContextManager[None]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lock = lock
        """A game's channel lock: a review waits for the final message being posted."""
        self.ratings = RatingService(store)
        self.reviews = ReviewKeeper(store, clock)
        self._reviewing: dict[int, asyncio.Task[None]] = {}
        """Reviews of games that just ended, worked out while their channels go on."""

    async def facts(self, record: GameRecord, game: Game, *, final: bool, review: bool) -> Ending:
        """What the final message of ``record``'s ``game`` tells: with ``final``, the
        wins, best and ratings (the game is rated now if it was not yet, once, whoever
        asks); with ``review``, the accuracies stored, if any yet."""
        wins: dict[int, int] = {}
        best, ratings = None, {}
        if final:
            winners = [s.player for s in game.ranking() if s.rank == 1]
            wins = {p: await self.wins_on_server(record.guild_id, p) for p in winners}
            if Options.of(record.options).solo:
                best = await self.store.stats.practice_best(
                    record.guild_id, game.players[0], record.variant, record.id
                )
            ratings = await self._ratings(record)
        accuracies = await self.store.reviews.of(record.id) if review else None
        return Ending(wins, best, ratings, accuracies)

    async def wins_on_server(self, guild_id: int, player: int) -> int:
        """Counted wins of ``player`` on this server, every variant together."""
        totals = await self.store.stats.player_totals(guild_id, player)
        return sum(t.wins for t in totals.values())

    async def _ratings(self, record: GameRecord) -> dict[int, tuple[str, int]]:
        """A rating that cannot be worked out leaves the final message without it,
        rather than unposted."""
        try:
            changes = await self.ratings.settle(record)
        except Exception:
            log.exception("game %d: its ratings are left to the next start", record.id)
            return {}
        return told(changes)

    # --- reviews of the games that just ended ------------------------------------
    def review_soon(self, record: GameRecord, shown: Callable[[int], Awaitable[None]]) -> None:
        """Review ``record``'s game in the background (once in this process), once the
        channel that asked has posted its final message; then ``shown`` edits that
        message to show the accuracies."""
        if record.id in self._reviewing:
            return
        task = asyncio.create_task(self._review(record, shown), name=f"qwixx-review-{record.id}")
        self._reviewing[record.id] = task
        task.add_done_callback(lambda _: self._reviewing.pop(record.id, None))

    async def _review(self, record: GameRecord, shown: Callable[[int], Awaitable[None]]) -> None:
        try:
            async with self.lock(record.id):
                pass  # the sync that asked for the review has posted the final message
            await self.reviews.keep(record)
        except Exception:
            log.exception("game %d: its review is left to the next pass", record.id)
            return
        try:
            await shown(record.id)
        except Exception as error:  # the timer loop's catch-up edits it later
            log.warning("game %d: its accuracies are shown later (%s)", record.id, error)

    def stop_reviews(self) -> None:
        """Give up the reviews under way (on a stop): the next start does them again."""
        for task in list(self._reviewing.values()):
            task.cancel()

    async def reviewed(self) -> None:
        """Wait for the reviews of the games that just ended, and their channels' edits."""
        while self._reviewing:
            await asyncio.gather(*self._reviewing.values(), return_exceptions=True)
