"""The database file: the start-up quick check and online backups while writing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.records.games import GameChange
from bot.store import Store
from bot.store.maintenance import DatabaseFileError, backup, check_database, quick_check

from .helpers import HOST, PLAYER2, make_running, play

MOVES_PER_COMMIT = 3


@pytest.fixture
def database(db_path: Path) -> Path:
    """The quick check and the backup are SQLite's own: these tests use a SQLite file."""
    return db_path


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchall()


def moves(path: Path) -> list[tuple[object, ...]]:
    return rows(path, "SELECT game_id, seq, player_id, move FROM moves ORDER BY game_id, seq")


async def test_a_sound_or_missing_file_passes(db_path: Path, store: Store) -> None:
    await make_running(store)
    assert quick_check(db_path) == []
    check_database(db_path)
    check_database(db_path.with_name("not-yet.db"))
    assert not db_path.with_name("not-yet.db").exists()


def test_a_file_that_is_not_a_database_is_named(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(b"this is a text file, not SQLite " * 200)
    with pytest.raises(DatabaseFileError, match=f"{path}.*quick_check.*not a database"):
        check_database(path)


async def test_damaged_pages_are_found(db_path: Path, store: Store) -> None:
    game = await make_running(store)
    for _ in range(200):
        game = await play(store, game, HOST, {"kind": "pass"}, {})
    await store.close()
    with closing(sqlite3.connect(db_path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(db_path.read_bytes())
    for page in range(2, pages):  # every page but the schema's: headers and cells garbled
        start = page * page_size
        data[start : start + 64] = b"\xff" * 64
    db_path.write_bytes(bytes(data))
    with pytest.raises(DatabaseFileError, match=str(db_path)) as damaged:
        check_database(db_path)
    assert "malformed" in str(damaged.value) or "page" in str(damaged.value)


async def writer(store: Store, started: asyncio.Event, stop: asyncio.Event) -> int:
    """Commit MOVES_PER_COMMIT moves and a state that counts them, until told to stop."""
    game = await make_running(store)
    count = commits = 0
    while not stop.is_set():
        count += MOVES_PER_COMMIT
        change = GameChange(
            [(HOST, {"kind": "pass"}, "player")] * MOVES_PER_COMMIT, {"moves": count}
        )
        game = (await store.games.change(game, change)).record
        commits += 1
        if commits == 5:
            started.set()
        await asyncio.sleep(0)
    return commits


async def test_a_backup_while_a_writer_commits_is_consistent(
    db_path: Path, store: Store, tmp_path: Path
) -> None:
    started, stop = asyncio.Event(), asyncio.Event()
    writing = asyncio.create_task(writer(store, started, stop))
    await started.wait()
    copy = tmp_path / "backup.db"
    report = await asyncio.to_thread(backup, db_path, copy)
    stop.set()
    assert await writing >= 5

    assert quick_check(copy) == []
    [(state,)] = rows(copy, "SELECT state FROM games")
    copied = moves(copy)
    assert json.loads(str(state))["moves"] == len(copied) >= 5 * MOVES_PER_COMMIT  # no half commit
    assert copied == moves(db_path)[: len(copied)]
    assert report.rows["moves"] == len(copied) and report.target == copy

    again = await asyncio.to_thread(backup, db_path, copy)  # the bot still runs, idle now
    assert moves(copy) == moves(db_path)
    assert again.rows["games"] == 1
    assert rows(copy, "PRAGMA journal_mode") == [("delete",)]
    assert not list(tmp_path.glob(".*.partial"))


async def test_an_open_write_transaction_is_not_copied(
    db_path: Path, store: Store, tmp_path: Path
) -> None:
    game = await make_running(store)
    await play(store, game, PLAYER2, {"kind": "pass"}, {})
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        other.execute("DELETE FROM moves")
        report = backup(db_path, tmp_path / "copy.db")  # while the write lock is held
        other.execute("ROLLBACK")
    assert report.rows["moves"] == 1
    assert moves(tmp_path / "copy.db") == moves(db_path)


def test_backup_refuses_a_missing_source_and_its_own_file(tmp_path: Path) -> None:
    with pytest.raises(DatabaseFileError, match="no database file"):
        backup(tmp_path / "missing.db", tmp_path / "copy.db")
    source = tmp_path / "games.db"
    with closing(sqlite3.connect(source)) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(DatabaseFileError, match="another file"):
        backup(source, source)
    assert not (tmp_path / "copy.db").exists()
