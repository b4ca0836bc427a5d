"""The PostgreSQL engine: ``open_store("postgresql://…")`` (see :mod:`bot.store.engine`).

Design: the store's transactions are async functions of a :class:`~bot.store.engine.Tx`,
written once (SQLite's spelling); this engine runs those very functions on psycopg 3's
async connections, on the event loop, and :mod:`bot.store.dialect` translates their
SQL (placeholders, identity ids, ``date_trunc``), once per statement.

* Writes: :data:`WRITERS` connections; a transaction takes an idle one (first come,
  first served), so transactions of different games overlap their round trips to the
  server. The games row is what orders a game's writes: compare-and-set updates lock
  it, so a change decided on an older version is refused, whichever connection (or
  process) wrote before. A serialisation failure or deadlock reruns the transaction.
* Reads: one more connection, autocommit (each read its own snapshot).
* Migrations: the one list of :mod:`bot.store.migrations`, in one transaction that
  first takes :data:`MIGRATION_LOCK` (``pg_advisory_xact_lock``), so processes that
  start together migrate one after the other, the later ones finding nothing to do.
* Limits (:data:`LIMITS`): a statement that runs for half a minute is cancelled, a
  transaction left open for a minute ended, unless the server or the URL says otherwise.
* :meth:`PostgresEngine.game_lock`: a session advisory lock keyed by the game id.
  The in-process lock comes first (session locks are re-entrant within a session);
  then ``pg_try_advisory_lock`` on one shared connection, which is all it takes while
  no other process holds the game; only when another does, the wait
  (``pg_advisory_lock``) runs on a connection of its own, so it holds up no other game.
  A session lock lives as long as its connection: should that connection break, the
  server frees every lock it held, and another process may take those games. So what
  a holder stores under its lock (:meth:`PostgresEngine.write_holding`: the
  channel's ``shown``) is committed on the very connection that took the lock, and
  only if it is still that connection: once it broke, each holder's write is refused
  (:class:`LockLost`, nothing stored) and its sync is left to the catch-up, rather
  than overwriting what another process showed meanwhile.

A server that restarts or drops connections (see :class:`Reconnect` and
:class:`Session`): a broken connection is opened again by the next request that needs
it, and a request that found it broken before anything could have been stored (a read,
a lock, a transaction before its ``COMMIT``) runs once more on the new one. While the
server cannot be reached, requests fail at once with :class:`StoreError` (the click's
"couldn't save, try again"); a new connection is tried after a pause that doubles up to
:data:`BACKOFF_CAP`, one attempt at a time. A transaction is never run again once its
``COMMIT`` may have reached the server: if the answer to a ``COMMIT`` is lost, the
server is asked what became of the transaction (``txid_status`` of the id it took
when it began): committed, the caller hears of success; aborted, it runs again (nothing
of it was stored); unknown within :data:`SETTLE_PATIENCE`, :class:`CommitUnknown`. A
click repeated after that cannot apply a move twice: every change is a compare-and-set
on the game's version, decided on the game as stored.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors

from bot.records.errors import CommitUnknown, LockLost, ReadFailed, StoreError

from .dialect import to_postgres
from .engine import Row, T, Tx, Work
from .locks import KeyedLocks

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
BACKOFF_FIRST = 0.05
"""Seconds before a new connection is tried again after a failed attempt; doubled
after each further failure, up to :data:`BACKOFF_CAP`."""
BACKOFF_CAP = 1.0
SETTLE_PATIENCE = 10.0
"""Seconds spent learning whether a ``COMMIT`` whose answer was lost was applied."""
CONNECT_TIMEOUT = 10
TCP_SETTINGS = {
    "keepalives": 1,
    "keepalives_idle": 15,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 30_000,
}
"""libpq's defaults for a TCP connection unless the URL says otherwise: a server that
vanished without closing its connections is noticed within about half a minute, not
after hours (ignored on a Unix socket)."""
LIMITS = {"statement_timeout": "30s", "idle_in_transaction_session_timeout": "60s"}
"""Each session's limits, where the server, the database, the role or the URL
(``?options=-c%20statement_timeout%3D10s``) sets none. A statement of the bot takes
milliseconds, a migration's excepted (it lifts the limit for itself), so one that runs
for half a minute waits on something that will not end (a lock held by a stuck
process, a query gone wrong): it is cancelled, the click is answered that it was not
saved, and the connection serves on; a wait for a game's lock that another process
holds that long is given up too, its channel left to the catch-up. A transaction left
open for a minute belongs to a process that stopped mid-way (the bot never leaves one
open): the server ends its session, and the row locks it held stop blocking the others."""
CONNECTED = "SELECT pg_postmaster_start_time(), " + ", ".join(
    f"set_config('{name}', CASE current_setting('{name}') WHEN '0' THEN %s "
    f"ELSE current_setting('{name}') END, false)"
    for name in LIMITS
)
"""A new session's first statement: when its server started, and its :data:`LIMITS`."""
BEGIN = "BEGIN; SELECT txid_current()"
"""A transaction's start, and the id it will commit under, in one round trip."""
Raw = psycopg.AsyncConnection[Any]


