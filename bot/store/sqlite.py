"""The SQLite engine: aiosqlite connections, a transaction in one call, group commit,
checkpoints apart.

Each connection is an :mod:`aiosqlite` one (a ``sqlite3`` connection on a thread of
its own), reached only through aiosqlite's public calls. Each call is a round trip to
that thread (a future, its queue, the thread's wake-up and the event loop's: 30-35 µs
of CPU here), and aiosqlite has no public call that runs a function of ours there.

* Writes: one connection. A transaction is ``BEGIN IMMEDIATE``, its work's statements
  and ``COMMIT``, all run in *one* call to the connection's thread: aiosqlite runs a SQL
  function made with its ``create_function`` on that thread, and the engine's
  (:data:`RUN_SQL`) runs the whole transaction there, on the ``sqlite3`` connection that
  aiosqlite's cursors name (``Cursor.connection``), used on that thread alone. Its work,
  an async function of a :class:`~bot.store.engine.Tx` whose calls answer at once there,
  runs to its end in one step (:func:`whole`). Those sent while the writer is busy queue
  up and then go together, in one transaction and one call, each still undone alone if
  it fails (group commit, see :func:`each_in_one`): under load one commit serves many
  clicks. Each caller still hears back only after the commit; one who stopped waiting
  before its transaction committed leaves nothing stored. A write of one statement (what
  a channel shows) runs outside any ``BEGIN`` when the writer is free: SQLite commits it
  by itself. Across processes SQLite's write lock (with a busy timeout) serialises
  writers.
* Reads: a second connection (in WAL mode they never wait behind a write).
* Checkpoints: a third connection copies the WAL back every :data:`CHECKPOINT_EVERY`
  writes, so no commit waits while pages are flushed to the database file.

What each of these is worth, measured, is in docs/performance.md. An in-memory
database has one connection for all three (a second would open another, empty one).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager, suppress
from pathlib import Path
from typing import Any, Final, cast

import aiosqlite

from bot.records.errors import ReadFailed, StoreError

from .engine import Row, T, Work
from .locks import KeyedLocks

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 200
"""Write transactions between two WAL checkpoints."""
BATCH = 128
"""Transactions committed together at most: the first of a long queue hears back
sooner, and the write lock is never held long for other processes."""
OPEN_PATIENCE = 60.0
"""Seconds an opening store waits for another process that holds the database (a shard
process starting beside it, migrating a new file): longer than any one statement waits."""
WRITER_CHECKPOINT_PAGES = 10_000  # the writer checkpoints itself only if those fall behind
READER_CACHE_KIB: Final = 256  # the reader connection's page cache
RUN_FUNCTION: Final = "engine_run"
RUN_SQL: Final = f"SELECT {RUN_FUNCTION}(?)"
"""Runs the engine's function sent under that key on the writer connection's thread."""

Heard = Callable[[str], object]
"""Called with each statement SQLite runs, its parameters written in (see
:meth:`SqliteEngine.watch`)."""
Queued = tuple[Work[Any], "asyncio.Future[Any]"]
Outcome = tuple[bool, Any]
"""``(True, result)`` or ``(False, error)``."""


class SqliteTx:
    """A :class:`~bot.store.engine.Tx` on a ``sqlite3`` connection, used on its own
    thread: each call answers at once (its coroutine never waits)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(sql, params).fetchall()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)


class AwaitsOutside(RuntimeError):
    """A SQLite transaction's work awaited something other than its :class:`SqliteTx`."""


def whole(work: Work[T], tx: SqliteTx) -> T:
    """``work(tx)`` run to its end in one step: it awaits only ``tx``, whose calls
    answer at once (else :class:`AwaitsOutside`, and the work is stopped there)."""
    steps = work(tx).__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    steps.close()
    raise AwaitsOutside("a SQLite transaction's work may await only its Tx")


def _undo(conn: sqlite3.Connection) -> None:
    """Roll back whatever transaction is open (none: SQLite undid it, or it never began)."""
    with suppress(sqlite3.OperationalError):
        conn.execute("ROLLBACK")


class CallerGone(Exception):
    """Whoever sent the transaction stopped waiting before its ``COMMIT``: undone."""


