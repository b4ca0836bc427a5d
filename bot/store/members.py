"""Members across servers (schema version 17): each member's preferences, and the games
each person sits in, whatever the server.

A member's preferences are one JSON text (:class:`bot.records.prefs.Prefs` as stored,
the defaults left out); a running game keeps its own copy with its seats, so no click
reads this table. ``game_seats`` is written when a game starts, one row per person
seated (computers have none), and read to find a member's games on every server:
their inbox, and the games their new defaults are copied into.
"""

from __future__ import annotations

from typing import Any, Final

from .engine import Engine, first
from .records import dump_json, load_json

MEMBER_TABLES: Final = (
    """
    CREATE TABLE member_prefs (
        user_id    BIGINT PRIMARY KEY,
        prefs      TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    )
    """,
    """
    CREATE TABLE game_seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id BIGINT NOT NULL,
        PRIMARY KEY (user_id, game_id)
    )
    """,
    # A server's turn time for games played live (the slow one is ``turn_time``).
    "ALTER TABLE guild_settings ADD COLUMN live_time INTEGER",
    # The people of the games running or in a lobby when the table was made.
    """
    INSERT INTO game_seats (game_id, user_id)
    SELECT DISTINCT games.id, CAST(seat.value AS BIGINT)
    FROM games, json_each(games.players) AS seat
    WHERE games.status IN ('lobby', 'running') AND CAST(seat.value AS BIGINT) > 0
    """,
)


class MemberRepository:
    """Members' preferences in one store (``store.members``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def prefs(self, user_id: int) -> dict[str, Any]:
        """The member's preferences as stored (``{}``: they chose nothing)."""
        row = first(
            await self._engine.fetch("SELECT prefs FROM member_prefs WHERE user_id = ?", (user_id,))
        )
        return {} if row is None else dict(load_json(row[0]))

    async def set_prefs(self, user_id: int, prefs: dict[str, Any], now: float) -> None:
        """Store the member's preferences (``{}`` forgets them: the defaults again)."""
        if not prefs:
            await self._engine.transact(
                lambda tx: tx.execute("DELETE FROM member_prefs WHERE user_id = ?", (user_id,))
            )
            return
        await self._engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO member_prefs (user_id, prefs, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs, "
                "updated_at = excluded.updated_at",
                (user_id, dump_json(prefs), now),
            )
        )
