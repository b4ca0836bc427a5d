"""The host's upkeep commands: ``backup``, ``migrate``, ``copy-db``, ``prune`` and
``health``.

Each checks what it is given before it changes anything — the database named and
there (a SQLite file whose folder exists and that passes SQLite's quick check, or a
PostgreSQL server that answers) — and refuses in one line naming the problem
(:class:`~bot.config.ConfigError`, :class:`~bot.store.StoreError` or
:class:`~bot.store.maintenance.DatabaseFileError`, printed by :func:`bot.__main__.main`).
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli import PROG, folder_problem, make_folder
from bot.config import POSTGRES_SCHEMES, ConfigError, database_path, load_settings
from bot.progress import note
from bot.store.maintenance import backup, check_database
from bot.text import quote

if TYPE_CHECKING:
    from bot.store.maintenance import PruneReport


def database_of(given: str | None) -> Path | str:
    """``--database``, else ``QWIXX_DATABASE`` (the environment, then ``.env``), else
    ``qwixx.db``."""
    if given is not None:
        return database_path(given, "--database")
    return load_settings(need_token=False).database


def shown(target: Path | str) -> str:
    """A database as messages name it (a URL without its password)."""
    from bot.store.postgres import redacted

    return str(target) if isinstance(target, Path) else redacted(target)


def check_target(target: Path | str, *, exists: bool, checked: bool = True) -> None:
    """Refuse a database that cannot be used: a SQLite path that is a folder, whose
    folder is missing, that is missing itself (``exists``) or that fails SQLite's quick
    check (``checked``); a PostgreSQL server that does not answer (the reason named)."""
    if isinstance(target, str):
        from bot.store.postgres import check_reachable

        check_reachable(target)
        return
    if target.is_dir():
        raise ConfigError(
            f"{target} is a folder, not a database file; name a file in it, "
            f"e.g. {target / 'qwixx.db'}"
        )
    if not target.exists():
        problem = folder_problem(target.parent)
        if problem:
            raise ConfigError(f"cannot open the database {target}: {problem}")
        if exists:
            raise ConfigError(f"there is no database file {target}")
    elif checked:
        note(f"checking {target} (SQLite's quick_check)…")
        check_database(target)


def counted(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


def size(count: int) -> str:
    """``count`` bytes for a person: ``512 bytes``, ``4.1 KB``, ``143.2 MB``, ``2.1 GB``."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return counted(count, "byte")


def run_backup(file: Path, database: str | None) -> int:
    source = database_of(database)
    if not isinstance(source, Path):
        raise ConfigError("backup copies a SQLite file; for PostgreSQL use pg_dump")
    check_target(source, exists=True, checked=False)  # the copy is checked
    if file.is_dir():
        raise ConfigError(
            f"FILE: {file} is a folder; name the backup file, e.g. {file / 'qwixx-backup.db'}"
        )
    make_folder(file.parent, "FILE")
    try:
        report = backup(source, file)
    except OSError as error:
        raise ConfigError(f"cannot write the backup {file}: {error.strerror or error}") from None
    tables, rows = counted(len(report.rows), "table"), counted(sum(report.rows.values()), "row")
    print(f"backed up {source} to {report.target} (quick_check ok): {tables}, {rows}")
    return 0


def run_migrate(database: str | None) -> int:
    from bot.store import Store

    async def migrate() -> int:
        async with Store(target) as store:
            return store.schema_version

    target = database_of(database)
    check_target(target, exists=False)
    version = asyncio.run(migrate())
    print(f"{shown(target)}: schema version {version} (up to date)")
    return 0


