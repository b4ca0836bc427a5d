"""Skill ratings kept in the store: each counted game rated once, in the order a
server's games finished, and the rating leaderboard.

A game is rated right after its end is stored (:meth:`RatingService.settle`, which the
channel calls before it posts the final message, so that the message shows each
person's change), and at start-up every counted game not rated yet is, oldest first
(:meth:`RatingService.backfill`: on the first start with ratings, every game a server
ever counted). Both go through the same steps: the game's people and ranks from its
stored results, its computers' ranks from its stored final state, the pure update of
:mod:`bot.service.ratings`, and one transaction per batch that rates each game once
(:meth:`bot.store.Store.rate_games`). So ratings rebuilt from the results are those
kept game by game.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.players import is_computer
from bot.progress import stage, watched
from bot.records.errors import RatingConflict
from bot.records.games import GameRecord
from bot.records.options import Options
from bot.records.ratings import GameToRate, RatedLine, StoredRating
from bot.rules import game_from_json
from bot.service.keeper import stored_record
from bot.service.ratings import RankedSeat, Rating, RatingChange, match_of, rate, standings
from bot.service.retry import retry
from bot.store import Store

log = logging.getLogger(__name__)

TOP: Final = 10
BATCH: Final = 500  # games rated per transaction by the backfill


@dataclass(frozen=True, slots=True)
class RatingLine:
    """One person on the rating leaderboard."""

    rank: int
    player_id: int
    name: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class RatingBoard:
    """A server's rating ranking in one variant: the top lines, and the caller's own
    line when outside them. ``variant`` None: the server has no rated game at all."""

    variant: str | None
    lines: tuple[RatingLine, ...]
    own: RatingLine | None
    ranked: int

    @property
    def empty(self) -> bool:
        return not self.lines


def _rating(stored: StoredRating) -> Rating:
    return Rating(stored.mu, stored.sigma, stored.games)


def _stored(rating: Rating) -> StoredRating:
    return StoredRating(rating.mu, rating.sigma, rating.games)


def change_of(line: RatedLine) -> RatingChange:
    return RatingChange(line.player_id, _rating(line.before), _rating(line.after))


def rate_stored(match: Any, current: dict[int, StoredRating]) -> list[RatedLine]:
    """:func:`bot.service.ratings.rate` on the store's values (what the store's
    transaction calls)."""
    seats: Sequence[RankedSeat] = match
    changes = rate(seats, {p: _rating(r) for p, r in current.items()})
    return [RatedLine(c.player, _stored(c.before), _stored(c.after)) for c in changes]


def computers_of(record: GameRecord) -> list[tuple[str, int]]:
    """The computer seats of a finished game as ``(level, rank)``, from its final state."""
    if record.state is None:
        return []
    options = Options.of(record.options)
    return [
        (options.level(s.player), s.rank)
        for s in game_from_json(record.state).ranking()
        if is_computer(s.player)
    ]


class RatingService:
    """The ratings of one store."""

    def __init__(self, store: Store, top: int = TOP) -> None:
        self.store = store
        self.top = top

    async def _matches(
        self, games: Sequence[GameToRate], known: GameRecord | None = None
    ) -> list[tuple[GameToRate, Any]]:
        """Each game with its match; the computers' ranks are read from the game's state
        (``known``: a record already at hand)."""
        found: list[tuple[GameToRate, Any]] = []
        for game in games:
            computers: list[tuple[str, int]] = []
            if game.has_computers:
                record = (
                    known
                    if known is not None and known.id == game.game_id
                    else await stored_record(self.store, game.game_id)
                )
                try:
                    computers = [] if record is None else computers_of(record)
                except Exception:  # a state that no longer loads: the people alone
                    log.warning(
                        "game %d: its computers are left out of its rating",
                        game.game_id,
                        exc_info=True,
                    )
            found.append((game, match_of(game.people, computers)))
        return found

    async def settle(self, record: GameRecord) -> list[RatingChange]:
        """Rate ``record``'s game if it is counted and not rated yet (and, first, any
        earlier one of its server and variant left unrated); each person's change
        (empty: nobody's rating moved, or the game does not count)."""
        if record.status != "finished" or record.finished_at is None:
            return []
        finished_at = record.finished_at

        async def attempt() -> list[RatingChange]:
            games = await self.store.ratings.unrated_up_to(
                record.guild_id, record.variant, record.id, finished_at
            )
            if games:  # RatingConflict: another process rated one of these people meanwhile
                done = await self.store.ratings.rate(
                    await self._matches(games, record), rate_stored
                )
                if done.get(record.id):
                    return [change_of(line) for line in done[record.id]]
            # none written: rated already (maybe by a later game's settle meanwhile)
            return [change_of(line) for line in await self.store.ratings.changes(record.id)]

        return await retry(attempt, RatingConflict, f"the ratings of game {record.id}")

    async def changes(self, game_id: int) -> list[RatingChange]:
        """The people's changes of a rated game."""
        return [change_of(line) for line in await self.store.ratings.changes(game_id)]

    async def backfill(self) -> int:
        """Rate every counted game not rated yet, oldest first; how many. More than a
        batch of them (a first start with ratings) shows its progress on a terminal."""
        done = 0
        games = await self.store.ratings.unrated(BATCH)
        total = await self.store.ratings.count_unrated() if len(games) == BATCH and watched() else 0
        first: list[GameToRate] | None = games  # the batch read, then each read afresh

        async def attempt() -> int:
            """A batch rated (another process rating too: what is left read again)."""
            nonlocal first
            batch = first if first is not None else await self.store.ratings.unrated(BATCH)
            first = None
            if batch:
                await self.store.ratings.rate(await self._matches(batch), rate_stored)
            return len(batch)

        with stage("rating the games played so far", total, "games") as advance:
            while rated := await retry(attempt, RatingConflict, "the ratings"):
                done += rated
                advance(rated)
        if done:
            log.info("rated %d counted games", done)
        return done

    async def variant_for(self, guild_id: int, variant: str | None) -> str | None:
        """The variant a rating leaderboard shows: ``variant``, or the server's most
        rated one (None: the server has no ratings)."""
        if variant is not None:
            return variant
        return next(iter(await self.store.ratings.variants(guild_id)), None)

    async def leaderboard(
        self, guild_id: int, caller: int, variant: str | None = None
    ) -> RatingBoard:
        """The server's people by rating in ``variant`` (None: the variant most played
        with ratings), best first."""
        chosen = await self.variant_for(guild_id, variant)
        if chosen is None:
            return RatingBoard(variant, (), None, 0)
        ratings = {
            p: _rating(r)
            for p, r in (await self.store.ratings.of_variant(guild_id, chosen)).items()
        }
        ranked = standings(ratings)
        shown = ranked[: self.top]
        own = None
        if all(p != caller for _, p, _ in shown):
            own = next(((r, p, x) for r, p, x in ranked if p == caller), None)
        users = [p for _, p, _ in shown] + ([own[1]] if own else [])
        names = await self.store.names.of(guild_id, users)

        def line(rank: int, player: int, rating: Rating) -> RatingLine:
            return RatingLine(rank, player, names.get(player, ""), rating)

        return RatingBoard(
            chosen, tuple(line(*x) for x in shown), line(*own) if own else None, len(ranked)
        )
