"""SQLite's engine tells a watcher every statement it runs, on every connection."""

from __future__ import annotations

from pathlib import Path

from bot.records.games import GameChange
from bot.store import Store
from bot.store.sqlite import SqliteEngine

from .helpers import HOST, make_running, sqlite_only

pytestmark = sqlite_only
MOVE = (HOST, {"kind": "pass"}, "player")


def engine(store: Store) -> SqliteEngine:
    assert isinstance(store.engine, SqliteEngine)
    return store.engine


async def test_a_watcher_hears_each_statement_of_reads_and_writes(store: Store) -> None:
    """And a change reads nothing and writes one statement a table, whatever its count
    of moves and events."""
    game = await make_running(store)
    heard: list[str] = []
    await engine(store).watch(heard.append)
    moves = [MOVE, (HOST + 1, {"kind": "pass"}, "computer")]
    events = [(2, "passed", HOST, {}), (2, "passed", HOST + 1, {}), (2, "turn", HOST, {"turn": 3})]
    await store.games.change(game, GameChange(moves, {"turn": 2}, events=events))
    await store.games.events(game.id)
    kinds = [" ".join(sql.split()[:3]) for sql in heard]
    assert kinds == [
        "BEGIN IMMEDIATE",
        "UPDATE games SET",
        "INSERT INTO moves",
        "INSERT INTO game_events",
        "COMMIT",
        "SELECT seq, turn,",
    ]
    assert f"WHERE game_id = {game.id} AND turn >= 0" in heard[-1]  # parameters written in


async def test_a_watcher_set_before_the_store_opens_hears_it_open(database: Path) -> None:
    store = Store(database)
    heard: list[str] = []
    await engine(store).watch(heard.append)
    async with store:
        assert "PRAGMA journal_mode = WAL" in heard


async def test_no_watcher_hears_nothing_more(store: Store) -> None:
    heard: list[str] = []
    await engine(store).watch(heard.append)
    await store.games.get(1)
    await engine(store).watch(None)
    await store.games.get(1)
    await make_running(store)
    assert len(heard) == 1
