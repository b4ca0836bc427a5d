"""What a game's final message tells beyond the game itself: each winner's wins on the
server, a solo game's personal best before it, the people's ratings and their change,
and, once the game is reviewed, their accuracies (see :mod:`bot.service.review`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.records.games import GameRecord
from bot.rules import Game
from bot.service.play import Options
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

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.ratings = RatingService(store)
        self.reviews = ReviewKeeper(store, clock)

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
