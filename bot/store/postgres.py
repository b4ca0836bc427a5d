"""The PostgreSQL engine: ``open_store("postgresql://…")`` (see :mod:`bot.store.engine`).

Design: the store's transactions are synchronous functions of a connection, written
once (SQLite's spelling); this engine runs those very functions on PostgreSQL through
psycopg 3's *synchronous* connection, each on a thread of its own, the way
:class:`~bot.store.sqlite.SqliteEngine` runs them on SQLite's: one thread hop per
transaction (a click), however many statements it has, and no query written twice.
An async driver (asyncpg) would have meant either an ``await`` per statement on both
backends (a hop per statement, what issue 15 removed) or a second, async copy of every
transaction. :mod:`bot.store.dialect` translates the SQL (placeholders, identity ids,
``date_trunc``), once per statement.

* Writes: :data:`WRITERS` connections, each with its thread; a transaction takes an
  idle one (first come, first served), so transactions of different games overlap
  their round trips to the server. The games row is what orders a game's writes:
  compare-and-set updates lock it, and :meth:`Store.change_game` reads it ``FOR
  UPDATE``, so a click decides on the latest state, whichever connection (or
  process) wrote before. A serialisation failure or deadlock reruns the transaction.
* Reads: one more connection and thread, autocommit (each read its own snapshot).
* Migrations: the one list of :mod:`bot.store.migrations`, in one transaction that
  first takes :data:`MIGRATION_LOCK` (``pg_advisory_xact_lock``), so processes that
  start together migrate one after the other, the later ones finding nothing to do.
* :meth:`PostgresEngine.game_lock`: a session advisory lock keyed by the game id.
  The in-process lock comes first (session locks are re-entrant within a session);
  then ``pg_try_advisory_lock`` on one shared connection, which is all it takes while
  no other process holds the game; only when another does, the wait
  (``pg_advisory_lock``) runs on a connection of its own, so it holds up no other game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import Any

import psycopg
from psycopg import errors

from .dialect import to_postgres
from .errors import StoreError
from .locks import KeyedLocks
from .sql import Connection, Row, T, Work

log = logging.getLogger(__name__)

MIGRATION_LOCK = (0x7177, 1)
"""The two-key advisory lock migrations hold; game locks use the one-key form
(``pg_advisory_lock(game_id)``), a separate key space."""
WRITERS = 4
"""Connections for writes per process."""
RETRIES = 5
"""Times a transaction runs before a serialisation failure or deadlock is an error."""
SPARE_WAITERS = 4
"""Connections kept for waiting on a game another process holds."""
PATIENCE = 10.0
"""Seconds a cancel request or a close may take before it is given up."""
Raw = psycopg.Connection[Any]


class PgConnection:
    """A psycopg connection speaking the store's SQL (:class:`bot.store.sql.Connection`)."""

    def __init__(self, raw: Raw) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return self.raw.execute(to_postgres(sql), tuple(params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> psycopg.Cursor[Any]:
        cursor = self.raw.cursor()
        cursor.executemany(to_postgres(sql), [tuple(row) for row in rows])
        return cursor


def atomically(raw: Raw, work: Work[T]) -> T:
    """Run ``work`` in one transaction; rerun it when PostgreSQL asks for it."""
    conn = PgConnection(raw)
    for attempt in range(1, RETRIES + 1):
        try:
            with raw.transaction():
                return work(conn)
        except (errors.SerializationFailure, errors.DeadlockDetected) as exc:
            if attempt == RETRIES:
                raise
            log.info("transaction retried (%d): %s", attempt, exc.sqlstate)
    raise AssertionError("unreachable")


class Session:
    """One PostgreSQL connection and the one thread that uses it (opened on first use,
    and again after the connection broke)."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self._thread = ThreadPoolExecutor(1, thread_name_prefix=name)
        self.raw: Raw | None = None

    async def run(self, fn: Callable[[Raw], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thread, self._call, fn)
        except psycopg.Error as exc:
            raise StoreError(" ".join(str(exc).split())) from exc  # libpq's lines, as one

    def _call(self, fn: Callable[[Raw], T]) -> T:
        if self.raw is None or self.raw.closed:
            self.raw = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        return fn(self.raw)

    def interrupt(self) -> None:
        """Cancel the statement the thread waits on (from any thread)."""
        raw = self.raw
        if raw is not None and not raw.closed:
            raw.cancel_safe(timeout=PATIENCE)

    async def close(self) -> None:
        """Close the connection (if it was opened) on its thread; given up after
        :data:`PATIENCE`, should that thread still be stuck in a statement."""
        loop = asyncio.get_running_loop()
        with suppress(psycopg.Error, TimeoutError):
            await asyncio.wait_for(loop.run_in_executor(self._thread, self._close), PATIENCE)
        self._thread.shutdown(wait=False)

    def _close(self) -> None:
        if self.raw is not None:
            self.raw.close()


def _take(raw: Raw, key: int, wait: bool) -> bool:
    sql = "SELECT pg_advisory_lock(%s), true" if wait else "SELECT pg_try_advisory_lock(%s)"
    row = raw.execute(sql, (key,)).fetchone()
    return bool(row and row[-1])


def _release(raw: Raw, key: int) -> None:
    raw.execute("SELECT pg_advisory_unlock(%s)", (key,))


class PostgresEngine:
    """PostgreSQL's connections and threads (see the module)."""

    backend = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self.label = redacted(url)
        self.writers: list[Session] = []
        self._idle: asyncio.Queue[Session] | None = None
        self.reader: Session | None = None
        self._locker: Session | None = None
        self._waiters: list[Session] = []
        self._game_locks = KeyedLocks()

    @property
    def is_open(self) -> bool:
        return self._idle is not None

    async def open(self) -> None:
        """Make the sessions; each connects on first use."""
        if self._idle is not None:
            return
        self.reader, self._locker, *self.writers = [
            Session(self.url, f"pg-{role}") for role in ("reader", "locks", *["writer"] * WRITERS)]
        self._idle = asyncio.Queue()
        for writer in self.writers:
            self._idle.put_nowait(writer)

    async def migrate(self, work: Work[int]) -> int:
        """``work`` in one transaction that first takes :data:`MIGRATION_LOCK`."""
        def locked(conn: Connection) -> int:
            conn.execute("SELECT pg_advisory_xact_lock(?, ?)", MIGRATION_LOCK)
            return work(conn)
        try:
            return await self.transact(locked)
        except StoreError as exc:
            raise StoreError(f"cannot open store {self.label}: {exc}") from exc

    async def close(self) -> None:
        sessions = [*self.writers, self.reader, self._locker, *self._waiters]
        self.reader = self._locker = self._idle = None
        self._waiters, self.writers = [], []
        for session in sessions:
            if session is not None:
                await session.close()

    def _session(self, session: Session | None) -> Session:
        if session is None:
            raise StoreError("store is not open")
        return session

    async def transact(self, work: Work[T]) -> T:
        """On an idle writer connection (a transaction of another game may run on
        another meanwhile); rerun on a serialisation failure or deadlock."""
        idle = self._idle
        if idle is None:
            raise StoreError("store is not open")
        writer = await idle.get()
        try:
            result = await writer.run(lambda raw: atomically(raw, work))
        finally:
            idle.put_nowait(writer)
        return result

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        query, values = to_postgres(sql), tuple(params)
        rows: list[Row] = await self._session(self.reader).run(
            lambda raw: raw.execute(query, values).fetchall())
        return rows

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The in-process lock, then a session advisory lock keyed by the game id, so
        it excludes other processes too. Not re-entrant."""
        return self._advisory(game_id)

    @asynccontextmanager
    async def _advisory(self, game_id: int) -> AsyncIterator[None]:
        async with self._game_locks.hold(game_id):
            session = self._session(self._locker)
            if not await _settle(session, game_id, wait=False):
                session = self._waiters.pop() if self._waiters else Session(self.url, "pg-wait")
                try:
                    await _settle(session, game_id, wait=True)
                except BaseException:
                    await session.close()
                    raise
            try:
                yield
            finally:
                await self._give_back(session, game_id)

    async def _give_back(self, session: Session, game_id: int) -> None:
        """Release ``game_id`` on ``session``, even when cancelled meanwhile (the
        cancellation is passed on once the lock is free)."""
        unlock = asyncio.ensure_future(session.run(lambda raw: _release(raw, game_id)))
        cancelled = False
        try:
            await asyncio.shield(unlock)
        except asyncio.CancelledError:
            cancelled = True
            await asyncio.wait([unlock])
        except StoreError:
            pass
        released = not unlock.cancelled() and unlock.exception() is None
        if session is self._locker:
            if not released:  # a broken connection, which lost its locks with it
                log.warning("game %d: advisory unlock failed: %s", game_id, unlock.exception())
        elif released and self._idle is not None and len(self._waiters) < SPARE_WAITERS:
            self._waiters.append(session)
        else:
            await session.close()  # ending the session frees whatever it held
        if cancelled:
            raise asyncio.CancelledError


async def _settle(session: Session, game_id: int, *, wait: bool) -> bool:
    """Take ``game_id``'s advisory lock on ``session`` (``wait``: until it is free);
    if the caller is cancelled meanwhile, stop the wait and give back whatever was
    taken before passing the cancellation on."""
    future = asyncio.ensure_future(session.run(lambda raw: _take(raw, game_id, wait)))
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        if wait:
            try:
                session.interrupt()
            except psycopg.Error as exc:
                log.warning("game %d: cannot cancel the wait for its lock: %s", game_id, exc)
        await asyncio.wait([future], timeout=PATIENCE)
        if future.done() and not future.cancelled() and future.exception() is None \
                and future.result():
            with suppress(StoreError):
                await session.run(lambda raw: _release(raw, game_id))
        raise


def redacted(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    host = info.get("host", "")
    return f"postgresql://{info.get('user', '')}@{host}/{info.get('dbname', '')}"