class LostCommit(Exception):
    """The answer to ``COMMIT`` of transaction ``xid`` was lost with the connection
    (``result``: what the work returned)."""

    def __init__(self, xid: int, result: Any, error: psycopg.Error) -> None:
        super().__init__(f"the answer to COMMIT of transaction {xid} was lost: {one_line(error)}")
        self.xid, self.result, self.error = xid, result, error


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())  # libpq's lines, as one


class PgTx:
    """A :class:`~bot.store.engine.Tx` on a psycopg connection, speaking the store's SQL."""

    __slots__ = ("raw",)

    def __init__(self, raw: Raw) -> None:
        self.raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self.raw.execute(to_postgres(sql), tuple(params))).rowcount

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cursor = await self.raw.execute(to_postgres(sql), tuple(params))
        return await cursor.fetchall()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self.raw.cursor() as cursor:
            await cursor.executemany(to_postgres(sql), [tuple(row) for row in rows])


async def atomically(raw: Raw, work: Work[T]) -> T:
    """Run ``work`` in one transaction; rerun it when PostgreSQL asks for it. Raises
    :class:`LostCommit` if the connection broke while committing."""
    for attempt in range(1, RETRIES + 1):
        try:
            return await _once(raw, work)
        except (errors.SerializationFailure, errors.DeadlockDetected) as exc:
            if attempt == RETRIES:
                raise
            log.info("transaction retried (%d): %s", attempt, exc.sqlstate)
    raise AssertionError("unreachable")


async def _once(raw: Raw, work: Work[T]) -> T:
    cursor = await raw.execute(BEGIN)
    while cursor.description is None and cursor.nextset():
        pass  # to the SELECT's result
    row = await cursor.fetchone()
    assert row is not None
    xid = int(row[0])
    try:
        result = await work(PgTx(raw))
    except BaseException:
        if not raw.closed:
            with suppress(psycopg.Error):
                await raw.execute("ROLLBACK")
        raise
    try:
        await raw.execute("COMMIT")
    except psycopg.OperationalError as exc:
        if raw.closed:  # sent or not, applied or not: only the server knows
            raise LostCommit(xid, result, exc) from exc
        raise  # the server answered: the transaction is rolled back
    return result


