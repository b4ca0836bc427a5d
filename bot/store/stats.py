"""Results of finished games and the statistics read from them (schema version 3).

Tables (see :data:`bot.store.migrations.STATS`):

* ``matches`` — one row per finished game: guild, channel, variant, start and end
  time, number of turns, and whether it ``counted`` for statistics;
* ``results`` — one row per player of a finished game: score, rank (ties share a
  rank), ``won`` (rank 1), copied guild/variant/finish time so the statistics never
  join ``games``;
* ``player_totals`` — all-time sums per (guild, player, variant) of the counted
  results, kept in the same transaction, so an all-time leaderboard reads a few
  thousand rows instead of the whole history;
* ``period_totals`` (schema version 6) — the same sums per calendar month and per
  week (UTC, weeks from Monday), also kept in that transaction, so "this month" and
  "this week" read at most one row per player and variant however many games the
  period holds;

(The reviews' accuracies, which ``/qwixx stats`` also shows, are :mod:`bot.store.reviews`'s.)

Every query filters by ``guild_id``: a server's figures never appear in another.
Booleans are ``SMALLINT`` 0/1 and the SQL is plain and parameterised, so the
PostgreSQL backend runs it as it is (window functions and ``ON CONFLICT`` are shared
by both; :mod:`bot.store.dialect` only swaps the date functions of the period
sums). Only ``counted`` games feed the statistics; uncounted ones stay in the history.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.records.games import FINISHED, GameRecord, GameResults
from bot.records.stats import HistoryGame, HistoryLine, PracticeBest, RecentScore, Totals

from .dialect import PERIOD_START_SQL
from .engine import Engine, Row, Tx
from .records import GAME_COLUMNS, game_from_row


def _check_results(results: GameResults, record: GameRecord) -> None:
    """Results cover exactly the game's people (computer seats, negative ids, have none)."""
    ids = [p.player_id for p in results.players]
    people = [p for p in record.players if p > 0]
    if results.counted and not ids:
        raise ValueError("a counted game needs its players' results")
    if ids and sorted(ids) != sorted(people):
        raise ValueError(f"results for {ids} do not match the game's players {record.players}")
    for line in results.players:
        if line.rank < 1 or line.won != (line.rank == 1):
            raise ValueError(f"inconsistent result line {line}")


async def write_results(tx: Tx, record: GameRecord, results: GameResults, now: float) -> bool:
    """Write ``matches``, ``results`` and the sums rows for ``record``, unless its
    ``matches`` row exists already; True if written.

    Runs inside the caller's write transaction (the one that finishes the game, or a
    backfill), so a game is either finished with its results or not finished at all.
    The ``matches`` row goes first with ``ON CONFLICT DO NOTHING``: of two processes
    backfilling the same game at once, the second waits for the first and then skips
    (no check-then-insert race on PostgreSQL).
    """
    first, *rest = results_statements(record, results, now)
    sql, rows = first
    if not await tx.fetch(sql + " ON CONFLICT (game_id) DO NOTHING RETURNING game_id", rows[0]):
        return False
    for sql, rows in rest:
        await tx.executemany(sql, rows)
    return True


