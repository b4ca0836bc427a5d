"""The daily challenge's records (schema version 13).

Tables (see :data:`DAILY_TABLES`):

* ``daily_attempts`` — one row per member, day and variant (the primary key is what
  refuses a second attempt, across servers): the game played, the server it counts
  for, and the score once finished;
* ``daily_pars`` — what ``hard`` scores on a day's dice, worked out once;
* ``daily_posts`` — each server's live ranking message of a day and variant (in the
  channel where the server's first attempt of the day was begun, unless the server
  chose one), and how many finishes it still owes (schema 14: ``owed``, counted up with
  each finish in the finish's transaction and cleared once a write showed them, so a
  ranking owed when the bot stopped is written after the restart);
* ``daily_settings`` — a server's channel for those messages and when its day turns;
* ``daily_secret`` — the one secret of this bot's database that a day's dice are
  derived from (made on first use, so every process of one database shares it).

A day is its date, ``YYYY-MM-DD`` (text sorts as dates do).
"""

from __future__ import annotations

import secrets
from typing import Final

from bot.records.daily import Attempt, DailyBest, DailySettings, DailyStanding, RankingPost
from bot.records.games import NO_SERVER

from .engine import Engine, Row, Tx, first

DAILY_TABLES: Final = (
    """
    CREATE TABLE daily_attempts (
        day         TEXT NOT NULL,
        variant     TEXT NOT NULL,
        user_id     BIGINT NOT NULL,
        guild_id    BIGINT NOT NULL,
        channel_id  BIGINT NOT NULL,
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        score       INTEGER,
        finished_at DOUBLE PRECISION,
        PRIMARY KEY (day, variant, user_id)
    )
    """,
    # Percentiles: the scores of a day's dice, everywhere.
    "CREATE INDEX daily_scores ON daily_attempts (day, variant, score)",
    # A server's ranking of the day.
    "CREATE INDEX daily_server ON daily_attempts (guild_id, day, variant, score)",
    # A member's streak; finding a daily game's attempt.
    "CREATE INDEX daily_member ON daily_attempts (user_id, day)",
    "CREATE INDEX daily_game ON daily_attempts (game_id)",
    """
    CREATE TABLE daily_pars (
        day     TEXT NOT NULL,
        variant TEXT NOT NULL,
        score   INTEGER NOT NULL,
        PRIMARY KEY (day, variant)
    )
    """,
    """
    CREATE TABLE daily_posts (
        guild_id   BIGINT NOT NULL,
        day        TEXT NOT NULL,
        variant    TEXT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT,
        PRIMARY KEY (guild_id, day, variant)
    )
    """,
    """
    CREATE TABLE daily_settings (
        guild_id   BIGINT PRIMARY KEY,
        channel_id BIGINT,
        hour       INTEGER NOT NULL DEFAULT 0 CHECK (hour BETWEEN 0 AND 23),
        timezone   TEXT NOT NULL DEFAULT 'UTC'
    )
    """,
    """
    CREATE TABLE daily_secret (
        id     INTEGER PRIMARY KEY CHECK (id = 1),
        secret TEXT NOT NULL
    )
    """,
)


DAILY_OWED: Final = (
    "ALTER TABLE daily_posts ADD COLUMN owed INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX daily_posts_owed ON daily_posts (guild_id) WHERE owed > 0",
)


_ATTEMPT = (
    "SELECT day, variant, user_id, guild_id, channel_id, game_id, score, finished_at "
    "FROM daily_attempts"
)


def _attempt(row: Row) -> Attempt:
    day, variant, user, guild, channel, game, score, finished = row
    return Attempt(
        str(day),
        str(variant),
        int(user),
        int(guild),
        int(channel),
        int(game),
        None if score is None else int(score),
        None if finished is None else float(finished),
    )