class Reconnect:
    """When an engine's sessions may open a connection: at once while the server
    answers; after a failed attempt, only once a pause has passed (doubling from
    :data:`BACKOFF_FIRST` to :data:`BACKOFF_CAP`), and one attempt at a time, other
    requests failing at once meanwhile, so that no request waits on a server that is
    away."""

    def __init__(self, url: str, label: str) -> None:
        self.url, self.label = url, label
        try:
            given = psycopg.conninfo.conninfo_to_dict(url)
            self._conninfo = psycopg.conninfo.make_conninfo(
                url, **{k: v for k, v in TCP_SETTINGS.items() if k not in given}
            )
        except psycopg.ProgrammingError:
            self._conninfo = url  # the connection attempt will say what is wrong
        self.failures = 0
        self._next = 0.0
        self._trying = False
        self._since = 0.0
        self._error = ""

    def pause(self) -> float:
        """Seconds until the next attempt may be made."""
        return max(0.0, self._next - time.monotonic()) if self.failures else 0.0

    async def connect(self) -> tuple[Raw, Any]:
        """A new connection, and when its server started."""
        now = time.monotonic()
        if self.failures and (self._trying or now < self._next):
            raise StoreError(
                f"cannot connect to PostgreSQL {self.label} (tried again in "
                f"{max(0.0, self._next - now):.2f} s): {self._error}"
            )
        self._trying = True
        try:
            raw = await psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
            try:
                row = await (await raw.execute(CONNECTED, tuple(LIMITS.values()))).fetchone()
            except BaseException:
                await raw.close()
                raise
        except BaseException as exc:
            self._trying = False
            now = time.monotonic()
            if not self.failures:
                self._since = now
                log.warning("cannot connect to PostgreSQL %s: %s", self.label, why_not(exc))
            self.failures += 1
            self._next = now + min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** (self.failures - 1))
            self._error = why_not(exc)
            raise
        self._trying = False
        if self.failures:
            log.warning(
                "PostgreSQL %s reachable again after %.1f s (%d attempts)",
                self.label,
                time.monotonic() - self._since,
                self.failures,
            )
        self.failures = 0
        return raw, None if row is None else row[0]


class Session:
    """One PostgreSQL connection (opened on first use, and again after it broke).
    Its statements run one at a time (psycopg's lock), whoever sends them."""

    def __init__(self, gate: Reconnect) -> None:
        self.gate = gate
        self.raw: Raw | None = None
        self.server_started: Any = None
        """When the server of :attr:`raw` started (a restart since: a crash, maybe)."""
        self._connecting = asyncio.Lock()

    async def run(self, fn: Callable[[Raw], Awaitable[T]], *, again: bool = True) -> T:
        """``await fn(connection)``; with ``again``, once more on a new connection if
        the connection broke under it (every use but an unlock: what ran on a broken
        connection left nothing behind). A :class:`LostCommit` is settled (see
        :meth:`_settle`)."""
        try:
            return await self._call(fn, again)
        except psycopg.Error as exc:
            raise StoreError(one_line(exc)) from exc

    async def _ready(self) -> Raw:
        raw = self.raw
        if raw is not None and not raw.closed:
            return raw
        async with self._connecting:  # one connection, however many wait for it
            raw = self.raw
            if raw is None or raw.closed:
                self.raw = None
                raw, self.server_started = await self.gate.connect()
                self.raw = raw
        return raw

    async def _call(self, fn: Callable[[Raw], Awaitable[T]], again: bool) -> T:
        for attempt in (1, 2):
            raw = await self._ready()
            started = self.server_started
            try:
                return await fn(raw)
            except LostCommit as lost:
                log.warning(
                    "PostgreSQL %s: connection lost while committing: %s",
                    self.gate.label,
                    one_line(lost.error),
                )
                fate = await self._settle(lost.xid, started)
                if fate == "committed":
                    result: T = lost.result  # what ``fn`` returned
                    return result
                if fate is None:
                    raise CommitUnknown(
                        f"the connection to PostgreSQL {self.gate.label} "
                        "broke while committing, and whether the "
                        "transaction was stored is unknown"
                    ) from lost.error
                if attempt == 2:
                    raise StoreError(
                        f"the connection to PostgreSQL {self.gate.label} "
                        "broke twice; nothing was stored"
                    ) from lost.error
            except psycopg.OperationalError as exc:
                if not (again and raw.closed) or attempt == 2:
                    raise
                log.warning(
                    "PostgreSQL %s: connection lost (%s); once more on a new one",
                    self.gate.label,
                    one_line(exc),
                )
        raise AssertionError("unreachable")

    async def _settle(self, xid: int, started: Any) -> str | None:
        """What became of transaction ``xid``, which ran on a server started at
        ``started``: ``committed`` or ``aborted``, asked on a new connection until the
        server answers, within :data:`SETTLE_PATIENCE`; None if that cannot be known.

        After a crash (the server started since) an id whose commit never reached the
        log may be handed out again: ``in the future`` or not committed means ours was
        not; committed may be another's, so unknown."""
        deadline = time.monotonic() + SETTLE_PATIENCE
        while (left := deadline - time.monotonic()) > 0:
            try:
                raw = await self._ready()
                cursor = await raw.execute(
                    "SELECT txid_status(%s), pg_postmaster_start_time()", (xid,)
                )
                row = await cursor.fetchone()
            except errors.InvalidParameterValue:  # "transaction ID … is in the future"
                return self._settled(xid, "aborted")
            except (psycopg.Error, StoreError):
                await asyncio.sleep(min(max(self.gate.pause(), 0.01), left))
                continue
            assert row is not None
            fate, restarted = row[0], row[1] != started
            if restarted:
                return self._settled(xid, None if fate == "committed" else "aborted")
            if fate != "in progress":  # else its old session is still ending
                return self._settled(xid, None if fate is None else str(fate))
            await asyncio.sleep(0.01)
        return self._settled(xid, None)

    def _settled(self, xid: int, fate: str | None) -> str | None:
        log.warning(
            "PostgreSQL %s: transaction %d, whose COMMIT's answer was lost: %s",
            self.gate.label,
            xid,
            fate or "unknown",
        )
        return fate

    async def interrupt(self) -> None:
        """Cancel the statement the connection waits on."""
        raw = self.raw
        if raw is not None and not raw.closed:
            await raw.cancel_safe(timeout=PATIENCE)

    async def close(self) -> None:
        """Close the connection (if it was opened); given up after :data:`PATIENCE`."""
        if self.raw is not None:
            with suppress(psycopg.Error, TimeoutError):
                await asyncio.wait_for(self.raw.close(), PATIENCE)


