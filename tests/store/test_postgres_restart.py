"""PostgreSQL going away mid-game: the server restarting (cleanly, or killed), and
every session ended by an administrator. The bot connects again by itself; a click
meanwhile gets the store's error and leaves nothing behind; every click that was
answered stays stored, exactly once; the games finish afterwards.

Also the transactions whose connection breaks at each point of their way: before the
``COMMIT`` (run again on a new connection), and while committing (the server is asked
what became of it; see :mod:`bot.store.postgres`).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest

from bot.rules import Move
from bot.service.games import GameService
from bot.store import Store, StoreError, VersionConflict
from bot.store import postgres as pg
from bot.store.engine import Tx

from .helpers import make_running, play, query
from .postgres_server import PostgresServer

PATIENCE = 60.0  # seconds before a hang counts as a failure (never a speed check)
GUILD, PLAYERS = 1, (11, 22, 33)
GAMES = 4


async def until(
    check: Callable[[], bool],
    what: str,
    patience: float = PATIENCE,
    tasks: Sequence[asyncio.Task[None]] = (),
    state: Callable[[], object] = lambda: "",
) -> None:
    """Wait until ``check()`` holds, at most ``patience`` seconds (failing at once
    should one of ``tasks`` fail)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while not check():
        for task in tasks:
            if task.done() and task.exception() is not None:
                raise AssertionError(f"a table stopped, before: {what}") from task.exception()
        assert loop.time() < deadline, f"never happened: {what} {state()}"
        await asyncio.sleep(0.01)


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """A database of its own whose commits survive a crash of the server
    (``synchronous_commit``, off for the rest of the suite)."""
    url = postgres.new_database()
    with psycopg.connect(url, autocommit=True) as admin:
        name = admin.info.dbname
        admin.execute(f"ALTER DATABASE {name} SET synchronous_commit = on")
    return url


@pytest.fixture
async def service(url: str) -> AsyncIterator[GameService]:
    store = await Store.open(url)
    try:
        yield GameService(store, seeds=lambda: 2024)
    finally:
        await store.close()


@dataclass
class Table:
    """One game's players clicking one after the other, as fast as the store answers:
    whoever the game waits for first makes a random legal move."""

    service: GameService
    game_id: int
    rng: random.Random
    answered: list[tuple[int, dict[str, Any], float]] = field(default_factory=list)
    """(player, move, when) of each click the service answered."""
    refused: list[float] = field(default_factory=list)
    """When each click (or the read before it) got the store's error."""
    unknown: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """Clicks whose commit's fate the store could not learn (either way is right)."""
    spans: list[tuple[float, float]] = field(default_factory=list)
    """(sent, answered) of each answered click."""
    pending: float | None = None
    """When the click under way was sent."""
    finished: bool = False

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.pending = None
            try:
                game = (await self.service.keeper.read(self.game_id)).game
            except StoreError:
                self.refused.append(time.monotonic())
                await asyncio.sleep(0.005)
                continue
            assert game is not None
            if game.finished:
                self.finished = True
                return
            decision = game.decision()
            player = sorted(decision.waiting)[0]
            move: Move = self.rng.choice(game.legal_moves(player))
            self.pending = sent = time.monotonic()
            try:
                await self.service.turns.move(self.game_id, player, game.turn, decision.phase, move)
            except pg.CommitUnknown:
                self.unknown.append((player, move.to_json()))
            except StoreError:
                self.refused.append(time.monotonic())
                await asyncio.sleep(0.005)
            else:
                self.answered.append((player, move.to_json(), time.monotonic()))
                self.spans.append((sent, time.monotonic()))

    def answered_after(self, moment: float) -> bool:
        return any(when > moment for _, _, when in self.answered)

    def refused_or_waiting(self, cut: float) -> bool:
        """Whether a click since ``cut`` was refused, or a click is under way (with the
        server away: its commit's answer lost, it waits to learn its fate), or the game
        is over."""
        return any(when > cut for when in self.refused) or self.pending is not None or self.finished

    def state(self, cut: float) -> str:
        now = time.monotonic()
        return (
            f"game {self.game_id}: {len(self.answered)} answered, {len(self.refused)} "
            f"refused, last answered {self.answered[-1][2] - cut:.2f} s after the cut, "
            f"pending since {None if self.pending is None else now - self.pending} s, "
            f"finished {self.finished}"
        )

    def spanned(self, cut: float, back: float) -> bool:
        """Whether a click sent before ``cut`` was answered after ``back`` (it waited
        to learn what became of its commit)."""
        return any(sent < cut and answered > back for sent, answered in self.spans)


