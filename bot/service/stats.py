"""Leaderboards, personal statistics and the history of finished games, per server.

Pure reads over :mod:`bot.store.stats` (what a game's end records is
:mod:`bot.service.results`). Periods are computed from an injectable clock in UTC
(weeks start on Monday) and passed to the store as a lower bound. Every read takes a
``guild_id``: one server's figures never show up in another. "Nothing found" is
``None`` or an empty list, and the Discord layer words the refusal.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Final

from bot.records.games import GameRecord, GameResults
from bot.records.stats import Accuracy, HistoryGame, PracticeBest, RecentScore, Totals
from bot.rules import Game, game_from_json
from bot.service.keeper import stored_record
from bot.service.rated import RatingService
from bot.service.ratings import Rating
from bot.service.results import game_results
from bot.store import Store

log = logging.getLogger(__name__)

PERIODS: Final = ("all", "month", "week")
SORTS: Final = ("wins", "rate", "average", "best")
RATE_SORTS: Final = frozenset({"rate", "average"})
MIN_GAMES: Final = 3  # fewest counted games to be ranked by win rate or average
TOP: Final = 10
LAST_SCORES: Final = 5
HISTORY: Final = 10


def period_start(period: str, now: float) -> float | None:
    """The first instant of ``period`` around ``now`` (UTC), or None for all time."""
    if period not in PERIODS:
        raise ValueError(f"unknown period {period!r}; known: {PERIODS}")
    if period == "all":
        return None
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    start = day.replace(day=1) if period == "month" else day - timedelta(days=day.weekday())
    return start.timestamp()


# --- leaderboard -----------------------------------------------------------


class Rates:
    """Win rate and average score of a line with ``games``, ``wins`` and ``score_sum``."""

    __slots__ = ()
    games: int
    wins: int
    score_sum: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def average(self) -> float:
        return self.score_sum / self.games


@dataclass(frozen=True, slots=True)
class BoardLine(Rates):
    """One player on the leaderboard; ``rank`` None: too few games for a rate sort."""

    rank: int | None
    player_id: int
    name: str
    games: int
    wins: int
    score_sum: int
    best: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The top lines of one server's ranking, and the caller's own line if outside it."""

    variant: str | None
    period: str
    sort: str
    since: float | None
    min_games: int
    lines: tuple[BoardLine, ...]
    own: BoardLine | None  # the caller, when not among ``lines`` but has games
    ranked: int  # players in the ranking
    unranked: int  # players left out of a rate ranking for too few games

    @property
    def empty(self) -> bool:
        return not self.lines and self.own is None


def _sort_key(sort: str) -> Callable[[Totals], float]:
    """The value a sort ranks by. Rates are floats: division is correctly rounded, so
    equal fractions give equal floats and, with game counts far below 2**26, distinct
    fractions distinct ones — ties are exact."""
    if sort == "wins":
        return lambda t: t.wins
    if sort == "best":
        return lambda t: t.best
    if sort == "rate":
        return lambda t: t.wins / t.games
    if sort == "average":
        return lambda t: t.score_sum / t.games
    raise ValueError(f"unknown sort {sort!r}; known: {SORTS}")


def _tie_break(t: Totals) -> tuple[float, int, int]:
    """Order within a shared rank (display only): better win rate, then more games."""
    return (-t.wins / t.games, -t.games, t.player_id)


def rank_players(
    totals: Iterable[Totals], sort: str, min_games: int = MIN_GAMES
) -> tuple[list[tuple[int, Totals]], list[Totals]]:
    """``(ranked, unranked)``: ``ranked`` best first as ``(rank, totals)``, equal values
    sharing a rank (1, 2, 2, 4); for rate sorts, players under ``min_games`` are
    ``unranked``."""
    key = _sort_key(sort)
    totals = list(totals)
    if sort in RATE_SORTS:
        eligible = [t for t in totals if t.games >= min_games]
        unranked = sorted(
            (t for t in totals if t.games < min_games), key=lambda t: (-t.games, t.player_id)
        )
    else:
        eligible, unranked = totals, []
    keyed = sorted(((key(t), t) for t in eligible), key=lambda kt: (-kt[0], _tie_break(kt[1])))
    ranked: list[tuple[int, Totals]] = []
    previous: float | None = None
    for index, (value, line) in enumerate(keyed):
        rank = ranked[-1][0] if ranked and value == previous else index + 1
        ranked.append((rank, line))
        previous = value
    return ranked, unranked


# --- personal statistics ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class VariantStats(Rates):
    """A player's counted games in one variant (``variant`` None: all together)."""

    variant: str | None
    games: int
    wins: int
    score_sum: int
    best: int
    last: tuple[int, ...]  # newest first


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player_id: int
    overall: VariantStats | None  # None: no counted game on this server
    variants: tuple[VariantStats, ...]  # most played first
    practice: tuple[PracticeBest, ...] = ()  # solo practice per variant, most played first
    uncounted: tuple[PracticeBest, ...] = ()
    """Other games that do not count (with computers only, with hints), per variant."""
    accuracies: dict[str, Accuracy] = field(default_factory=dict)
    """Average accuracy per variant, over the reviewed games without hints."""
    ratings: dict[str, Rating] = field(default_factory=dict)
    """The rating per variant."""

    @property
    def empty(self) -> bool:
        return self.overall is None and not self.practice and not self.uncounted

    def accuracy(self, variant: str | None) -> Accuracy | None:
        """The average accuracy in ``variant`` (None: over every variant, each game
        weighing the same); None without a reviewed game."""
        if variant is not None:
            return self.accuracies.get(variant)
        games = sum(a.games for a in self.accuracies.values())
        if not games:
            return None
        return Accuracy(sum(a.accuracy * a.games for a in self.accuracies.values()) / games, games)


