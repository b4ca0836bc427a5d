"""The database file itself: a start-up health check and online backups.

Both work on the file with the standard ``sqlite3`` module, apart from the bot's
own connection, so a backup can run while the bot plays (SQLite's online backup
copies a consistent snapshot even while another connection writes).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.progress import stage

BUSY_TIMEOUT = 30.0
"""Seconds to wait for another connection's lock (the bot's writes are short)."""
SHOWN_PROBLEMS = 3
WATCH_EVERY = 0.25
"""Seconds between two looks at a backup's growing file (for its progress bar)."""


class DatabaseFileError(Exception):
    """The database file is damaged, unreadable or not a database; the message names it."""


@dataclass(frozen=True)
class BackupReport:
    """What a backup copied: the target and the row count of every table."""

    target: Path
    rows: dict[str, int]


def _open_existing(path: Path) -> sqlite3.Connection:
    """A connection to ``path`` that never creates the file."""
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT, isolation_level=None
    )


def quick_check(path: Path) -> list[str]:
    """SQLite's ``PRAGMA quick_check`` of ``path``: the problems found, ``[]`` when sound."""
    try:
        with closing(_open_existing(path)) as db:
            found = [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.Error as error:  # "file is not a database", unreadable, locked…
        return [str(error)]
    return [] if found == ["ok"] else found


def check_database(path: Path) -> None:
    """Raise :class:`DatabaseFileError` if ``path`` exists and fails the quick check.

    A missing file is fine: the store creates it.
    """
    if not path.exists():
        return
    problems = quick_check(path)
    if problems:
        shown = "; ".join(problems[:SHOWN_PROBLEMS])
        more = (
            f" (and {len(problems) - SHOWN_PROBLEMS} more)"
            if len(problems) > SHOWN_PROBLEMS
            else ""
        )
        raise DatabaseFileError(
            f"the database file {path} failed SQLite's quick_check: {shown}{more}. Restore it "
            f"from a backup (README, Operations) or move it aside to start with an empty one"
        )


def row_counts(db: sqlite3.Connection) -> dict[str, int]:
    tables = [
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    return {name: db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in tables}


@contextmanager
def _growing(copy: Path, size: int) -> Iterator[None]:
    """A progress bar of ``copy`` growing to about ``size`` bytes while the block runs:
    SQLite's backup copies in one step (one snapshot), so the bar follows the file."""
    with stage("backing up", size, "B") as advance:
        done = threading.Event()

        def watch() -> None:
            shown = 0
            while not done.wait(WATCH_EVERY):
                grown = min(size, copy.stat().st_size if copy.exists() else 0)
                if grown > shown:
                    advance(grown - shown)
                    shown = grown
            advance(size - shown)

        watcher = threading.Thread(target=watch, name="backup-progress", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            done.set()
            watcher.join()


def backup(source: Path, target: Path) -> BackupReport:
    """Copy ``source`` to ``target`` consistently, even while the bot writes to it.

    The copy goes to a temporary file first, is checked, and only then replaces
    ``target``, so a failed backup never leaves a half-written ``target``.
    """
    if not source.exists():
        raise DatabaseFileError(f"there is no database file {source} to back up")
    if target.exists() and target.resolve() == source.resolve():
        raise DatabaseFileError(f"the backup must go to another file than {source}")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)  # left over from an interrupted backup
    try:
        with closing(_open_existing(source)) as db, closing(sqlite3.connect(partial)) as copy:
            with _growing(partial, source.stat().st_size):
                db.backup(copy)  # all pages in one step: one snapshot of the source
            copy.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
            rows = row_counts(copy)
        problems = quick_check(partial)
        if problems:
            raise DatabaseFileError(f"the copy of {source} failed quick_check: {problems[0]}")
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise DatabaseFileError(f"cannot back up {source} to {target}: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return BackupReport(target, rows)