class DailyRepository:
    """The daily challenge of one store (``store.daily``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def secret(self) -> str:
        """The database's secret for the days' dice, made on first use."""
        fresh = secrets.token_hex(32)

        async def work(tx: Tx) -> str:
            await tx.execute(
                "INSERT INTO daily_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                (fresh,),
            )
            return str((await tx.fetch("SELECT secret FROM daily_secret WHERE id = 1"))[0][0])

        return await self._engine.transact(work)

    async def attempt(self, day: str, variant: str, user_id: int) -> Attempt | None:
        rows = await self._engine.fetch(
            f"{_ATTEMPT} WHERE day = ? AND variant = ? AND user_id = ?", (day, variant, user_id)
        )
        return _attempt(rows[0]) if rows else None

    async def attempt_of_game(self, game_id: int) -> Attempt | None:
        rows = await self._engine.fetch(f"{_ATTEMPT} WHERE game_id = ?", (game_id,))
        return _attempt(rows[0]) if rows else None

    async def add_attempt(self, attempt: Attempt) -> Attempt:
        """Record ``attempt``; the one recorded first if the member has one already."""
        a = attempt

        async def work(tx: Tx) -> Attempt:
            await tx.execute(
                "INSERT INTO daily_attempts (day, variant, user_id, guild_id, channel_id, "
                "game_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (day, variant, user_id) "
                "DO NOTHING",
                (a.day, a.variant, a.user_id, a.guild_id, a.channel_id, a.game_id),
            )
            rows = await tx.fetch(
                f"{_ATTEMPT} WHERE day = ? AND variant = ? AND user_id = ?",
                (a.day, a.variant, a.user_id),
            )
            return _attempt(rows[0])

        return await self._engine.transact(work)

    async def finish_attempt(self, game_id: int, score: int, now: float) -> Attempt | None:
        """Give the attempt of ``game_id`` its score, once (a second call changes nothing),
        and mark its server's ranking of the day as owing it, in the same transaction
        (a new ranking is placed where the server's first attempt of the day was begun:
        the lowest game id). An attempt of no server (:data:`~bot.records.games.NO_SERVER`)
        has no ranking to owe."""

        async def work(tx: Tx) -> Attempt | None:
            scored = await tx.execute(
                "UPDATE daily_attempts SET score = ?, finished_at = ? "
                "WHERE game_id = ? AND score IS NULL",
                (score, now, game_id),
            )
            row = first(await tx.fetch(f"{_ATTEMPT} WHERE game_id = ?", (game_id,)))
            if row is None:
                return None
            a = _attempt(row)
            if scored and a.guild_id != NO_SERVER:
                await tx.execute(
                    "INSERT INTO daily_posts (guild_id, day, variant, channel_id, owed) "
                    "SELECT guild_id, day, variant, channel_id, 1 FROM daily_attempts "
                    "WHERE guild_id = ? AND day = ? AND variant = ? ORDER BY game_id "
                    "LIMIT 1 ON CONFLICT (guild_id, day, variant) "
                    "DO UPDATE SET owed = daily_posts.owed + 1",
                    (a.guild_id, a.day, a.variant),
                )
            return a

        return await self._engine.transact(work)

    async def ranking(self, guild_id: int, day: str, variant: str) -> list[tuple[int, int]]:
        """``(member, score)`` of the server's finished attempts, best first."""
        rows = await self._engine.fetch(
            "SELECT user_id, score FROM daily_attempts WHERE guild_id = ? AND day = ? "
            "AND variant = ? AND score IS NOT NULL ORDER BY score DESC, finished_at",
            (guild_id, day, variant),
        )
        return [(int(user), int(score)) for user, score in rows]

    async def standing(self, day: str, variant: str, score: int) -> DailyStanding:
        """How ``score`` stands among every finished attempt of the day's dice."""
        rows = await self._engine.fetch(  # three ranges of the index on (day, variant, score)
            "SELECT (SELECT COUNT(*) FROM daily_attempts WHERE day = ? AND variant = ? "
            "AND score IS NOT NULL), (SELECT COUNT(*) FROM daily_attempts WHERE day = ? "
            "AND variant = ? AND score > ?), (SELECT COUNT(*) FROM daily_attempts "
            "WHERE day = ? AND variant = ? AND score < ?)",
            (day, variant, day, variant, score, day, variant, score),
        )
        players, above, below = rows[0]
        return DailyStanding(int(above), int(below), int(players))

    async def finished_days(self, user_id: int, before: str, limit: int = 1000) -> list[str]:
        """The days up to ``before`` on which ``user_id`` finished an attempt, newest
        first (what a streak is counted from)."""
        rows = await self._engine.fetch(
            "SELECT DISTINCT day FROM daily_attempts WHERE user_id = ? AND day <= ? "
            "AND score IS NOT NULL ORDER BY day DESC LIMIT ?",
            (user_id, before, limit),
        )
        return [str(day) for (day,) in rows]

    async def bests(self, user_id: int) -> list[DailyBest]:
        """Per variant, ``user_id``'s finished attempts of every day and server: how many,
        the best score and the average, most played first."""
        rows = await self._engine.fetch(
            "SELECT variant, COUNT(*), MAX(score), AVG(score) FROM daily_attempts "
            "WHERE user_id = ? AND score IS NOT NULL GROUP BY variant "
            "ORDER BY COUNT(*) DESC, variant",
            (user_id,),
        )
        return [DailyBest(str(v), int(n), int(best), float(mean)) for v, n, best, mean in rows]

    async def par(self, day: str, variant: str) -> int | None:
        rows = await self._engine.fetch(
            "SELECT score FROM daily_pars WHERE day = ? AND variant = ?", (day, variant)
        )
        return int(rows[0][0]) if rows else None

    async def set_par(self, day: str, variant: str, score: int) -> None:
        await self._engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO daily_pars (day, variant, score) VALUES (?, ?, ?) "
                "ON CONFLICT (day, variant) DO NOTHING",
                (day, variant, score),
            )
        )

    async def settings(self, guild_id: int) -> DailySettings:
        rows = await self._engine.fetch(
            "SELECT channel_id, hour, timezone FROM daily_settings WHERE guild_id = ?", (guild_id,)
        )
        if not rows:
            return DailySettings()
        channel, hour, zone = rows[0]
        return DailySettings(None if channel is None else int(channel), int(hour), str(zone))

    async def set_settings(self, guild_id: int, settings: DailySettings) -> None:
        s = settings
        await self._engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO daily_settings (guild_id, channel_id, hour, timezone) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, hour = excluded.hour, "
                "timezone = excluded.timezone",
                (guild_id, s.channel_id, s.hour, s.timezone),
            )
        )

    async def post(self, guild_id: int, day: str, variant: str) -> RankingPost | None:
        """A server's ranking of the day, if a finish asked for one."""
        rows = await self._engine.fetch(
            "SELECT channel_id, message_id, owed FROM daily_posts WHERE guild_id = ? "
            "AND day = ? AND variant = ?",
            (guild_id, day, variant),
        )
        if not rows:
            return None
        channel, message, owed = rows[0]
        return RankingPost(int(channel), None if message is None else int(message), int(owed))

    async def set_post(
        self,
        guild_id: int,
        day: str,
        variant: str,
        channel_id: int,
        message_id: int | None,
        shown: int = 0,
    ) -> None:
        """The ranking is ``message_id`` in ``channel_id``, and shows every finish if it
        still owed ``shown`` of them (a finish meanwhile leaves it owing)."""
        await self._engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO daily_posts (guild_id, day, variant, channel_id, message_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, variant) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "owed = CASE WHEN daily_posts.owed = ? THEN 0 ELSE daily_posts.owed END",
                (guild_id, day, variant, channel_id, message_id, shown),
            )
        )

    async def owed_posts(self) -> list[tuple[int, str, str, int]]:
        """``(guild, day, variant, channel)`` of every ranking that owes finishes."""
        rows = await self._engine.fetch(
            "SELECT guild_id, day, variant, channel_id FROM daily_posts WHERE owed > 0"
        )
        return [(int(g), str(d), str(v), int(c)) for g, d, v, c in rows]