async def tables(service: GameService) -> list[Table]:
    made = []
    for index in range(GAMES):
        record = await service.lobby.open(GUILD, 100 + index, PLAYERS[0], "classic")
        for player in PLAYERS[1:]:
            await service.lobby.join(record.id, player)
        await service.lobby.start(record.id, PLAYERS[0])
        made.append(Table(service, record.id, random.Random(index)))
    return made


def check_stored(url: str, table: Table) -> None:
    """The game's moves are the clicks that were answered, each once, in order (and
    those whose fate was unknown, or not); it finished."""
    rows = query(
        url,
        "SELECT player_id, move FROM moves WHERE game_id = ? AND source = 'player' ORDER BY seq",
        (table.game_id,),
    )
    stored = [(int(player), pg_json(move)) for player, move in rows]
    answered = [(player, move) for player, move, _ in table.answered]
    if not table.unknown:
        assert stored == answered
    else:  # an unknown click, if stored, sits among the answered ones
        assert [s for s in stored if s not in table.unknown] == [
            a for a in answered if a not in table.unknown
        ]
    status = query(url, "SELECT status FROM games WHERE id = ?", (table.game_id,))
    assert status == [("finished",)]
    assert query(url, "SELECT COUNT(*) FROM results WHERE game_id = ?", (table.game_id,)) == [
        (len(PLAYERS),)
    ]


