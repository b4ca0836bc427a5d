"""The SQLite engine: aiosqlite connections, group commit, checkpoints apart.

Each connection is an :mod:`aiosqlite` one (a ``sqlite3`` connection on a thread of
its own, each statement one call to it), used only through aiosqlite's public calls.

* Writes: one connection. A transaction is ``BEGIN IMMEDIATE``, its work's statements
  and ``COMMIT``; those sent while the writer is busy queue up and then go together,
  in one transaction, each still undone alone if it fails (group commit, see
  :meth:`SqliteEngine._each_in_one`): under load one commit serves many clicks, and
  two statements fewer each. Each caller still hears back only after the commit. A
  write of one statement (what a channel shows) runs outside any ``BEGIN`` when the
  writer is free: SQLite commits it by itself. Across processes SQLite's write lock
  (with a busy timeout) serialises writers.
* Reads: a second connection (in WAL mode they never wait behind a write).
* Checkpoints: a third connection copies the WAL back every :data:`CHECKPOINT_EVERY`
  writes, so no commit waits while pages are flushed to the database file.

What each of these is worth, measured, is in docs/performance.md. An in-memory
database has one connection for all three (a second would open another, empty one).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, suppress
from pathlib import Path
from typing import Any, Final

import aiosqlite

from bot.records import ReadFailed, StoreError

from .engine import Row, T, Work
from .locks import KeyedLocks

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 200
"""Write transactions between two WAL checkpoints."""
BATCH = 128
"""Transactions committed together at most: the first of a long queue hears back
sooner, and the write lock is never held long for other processes."""
WRITER_CHECKPOINT_PAGES = 10_000  # the writer checkpoints itself only if those fall behind
READER_CACHE_KIB: Final = 256  # the reader connection's page cache

Heard = Callable[[str], object]
"""Called with each statement SQLite runs, its parameters written in (see
:meth:`SqliteEngine.watch`)."""
Queued = tuple[Work[Any], "asyncio.Future[Any]"]


class SqliteTx:
    """A :class:`~bot.store.engine.Tx` on an aiosqlite connection."""

    __slots__ = ("_db",)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self._db.execute(sql, params)).rowcount

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows = await self._db.execute_fetchall(sql, params)
        return rows if isinstance(rows, list) else list(rows)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)


class _WroteThenFailed(Exception):
    """A transaction of a batch failed after writing: the batch goes again, each under
    a savepoint of its own."""


def is_memory(path: str | Path) -> bool:
    """An in-memory database: a second connection would open another, empty one."""
    return str(path) in ("", ":memory:")


async def _undo(db: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open (none: SQLite undid it, or it never began)."""
    with suppress(sqlite3.OperationalError):
        await db.execute("ROLLBACK")


