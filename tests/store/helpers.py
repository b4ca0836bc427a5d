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
from bot.store import migrations as _migrations
from bot.store.dialect import to_postgres
from bot.store.privacy import schema
from bot.store.sqlite import SqliteEngine

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


async def every_row(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read through the schema (as the store reads it)."""
    postgres = store.backend == "postgresql"

    def work(conn: Any) -> dict[str, list[tuple[Any, ...]]]:
        return {
            table: [tuple(r) for r in conn.execute(f'SELECT * FROM "{table}"').fetchall()]
            for table in schema(conn, postgres)
        }

    return await store._transact(work)


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
"""For a test of SQLite's own machinery (query plans, pragmas, the file, its threads)."""


def counting_trips(store: Store, name: str) -> list[str]:
    """Record each round trip to the thread of connection ``name`` (``_db``: the
    writer, or any of PostgreSQL's writers; ``_reader``), on either backend."""
    trips: list[str] = []
    engine: Any = store._engine
    connections: list[Any] = engine.writers if name == "_db" else [engine.reader]
    for connection in connections:
        send = connection.run

        async def counted(fn: Callable[..., Any], _send: Any = send) -> Any:
            trips.append(getattr(fn, "__name__", "?"))
            return await _send(fn)

        connection.run = counted
    return trips


def writer(store: Store) -> Any:
    """SQLite's writer thread (:class:`bot.store.sqlite.DatabaseThread`) of an open store."""
    thread = store._engine.writer  # type: ignore[attr-defined]
    assert thread is not None
    return thread


async def apply_migrations(
    db: Any, now: float, migrations: Sequence[_migrations.Migration] | None = None
) -> int:
    """:func:`bot.store.migrations.apply_migrations` for the SQLite file a path or an
    (idle, open) connection ``db`` names: a database as an older bot left it."""
    if isinstance(db, (str, Path)):
        path = str(db)
    else:
        rows = await db.execute_fetchall("PRAGMA database_list")
        path = next(str(row[2]) for row in rows if row[1] == "main")
    engine = SqliteEngine(path)
    await engine.open()
    try:
        return await _migrations.apply_migrations(engine, now, migrations)
    finally:
        await engine.close()