def _player_stats(
    player: int, totals: dict[str, Totals], recent: Sequence[RecentScore], last: int
) -> PlayerStats:
    variants = tuple(
        sorted(
            (
                VariantStats(
                    variant,
                    t.games,
                    t.wins,
                    t.score_sum,
                    t.best,
                    tuple(r.score for r in recent if r.variant == variant)[:last],
                )
                for variant, t in totals.items()
            ),
            key=lambda v: (-v.games, v.variant or ""),
        )
    )
    if not variants:
        return PlayerStats(player, None, ())
    overall = VariantStats(
        None,
        sum(v.games for v in variants),
        sum(v.wins for v in variants),
        sum(v.score_sum for v in variants),
        max(v.best for v in variants),
        tuple(r.score for r in recent)[:last],
    )
    return PlayerStats(player, overall, variants)


# --- the service -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FinalGame:
    record: GameRecord
    game: Game
    names: dict[int, str]


class StatsService:
    """Read-only use cases over the recorded results of one store."""

    def __init__(
        self, store: Store, clock: Callable[[], float] = time.time, min_games: int = MIN_GAMES
    ) -> None:
        self.store = store
        self.clock = clock
        self.min_games = min_games

    async def backfill(self) -> int:
        """Record the results of games that finished before results were kept; how many.
        Then rate the counted games not rated yet (on the first start with ratings,
        all of them), in the order they finished.

        A game whose state no longer loads is kept in the history, uncounted.
        """
        done = 0
        while batch := await self.store.stats.finished_without_results():
            for record in batch:
                try:
                    await self.store.stats.add_results(
                        record, game_results(game_from_json(record.state or {}))
                    )
                except Exception:  # any old state that no longer loads or fits
                    log.warning("game %d: cannot rebuild its results", record.id, exc_info=True)
                    await self.store.stats.add_results(record, GameResults(0, (), counted=False))
                done += 1
        if done:
            log.info("recorded the results of %d earlier games", done)
        await RatingService(self.store).backfill()  # counted games not rated yet, in order
        return done

    async def names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        """Remembered display names (unknown players left out)."""
        return await self.store.names.of(guild_id, list(dict.fromkeys(users)))

    async def leaderboard(
        self,
        guild_id: int,
        caller: int,
        *,
        variant: str | None = None,
        period: str = "all",
        sort: str = "wins",
        top: int = TOP,
    ) -> Leaderboard:
        """The server's ranking by ``sort`` over ``period`` (``variant`` None: every game)."""
        _sort_key(sort)  # reject an unknown sort before reading
        since = period_start(period, self.clock())
        totals = await self.store.stats.leaderboard(guild_id, variant=variant, since=since)
        ranked, unranked = rank_players(totals, sort, self.min_games)
        shown = ranked[:top]
        own: tuple[int | None, Totals] | None = None
        if all(t.player_id != caller for _, t in shown):
            own = next(((r, t) for r, t in ranked if t.player_id == caller), None)
            if own is None:
                own = next(((None, t) for t in unranked if t.player_id == caller), None)
        users = [t.player_id for _, t in shown] + ([own[1].player_id] if own else [])
        names = await self.names(guild_id, users)

        def line(rank: int | None, t: Totals) -> BoardLine:
            return BoardLine(
                rank, t.player_id, names.get(t.player_id, ""), t.games, t.wins, t.score_sum, t.best
            )

        return Leaderboard(
            variant,
            period,
            sort,
            since,
            self.min_games,
            tuple(line(r, t) for r, t in shown),
            line(*own) if own else None,
            len(ranked),
            len(unranked),
        )

    async def player(self, guild_id: int, player_id: int, last: int = LAST_SCORES) -> PlayerStats:
        """Games, wins, average, best and last scores of a member, per variant and overall."""
        totals = await self.store.stats.player_totals(guild_id, player_id)
        recent = await self.store.stats.recent_scores(guild_id, player_id, last) if totals else []
        practice = tuple(await self.store.stats.practice_bests(guild_id, player_id))
        uncounted = tuple(await self.store.stats.uncounted_bests(guild_id, player_id))
        accuracies = await self.store.reviews.averages(guild_id, player_id)
        ratings = {
            variant: Rating(r.mu, r.sigma, r.games)
            for variant, r in (await self.store.ratings.of_player(guild_id, player_id)).items()
        }
        return replace(
            _player_stats(player_id, totals, recent, last),
            practice=practice,
            uncounted=uncounted,
            accuracies=accuracies,
            ratings=ratings,
        )

    async def history(
        self, guild_id: int, player_id: int | None = None, limit: int = HISTORY
    ) -> list[HistoryGame]:
        """The server's last finished games (those of ``player_id`` if given), newest first."""
        return await self.store.stats.history(guild_id, player_id=player_id, limit=limit)

    async def final_game(self, guild_id: int, game_id: int) -> FinalGame | None:
        """A finished game of ``guild_id`` rebuilt for its final sheets; None if there is
        none (another server's game is "none" too)."""
        record = await stored_record(self.store, game_id)
        if (
            record is None
            or record.guild_id != guild_id
            or record.status != "finished"
            or not record.state
        ):
            return None
        known = await self.store.names.of(guild_id, record.players)
        names = {p: known.get(p, f"Player {i}") for i, p in enumerate(record.players, 1)}
        return FinalGame(record, game_from_json(record.state), names)
