"""Skill ratings per (server, variant, player), kept from the counted games' results
(schema version 10).

Tables (see :data:`RATINGS_TABLES`):

* ``ratings`` — each person's current rating: ``mu``, ``sigma`` and the number of
  rated ``games``, per guild and variant;
* ``rated_games`` — one row per counted game whose rating update is done (the mark
  that makes the update happen once per game, whoever asks for it);
* ``rating_changes`` — per rated game and person, the rating before and after it
  (what the final message shows).

The store does no rating arithmetic: the service hands :meth:`RatingRepository.rate`
the games to rate, in order, and the pure function that rates one game given the
people's current ratings (:mod:`bot.service.ratings`); each game's mark, read, rating
and write are one transaction, so two processes rating the same game at once rate it
once. A rating is written only over the one it was worked out from (the rows read are
locked on PostgreSQL; a person's first row, which nothing could lock, is checked), so
two processes rating different games of one person never lose an update: the second
gets :class:`RatingConflict` and rates again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from bot.records.errors import RatingConflict
from bot.records.ratings import GameToRate, RatedLine, StoredRating

from .dialect import LOCK_ROW
from .engine import Engine, Row, Tx

RATINGS_TABLES: Final = (
    """
    CREATE TABLE ratings (
        guild_id  BIGINT NOT NULL,
        variant   TEXT NOT NULL,
        player_id BIGINT NOT NULL,
        mu        DOUBLE PRECISION NOT NULL,
        sigma     DOUBLE PRECISION NOT NULL,
        games     INTEGER NOT NULL CHECK (games >= 1),
        PRIMARY KEY (guild_id, variant, player_id)
    )
    """,
    """
    CREATE TABLE rated_games (
        game_id     INTEGER PRIMARY KEY REFERENCES matches (game_id) ON DELETE CASCADE,
        guild_id    BIGINT NOT NULL,
        variant     TEXT NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    )
    """,
    # The newest rated game of a server's variant: where the next update looks from.
    "CREATE INDEX rated_games_latest ON rated_games (guild_id, variant, finished_at)",
    """
    CREATE TABLE rating_changes (
        game_id      INTEGER NOT NULL REFERENCES rated_games (game_id) ON DELETE CASCADE,
        player_id    BIGINT NOT NULL,
        mu_before    DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        games_before INTEGER NOT NULL CHECK (games_before >= 0),
        mu           DOUBLE PRECISION NOT NULL,
        sigma        DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, player_id)
    )
    """,
)


Rater = Callable[[Any, dict[int, StoredRating]], list[RatedLine]]
"""Rates one game (whatever the service made of it) from its people's current ratings
(someone missing has none yet): each rated person's rating before and after it."""

_UNRATED = (
    "SELECT m.game_id, m.guild_id, m.variant, m.finished_at, m.players FROM matches AS m "
    "WHERE m.counted = 1 AND NOT EXISTS "
    "(SELECT 1 FROM rated_games AS r WHERE r.game_id = m.game_id)"
)


async def _mark(tx: Tx, game: GameToRate) -> bool:
    """Mark ``game`` rated; False if it was already (nothing more to do)."""
    return bool(
        await tx.fetch(
            "INSERT INTO rated_games (game_id, guild_id, variant, finished_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
            (game.game_id, game.guild_id, game.variant, game.finished_at),
        )
    )


async def rate_one(tx: Tx, game: GameToRate, match: Any, rate: Rater) -> list[RatedLine]:
    """Rate ``game`` (``match``: what ``rate`` takes) inside the open transaction, unless
    it is rated already; the people's lines (none: it was, or nobody's rating moved)."""
    if not await _mark(tx, game):
        return []
    people = sorted({p for p, _, counts in game.people if counts})
    current: dict[int, StoredRating] = {}
    if people:
        marks = ", ".join("?" for _ in people)
        rows = await tx.fetch(
            "SELECT player_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND "
            f"variant = ? AND player_id IN ({marks}) ORDER BY player_id{LOCK_ROW}",
            (game.guild_id, game.variant, *people),
        )
        current = {int(r[0]): StoredRating(float(r[1]), float(r[2]), int(r[3])) for r in rows}
    lines = sorted(rate(match, dict(current)), key=lambda line: line.player_id)
    if not lines:
        return []
    for line in lines:
        # Written only over the rating it was worked out from: a person new here whom
        # another process rated meanwhile (no row to lock before) is a conflict.
        if not await tx.fetch(
            "INSERT INTO ratings (guild_id, variant, player_id, mu, sigma, games) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, variant, player_id) "
            "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "games = excluded.games WHERE ratings.games = ? RETURNING player_id",
            (
                game.guild_id,
                game.variant,
                line.player_id,
                line.after.mu,
                line.after.sigma,
                line.after.games,
                line.before.games,
            ),
        ):
            raise RatingConflict(game.game_id, line.player_id)
    await tx.executemany(
        "INSERT INTO rating_changes (game_id, player_id, mu_before, sigma_before, games_before, "
        "mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game.game_id,
                line.player_id,
                line.before.mu,
                line.before.sigma,
                line.before.games,
                line.after.mu,
                line.after.sigma,
            )
            for line in lines
        ],
    )
    return lines


