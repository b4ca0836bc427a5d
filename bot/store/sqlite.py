"""The SQLite engine: connections on threads of their own, group commit, checkpoints.

Each connection lives on one thread (:class:`DatabaseThread`) that runs, in the order
they were sent, whole functions of the connection: a transaction is one function, so
one round trip however many statements it has.

* Writes: one connection. Every transaction is one function run inside ``BEGIN
  IMMEDIATE``; those sent while the writer is busy queue up and then go together, in
  one transaction, each still undone alone if it fails (group commit, see
  :func:`atomically_each`): under load, one commit (and one round trip) serves many
  clicks. Each caller still hears back only after the commit. Across processes
  SQLite's write lock (with a busy timeout) serialises writers.
* Reads: a second connection (in WAL mode they never wait behind a write).
* Checkpoints: a third connection copies the WAL back every :data:`CHECKPOINT_EVERY`
  writes, so no click waits while pages are flushed to disk.

An in-memory database has one connection for all three (a second would open another,
empty database).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Any, Final

from .errors import StoreError
from .locks import KeyedLocks
from .sql import Row, T, Work

log = logging.getLogger(__name__)

CHECKPOINT_EVERY: Final = 200
"""Write transactions between two WAL checkpoints."""
BATCH = 128
"""Transactions committed together at most: the first of a long queue hears back
sooner, and the write lock is never held long for other processes."""
WRITER_CHECKPOINT_PAGES: Final = 10_000  # the writer checkpoints itself only if those fall behind
READER_CACHE_KIB: Final = 256  # the reader connection's page cache

Opener = Callable[[], sqlite3.Connection]
Heard = Callable[[str], object]
"""Called with each statement SQLite runs, its parameters written in (see
:meth:`SqliteEngine.watch`)."""
Request = tuple[Callable[[sqlite3.Connection], Any], "asyncio.Future[Any]"]


def _settle(future: asyncio.Future[Any], done: bool, value: Any) -> None:
    if future.done():  # its caller was cancelled meanwhile
        return
    if done:
        future.set_result(value)
    else:
        future.set_exception(value)


class DatabaseThread:
    """One ``sqlite3`` connection and the one thread that uses it."""

    def __init__(self, opener: Opener, name: str) -> None:
        self._opener = opener
        self._requests: SimpleQueue[Request | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._conn: sqlite3.Connection | None = None
        self._stopped = False

    async def start(self) -> None:
        """Start the thread and open the connection on it (its error, if it cannot)."""
        self._thread.start()
        try:
            await self.run(self._open)
        except BaseException:
            self._stop()
            raise

    def _open(self, _: sqlite3.Connection | None) -> None:
        self._conn = self._opener()

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the thread, after whatever was sent before."""
        if self._stopped:
            raise StoreError("store is not open")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._requests.put((fn, future))
        return await future

    def _serve(self) -> None:
        while (request := self._requests.get()) is not None:
            fn, future = request
            try:
                # The connection is open while requests are served (closed after the last).
                outcome = (True, fn(self._conn))  # type: ignore[arg-type]
            except BaseException as exc:  # handed to the caller, whatever it is
                outcome = (False, exc)
            # Not ``with suppress``: its three calls would cost each transaction more.
            try:  # noqa: SIM105
                future.get_loop().call_soon_threadsafe(_settle, future, *outcome)
            except RuntimeError:  # a closed loop: nobody waits any more
                pass
        if self._conn is not None:
            self._conn.close()

    async def close(self) -> None:
        """Close the connection once what was sent before is done."""
        if self._stopped:
            return
        done = asyncio.get_running_loop().create_future()
        self._requests.put((lambda _: None, done))
        self._stop()
        await done
        await asyncio.to_thread(self._thread.join)

    def _stop(self) -> None:
        self._stopped = True
        self._requests.put(None)


