"""The limits' read: a server's lobbies and running games, with who still plays in them."""

from __future__ import annotations

from pathlib import Path

from bot.records.games import GameChange, InPlay
from bot.store import Store
from bot.store.games import IN_PLAY_SQL

from .helpers import query, sqlite_only


async def test_lobbies_and_running_games_of_one_server_with_their_people(store: Store) -> None:
    lobby = await store.games.create(1, 11, 100, "classic", {}, 7)
    await store.games.set_players(lobby.id, lobby.version, [100, 200, -1])
    running = await store.games.create(1, 12, 300, "classic", {}, 7)
    running = await store.games.set_players(running.id, running.version, [300, 400])
    running = await store.games.start(running.id, running.version, {"x": 1})
    await store.games.change(
        running, GameChange([], {"x": 2}, presence={"away": [400], "streak": {}})
    )
    ended = await store.games.create(1, 13, 500, "classic", {}, 7)
    await store.games.abandon(ended.id, ended.version)
    await store.games.create(2, 14, 100, "classic", {}, 7)
    await store.games.create(1, -15, 100, "classic", {"daily": "2026-11-27"}, 7)  # no channel's
    assert await store.games.in_play(1) == [
        InPlay(lobby.id, frozenset({100, 200, -1})),
        InPlay(running.id, frozenset({300})),
    ]
    assert await store.games.in_play(3) == []


@sqlite_only
async def test_read_through_the_index_of_active_games_never_the_history(
    store: Store, database: Path
) -> None:
    await store.games.create(1, 11, 100, "classic", {}, 7)
    plan = query(database, f"EXPLAIN QUERY PLAN {IN_PLAY_SQL}", (1,))
    assert all("USING INDEX" in str(step[-1]) for step in plan), plan
