"""Test helpers shared by the store tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.store import GameRecord, Store
from bot.store.dialect import to_postgres
from bot.store.postgres import PostgresStore

GUILD = 100
CHANNEL = 200
HOST = 300
PLAYER2 = 301
PLAYER3 = 302


class FakeClock:
    """A settable clock; ``tick`` advances it."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 1.0) -> float:
        self.now += seconds
        return self.now


async def make_lobby(store: Store, channel_id: int = CHANNEL, **overrides: object) -> GameRecord:
    """Create a lobby with default test values."""
    args: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": channel_id,
        "host_id": HOST,
        "variant": "qwixx",
        "options": {"colors": "classic"},
        "seed": 42,
    }
    args.update(overrides)
    return await store.create_game(**args)  # type: ignore[arg-type]


async def make_running(store: Store, channel_id: int = CHANNEL) -> GameRecord:
    """Create a two-player game and start it (version 3)."""
    game = await make_lobby(store, channel_id)
    game = await store.update_lobby(game.id, game.version, [HOST, PLAYER2])
    return await store.start_game(game.id, game.version, {"turn": 0, "sheets": {}})


def query(database: str | Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (the store's spelling), read straight from either backend."""
    if isinstance(database, Path):
        with closing(sqlite3.connect(database)) as conn:
            return conn.execute(sql, tuple(params)).fetchall()
    with psycopg.connect(database) as conn:
        return [tuple(row) for row in conn.execute(to_postgres(sql), tuple(params))]


sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
"""For a test of SQLite's own machinery (query plans, pragmas, the file, aiosqlite)."""


def counting_trips(store: Store, name: str) -> list[str]:
    """Record each round trip to the thread of connection ``name`` (``_db``: the
    writer, or any of PostgreSQL's writers; ``_reader``), on either backend."""
    trips: list[str] = []
    if isinstance(store, PostgresStore):
        connections: list[Any] = store._writers if name == "_db" else [store._pg_reader]
        entry = "run"
    else:
        connections, entry = [getattr(store, name)], "_execute"
    for connection in connections:
        send = getattr(connection, entry)

        async def counted(fn: Callable[..., Any], *args: Any, _send: Any = send,
                          **kwargs: Any) -> Any:
            trips.append(getattr(fn, "__name__", "?"))
            return await _send(fn, *args, **kwargs)
        setattr(connection, entry, counted)
    return trips