def _to_rate(rows: Sequence[Row], people: Sequence[Row]) -> list[GameToRate]:
    lines: dict[int, list[tuple[int, int, bool]]] = {}
    for game_id, player_id, rank, counted in people:
        lines.setdefault(int(game_id), []).append((int(player_id), int(rank), bool(counted)))
    return [
        GameToRate(
            int(r[0]),
            int(r[1]),
            str(r[2]),
            float(r[3]),
            int(r[4]),
            tuple(sorted(lines.get(int(r[0]), []))),
        )
        for r in rows
    ]


class RatingRepository:
    """The ratings of one store (``store.ratings``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def _games_to_rate(self, sql: str, params: Sequence[Any]) -> list[GameToRate]:
        rows = await self._engine.fetch(sql, params)
        if not rows:
            return []
        ids = [int(r[0]) for r in rows]
        marks = ", ".join("?" for _ in ids)
        people = await self._engine.fetch(
            f"SELECT game_id, player_id, rank, counted FROM results WHERE game_id IN ({marks})", ids
        )
        return _to_rate(rows, people)

    async def unrated(self, limit: int = 500) -> list[GameToRate]:
        """The oldest ``limit`` counted games not rated yet, in the order they finished."""
        return await self._games_to_rate(
            _UNRATED + " ORDER BY m.finished_at, m.game_id LIMIT ?", (limit,)
        )

    async def count_unrated(self) -> int:
        """How many counted games are not rated yet."""
        rows = await self._engine.fetch(f"SELECT COUNT(*) FROM ({_UNRATED}) AS unrated", ())
        return int(rows[0][0])

    async def unrated_up_to(
        self, guild_id: int, variant: str, game_id: int, finished_at: float
    ) -> list[GameToRate]:
        """The counted games of ``guild_id``'s ``variant`` not rated yet that finished
        after its newest rated one and no later than ``game_id`` (which finished at
        ``finished_at``), and ``game_id`` itself if not rated, in the order they
        finished: the games to rate before (and with) ``game_id``, so that the server's
        ratings follow the order of its games (one left behind an already rated game is
        rated after it)."""
        # Two selects, so that each reads an index range: the guild's games since its
        # newest rated one (matches_guild_time), and the game itself (its key).
        sql = (
            _UNRATED + " AND m.guild_id = ? AND m.finished_at <= ? AND m.finished_at >= "
            "COALESCE((SELECT MAX(finished_at) FROM rated_games WHERE guild_id = ? "
            "AND variant = ?), 0) AND m.variant = ? UNION "
            + _UNRATED
            + " AND m.game_id = ? ORDER BY 4, 1"
        )
        found = await self._games_to_rate(
            sql, (guild_id, finished_at, guild_id, variant, variant, game_id)
        )
        return [g for g in found if (g.finished_at, g.game_id) <= (finished_at, game_id)]

    async def rate(
        self, games: Sequence[tuple[GameToRate, Any]], rate: Rater
    ) -> dict[int, list[RatedLine]]:
        """Rate ``games`` (each with what ``rate`` takes of it) in order, in one
        transaction; each game once however often it is asked (one already rated is
        left as it is). The lines written, by game."""

        async def work(tx: Tx) -> dict[int, list[RatedLine]]:
            return {game.game_id: await rate_one(tx, game, match, rate) for game, match in games}

        return await self._engine.transact(work)

    async def changes(self, game_id: int) -> list[RatedLine]:
        """The people's ratings before and after ``game_id`` (empty: not rated, or not
        counted)."""
        rows = await self._engine.fetch(
            "SELECT player_id, mu_before, sigma_before, games_before, mu, sigma "
            "FROM rating_changes WHERE game_id = ? ORDER BY player_id",
            (game_id,),
        )
        return [
            RatedLine(
                int(r[0]),
                StoredRating(float(r[1]), float(r[2]), int(r[3])),
                StoredRating(float(r[4]), float(r[5]), int(r[3]) + 1),
            )
            for r in rows
        ]

    async def is_rated(self, game_id: int) -> bool:
        rows = await self._engine.fetch("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,))
        return bool(rows)

    async def of_variant(self, guild_id: int, variant: str) -> dict[int, StoredRating]:
        """Every rated person of ``guild_id`` in ``variant``."""
        rows = await self._engine.fetch(
            "SELECT player_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND variant = ?",
            (guild_id, variant),
        )
        return {int(r[0]): StoredRating(float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def variants(self, guild_id: int) -> dict[str, int]:
        """The variants of ``guild_id`` with ratings: how many ratings each (people's games
        summed), most first."""
        rows = await self._engine.fetch(
            "SELECT variant, SUM(games) FROM ratings WHERE guild_id = ? GROUP BY variant "
            "ORDER BY SUM(games) DESC, variant",
            (guild_id,),
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def of_player(self, guild_id: int, player_id: int) -> dict[str, StoredRating]:
        """One person's ratings on ``guild_id``, by variant."""
        rows = await self._engine.fetch(
            "SELECT variant, mu, sigma, games FROM ratings WHERE guild_id = ? AND player_id = ?",
            (guild_id, player_id),
        )
        return {str(r[0]): StoredRating(float(r[1]), float(r[2]), int(r[3])) for r in rows}