class SqliteEngine:
    """SQLite's connections (see the module)."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, busy_timeout: float = 5.0) -> None:
        self.path = path
        self.label = str(path)
        self._busy_timeout_ms = int(busy_timeout * 1000)
        self.writer: aiosqlite.Connection | None = None
        self.reader: aiosqlite.Connection | None = None
        self.checkpointer: aiosqlite.Connection | None = None
        self.checkpointing: asyncio.Task[None] | None = None
        self._writes = 0
        self._queued: list[Queued] = []
        self._draining: asyncio.Task[None] | None = None  # kept: a task must be referenced
        self._writing = False
        self._idle = asyncio.Event()  # set while no transaction is sent or queued
        self._idle.set()
        self._game_locks = KeyedLocks()
        self._heard: Heard | None = None

    @property
    def is_open(self) -> bool:
        return self.writer is not None

    # -- lifecycle -----------------------------------------------------------------

    async def open(self) -> None:
        if self.writer is not None:
            return
        opened: list[aiosqlite.Connection] = []
        roles = ("writer",) if is_memory(self.path) else ("writer", "reader", "checkpointer")
        try:
            for role in roles:
                opened.append(await self._connect(role))
        except BaseException as exc:
            for db in opened:
                await db.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open store {self.path}: {exc}") from exc
            raise
        self.writer, *sides = opened
        self.reader, self.checkpointer = sides or (self.writer, None)

    async def _connect(self, role: str) -> aiosqlite.Connection:
        """A connection for ``role``."""
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            if self._heard is not None:
                await db.set_trace_callback(self._heard)
            await db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
            if role == "reader":
                await db.execute("PRAGMA query_only = ON")
                # A small page cache of its own (SQLite's default is 2 MB): the pages it
                # would keep stay in the system's file cache all the same; the stats,
                # daily and rating reads took no longer (benchmarks), with 1.6 MB less held.
                await db.execute(f"PRAGMA cache_size = -{READER_CACHE_KIB:d}")
            if role == "writer":
                rows = await db.execute_fetchall("PRAGMA journal_mode = WAL")
                mode = str(next(iter(rows))[0])
                if mode.lower() != "wal":
                    log.warning("store %s: journal_mode is %s, not WAL", self.path, mode)
                # In WAL mode a commit then no longer waits for the disk; a power cut
                # may lose the last commits, never the file's consistency.
                await db.execute("PRAGMA synchronous = NORMAL")
                await db.execute(f"PRAGMA wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES:d}")
                await db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await db.close()
            raise
        return db

    async def watch(self, heard: Heard | None) -> None:
        """Have ``heard`` called with every statement run on any of the engine's
        connections from now on (reads, transactions' ``BEGIN`` and ``COMMIT``, each row
        of an ``executemany``), on that connection's thread; None: no longer. For
        benchmarks that count a click's statements: it costs each statement a call."""
        self._heard = heard
        sides = (self.writer, self.reader, self.checkpointer)
        for db in {side for side in sides if side is not None}:
            await db.set_trace_callback(heard)  # type: ignore[arg-type]  # None: no callback

    async def migrate(self, work: Work[int]) -> int:
        """``work`` in one transaction that takes the write lock first (``BEGIN
        IMMEDIATE``), so the version it reads is the one it updates; run as the store
        opens, before anything else is sent."""
        try:
            return await self._alone(self._writer(), work)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open store {self.path}: {exc}") from exc

    async def close(self) -> None:
        writer, reader, checkpointer = self.writer, self.reader, self.checkpointer
        if writer is None:
            return
        self.writer = self.reader = self.checkpointer = None
        try:
            await self._idle.wait()  # what was sent before is committed (or failed)
            if self.checkpointing is not None:
                await self.checkpointing
        finally:  # even cut short: each connection's thread would keep the process alive
            for side in (reader, checkpointer):
                if side is not None and side is not writer:
                    await side.close()
            await writer.close()

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """An :class:`asyncio.Lock` per game (one process per database file)."""
        return self._game_locks.hold(game_id)

    async def write_holding(self, game_id: int, sql: str, params: Sequence[Any]) -> list[Row]:
        """The one statement, committed by itself (an :class:`asyncio.Lock` cannot be
        lost): when the writer is free, run outside any ``BEGIN``, which SQLite commits
        on its own, so one call to the writer's thread instead of three; else with the
        transactions queued."""
        db = self._writer()
        if self._writing:
            return await self.transact(lambda tx: tx.fetch(sql, params))
        self._writing = True
        self._idle.clear()
        try:
            rows = await db.execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        finally:
            self._send_queued(db)
        self._wrote()
        return rows if isinstance(rows, list) else list(rows)

    # -- reads and writes -----------------------------------------------------------

    def _writer(self) -> aiosqlite.Connection:
        if self.writer is None:
            raise StoreError("store is not open")
        return self.writer

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """On the reader's own connection, or (in memory) the writer's; what fails is
        :class:`~bot.records.ReadFailed`."""
        reader = self.reader or self._writer()
        try:
            rows = await reader.execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            raise ReadFailed(str(exc)) from exc
        return rows if isinstance(rows, list) else list(rows)

    async def transact(self, work: Work[T]) -> T:
        """``work`` in a transaction of its own when the writer is free; else queued,
        to go with the others sent meanwhile once the writer is done (see the module)."""
        db = self._writer()
        try:
            if self._writing:
                future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
                self._queued.append((work, future))
                result = await future
            else:
                self._writing = True
                self._idle.clear()
                try:
                    result = await self._alone(db, work)
                finally:
                    self._send_queued(db)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        self._wrote()
        return result

    @staticmethod
    async def _alone(db: aiosqlite.Connection, work: Work[T]) -> T:
        """``work`` in one transaction: committed on success, rolled back on any error
        (or if its caller is cancelled meanwhile, before the ``COMMIT`` was sent)."""
        try:
            await db.execute("BEGIN IMMEDIATE")
            result = await work(SqliteTx(db))
            await db.execute("COMMIT")
        except BaseException:
            await _undo(db)
            raise
        return result

    def _send_queued(self, db: aiosqlite.Connection) -> None:
        """Let the writer go on with the transactions queued meanwhile, if any."""
        if self._queued:
            self._draining = asyncio.create_task(self._drain(db))
        else:
            self._writing = False
            self._idle.set()

    async def _drain(self, db: aiosqlite.Connection) -> None:
        """Run the queued transactions, a batch at a time, until none is left (those
        whose caller is gone meanwhile are left out)."""
        try:
            while self._queued:
                batch, self._queued = self._queued[:BATCH], self._queued[BATCH:]
                batch = [(work, future) for work, future in batch if not future.done()]
                if not batch:
                    continue
                try:
                    outcomes = await self._together(db, [work for work, _ in batch])
                except asyncio.CancelledError:
                    for _, future in batch:
                        future.cancel()
                    raise
                except Exception as exc:  # the batch's commit failed
                    outcomes = [(False, exc)] * len(batch)
                for (_, future), (done, value) in zip(batch, outcomes, strict=True):
                    if future.done():  # its caller was cancelled meanwhile
                        continue
                    if done:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:  # emptied, unless the drain itself was cancelled
            self._writing = False
            self._idle.set()
            left, self._queued = self._queued, []
            for _, future in left:
                future.cancel()

    async def _together(
        self, db: aiosqlite.Connection, works: Sequence[Work[Any]]
    ) -> list[tuple[bool, Any]]:
        """Run ``works`` in order in one write transaction, each as if alone: what one
        raises undoes that one alone and is its outcome ``(False, error)``; the others'
        are ``(True, result)``. One commit for all: should it fail (or an error undo the
        whole transaction), every work fails with that error.

        A work that fails has mostly written nothing (a refused click, a lost
        compare-and-set): then there is nothing to undo. So the batch first runs without
        savepoints (two statements a work fewer); only if a work fails after writing is
        everything rolled back and run again, each work under a savepoint."""
        try:
            return await self._each_in_one(db, works, saved=False)
        except _WroteThenFailed:
            return await self._each_in_one(db, works, saved=True)

    @staticmethod
    async def _each_in_one(
        db: aiosqlite.Connection, works: Sequence[Work[Any]], saved: bool
    ) -> list[tuple[bool, Any]]:
        tx = SqliteTx(db)
        outcomes: list[tuple[bool, Any]] = []
        try:
            await db.execute("BEGIN IMMEDIATE")
            for work in works:
                if saved:
                    await db.execute("SAVEPOINT work")
                written = db.total_changes
                try:
                    outcomes.append((True, await work(tx)))
                except Exception as exc:
                    if not db.in_transaction:  # SQLite rolled everything back (I/O, full)
                        raise
                    if saved:
                        await db.execute("ROLLBACK TO work")
                    elif db.total_changes != written:
                        raise _WroteThenFailed from exc
                    outcomes.append((False, exc))
                if saved:
                    await db.execute("RELEASE work")
            await db.execute("COMMIT")
        except BaseException:
            await _undo(db)
            raise
        return outcomes

    def _wrote(self) -> None:
        """Count a committed write; every so many, checkpoint the WAL in the background."""
        self._writes += 1
        busy = self.checkpointing is not None and not self.checkpointing.done()
        if self._writes < CHECKPOINT_EVERY or self.checkpointer is None or busy:
            return
        self._writes = 0
        self.checkpointing = asyncio.create_task(self._checkpoint(self.checkpointer))

    async def _checkpoint(self, checkpointer: aiosqlite.Connection) -> None:
        try:
            await checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError) as exc:  # ValueError: closed meanwhile
            log.warning("store %s: checkpoint failed: %s", self.path, exc)
