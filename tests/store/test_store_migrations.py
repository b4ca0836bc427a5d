"""Schema creation, upgrade and idempotent reopening."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import LATEST_VERSION, Store, StoreError
from bot.store.engine import Tx
from bot.store.migrations import KEYED_LOGS, MIGRATIONS, Migration

from .helpers import apply_migrations, make_lobby, sqlite_only


def _schema(path: Path) -> dict[str, tuple[str, str]]:
    """name -> (type, sql) of every table and index in the file."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name, type, sql FROM sqlite_master").fetchall()
    return {name: (kind, sql or "") for name, kind, sql in rows}


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    return [v for (v,) in rows]


async def test_migrates_empty_file(db_path: Path) -> None:
    assert not db_path.exists()
    store = await Store.open(db_path)
    await store.close()

    schema = _schema(db_path)
    assert schema["games"][0] == "table"
    assert schema["moves"][0] == "table"
    assert schema["schema_version"][0] == "table"
    kind, sql = schema["games_active_channel"]
    assert kind == "index"
    assert "UNIQUE" in sql.upper() and "WHERE" in sql.upper()
    assert schema["games_channel"][0] == "index"
    assert _versions(db_path) == list(range(1, LATEST_VERSION + 1))
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@sqlite_only
async def test_connection_pragmas(store: Store) -> None:
    async def pragmas(tx: Tx) -> list[object]:
        names = ("foreign_keys", "busy_timeout", "journal_mode")
        return [(await tx.fetch(f"PRAGMA {name}"))[0][0] for name in names]

    assert await store.engine.transact(pragmas) == [1, 5000, "wal"]


async def test_reopen_is_idempotent(db_path: Path) -> None:
    async with Store(db_path) as store:
        game = await make_lobby(store)
    before = _schema(db_path)

    for _ in range(2):
        async with Store(db_path) as store:
            assert await store.games.get(game.id) == game

    assert _schema(db_path) == before
    assert _versions(db_path) == list(range(1, LATEST_VERSION + 1))


async def test_upgrade_applies_only_pending(db_path: Path) -> None:
    extra = Migration(LATEST_VERSION + 1, "extra", ("CREATE TABLE extra (x INTEGER)",))
    assert await apply_migrations(db_path, 1.0) == LATEST_VERSION
    assert await apply_migrations(db_path, 2.0, (*MIGRATIONS, extra)) == LATEST_VERSION + 1
    # A second run must not re-run CREATE TABLE extra (which would fail).
    assert await apply_migrations(db_path, 3.0, (*MIGRATIONS, extra)) == LATEST_VERSION + 1
    assert "extra" in _schema(db_path)
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT version, applied_at FROM schema_version").fetchall()
    assert rows[-1] == (LATEST_VERSION + 1, 2.0)
    assert len(rows) == LATEST_VERSION + 1


async def test_failed_migration_rolls_back(db_path: Path) -> None:
    broken = Migration(
        LATEST_VERSION + 1, "broken", ("CREATE TABLE half (x INTEGER)", "NOT VALID SQL")
    )
    with pytest.raises(StoreError, match="syntax error"):
        await apply_migrations(db_path, 1.0, (*MIGRATIONS, broken))
    # Nothing at all was applied: the whole upgrade is one transaction.
    assert "half" not in _schema(db_path)
    assert "games" not in _schema(db_path)


async def test_rejects_newer_schema(db_path: Path) -> None:
    async with Store(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'future', 0)",
            (LATEST_VERSION + 1,),
        )
    with pytest.raises(StoreError, match="newer"):
        await Store.open(db_path)


async def test_rejects_gapped_migration_list(db_path: Path) -> None:
    gap = Migration(LATEST_VERSION + 2, "gap", ("SELECT 1",))
    with pytest.raises(StoreError, match=r"1\.\.n"):
        await apply_migrations(db_path, 1.0, (*MIGRATIONS, gap))


async def test_moves_and_events_keep_their_rows_in_the_key(db_path: Path) -> None:
    """Version 9 rebuilds the two logs a click appends to as WITHOUT ROWID tables,
    keeping every row (and the events' index by turn)."""
    older = MIGRATIONS[: KEYED_LOGS.version - 1]
    await apply_migrations(db_path, 1.0, older)
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, variant, options, "
            "seed, players, status, created_at, updated_at) "
            "VALUES (1, 1, 2, 3, 'classic', '{}', 7, '[3]', 'running', 1.0, 1.0)"
        )
        conn.execute("INSERT INTO moves VALUES (1, 1, 3, '{\"kind\":\"pass\"}', 2.0, 'expired')")
        conn.execute("INSERT INTO game_events VALUES (1, 1, 4, 'passed', 3, '{}')")
    async with Store(db_path) as store:
        assert [(m.seq, m.move, m.source) for m in await store.games.moves(1)] == [
            (1, {"kind": "pass"}, "expired")
        ]
        assert [(e.turn, e.kind) for e in await store.games.events(1, 4)] == [(4, "passed")]
    schema = _schema(db_path)
    for table in ("moves", "game_events"):
        assert schema[table][1].rstrip().endswith("WITHOUT ROWID")
    assert "sqlite_autoindex_moves_1" not in schema and "game_events_turn" in schema