def run_copy_db(source_text: str, target_text: str) -> int:
    from bot.store.copy import copy_to_postgres

    source = database_path(source_text, "SQLITE_FILE")
    if not isinstance(source, Path):
        raise ConfigError(
            "SQLITE_FILE is a PostgreSQL URL: copy-db copies a SQLite file "
            "into PostgreSQL, as in: qwixx-bot copy-db qwixx.db "
            "postgresql://user:password@host/database"
        )
    if not target_text.strip():
        raise ConfigError(
            "POSTGRES_URL is empty: give the PostgreSQL database to fill, "
            "postgresql://user:password@host:port/database"
        )
    if not target_text.startswith(POSTGRES_SCHEMES):
        given = (
            "a file path"
            if "://" not in target_text
            else f"a {quote(target_text.partition('://')[0], 20)} URL"
        )
        raise ConfigError(f"POSTGRES_URL must be a postgresql:// URL, got {given}")
    target = str(database_path(target_text, "POSTGRES_URL"))
    check_target(source, exists=True)
    check_target(target, exists=True)
    counts = asyncio.run(copy_to_postgres(source, target))
    print(f"copied {source} to {shown(target)}; rows per table (the same on both sides):")
    for table, rows in counts.items():
        print(f"  {table}: {rows:,}")
    return 0


def cutoff(text: str, now: float) -> float:
    """``--finished-before`` as unix seconds: a date is its midnight in UTC, a time
    without a zone is UTC. Raises :class:`ConfigError` with the line to show."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ConfigError(
            f"--finished-before: {text!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-01-01"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if when.timestamp() > now:
        raise ConfigError(
            f"--finished-before: {text} is in the future; prune removes the "
            "logs of games that have already ended"
        )
    return when.timestamp()


def run_prune(finished_before: str, dry_run: bool, database: str | None) -> int:
    from bot.store import Store

    before = cutoff(finished_before, time.time())
    target = database_of(database)
    check_target(target, exists=True)

    async def run() -> PruneReport:
        async with Store(target) as store:
            return await store.maintenance.prune(before, dry_run=dry_run)

    report = asyncio.run(run())
    date = finished_before.strip()
    if not report.games:
        print(
            f"{shown(target)}: nothing to remove: no game that ended before {date} has "
            "moves or events left"
        )
        return 0
    found = (
        f"{counted(report.games, 'game')} that ended before {date}: "
        f"{counted(report.moves, 'move')}, {counted(report.events, 'event')}"
    )
    if report.dry_run:
        print(
            f"{shown(target)}: would remove the moves and events of {found} (dry run: "
            "nothing removed)"
        )
        return 0
    print(
        f"{shown(target)}: removed the moves and events of {found}; their games, results, "
        "statistics, ratings and final sheets are kept"
    )
    if isinstance(target, Path) and report.freed_bytes is not None:
        print(space_line(target, report.freed_bytes, report.free_bytes or 0))
    return 0


def space_line(path: Path, freed: int, free: int) -> str:
    """What a prune did to a SQLite file's space: the file keeps its size; the pages it
    freed are used by new games first, and only VACUUM gives them back to the disk."""
    whole = f"{path} is {size(path.stat().st_size)}"
    if not freed:
        return (
            f"{whole}; no page of it was freed (the rows removed shared their pages "
            "with rows that stay)"
        )
    inside = f" ({size(free)} free in all)" if free > freed else ""
    return (
        f"{whole}; the prune freed {size(freed)} inside it{inside}, which new games use "
        f"before the file grows. To give it back to the disk, stop the bot and run: "
        f"sqlite3 {path} VACUUM"
    )


def run_health() -> int:
    """0 if the running bot's timers touched ``QWIXX_HEARTBEAT`` recently, else 1 (Docker's
    "unhealthy"; it reserves 2), each with one line."""
    from bot.heartbeat import health

    try:
        path = load_settings(need_token=False).heartbeat
    except ConfigError as error:
        print(f"{PROG} health: {error}", file=sys.stderr)
        return 1
    if path is None:
        print(
            f"{PROG} health: QWIXX_HEARTBEAT is not set, so the bot keeps no sign of life "
            "to check (the Docker image sets it)",
            file=sys.stderr,
        )
        return 1
    alive, line = health(path, time.time())
    print(f"{PROG} health: {line}", file=sys.stdout if alive else sys.stderr)
    return 0 if alive else 1