def atomically(conn: sqlite3.Connection, work: Work[T]) -> T:
    """Run ``work`` in one write transaction: committed on success, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class _WroteThenFailed(Exception):
    """A transaction of a batch failed after writing: the batch goes again, each under
    a savepoint of its own."""


def atomically_each(conn: sqlite3.Connection, works: Sequence[Work[Any]]) -> list[tuple[bool, Any]]:
    """Run ``works`` in order in one write transaction, each as if alone: what one
    raises undoes that one alone and is its outcome ``(False, error)``; the others'
    are ``(True, result)``. One commit for all: should it fail (or an error undo the
    whole transaction), every work fails with that error.

    A work that fails has mostly written nothing (a refused click, a lost
    compare-and-set): then there is nothing to undo. So the batch first runs without
    savepoints (two statements a work fewer); only if a work fails after writing is
    everything rolled back and run again, each work under a savepoint."""
    try:
        return _each_in_one(conn, works, saved=False)
    except _WroteThenFailed:
        return _each_in_one(conn, works, saved=True)


def _each_in_one(
    conn: sqlite3.Connection, works: Sequence[Work[Any]], saved: bool
) -> list[tuple[bool, Any]]:
    conn.execute("BEGIN IMMEDIATE")
    outcomes: list[tuple[bool, Any]] = []
    try:
        for work in works:
            if saved:
                conn.execute("SAVEPOINT work")
            written = conn.total_changes
            try:
                outcomes.append((True, work(conn)))
            except Exception as exc:
                if not conn.in_transaction:  # SQLite rolled everything back (I/O, full)
                    raise
                if saved:
                    conn.execute("ROLLBACK TO work")
                elif conn.total_changes != written:
                    raise _WroteThenFailed from exc
                outcomes.append((False, exc))
            if saved:
                conn.execute("RELEASE work")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def is_memory(path: str | Path) -> bool:
    """An in-memory database: a second connection would open another, empty one."""
    return str(path) in ("", ":memory:")


Queued = tuple[Work[Any], "asyncio.Future[Any]"]


class SqliteEngine:
    """SQLite's connections and threads (see the module)."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, busy_timeout: float = 5.0) -> None:
        self.path = path
        self.label = str(path)
        self._busy_timeout_ms = int(busy_timeout * 1000)
        self.writer: DatabaseThread | None = None
        self.reader: DatabaseThread | None = None
        self.checkpointer: DatabaseThread | None = None
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

    @property
    def writers(self) -> list[DatabaseThread]:
        return [] if self.writer is None else [self.writer]

    # -- lifecycle -----------------------------------------------------------------

    async def open(self) -> None:
        if self.writer is not None:
            return
        opened: list[DatabaseThread] = []
        roles = ("writer",) if is_memory(self.path) else ("writer", "reader", "checkpointer")
        try:
            for role in roles:
                thread = DatabaseThread(partial(self._connect, role), f"sqlite-{role}")
                await thread.start()
                opened.append(thread)
        except BaseException as exc:
            for thread in opened:
                await thread.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open store {self.path}: {exc}") from exc
            raise
        self.writer, *sides = opened
        self.reader, self.checkpointer = sides or (self.writer, None)

    def _connect(self, role: str) -> sqlite3.Connection:
        """A connection for ``role``, on the thread that will use it."""
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            conn.set_trace_callback(self._heard)
            conn.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
            if role == "reader":
                conn.execute("PRAGMA query_only = ON")
                # A small page cache of its own (SQLite's default is 2 MB): the pages it
                # would keep stay in the system's file cache all the same; the stats,
                # daily and rating reads took no longer (benchmarks), with 1.6 MB less held.
                conn.execute(f"PRAGMA cache_size = -{READER_CACHE_KIB:d}")
            if role == "writer":
                mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
                if mode.lower() != "wal":
                    log.warning("store %s: journal_mode is %s, not WAL", self.path, mode)
                # In WAL mode a commit then no longer waits for the disk; a power cut
                # may lose the last commits, never the file's consistency.
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute(f"PRAGMA wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES:d}")
                conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    async def watch(self, heard: Heard | None) -> None:
        """Have ``heard`` called with every statement run on any of the engine's
        connections from now on (reads, transactions' ``BEGIN`` and ``COMMIT``, each row
        of an ``executemany``), on that connection's thread; None: no longer. For
        benchmarks that count a click's statements: it costs each statement a call."""
        self._heard = heard
        sides = (self.writer, self.reader, self.checkpointer)
        for thread in {side for side in sides if side is not None}:
            await thread.run(lambda conn: conn.set_trace_callback(heard))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement on the writer's connection, as it is (no transaction of its own)."""
        values = tuple(params)
        return await self._writer().run(lambda conn: conn.execute(sql, values).fetchall())

    async def migrate(self, work: Work[int]) -> int:
        """``work`` in one transaction that takes the write lock first (``BEGIN
        IMMEDIATE``), so the version it reads is the one it updates."""
        writer = self._writer()
        try:
            await self.execute("BEGIN IMMEDIATE")
            try:
                version = await writer.run(work)
            except BaseException:
                await self.execute("ROLLBACK")
                raise
            await self.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open store {self.path}: {exc}") from exc
        return version

    async def close(self) -> None:
        writer, reader, checkpointer = self.writer, self.reader, self.checkpointer
        self.writer = self.reader = self.checkpointer = None
        if self.checkpointing is not None:
            await self.checkpointing
        await self._idle.wait()  # what was sent before is committed (or failed)
        for side in (reader, checkpointer):
            if side is not None and side is not writer:
                await side.close()
        if writer is not None:
            await writer.close()

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """An :class:`asyncio.Lock` per game (one process per database file)."""
        return self._game_locks.hold(game_id)

    async def write_holding(self, game_id: int, sql: str, params: Sequence[Any]) -> None:
        """:meth:`transact` of the one statement: an :class:`asyncio.Lock` cannot be lost."""
        await self.transact(lambda conn: conn.execute(sql, params))

    # -- reads and writes -----------------------------------------------------------

    def _writer(self) -> DatabaseThread:
        if self.writer is None:
            raise StoreError("store is not open")
        return self.writer

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """On the reader's own connection, or (in memory) the writer's."""
        reader = self.reader or self._writer()
        values = tuple(params)
        try:
            return await reader.run(lambda conn: conn.execute(sql, values).fetchall())
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    async def transact(self, work: Work[T]) -> T:
        """One round trip to the writer's thread; while a transaction is there, those
        sent meanwhile queue up and go together next (see the module)."""
        writer = self._writer()
        try:
            if self._writing:
                future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
                self._queued.append((work, future))
                result = await future
            else:
                self._writing = True
                self._idle.clear()
                try:
                    result = await writer.run(lambda conn: atomically(conn, work))
                finally:
                    self._send_queued(writer)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        self._wrote()
        return result

    def _send_queued(self, writer: DatabaseThread) -> None:
        """Let the writer go on with the transactions queued meanwhile, if any."""
        if self._queued:
            self._draining = asyncio.create_task(self._drain(writer))
        else:
            self._writing = False
            self._idle.set()

    async def _drain(self, writer: DatabaseThread) -> None:
        """Send the queued transactions, a batch at a time, until none is left."""
        try:
            while self._queued:
                batch, self._queued = self._queued[:BATCH], self._queued[BATCH:]
                try:
                    outcomes = await writer.run(
                        partial(atomically_each, works=[work for work, _ in batch])
                    )
                except asyncio.CancelledError:
                    for _, future in batch:
                        future.cancel()
                    raise
                except Exception as exc:  # the batch's commit failed, or the store closed
                    outcomes = [(False, exc)] * len(batch)
                for (_, future), (done, value) in zip(batch, outcomes, strict=True):
                    _settle(future, done, value)
        finally:  # emptied, unless the drain itself was cancelled
            self._writing = False
            self._idle.set()
            left, self._queued = self._queued, []
            for _, future in left:
                future.cancel()

    def _wrote(self) -> None:
        """Count a committed write; every so many, checkpoint the WAL in the background."""
        self._writes += 1
        busy = self.checkpointing is not None and not self.checkpointing.done()
        if self._writes < CHECKPOINT_EVERY or self.checkpointer is None or busy:
            return
        self._writes = 0
        self.checkpointing = asyncio.create_task(self._checkpoint(self.checkpointer))

    async def _checkpoint(self, checkpointer: DatabaseThread) -> None:
        try:
            await checkpointer.run(
                lambda conn: conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            )
        except (sqlite3.Error, StoreError) as exc:  # StoreError: closed meanwhile
            log.warning("store %s: checkpoint failed: %s", self.path, exc)
