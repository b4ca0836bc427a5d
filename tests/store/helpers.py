"""Test helpers shared by the store tests."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.records.games import GameChange, GameRecord, GameResults
from bot.store import Store
from bot.store import migrations as _migrations
from bot.store.dialect import to_postgres
from bot.store.engine import Tx
from bot.store.privacy import schema
from bot.store.sqlite import SqliteEngine

GUILD = 100
CHANNEL = 200
HOST = 300
PLAYER2 = 301
PLAYER3 = 302


async def every_row(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read through the schema (as the store reads it)."""
    postgres = store.backend == "postgresql"

    async def work(tx: Tx) -> dict[str, list[tuple[Any, ...]]]:
        return {
            table: [tuple(r) for r in await tx.fetch(f'SELECT * FROM "{table}"')]
            for table in await schema(tx, postgres)
        }

    return await store.engine.transact(work)


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
    return await store.games.create(**args)  # type: ignore[arg-type]


async def make_running(store: Store, channel_id: int = CHANNEL) -> GameRecord:
    """Create a two-player game and start it (version 3)."""
    game = await make_lobby(store, channel_id)
    game = await store.games.set_players(game.id, game.version, [HOST, PLAYER2])
    return await store.games.start(game.id, game.version, {"turn": 0, "sheets": {}})


async def play(
    store: Store,
    before: GameRecord,
    player: int,
    move: dict[str, Any],
    state: dict[str, Any],
    status: str = "running",
    results: GameResults | None = None,
) -> GameRecord:
    """``player``'s ``move``, leaving ``state``, stored as a change of ``before``
    (compare-and-set on its version): the record after."""
    change = GameChange([(player, move, "player")], state, status, results)
    return (await store.games.change(before, change)).record


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
    """Record each transaction (``name`` ``_db``) or each read outside one (``_reader``)
    the store asks of its engine from now on, on either backend."""
    trips: list[str] = []
    engine: Any = store.engine
    method = "transact" if name == "_db" else "fetch"
    send = getattr(engine, method)

    def counted(*args: Any) -> Any:
        trips.append(getattr(args[0], "__name__", str(args[0])))
        return send(*args)

    setattr(engine, method, counted)
    return trips


async def apply_migrations(
    path: str | Path, now: float, migrations: Sequence[_migrations.Migration] | None = None
) -> int:
    """:func:`bot.store.migrations.apply_migrations` for the SQLite file ``path``: a
    database as an older bot left it."""
    engine = SqliteEngine(path)
    await engine.open()
    try:
        return await _migrations.apply_migrations(engine, now, migrations)
    finally:
        await engine.close()


class Held:
    """Keeps a transaction open until released, wherever its work runs: on SQLite the
    whole work runs on the writer connection's thread (so it waits there, blocking that
    thread alone), on PostgreSQL on the event loop. ``patience``: seconds before a hang
    fails the test (never a speed check)."""

    def __init__(self, store: Store, patience: float) -> None:
        self._on_thread = store.backend == "sqlite"
        self._patience = patience
        self._inside, self._release = threading.Event(), threading.Event()
        self._inside_here, self._release_here = asyncio.Event(), asyncio.Event()

    async def hold(self) -> None:
        """Inside the work: say so, and wait until released."""
        if self._on_thread:
            self._inside.set()
            assert self._release.wait(self._patience), "never released"
        else:
            self._inside_here.set()
            await asyncio.wait_for(self._release_here.wait(), self._patience)

    async def inside(self) -> None:
        """Until the work holds."""
        if self._on_thread:
            assert await asyncio.to_thread(self._inside.wait, self._patience), "never held"
        else:
            await asyncio.wait_for(self._inside_here.wait(), self._patience)

    def release(self) -> None:
        self._release.set()
        self._release_here.set()
