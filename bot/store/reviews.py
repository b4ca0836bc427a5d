"""Reviews of finished games (schema version 12): each person's accuracy against
``hard`` (see :mod:`bot.service.review`), worked out after the game off the click path,
and averaged per variant for ``/qwixx stats``.

``reviewed_games`` marks a game whose review is done (whether or not anyone had a
decision to rate), so a review left undone by a stop is found and done after restart;
``accuracies`` holds one row per person with rated decisions, with the server, variant
and finish time copied for the statistics (like ``results``), and ``hints`` set when
the game showed hints (such games stay out of the averages). The person is in
``player_id`` next to ``game_id``, so forgetting a member and deleting a server reach
these rows as they reach the results (:mod:`bot.store.privacy`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.records.games import GameRecord
from bot.records.stats import REVIEW_DUE, Accuracy

from .engine import Engine, Tx, first
from .records import GAME_COLUMNS, game_from_row, load_json

REVIEW_TABLES = (
    """
    CREATE TABLE reviewed_games (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id    BIGINT NOT NULL,
        reviewed_at DOUBLE PRECISION NOT NULL
    )
    """,
    """
    CREATE TABLE accuracies (
        game_id     INTEGER NOT NULL REFERENCES reviewed_games (game_id) ON DELETE CASCADE,
        player_id   BIGINT NOT NULL,
        guild_id    BIGINT NOT NULL,
        variant     TEXT NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        accuracy    DOUBLE PRECISION NOT NULL CHECK (accuracy >= 0 AND accuracy <= 1),
        decisions   INTEGER NOT NULL CHECK (decisions >= 1),
        hints       SMALLINT NOT NULL CHECK (hints IN (0, 1)),
        PRIMARY KEY (game_id, player_id)
    )
    """,
    # /qwixx stats: a person's accuracies per variant, of a period.
    "CREATE INDEX accuracies_player ON accuracies (guild_id, player_id, variant, finished_at)",
)


class ReviewRepository:
    """The reviews of one store (``store.reviews``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def unreviewed(
        self,
        limit: int = 50,
        *,
        before: int | None = None,
        shards: tuple[tuple[int, ...], int] | None = None,
    ) -> list[GameRecord]:
        """Finished games without a review yet, newest first (``before``: only those of
        lower id; ``shards``: ``(ids, count)``, only the games of those shards' guilds)."""
        where, params = "", []
        if before is not None:
            where, params = " AND id < ?", [before]
        if shards is not None:
            ids, count = shards
            where += f" AND (guild_id >> 22) % ? IN ({', '.join('?' for _ in ids) or 'NULL'})"
            params += [count, *ids]
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'finished'{where} AND NOT "
            "EXISTS (SELECT 1 FROM reviewed_games AS r WHERE r.game_id = games.id) "
            "ORDER BY id DESC LIMIT ?"
        )
        return [game_from_row(row) for row in await self._engine.fetch(sql, (*params, limit))]

    async def add(
        self,
        record: GameRecord,
        accuracies: Sequence[tuple[int, float, int]],
        hints: bool,
        now: float,
    ) -> bool:
        """Keep the review of the finished ``record``: each person's ``(player, accuracy,
        decisions)``, once (False: it was kept already). When its channel may show it
        (the final message is posted and waits for it, or is still to be posted), the
        game's version moves on, so the channel catches up with it even after a restart:
        the final message is edited once (see :mod:`bot.channel.plan`)."""
        finished_at = record.finished_at if record.finished_at is not None else now

        async def work(tx: Tx) -> bool:
            if not await tx.fetch(
                "INSERT INTO reviewed_games (game_id, guild_id, reviewed_at) "
                "VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                (record.id, record.guild_id, now),
            ):
                return False
            await tx.executemany(
                "INSERT INTO accuracies (game_id, player_id, guild_id, variant, finished_at, "
                "accuracy, decisions, hints) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        record.id,
                        player,
                        record.guild_id,
                        record.variant,
                        finished_at,
                        min(1.0, max(0.0, accuracy)),
                        decisions,
                        int(hints),
                    )
                    for player, accuracy, decisions in accuracies
                ],
            )
            row = first(
                await tx.fetch(
                    "SELECT shown_version, version, shown FROM games WHERE id = ?", (record.id,)
                )
            )
            if (
                row is not None
                and accuracies
                and (
                    int(row[0]) < int(row[1])
                    or load_json(row[2] or "{}").get("review") == REVIEW_DUE
                )
            ):
                await tx.execute(
                    "UPDATE games SET version = version + 1 WHERE id = ?", (record.id,)
                )
            return True

        return await self._engine.transact(work)

    async def of(self, game_id: int) -> dict[int, float] | None:
        """The people's accuracies in a reviewed game (None: not reviewed yet)."""
        rows = await self._engine.fetch(
            "SELECT r.game_id, a.player_id, a.accuracy FROM reviewed_games AS r "
            "LEFT JOIN accuracies AS a ON a.game_id = r.game_id WHERE r.game_id = ?",
            (game_id,),
        )
        if not rows:
            return None
        return {int(r[1]): float(r[2]) for r in rows if r[1] is not None}

    async def averages(
        self, guild_id: int, player_id: int, since: float | None = None
    ) -> dict[str, Accuracy]:
        """A person's average accuracy per variant on ``guild_id`` (games with hints left
        out; ``since``: of the games finished then or later), with the games averaged."""
        sql = (
            "SELECT variant, AVG(accuracy), COUNT(*) FROM accuracies WHERE guild_id = ? "
            "AND player_id = ? AND hints = 0 AND finished_at >= ? GROUP BY variant"
        )
        rows = await self._engine.fetch(
            sql, (guild_id, player_id, -1.0 if since is None else since)
        )
        return {str(r[0]): Accuracy(float(r[1]), int(r[2])) for r in rows}
