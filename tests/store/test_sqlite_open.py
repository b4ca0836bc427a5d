"""Opening a SQLite store that another process holds: it waits for it, as a shard
process starting beside another that migrates a new file must."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.records.errors import StoreError
from bot.store import sqlite as sqlite_store
from bot.store.sqlite import SqliteEngine


async def test_opening_waits_for_another_process_that_holds_the_database(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "held.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    engine = SqliteEngine(path, busy_timeout=0.05)
    caplog.set_level(logging.INFO, logger="bot.store.sqlite")
    opening = asyncio.create_task(engine.open())
    while not any("held by another process" in r.message for r in caplog.records):
        assert not opening.done(), opening  # it waits rather than failing
        await asyncio.sleep(0.01)
    holder.execute("COMMIT")
    holder.close()
    await opening
    assert engine.is_open
    await engine.close()


async def test_opening_gives_up_after_its_patience(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_store, "OPEN_PATIENCE", 0.0)
    path = tmp_path / "held.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="database is locked"):
            await SqliteEngine(path, busy_timeout=0.05).open()
    finally:
        holder.execute("COMMIT")
        holder.close()
