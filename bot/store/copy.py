"""``qwixx-bot copy-db``: an existing SQLite database's whole history into PostgreSQL.

The source is first copied consistently (SQLite's online backup, so the bot may
still run) to a temporary file and brought to the current schema there; the source
itself is never changed. The target is migrated, must hold no game yet, and receives
every table in one transaction (``COPY``), checked by row counts before it commits:
a copy is whole or not at all.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg

from bot.progress import Advance, stage
from bot.records.errors import StoreError

from .engine import is_postgres_url
from .maintenance import backup
from .postgres import redacted
from .store import Store

SHOWN_EVERY = 10_000
"""Rows copied between two advances of the progress bar."""


class CopyError(StoreError):
    """The copy was refused or failed; nothing was committed. The message says why."""


def _tables(source: sqlite3.Connection) -> list[str]:
    """Every table to copy, each after those its foreign keys point at (read from the
    schema, so a table added later takes its place by itself), else in name order."""
    names = {
        row[0]
        for row in source.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name != 'schema_version'"
        )
    }
    needs = {
        name: {row[2] for row in source.execute(f'PRAGMA foreign_key_list("{name}")')}
        & names - {name}
        for name in names
    }
    ordered: list[str] = []
    while needs:
        ready = sorted(name for name, before in needs.items() if before <= set(ordered))
        if not ready:
            raise CopyError(f"the tables' foreign keys go round in a circle: {sorted(needs)}")
        ordered += ready
        for name in ready:
            del needs[name]
    return ordered


def _copy_table(
    source: sqlite3.Connection, target: psycopg.Connection[Any], table: str, advance: Advance
) -> int:
    """Copy every row of ``table``; the row count of the target after it."""
    columns = [row[1] for row in source.execute(f'PRAGMA table_info("{table}")')]
    names = ", ".join(f'"{c}"' for c in columns)
    unshown = 0
    with target.cursor().copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:
        for row in source.execute(f'SELECT {names} FROM "{table}"'):
            copy.write_row(row)
            unshown += 1
            if unshown == SHOWN_EVERY:
                advance(unshown)
                unshown = 0
    advance(unshown)
    wrote = target.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()
    return int(wrote[0] if wrote else -1)


def _copy_all(snapshot: Path, url: str) -> dict[str, int]:
    with closing(sqlite3.connect(snapshot)) as source, psycopg.connect(url) as target:
        games = target.execute("SELECT COUNT(*) FROM games").fetchone()
        if games and games[0]:
            count = f"{games[0]:,} game{'' if games[0] == 1 else 's'}"
            raise CopyError(
                f"{redacted(url)} already has {count}; copy-db only fills an empty database"
            )
        tables = _tables(source)
        read = {
            table: int(source.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])
            for table in tables
        }
        counts: dict[str, int] = {}
        with stage("copying rows", sum(read.values()), "rows") as advance:
            for table in tables:
                wrote = _copy_table(source, target, table, advance)
                if read[table] != wrote:
                    raise CopyError(
                        f"{table}: {read[table]} rows read but {wrote} written; nothing was copied"
                    )
                counts[table] = wrote
        # Later games get ids after the copied ones.
        target.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), "
            "COALESCE(MAX(id), 0) + 1, false) FROM games"
        )
        target.commit()
    return counts


async def copy_to_postgres(source: Path, url: str) -> dict[str, int]:
    """Copy the SQLite database ``source`` into the PostgreSQL database ``url``;
    the rows copied per table. Raises :class:`CopyError` (or :class:`StoreError`,
    :class:`~bot.store.maintenance.DatabaseFileError`) when refused or failed."""
    if not is_postgres_url(url):
        raise CopyError(f"the target must be a postgresql:// URL, got {url.split(':')[0]!r}")
    if not source.is_file():
        raise CopyError(f"there is no SQLite database {source} to copy")
    with tempfile.TemporaryDirectory(prefix="qwixx-copy-") as folder:
        snapshot = Path(folder) / "snapshot.db"
        backup(source, snapshot)
        async with Store(snapshot):  # brings the snapshot to the current schema
            pass
        async with Store(url):  # and the target
            pass
        try:
            return await asyncio.to_thread(_copy_all, snapshot, url)
        except (psycopg.Error, sqlite3.Error) as error:
            raise CopyError(f"copy failed, nothing was copied: {error}") from error