async def _take(raw: Raw, key: int, wait: bool) -> Raw | None:
    """The connection that now holds ``key``'s lock (None: another session holds it)."""
    sql = "SELECT pg_advisory_lock(%s), true" if wait else "SELECT pg_try_advisory_lock(%s)"
    row = await (await raw.execute(sql, (key,))).fetchone()
    return raw if row and row[-1] else None


async def _release(raw: Raw, key: int, held: Raw) -> bool:
    """Give back ``key``'s lock if ``raw`` is ``held``, the connection that took it;
    False if it is another (the lock went with that one)."""
    if raw is not held:
        return False
    await raw.execute("SELECT pg_advisory_unlock(%s)", (key,))
    return True


@dataclass(frozen=True, slots=True)
class Hold:
    """A game's lock as this process holds it: on ``session``, by its connection
    ``raw`` (the lock lasts as long as that connection)."""

    session: Session
    raw: Raw


class PostgresEngine:
    """PostgreSQL's connections (see the module)."""

    backend = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self.label = redacted(url)
        self._gate = Reconnect(url, self.label)
        self.writers: list[Session] = []
        self._idle: asyncio.Queue[Session] | None = None
        self.reader: Session | None = None
        self._locker: Session | None = None
        self._waiters: list[Session] = []
        self._game_locks = KeyedLocks()
        self._holds: dict[int, Hold] = {}
        """The games whose advisory lock this process holds, and where."""

    @property
    def is_open(self) -> bool:
        return self._idle is not None

    async def open(self) -> None:
        """Make the sessions; each connects on first use."""
        if self._idle is not None:
            return
        self.reader, self._locker, *self.writers = [Session(self._gate) for _ in range(2 + WRITERS)]
        self._idle = asyncio.Queue()
        for writer in self.writers:
            self._idle.put_nowait(writer)

    async def migrate(self, work: Work[int]) -> int:
        """``work`` in one transaction that first takes :data:`MIGRATION_LOCK`."""

        async def locked(tx: Tx) -> int:
            await tx.execute("SET LOCAL statement_timeout = 0")  # a big table takes its time
            await tx.execute("SELECT pg_advisory_xact_lock(?, ?)", MIGRATION_LOCK)
            return await work(tx)

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
        another meanwhile); rerun on a serialisation failure or deadlock, and on a new
        connection if the connection broke before its ``COMMIT`` was sent (see the
        module for a ``COMMIT`` whose answer was lost)."""
        idle = self._idle
        if idle is None:
            raise StoreError("store is not open")
        writer = await idle.get()
        try:
            return await writer.run(lambda raw: atomically(raw, work))
        finally:
            idle.put_nowait(writer)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """On the reader's connection; what fails is :class:`~bot.records.errors.ReadFailed`."""
        query, values = to_postgres(sql), tuple(params)

        async def read(raw: Raw) -> list[Row]:
            return await (await raw.execute(query, values)).fetchall()

        reader = self._session(self.reader)
        try:
            return await reader.run(read)
        except StoreError as exc:
            raise ReadFailed(str(exc)) from exc

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """The in-process lock, then a session advisory lock keyed by the game id, so
        it excludes other processes too. Not re-entrant."""
        return self._advisory(game_id)

    @asynccontextmanager
    async def _advisory(self, game_id: int) -> AsyncIterator[None]:
        async with self._game_locks.hold(game_id):
            session = self._session(self._locker)
            held = await _settle(session, game_id, wait=False)
            if held is None:
                session = self._waiters.pop() if self._waiters else Session(self._gate)
                try:
                    held = await _settle(session, game_id, wait=True)
                except BaseException:
                    await session.close()
                    raise
                assert held is not None
            self._holds[game_id] = Hold(session, held)
            try:
                yield
            finally:
                del self._holds[game_id]
                await self._give_back(session, game_id, held)

    async def write_holding(self, game_id: int, sql: str, params: Sequence[Any]) -> list[Row]:
        """One statement, committed alone, on the connection that holds ``game_id``'s
        lock if this process holds it (one round trip): refused with :class:`LockLost`
        (nothing stored) once that connection broke, which freed the lock; should it
        break during the statement, whether it was applied is unknown, but if it was,
        it was while the lock was held. Without the lock, :meth:`transact`."""
        hold = self._holds.get(game_id)
        if hold is None:
            return await self.transact(lambda tx: tx.fetch(sql, params))
        query, values = to_postgres(sql), tuple(params)

        async def fenced(raw: Raw) -> list[Row]:
            if raw is not hold.raw:
                raise LockLost(game_id)
            cursor = await raw.execute(query, values)
            return [] if cursor.description is None else await cursor.fetchall()

        try:
            return await hold.session.run(fenced)
        except LockLost:
            log.warning(
                "game %d: its lock went with a broken connection; what its holder "
                "was storing is refused",
                game_id,
            )
            raise

    async def _give_back(self, session: Session, game_id: int, held: Raw) -> None:
        """Release ``game_id``, taken by ``held`` on ``session``, even when cancelled
        meanwhile (the cancellation is passed on once the lock is free)."""
        unlock = asyncio.ensure_future(
            session.run(lambda raw: _release(raw, game_id, held), again=False)
        )
        cancelled = False
        try:
            await asyncio.shield(unlock)
        except asyncio.CancelledError:
            cancelled = True
            await asyncio.wait([unlock])
        except StoreError:
            pass
        released = not unlock.cancelled() and unlock.exception() is None and unlock.result()
        if session is self._locker:
            if not released:  # a broken connection, which lost its locks with it
                log.warning(
                    "game %d: its lock had gone with its connection (%s)",
                    game_id,
                    unlock.exception() or "opened again since",
                )
        elif released and self._idle is not None and len(self._waiters) < SPARE_WAITERS:
            self._waiters.append(session)
        else:
            await session.close()  # ending the session frees whatever it held
        if cancelled:
            raise asyncio.CancelledError


