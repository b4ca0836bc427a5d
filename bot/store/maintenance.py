"""Upkeep: the database file itself (a start-up health check and online backups), and
pruning the logs of games that ended long ago (``qwixx-bot prune``).

The file's check and backup work with the standard ``sqlite3`` module, apart from the
bot's own connections, so a backup can run while the bot plays (SQLite's online backup
copies a consistent snapshot even while another connection writes).

Pruning: a game's moves and events are most of the database (a classic game: about
60 moves and 150 events against one ``games`` row), and once the game has ended and
its channel shows its end nothing reads them: the history's final sheets are drawn
from the game row's final state, and the leaderboards, statistics, ratings and
history from ``matches``, ``results``, the totals and the rating tables. So the logs
of games that finished or were abandoned before a date can go, and everything else
stays: the game rows, results, totals, ratings and names. What goes with them is the
replay of those games from their seed (the audit trail). Never touched: lobbies,
running games, and an ended game whose channel does not yet show its end
(``shown_version < version``: the channel is caught up from its events). The same SQL
serves both backends; games go in batches of :data:`BATCH`, one short write
transaction each, so a bot running on the same database waits for one batch at most.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from bot.progress import stage, watched
from bot.records.games import ENDED_STATUSES

from .engine import Engine, Tx

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


def replaceable(target: Path) -> None:
    """Refuse to replace ``target`` unless it is missing or a SQLite database that opens
    (an older backup): a backup named over a person's other file must not destroy it."""
    if not target.exists():
        return
    try:
        with closing(
            sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT)
        ) as db:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        raise DatabaseFileError(
            f"{target} is not a SQLite database ({error}); backup replaces only an older "
            f"backup: name a new file, or move {target} aside"
        ) from None


def backup(source: Path, target: Path) -> BackupReport:
    """Copy ``source`` to ``target`` consistently, even while the bot writes to it.

    ``target``, if it exists, must be a SQLite database (an older backup). The copy goes
    to a temporary file in ``target``'s folder first, is checked, and only then is
    renamed over ``target`` (atomic), so a failed backup leaves the older one whole.
    """
    if not source.exists():
        raise DatabaseFileError(f"there is no database file {source} to back up")
    if target.exists() and target.resolve() == source.resolve():
        raise DatabaseFileError(f"the backup must go to another file than {source}")
    replaceable(target)
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


# -- pruning --------------------------------------------------------------------

BATCH: Final = 200
"""Games whose logs one write transaction removes."""
_ENDED: Final = ", ".join(f"'{status}'" for status in ENDED_STATUSES)
PRUNABLE_SQL: Final = (
    f"status IN ({_ENDED}) AND finished_at < ? AND shown_version >= version "
    "AND (EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id) "
    "OR EXISTS (SELECT 1 FROM game_events WHERE game_events.game_id = games.id))"
)
"""``games`` rows ended before ``?`` (unix seconds), shown whole, with logs left."""


@dataclass(frozen=True, slots=True)
class PruneReport:
    """What a prune removed (or, in a dry run, would remove)."""

    games: int
    """Games whose logs went (a game whose logs are gone already is not counted)."""
    moves: int
    events: int
    dry_run: bool
    free_bytes: int | None = None
    """SQLite: free space inside the file after the prune, reused by new rows before
    the file grows (None on PostgreSQL)."""
    freed_bytes: int | None = None
    """SQLite: how much of :attr:`free_bytes` the prune freed."""


async def _prune_batch(
    tx: Tx, before: float, after_id: int, batch: int
) -> tuple[int, int, int, int]:
    """Remove the logs of the next ``batch`` prunable games after ``after_id``, in one
    transaction: ``(games, moves, events, last game id)``; ``games`` 0 when none is left."""
    rows = await tx.fetch(
        f"SELECT id FROM games WHERE id > ? AND {PRUNABLE_SQL} ORDER BY id LIMIT ?",
        (after_id, before, batch),
    )
    ids = [int(row[0]) for row in rows]
    if not ids:
        return 0, 0, 0, after_id
    marks = ", ".join("?" for _ in ids)
    moves = await tx.execute(f"DELETE FROM moves WHERE game_id IN ({marks})", ids)
    events = await tx.execute(f"DELETE FROM game_events WHERE game_id IN ({marks})", ids)
    return len(ids), moves, events, ids[-1]


class Maintenance:
    """What the host's upkeep commands do to one store (``store.maintenance``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def free_bytes(self) -> int | None:
        """The free pages inside a SQLite file, in bytes (None on PostgreSQL)."""
        if self._engine.backend != "sqlite":
            return None
        pages = await self._engine.fetch("PRAGMA freelist_count")
        size = await self._engine.fetch("PRAGMA page_size")
        return int(pages[0][0]) * int(size[0][0])

    async def count_prunable(self, before: float) -> PruneReport:
        """What :meth:`prune` would remove of games that ended before ``before`` (a dry run)."""
        games = f"SELECT id FROM games WHERE {PRUNABLE_SQL}"
        counts = await self._engine.fetch(
            f"SELECT (SELECT COUNT(*) FROM games WHERE {PRUNABLE_SQL}), "
            f"(SELECT COUNT(*) FROM moves WHERE game_id IN ({games})), "
            f"(SELECT COUNT(*) FROM game_events WHERE game_id IN ({games}))",
            (before, before, before),
        )
        found, moves, events = (int(value) for value in counts[0])
        return PruneReport(found, moves, events, dry_run=True, free_bytes=await self.free_bytes())

    async def prune(
        self, before: float, *, dry_run: bool = False, batch: int = BATCH
    ) -> PruneReport:
        """Remove the moves and events of the games that finished or were abandoned before
        ``before`` (unix seconds) and whose channel shows their end; keep everything else.
        With ``dry_run``, only count them."""
        if dry_run:
            return await self.count_prunable(before)
        free = await self.free_bytes()
        games = moves = events = 0
        after_id = 0
        found = (
            await self._engine.fetch(f"SELECT COUNT(*) FROM games WHERE {PRUNABLE_SQL}", (before,))
            if watched()
            else [(0,)]
        )
        with stage("removing the logs of ended games", int(found[0][0]), "games") as advance:
            while True:
                done = await self._engine.transact(
                    partial(_prune_batch, before=before, after_id=after_id, batch=batch)
                )
                if not done[0]:
                    break
                games, moves, events = games + done[0], moves + done[1], events + done[2]
                after_id = done[3]
                advance(done[0])
        free_now = await self.free_bytes()
        freed = None if free is None or free_now is None else max(0, free_now - free)
        return PruneReport(
            games, moves, events, dry_run=False, free_bytes=free_now, freed_bytes=freed
        )