def pg_json(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else dict(json.loads(value))


async def outage(
    postgres: PostgresServer,
    service: GameService,
    games: list[Table],
    interrupt: Callable[[], None],
    resume: Callable[[], None] | None,
) -> tuple[float, float, float]:
    """Games being played, ``interrupt`` the server mid-game (then ``resume`` it, once
    every table has had a click refused, or has one waiting),
    and play the games to their end. The seconds from the server answering again to
    every table's next answered click; when the server was interrupted, and back."""
    stop = asyncio.Event()
    players = [asyncio.create_task(table.play(stop)) for table in games]
    try:
        await until(
            lambda: all(len(t.answered) >= 3 for t in games), "the games under way", tasks=players
        )
        cut = time.monotonic()
        await asyncio.to_thread(interrupt)
        if resume is not None:
            try:
                await until(
                    lambda: all(t.refused_or_waiting(cut) for t in games),
                    "a click refused at every table while the server is away",
                    tasks=players,
                    state=lambda: [t.state(cut) for t in games],
                )
                # A table whose click was under way at the cut waits to learn its fate
                # (on a busy machine, every table may): the others had one refused.
                assert any(t.refused for t in games) or all(
                    t.pending is not None or t.finished for t in games
                )
            finally:  # the server comes back whatever this test finds: others use it
                await asyncio.to_thread(resume)
        back = time.monotonic()
        await until(
            lambda: all(t.answered_after(back) or t.finished for t in games),
            "every table's clicks answered again",
            tasks=players,
        )
        took = max(
            min((w for _, _, w in t.answered if w > back), default=back) - back for t in games
        )
        await until(lambda: all(t.finished for t in games), "every game finished", 300, players)
        return took, cut, back
    finally:
        stop.set()
        await asyncio.gather(*players)


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_a_server_restart_mid_game(
    postgres: PostgresServer, service: GameService, url: str, mode: str
) -> None:
    """``fast``: a restart (every session ended, a clean shutdown); ``immediate``: the
    server killed and started again on the same data (crash recovery)."""
    games = await tables(service)
    took, cut, back = await outage(
        postgres, service, games, lambda: postgres.halt(mode), postgres.resume
    )
    for table in games:
        check_stored(url, table)
    print(
        f"restart ({mode}): every table answered again {took:.2f} s after the server "
        f"was back; {sum(len(t.refused) for t in games)} refusals, "
        f"{sum(len(t.unknown) for t in games)} unknown, "
        f"{sum(t.spanned(cut, back) for t in games)} answered across the outage"
    )


async def test_every_session_ended_mid_game(
    postgres: PostgresServer, service: GameService, url: str
) -> None:
    """``pg_terminate_backend`` on every session of the database, several times while
    the games go on: the bot opens new connections at the next request."""
    games = await tables(service)
    name = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
    rounds: list[int] = []

    def terminate() -> None:
        for _ in range(5):
            rounds.append(postgres.terminate_sessions(str(name)))
            done = sum(len(t.answered) for t in games)
            deadline = time.monotonic() + PATIENCE
            while sum(len(t.answered) for t in games) < done + GAMES:  # clicks go on
                if all(t.finished for t in games):
                    return
                assert time.monotonic() < deadline, "no click answered after a termination"
                time.sleep(0.01)

    took, _, _ = await outage(postgres, service, games, terminate, None)
    assert sum(rounds) >= 3, rounds  # sessions were there to end
    for table in games:
        check_stored(url, table)
    print(
        f"terminations {rounds}: {sum(len(t.refused) for t in games)} refusals, "
        f"{sum(len(t.unknown) for t in games)} unknown, answered again within {took:.2f} s"
    )


# -- one transaction, its connection broken at each point ---------------------------


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    async with Store(url) as opened:
        await opened.engine.transact(
            lambda tx: tx.execute("CREATE TABLE marks (id INTEGER PRIMARY KEY, note TEXT)")
        )
        yield opened


def marks(url: str) -> list[tuple[Any, ...]]:
    return query(url, "SELECT id, note FROM marks ORDER BY id")


async def end_own_session(tx: Tx) -> None:
    """Have the server end this transaction's session (an administrator would)."""
    raw: psycopg.AsyncConnection[Any] = tx.raw  # type: ignore[attr-defined]
    with psycopg.connect(raw.info.dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (raw.info.backend_pid,))
    with pytest.raises(psycopg.OperationalError):
        await raw.execute("SELECT 1")


async def test_a_session_ended_before_commit_runs_again_once(store: Store, url: str) -> None:
    runs: list[int] = []

    async def work(tx: Tx) -> str:
        runs.append(1)
        await tx.execute("INSERT INTO marks (id, note) VALUES (?, ?)", (len(runs), "x"))
        if len(runs) == 1:
            await end_own_session(tx)
        return "done"

    assert await store.engine.transact(work) == "done"
    assert (len(runs), marks(url)) == (2, [(2, "x")])  # the first run left nothing


async def test_an_idle_connection_ended_meanwhile_is_replaced(
    postgres: PostgresServer, store: Store, url: str
) -> None:
    await store.engine.transact(lambda tx: tx.execute("INSERT INTO marks VALUES (1, 'a')"))
    name = str(psycopg.conninfo.conninfo_to_dict(url)["dbname"])
    assert postgres.terminate_sessions(name) >= 2  # a writer and the reader at least
    await store.engine.transact(lambda tx: tx.execute("INSERT INTO marks VALUES (2, 'b')"))
    assert await store.engine.fetch("SELECT id FROM marks ORDER BY id") == [(1,), (2,)]


def lose_the_commit(tx: Tx, commit: bool, crash: Callable[[], None] | None = None) -> None:
    """The next ``COMMIT`` on this connection is (with ``commit``) or is not applied,
    and its answer lost with the connection (``crash``: the server killed and started
    again meanwhile)."""
    raw: psycopg.AsyncConnection[Any] = tx.raw  # type: ignore[attr-defined]
    execute = raw.execute

    async def broken(sql: Any, params: Any = None) -> Any:
        if sql != "COMMIT":
            return await execute(sql, params)
        await execute("COMMIT" if commit else "ROLLBACK")
        if crash is not None:
            crash()
        raw.pgconn.finish()  # the socket closed: the answer never arrives
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    raw.execute = broken  # type: ignore[method-assign]


@pytest.mark.parametrize("applied", [True, False])
async def test_a_lost_commit_answer_is_settled_by_asking(
    store: Store, url: str, applied: bool
) -> None:
    """Applied: the caller hears of success and nothing runs twice; not applied: the
    work runs again (nothing of it was stored)."""
    runs: list[int] = []

    async def work(tx: Tx) -> int:
        runs.append(1)
        await tx.execute("INSERT INTO marks (id, note) VALUES (?, 'm')", (len(runs),))
        if len(runs) == 1:
            lose_the_commit(tx, applied)
        return len(runs)

    assert await store.engine.transact(work) == (1 if applied else 2)
    assert marks(url) == [(1 if applied else 2, "m")]


@pytest.mark.parametrize("applied", [True, False])
async def test_a_commit_lost_in_a_crash(
    postgres: PostgresServer, store: Store, url: str, applied: bool
) -> None:
    """After a crash a transaction id may be handed out again: one not committed is
    known not to be (it runs again); one committed cannot be told from another's
    (:class:`CommitUnknown`), and nothing runs twice."""
    runs: list[int] = []

    def crash() -> None:
        postgres.halt("immediate")
        postgres.resume()

    async def work(tx: Tx) -> int:
        runs.append(1)
        await tx.execute("INSERT INTO marks (id, note) VALUES (?, 'c')", (len(runs),))
        if len(runs) == 1:
            lose_the_commit(tx, applied, crash)
        return len(runs)

    if applied:
        with pytest.raises(pg.CommitUnknown):
            await store.engine.transact(work)
    else:
        assert await store.engine.transact(work) == 2
    assert marks(url) == [(len(runs), "c")]
    assert len(runs) == (1 if applied else 2)


async def test_an_unknown_commit_is_an_error_and_a_repeat_is_refused(
    store: Store, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server cannot be asked: :class:`CommitUnknown` (the store's error); the
    click repeated is refused by the game's compare-and-set, never applied twice."""
    game = await make_running(store)
    monkeypatch.setattr(pg, "SETTLE_PATIENCE", 0.3)
    engine: Any = store.engine
    connect = engine._gate.connect

    async def unreachable() -> Any:
        raise StoreError("unreachable")

    calls = 0

    async def change(tx: Tx) -> Any:
        nonlocal calls
        calls += 1
        await tx.execute(
            "UPDATE games SET version = version + 1 WHERE id = ? AND version = ?",
            (game.id, game.version),
        )
        lose_the_commit(tx, True)
        monkeypatch.setattr(engine._gate, "connect", unreachable)

    with pytest.raises(pg.CommitUnknown):
        await store.engine.transact(change)
    monkeypatch.setattr(engine._gate, "connect", connect)
    assert calls == 1
    with pytest.raises(VersionConflict):  # the click again, on the version it saw
        await play(store, game, PLAYERS[0], {"kind": "pass"}, {"turn": 1})
    assert query(url, "SELECT version FROM games WHERE id = ?", (game.id,)) == [(game.version + 1,)]


async def test_a_server_away_is_refused_at_once_and_tried_again_later(
    postgres: PostgresServer, store: Store
) -> None:
    """While the server is away requests fail (most without an attempt to connect: the
    attempts are spaced out); once it is back, requests work again."""
    engine: Any = store.engine
    await asyncio.to_thread(postgres.halt, "fast")
    try:
        for _ in range(50):
            with pytest.raises(StoreError):
                await store.engine.fetch("SELECT 1")
        assert 1 <= engine._gate.failures < 50
    finally:
        await asyncio.to_thread(postgres.resume)
    back = time.monotonic()
    while True:
        try:
            assert await store.engine.fetch("SELECT 1") == [(1,)]
            break
        except StoreError:
            assert time.monotonic() - back < PATIENCE, "never answered again"
            await asyncio.sleep(0.01)
    assert engine._gate.failures == 0
    print(f"reads answered again {time.monotonic() - back:.2f} s after the server was back")