async def _settle(session: Session, game_id: int, *, wait: bool) -> Raw | None:
    """Take ``game_id``'s advisory lock on ``session`` (``wait``: until it is free); the
    connection that holds it (None: another session does). If the caller is cancelled
    meanwhile, stop the wait and give back whatever was taken before passing the
    cancellation on."""
    future = asyncio.ensure_future(session.run(lambda raw: _take(raw, game_id, wait)))
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        if wait:
            try:
                await session.interrupt()
            except psycopg.Error as exc:
                log.warning("game %d: cannot cancel the wait for its lock: %s", game_id, exc)
        await asyncio.wait([future], timeout=PATIENCE)
        if (
            future.done()
            and not future.cancelled()
            and future.exception() is None
            and (held := future.result()) is not None
        ):
            with suppress(StoreError):
                await session.run(lambda raw: _release(raw, game_id, held), again=False)
        raise


def redacted(url: str) -> str:
    """``url`` without its password, for messages and logs: user, host, port (when
    given) and database."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    user = f"{info['user']}@" if info.get("user") else ""
    host, port, database = (str(info.get(key) or "") for key in ("host", "port", "dbname"))
    if host.startswith("/"):  # a Unix socket's folder
        return f"postgresql://{user}/{database}?host={host}" + (f"&port={port}" if port else "")
    shown = f"[{host}]" if ":" in host else host
    return f"postgresql://{user}{shown}{f':{port}' if port else ''}/{database}"


REFUSED = re.compile(r'server at "([^"]*)", port (\d+) failed: Connection refused')
NO_SOCKET = re.compile(r'server on socket "([^"]*)" failed: No such file or directory')
NO_DATABASE = re.compile(r'database "([^"]*)" does not exist')
NO_ROLE = re.compile(r'role "([^"]*)" does not exist')
WRONG_PASSWORD = re.compile(r'password authentication failed for user "([^"]*)"')
NO_HOST = re.compile(
    r"(?:failed to resolve host '([^']*)'|could not translate host name "
    r'"([^"]*)")'
)


def why_not(error: BaseException) -> str:
    """Why a connection to PostgreSQL failed, in a sentence a host can act on (libpq's
    own words, as one line, when none of the usual reasons fits)."""
    text = str(error)
    if found := REFUSED.search(text):
        return (
            f"the connection was refused at {found[1]}, port {found[2]}: is PostgreSQL "
            "running there, and listening on that address and port?"
        )
    if found := NO_SOCKET.search(text):
        return (
            f"there is no PostgreSQL socket {found[1]}: is the server running, with "
            "its socket in that folder?"
        )
    if found := NO_DATABASE.search(text):
        return f'the server has no database "{found[1]}" (make it first, e.g. createdb {found[1]})'
    if found := WRONG_PASSWORD.search(text):
        return f'wrong password for user "{found[1]}"'
    if "no password supplied" in text:
        return "the server asks for a password, and the URL has none"
    if found := NO_ROLE.search(text):
        return f'the server has no user (role) "{found[1]}"'
    if found := NO_HOST.search(text):
        return f"the host name {found[1] or found[2]} is not known (DNS)"
    if "timeout expired" in text:
        return f"no answer within {CONNECT_TIMEOUT} s"
    return one_sentence(text)


def one_sentence(text: str) -> str:
    """libpq's lines as one, each ending as a sentence ends."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " ".join(
        line if line[-1] in ".?!:" or i == len(lines) - 1 else f"{line}."
        for i, line in enumerate(lines)
    )


def check_reachable(url: str) -> None:
    """Connect to ``url`` once and close again; :class:`StoreError` with the reason
    (see :func:`why_not`) if that fails."""
    try:
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
    except psycopg.Error as error:
        raise StoreError(f"cannot connect to {redacted(url)}: {why_not(error)}") from None
