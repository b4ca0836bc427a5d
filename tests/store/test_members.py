"""Members across servers: preferences, and the seats that find a member's games."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from bot.store.migrations import MEMBERS, MIGRATIONS, apply_migrations
from bot.store.store import engine_for

from .helpers import query


async def test_preferences_round_trip(store: Store) -> None:
    assert await store.members.prefs(7) == {}
    await store.members.set_prefs(7, {"others": "safe", "quiet": [1380, 420]}, 5.0)
    assert await store.members.prefs(7) == {"others": "safe", "quiet": [1380, 420]}
    await store.members.set_prefs(7, {"dm": True}, 6.0)
    assert await store.members.prefs(7) == {"dm": True}
    await store.members.set_prefs(7, {}, 7.0)
    assert await store.members.prefs(7) == {}


async def test_the_upgrade_seats_the_people_of_open_games(
    database: str | Path, request: pytest.FixtureRequest
) -> None:
    """Version 17 fills ``game_seats`` with the people (not the computers) of the lobbies
    and running games of the database it upgrades; finished games stay out."""
    if not isinstance(database, Path):  # a database of its own, as an older bot left it
        database = request.getfixturevalue("postgres").new_database()
    engine = engine_for(database)
    await engine.open()
    try:
        await apply_migrations(engine, 1.0, MIGRATIONS[: MEMBERS.version - 1])

        async def games(tx):  # type: ignore[no-untyped-def]
            for game_id, players, status in (
                (1, "[3, -1, 4]", "running"),
                (2, "[5]", "lobby"),
                (3, "[3, 6]", "finished"),
            ):
                await tx.execute(
                    "INSERT INTO games (id, guild_id, channel_id, host_id, variant, options, "
                    "seed, players, status, created_at, updated_at) "
                    "VALUES (?, 1, ?, 3, 'classic', '{}', 7, ?, ?, 1.0, 1.0)",
                    (game_id, 100 + game_id, players, status),
                )

        await engine.transact(games)
    finally:
        await engine.close()
    async with Store(database):
        pass
    seats = query(database, "SELECT game_id, user_id FROM game_seats ORDER BY game_id, user_id")
    assert seats == [(1, 3), (1, 4), (2, 5)]