def results_statements(
    record: GameRecord, results: GameResults, now: float
) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The statements (each with its rows of parameters) that record ``results``,
    ``matches`` first; the sums rows in player order, so concurrent transactions
    lock them in the same order (no deadlock on PostgreSQL)."""
    _check_results(results, record)
    practice = int(results.practice)
    found: list[tuple[str, list[tuple[Any, ...]]]] = [
        (
            "INSERT INTO matches (game_id, guild_id, channel_id, variant, started_at, finished_at, "
            "turns, players, counted, practice, hints) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    record.id,
                    record.guild_id,
                    record.channel_id,
                    record.variant,
                    record.created_at,
                    now,
                    results.turns,
                    len(record.players),
                    int(results.counted),
                    practice,
                    int(results.hints),
                )
            ],
        ),
        (
            "INSERT INTO results (game_id, player_id, guild_id, variant, seat, score, rank, won, "
            "counted, finished_at, practice, stand_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    record.id,
                    p.player_id,
                    record.guild_id,
                    record.variant,
                    p.seat,
                    p.score,
                    p.rank,
                    int(p.won),
                    int(results.counted and not p.stand_in),
                    now,
                    practice,
                    int(p.stand_in),
                )
                for p in results.players
            ],
        ),
    ]
    counted = sorted(
        (p for p in results.players if results.counted and not p.stand_in),
        key=lambda p: p.player_id,
    )
    if not counted:
        return found
    found.append(
        (
            "INSERT INTO player_totals "
            "(guild_id, player_id, variant, games, wins, score_sum, best) "
            "VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, player_id, variant) DO UPDATE SET "
            + _add_one_to("player_totals"),
            [
                (record.guild_id, p.player_id, record.variant, int(p.won), p.score, p.score)
                for p in counted
            ],
        )
    )
    found.append(
        (
            "INSERT INTO period_totals (guild_id, period, start, player_id, variant, games, wins, "
            "score_sum, best) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) "
            "ON CONFLICT (guild_id, period, start, variant, player_id) DO UPDATE SET "
            + _add_one_to("period_totals"),
            [
                (
                    record.guild_id,
                    period,
                    start,
                    p.player_id,
                    record.variant,
                    int(p.won),
                    p.score,
                    p.score,
                )
                for period, start in period_starts(now)
                for p in counted
            ],
        )
    )
    return found


def _add_one_to(table: str) -> str:
    """The ``DO UPDATE SET`` part that adds one result (``excluded``) to a sums row."""
    return (
        f"games = {table}.games + 1, wins = {table}.wins + excluded.wins, "
        f"score_sum = {table}.score_sum + excluded.score_sum, "
        f"best = CASE WHEN excluded.best > {table}.best "
        f"THEN excluded.best ELSE {table}.best END"
    )


SUMMARY_PERIODS = ("month", "week")


def period_starts(when: float) -> list[tuple[str, float]]:
    """The first instant (UTC) of the month and of the week (from Monday) around ``when``."""
    day = datetime.fromtimestamp(when, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return [
        ("month", day.replace(day=1).timestamp()),
        ("week", (day - timedelta(days=day.weekday())).timestamp()),
    ]


def summary_period(since: float) -> str | None:
    """Which summary serves "results from ``since`` on": the month's if ``since`` starts a
    month, the week's if it starts a week (both tile time, so whole periods add up
    exactly), None if it starts neither."""
    return next((period for period, start in period_starts(since) if start == since), None)


FILL_PERIOD_TOTALS = tuple(
    "INSERT INTO period_totals (guild_id, period, start, player_id, variant, games, wins, "
    f"score_sum, best) SELECT guild_id, '{period}', {start}, player_id, variant, COUNT(*), "
    "SUM(won), SUM(score), MAX(score) FROM results WHERE counted = 1 "
    f"GROUP BY guild_id, {start}, player_id, variant"
    for period, start in PERIOD_START_SQL.items()
)


# Recomputes ``player_totals`` and ``period_totals`` from ``results`` (e.g. after a bulk
# import or a repair).
REBUILD_TOTALS = (
    "DELETE FROM player_totals",
    "INSERT INTO player_totals (guild_id, player_id, variant, games, wins, score_sum, best) "
    "SELECT guild_id, player_id, variant, COUNT(*), SUM(won), SUM(score), MAX(score) "
    "FROM results WHERE counted = 1 GROUP BY guild_id, player_id, variant",
    "DELETE FROM period_totals",
    *FILL_PERIOD_TOTALS,
)


def _totals(rows: Iterable[Row]) -> list[Totals]:
    return [Totals(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]


_AGGREGATES = "COUNT(*), SUM(won), SUM(score), MAX(score)"


class StatsRepository:
    """The results and statistics of one store (``store.stats``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def rebuild_totals(self) -> None:
        """Recompute the all-time and the per-period sums from ``results`` (one transaction)."""

        async def work(tx: Tx) -> None:
            for statement in REBUILD_TOTALS:
                await tx.execute(statement)

        await self._engine.transact(work)

    async def finished_without_results(self, limit: int = 500) -> list[GameRecord]:
        """Finished games that have no ``matches`` row yet (finished before schema 3)."""
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'finished' AND NOT EXISTS "
            "(SELECT 1 FROM matches WHERE matches.game_id = games.id) ORDER BY id LIMIT ?"
        )
        return [game_from_row(row) for row in await self._engine.fetch(sql, (limit,))]

    async def add_results(self, record: GameRecord, results: GameResults) -> None:
        """Record the results of an already finished game (a backfill), once."""
        if record.status != FINISHED or record.finished_at is None:
            raise ValueError(f"game {record.id} is not finished")
        finished_at = record.finished_at
        await self._engine.transact(lambda tx: write_results(tx, record, results, finished_at))

    async def leaderboard(
        self, guild_id: int, *, variant: str | None = None, since: float | None = None
    ) -> list[Totals]:
        """Per player of ``guild_id``: counted games, wins, score sum and best score.

        ``variant`` None means every variant; ``since`` (unix seconds, inclusive)
        None means all time, read from ``player_totals``; the start of a month or a
        week reads the sums of that period and any later ones from ``period_totals``;
        any other ``since`` is summed from ``results`` through the ``results_period``
        index. Unordered.
        """
        period = None if since is None else summary_period(since)
        if since is None or period is not None:
            table, where = "player_totals", "guild_id = ?"
            params: list[Any] = [guild_id]
            if period is not None:
                table, where = "period_totals", where + " AND period = ? AND start >= ?"
                params += [period, since]
            if variant is not None:
                where += " AND variant = ?"
                params.append(variant)
            sql = (
                f"SELECT player_id, SUM(games), SUM(wins), SUM(score_sum), MAX(best) "
                f"FROM {table} WHERE {where} GROUP BY player_id"
            )
            return _totals(await self._engine.fetch(sql, params))
        where = "guild_id = ? AND finished_at >= ? AND counted = 1"
        params2: list[Any] = [guild_id, since]
        if variant is not None:
            where += " AND variant = ?"
            params2.append(variant)
        sql = f"SELECT player_id, {_AGGREGATES} FROM results WHERE {where} GROUP BY player_id"
        return _totals(await self._engine.fetch(sql, params2))

    async def player_totals(self, guild_id: int, player_id: int) -> dict[str, Totals]:
        """All-time counted totals of one player of ``guild_id``, by variant."""
        sql = (
            "SELECT variant, player_id, games, wins, score_sum, best FROM player_totals "
            "WHERE guild_id = ? AND player_id = ?"
        )
        rows = await self._engine.fetch(sql, (guild_id, player_id))
        return {str(r[0]): _totals([r[1:]])[0] for r in rows}

    async def recent_scores(
        self, guild_id: int, player_id: int, per_variant: int = 5
    ) -> list[RecentScore]:
        """The last ``per_variant`` counted scores of a player in each variant, newest first.

        The newest ``per_variant`` of all variants together are among them, so one
        query serves both the per-variant and the overall "last 5".
        """
        sql = (
            "SELECT variant, score, finished_at FROM ("
            " SELECT variant, score, finished_at, ROW_NUMBER() OVER ("
            "  PARTITION BY variant ORDER BY finished_at DESC, game_id DESC) AS position"
            " FROM results WHERE guild_id = ? AND player_id = ? AND counted = 1"
            ") AS recent WHERE position <= ? ORDER BY finished_at DESC"
        )
        rows = await self._engine.fetch(sql, (guild_id, player_id, per_variant))
        return [RecentScore(str(r[0]), int(r[1]), float(r[2])) for r in rows]

    async def history(
        self, guild_id: int, *, player_id: int | None = None, limit: int = 10
    ) -> list[HistoryGame]:
        """The last ``limit`` finished games of ``guild_id`` (with ``player_id`` if given),
        newest first, counted or not; each with its players' lines, best first, and the
        tournament and round it was a table of, if any."""
        if player_id is None:
            newest = (
                "SELECT game_id FROM matches WHERE guild_id = ? "
                "ORDER BY finished_at DESC, game_id DESC LIMIT ?"
            )
            params: tuple[Any, ...] = (guild_id, limit)
        else:
            newest = (
                "SELECT game_id FROM results WHERE guild_id = ? AND player_id = ? "
                "ORDER BY finished_at DESC, game_id DESC LIMIT ?"
            )
            params = (guild_id, player_id, limit)
        # The guild is chosen in the subquery; the outer query reads those few games by
        # primary key (a second guild test there would tempt the planner into a scan).
        sql = (
            "SELECT m.game_id, m.channel_id, m.variant, m.started_at, m.finished_at, m.turns, "
            "m.counted, r.player_id, r.score, r.rank, r.won, m.practice, m.hints, r.stand_in, "
            "tn.name, tt.round FROM matches AS m LEFT JOIN results AS r ON r.game_id = m.game_id "
            "LEFT JOIN tournament_tables AS tt ON tt.game_id = m.game_id "
            "LEFT JOIN tournaments AS tn ON tn.id = tt.tournament_id "
            f"WHERE m.game_id IN ({newest}) "
            "ORDER BY m.finished_at DESC, m.game_id DESC, r.rank, r.seat"
        )
        games: dict[int, HistoryGame] = {}
        for row in await self._engine.fetch(sql, params):
            game_id = int(row[0])
            if game_id not in games:
                games[game_id] = HistoryGame(
                    game_id,
                    int(row[1]),
                    str(row[2]),
                    float(row[3]),
                    float(row[4]),
                    int(row[5]),
                    bool(row[6]),
                    (),
                    bool(row[11]),
                    bool(row[12]),
                    None if row[14] is None else str(row[14]),
                    None if row[15] is None else int(row[15]),
                )
            if row[7] is not None:
                game = games[game_id]
                line = HistoryLine(
                    int(row[7]), int(row[8]), int(row[9]), bool(row[10]), bool(row[13])
                )
                games[game_id] = replace(game, lines=(*game.lines, line))
        return list(games.values())

    async def practice_best(
        self, guild_id: int, player_id: int, variant: str, before_game: int
    ) -> int | None:
        """A player's best solo practice score of ``variant`` on ``guild_id`` in other games
        than ``before_game`` (None: it is their first)."""
        rows = await self._engine.fetch(
            "SELECT MAX(score) FROM results WHERE guild_id = ? AND player_id = ? AND "
            "variant = ? AND practice = 1 AND game_id <> ?",
            (guild_id, player_id, variant, before_game),
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def practice_bests(self, guild_id: int, player_id: int) -> list[PracticeBest]:
        """A player's solo practice on ``guild_id`` per variant: games, best and last
        score (the newest game's), most played first."""
        return await self._bests(guild_id, player_id, "practice = 1")

    async def uncounted_bests(self, guild_id: int, player_id: int) -> list[PracticeBest]:
        """The same for the player's other games that do not count (against computers
        only, with hints, or left with one person); not a seat a computer played for a
        while, whose result counts for nobody."""
        return await self._bests(
            guild_id, player_id, "counted = 0 AND practice = 0 AND stand_in = 0"
        )

    async def _bests(self, guild_id: int, player_id: int, which: str) -> list[PracticeBest]:
        sql = (
            "SELECT variant, COUNT(*), MAX(score), ("
            " SELECT last.score FROM results AS last WHERE last.guild_id = r.guild_id"
            " AND last.player_id = r.player_id AND last.variant = r.variant"
            f" AND last.{which.replace(' AND ', ' AND last.')}"
            " ORDER BY last.finished_at DESC, last.game_id DESC LIMIT 1"
            f") FROM results AS r WHERE guild_id = ? AND player_id = ? AND {which} "
            "GROUP BY guild_id, player_id, variant ORDER BY COUNT(*) DESC, variant"
        )
        rows = await self._engine.fetch(sql, (guild_id, player_id))
        return [PracticeBest(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]