@contextmanager
def committed(conn: sqlite3.Connection, gone: Callable[[], bool]) -> Iterator[None]:
    """One write transaction around the block: ``BEGIN IMMEDIATE``, then ``COMMIT``;
    rolled back if the block raises, or if its caller is ``gone`` by the time it would
    commit."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        if gone():
            raise CallerGone
        conn.execute("COMMIT")
    except BaseException:
        _undo(conn)
        raise


def alone(conn: sqlite3.Connection, work: Work[T], gone: Callable[[], bool]) -> T:
    """``work`` in one transaction (see :func:`committed`)."""
    with committed(conn, gone):
        return whole(work, SqliteTx(conn))


class _WroteThenFailed(Exception):
    """A transaction of a batch failed after writing: the batch goes again, each under
    a savepoint of its own."""


def together(
    conn: sqlite3.Connection, batch: Sequence[Queued], gone: Callable[[], bool]
) -> list[Outcome]:
    """Run the works of ``batch`` in order in one write transaction, each as if alone:
    what one raises undoes that one alone and is its outcome ``(False, error)``; the
    others' are ``(True, result)``; one whose caller stopped waiting meanwhile is left
    out. One commit for all: should it fail (or an error undo the whole transaction,
    or the batch's sender be ``gone`` before it), every work fails with that error.

    A work that fails has mostly written nothing (a refused click, a lost
    compare-and-set): then there is nothing to undo. So the batch first runs without
    savepoints (two statements a work fewer); only if a work fails after writing is
    everything rolled back and run again, each work under a savepoint."""
    try:
        return each_in_one(conn, batch, gone, saved=False)
    except _WroteThenFailed:
        return each_in_one(conn, batch, gone, saved=True)


def each_in_one(
    conn: sqlite3.Connection, batch: Sequence[Queued], gone: Callable[[], bool], saved: bool
) -> list[Outcome]:
    tx = SqliteTx(conn)
    outcomes: list[Outcome] = []
    with committed(conn, gone):
        for work, future in batch:
            if future.done():  # its caller stopped waiting (read across threads: a flag)
                outcomes.append((False, CallerGone()))
                continue
            if saved:
                conn.execute("SAVEPOINT work")
            written = conn.total_changes
            try:
                outcomes.append((True, whole(work, tx)))
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
    return outcomes


class _Sent:
    """A function of the writer's ``sqlite3`` connection, sent to run on its thread;
    ``gone`` once its sender stopped waiting."""

    __slots__ = ("gone", "outcome", "run")

    def __init__(self, run: Callable[[sqlite3.Connection, Callable[[], bool]], Any]) -> None:
        self.run = run
        self.outcome: Outcome | None = None
        self.gone = False

    def run_on(self, conn: sqlite3.Connection) -> None:
        try:
            self.outcome = (True, self.run(conn, self.is_gone))
        except BaseException as exc:  # handed to the sender, whatever it is
            self.outcome = (False, exc)

    def is_gone(self) -> bool:
        return self.gone


def is_memory(path: str | Path) -> bool:
    """An in-memory database: a second connection would open another, empty one."""
    return str(path) in ("", ":memory:")


NESTED: Final = "-- "
"""How SQLite's trace marks a statement run from inside another (here: :data:`RUN_SQL`)."""


def unseen(heard: Heard | None) -> Heard | None:
    """``heard``, told of the statements :data:`RUN_SQL` runs as of any other, and not
    of :data:`RUN_SQL` itself."""
    if heard is None:
        return None
    carrier = RUN_SQL.split("?")[0]

    def told(sql: str) -> None:
        if sql.startswith(NESTED):
            heard(sql[len(NESTED) :])
        elif not sql.startswith(carrier):
            heard(sql)

    return told


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
        self._sent: dict[int, _Sent] = {}  # by key, until the writer's thread takes each
        self._keys = itertools.count()
        self._conn: sqlite3.Connection | None = None  # the writer's, used on its thread only

    @property
    def is_open(self) -> bool:
        return self.writer is not None

    # -- lifecycle -----------------------------------------------------------------

    async def open(self) -> None:
        """Open the connections; while another process holds the database (it reports
        itself locked), try again for up to :data:`OPEN_PATIENCE` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + OPEN_PATIENCE
        while True:
            try:
                return await self._open()
            except sqlite3.Error as exc:
                if not is_locked(exc) or loop.time() >= deadline:
                    raise StoreError(f"cannot open store {self.path}: {exc}") from exc
            log.info("store %s is held by another process; opening it again", self.path)
            await asyncio.sleep(0.5)

    async def _open(self) -> None:
        if self.writer is not None:
            return
        opened: list[aiosqlite.Connection] = []
        roles = ("writer",) if is_memory(self.path) else ("writer", "reader", "checkpointer")
        try:
            for role in roles:
                opened.append(await self._connect(role))
        except BaseException:
            for db in opened:
                await db.close()
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
                await db.create_function(RUN_FUNCTION, 1, self._run_sent)
                async with db.cursor() as cursor:
                    self._conn = cursor.connection
        except BaseException:
            await db.close()
            raise
        return db

    async def watch(self, heard: Heard | None) -> None:
        """Have ``heard`` called with every statement run on any of the engine's
        connections from now on (reads, transactions' ``BEGIN`` and ``COMMIT``, each row
        of an ``executemany``; not :data:`RUN_SQL`, which carries a transaction), on
        that connection's thread; None: no longer. For
        benchmarks that count a click's statements: it costs each statement a call."""
        self._heard = unseen(heard)
        sides = (self.writer, self.reader, self.checkpointer)
        for db in {side for side in sides if side is not None}:
            await db.set_trace_callback(self._heard)  # type: ignore[arg-type]  # None: none

    async def migrate(self, work: Work[int]) -> int:
        """``work`` in one transaction that takes the write lock first (``BEGIN
        IMMEDIATE``), so the version it reads is the one it updates; run as the store
        opens, before anything else is sent."""
        try:
            return await self._on_writer(self._writer(), lambda conn, gone: alone(conn, work, gone))
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
            self._conn = None

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """An :class:`asyncio.Lock` per game (one process per database file)."""
        return self._game_locks.hold(game_id)

    async def write_holding(self, game_id: int, sql: str, params: Sequence[Any]) -> list[Row]:
        """The one statement, committed by itself (an :class:`asyncio.Lock` cannot be
        lost): when the writer is free, run outside any ``BEGIN``, which SQLite commits
        on its own; else with the transactions queued."""
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
        :class:`~bot.records.errors.ReadFailed`."""
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
                    result = await self._on_writer(db, lambda conn, gone: alone(conn, work, gone))
                finally:
                    self._send_queued(db)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        self._wrote()
        return result

    async def _on_writer(
        self, db: aiosqlite.Connection, run: Callable[[sqlite3.Connection, Callable[[], bool]], T]
    ) -> T:
        """``run(connection, gone)`` on the thread of ``db`` (the writer), in one call to
        it: :data:`RUN_SQL` under a key of its own. Should the caller stop waiting,
        ``run`` is not begun if it was not yet, and ``gone()`` says so if it was."""
        sent, key = _Sent(run), next(self._keys)
        self._sent[key] = sent
        try:
            await db.execute_fetchall(RUN_SQL, (key,))
        except BaseException:
            self._sent.pop(key, None)
            sent.gone = True
            raise
        assert sent.outcome is not None, "the writer's thread ran what was sent"
        done, value = sent.outcome
        if not done:
            raise value
        return cast(T, value)

    def _run_sent(self, key: int) -> None:
        """On the writer's thread (the SQL function of :data:`RUN_SQL`): run what was
        sent under ``key``, unless its sender stopped waiting meanwhile."""
        sent = self._sent.pop(key, None)
        if sent is not None and self._conn is not None:
            sent.run_on(self._conn)

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
                    outcomes = await self._on_writer(
                        db,
                        lambda conn, gone: together(conn, batch, gone),  # noqa: B023
                    )
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


def is_locked(error: sqlite3.Error) -> bool:
    """Whether ``error`` is SQLite's "database is locked" (another connection holds it)."""
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)
