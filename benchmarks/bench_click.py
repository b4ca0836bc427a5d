"""How long does a click take, from the service's ``turns.move`` to its stored transaction?

Runs the real service over a real SQLite file in a temporary directory: 2-player
classic games in their own channels, every click a random legal move of the player the
game waits for (rules, compare-and-set, move and event log; the game's end with
its results). The client keeps each game's latest state from the click's answer, so
only ``turns.move`` is timed.

Each section also gives the process's CPU time per click (both threads, client
included): on a shared machine the wall clock also measures the neighbours. The
collector is set as the bot sets it once started (:mod:`bot.heap`); the
sustained run also tells the share of its time spent in garbage collection.

* floors — what a click's commit costs with nothing else around it:

  - the click's own commit (the floor the budget is measured against): the very
    statements, with the very parameters, that the one-game run's clicks send to the
    database (its row's compare-and-set, the move and the events: the same tables,
    rows and indexes), recorded from a run of the same game and replayed on a fresh
    store, each click's as one transaction through the store's engine (``BEGIN``, the
    statements and ``COMMIT`` in one call to the writer connection's thread); no rules,
    service or JSON work. Replayed in turns of 10 clicks with the one-game run's own, so
    both meet the machine's load of the moment;
  - one small row (shown for information): one transaction writing one small row, the
    least any transaction costs (a click writes several rows and index entries more);

* one game — sequential clicks: p50 and p99 (budget: p50 <= 0.3 ms), the CPU of a click
  (``turns.move`` alone, every thread; budget: <= 0.25 ms and within twice the click's own
  commit, the row also says how many one-row floors it is) and the transactions per
  click (budget: one);
* bursts — 100 and 1,000 games click at the same instant, a few times: p50, p99 and
  clicks/s (figures: with every click queued at once, the last waits for all others);
* sustained — 1,000 games in play, clicks arriving at 2,000 per second spread evenly
  over the games; latency counts from a click's arrival (waiting included): p99 <= 150 ms
  and >= 2,000 clicks/s achieved. "Achieved" is the rate clicks complete at while they
  arrive (from the first tenth of the run to its end): a service that keeps up
  completes them as fast as they come, one that cannot falls behind at its own pace.
  (Counting up to the last completion instead would ask every click to take no time.)

``--profile`` instead plays one game's clicks under :mod:`cProfile`, on the event
loop's thread and on the store's writer connection's thread each, and prints where their
time goes.

What the SQLite engine keeps beyond aiosqlite, each taken out in turn (see
docs/performance.md): ``--without group-commit`` runs the sections with every
transaction committed alone (batches of one); ``--checkpoints`` instead times 5,000
changes of one game made one after the other through the store, with the checkpoint
connection and then without it (the writer checkpointing itself, as SQLite does, every
1,000 pages), twice each, alternating: p50, p99, p99.9, the slowest, and CPU a change.

    python -m benchmarks.bench_click [--quick] [--profile | --checkpoints]
        [--without group-commit]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import pstats
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import bot.store.sqlite as engine_module
from bot.heap import tune_gc
from bot.records.games import GameChange
from bot.rules import Game
from bot.service.games import GameService
from bot.store import Store
from bot.store.engine import Tx

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)

ONE_GAME_P50_MS = 0.3
CPU_PER_CLICK_MS = 0.25
FLOOR_TIMES = 2.0  # a click's CPU within this many of its own commit's
BURST_P99_MS = 150.0
SUSTAINED_P99_MS = 150.0
SUSTAINED_RATE = 2_000.0
GUILD = 1
PLAYERS = (10**17 + 1, 10**17 + 2)


class Trips:
    """Counts the transactions an open store's engine is sent; without a store, none."""

    def __init__(self, store: Store | None = None) -> None:
        self.count = 0
        if store is None:
            return
        engine = store.engine
        send = engine.transact

        def counted(work: Any) -> Any:  # no coroutine of its own: the click's CPU is timed
            self.count += 1
            return send(work)

        # counts the click's transactions by wrapping the engine's one entry point
        engine.transact = counted  # type: ignore[method-assign]


class Table:
    """One game, and the state its client last saw."""

    def __init__(
        self, service: GameService, channel: int, guild: int = GUILD, writes: Trips | None = None
    ) -> None:
        self.service, self.channel, self.guild = service, channel, guild
        self.writes = writes or Trips()
        self.game_id = 0
        self.game: Game | None = None
        self.lock = asyncio.Lock()  # one click at a time per game, as a channel's buttons
        self.trips = 0  # transactions of the timed clicks
        self.cpu = 0.0  # process CPU seconds while they ran (alone: the clicks' own)

    async def open(self) -> None:
        record = await self.service.lobby.open(self.guild, self.channel, PLAYERS[0], "classic")
        await self.service.lobby.join(record.id, PLAYERS[1])
        self.game_id = record.id
        self.game = (await self.service.lobby.start(record.id, PLAYERS[0])).game

    async def click(self, rng: random.Random) -> float:
        """One random legal click, in seconds; a finished game is replaced first (untimed)."""
        async with self.lock:
            if self.game is None or self.game.finished:
                await self.open()
            game = self.game
            assert game is not None
            decision = game.decision()  # what the button pressed says, read before timing
            player = min(decision.waiting)
            move = rng.choice(game.legal_moves(player))
            trips = self.writes.count
            cpu, start = time.process_time(), time.perf_counter()
            outcome = await self.service.turns.move(
                self.game_id, player, decision.turn, decision.phase, move
            )
            elapsed = time.perf_counter() - start
            self.cpu += time.process_time() - cpu
            self.trips += self.writes.count - trips
            self.game = outcome.game
            return elapsed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def tables(store: Store, count: int) -> list[Table]:
    writes = Trips(store)
    seeds = iter(range(1, 10**9))
    service = GameService(store, seeds=lambda: next(seeds))
    opened = [Table(service, 1_000 + k, writes=writes) for k in range(count)]
    for table in opened:
        await table.open()
    return opened


async def with_tables(count: int, run: Callable[[list[Table]], Awaitable[list[Row]]]) -> list[Row]:
    """``run`` on ``count`` open games, with the collector set as the bot sets it once
    started (:func:`bot.heap.tune_gc`); afterwards set back."""
    thresholds = gc.get_threshold()
    with tempfile.TemporaryDirectory() as folder:
        async with Store(Path(folder) / "click.db") as store:
            opened = await tables(store, count)
            tune_gc()
            try:
                return await run(opened)
            finally:
                gc.unfreeze()
                gc.set_threshold(*thresholds)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


async def floor(writes: int) -> tuple[float, float]:
    """CPU and wall seconds of one transaction writing one small row, sent through the
    store's engine as a click's is: ``BEGIN IMMEDIATE``, one ``UPDATE`` and the
    ``COMMIT`` (WAL), in one call to the writer connection's thread, nothing else."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "floor.db")
        engine = store.engine
        try:
            await engine.transact(
                lambda tx: tx.execute(
                    "CREATE TABLE floor (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)"
                )
            )
            await engine.transact(lambda tx: tx.execute("INSERT INTO floor VALUES (1, 0)"))

            def write(tx: Tx) -> Awaitable[int]:
                return tx.execute("UPDATE floor SET n = n + 1 WHERE id = 1")

            for _ in range(200):  # warm-up
                await engine.transact(write)
            cpu, start = time.process_time(), time.perf_counter()
            for _ in range(writes):
                await engine.transact(write)
            return ((time.process_time() - cpu) / writes, (time.perf_counter() - start) / writes)
        finally:
            await store.close()


Statement = tuple[str, Any, bool]  # SQL, its parameters (a list of them: many), many


class Recording:
    """A transaction that writes down every statement run in it, with its parameters."""

    def __init__(self, tx: Tx, written: list[Statement]) -> None:
        self._recorded = tx
        self._written = written

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._written.append((sql, tuple(params), False))
        return await self._recorded.execute(sql, params)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        self._written.append((sql, tuple(params), False))
        return await self._recorded.fetch(sql, params)

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(row) for row in params]
        self._written.append((sql, rows, True))
        await self._recorded.executemany(sql, rows)


async def recorded_clicks(clicks: int) -> list[tuple[bool, list[Statement]]]:
    """Every transaction the one-game run sends (its games' openings too), from a fresh
    store on: whether it was a click's (sent by ``turns.move``), and its statements."""
    sent: list[tuple[bool, list[Statement]]] = []
    clicking = False
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "recorded.db")
        engine = store.engine
        transact = engine.transact

        async def recording(work: Any) -> Any:
            written: list[Statement] = []
            sent.append((clicking, written))
            return await transact(lambda tx: work(Recording(tx, written)))

        engine.transact = recording  # type: ignore[method-assign]  # recorded for the floor
        seeds = iter(range(1, 10**9))
        service = GameService(store, seeds=lambda: next(seeds))
        act = service.turns.move

        async def flagged(*args: Any) -> Any:
            nonlocal clicking
            clicking = True
            try:
                return await act(*args)
            finally:
                clicking = False

        service.turns.move = flagged  # type: ignore[method-assign, assignment]  # tells clicks apart
        table = Table(service, 1_000)
        rng = random.Random(1)
        try:
            await table.open()
            for _ in range(20 + clicks):  # the one-game run's warm-up and clicks
                await table.click(rng)
        finally:
            await store.close()
    return sent


class Replay:
    """The one-game run's transactions (:func:`recorded_clicks`) sent again, statement
    for statement, to a fresh store through its engine: each click's commit with
    nothing around it (the games' openings before a click go too, untimed)."""

    def __init__(self, sent: list[tuple[bool, list[Statement]]]) -> None:
        self.clicks: list[tuple[list[list[Statement]], list[Statement]]] = []
        before: list[list[Statement]] = []
        for click, statements in sent:
            if click:
                self.clicks.append((before, statements))
                before = []
            else:
                before.append(statements)
        self.done = 0
        self.cpu = self.wall = 0.0

    @staticmethod
    def _work(statements: list[Statement]) -> Callable[[Tx], Awaitable[None]]:
        async def work(tx: Tx) -> None:
            for sql, params, many in statements:
                if many:
                    await tx.executemany(sql, params)
                else:
                    await tx.fetch(sql, params)

        return work

    async def send(self, store: Store, clicks: int, timed: bool = True) -> None:
        """The next ``clicks`` clicks' transactions; their CPU and wall time kept if ``timed``."""
        engine = store.engine
        for before, statements in self.clicks[self.done : self.done + clicks]:
            for opening in before:
                await engine.transact(self._work(opening))
            work = self._work(statements)
            cpu, start = time.process_time(), time.perf_counter()
            await engine.transact(work)
            if timed:
                self.wall += time.perf_counter() - start
                self.cpu += time.process_time() - cpu
        self.done += clicks


async def one_game(clicks: int, least: tuple[float, float], block: int = 10) -> list[Row]:
    """Sequential clicks on one game, and the same clicks' own commits replayed
    (:class:`Replay`), in turns of ``block`` clicks each, so that both meet the machine
    as it is at the time; ``least``: one small row's floor (:func:`floor`)."""
    rng = random.Random(1)
    replay = Replay(await recorded_clicks(clicks))

    async def run(opened: list[Table]) -> list[Row]:
        table = opened[0]
        with tempfile.TemporaryDirectory() as folder:
            replayed = await Store.open(Path(folder) / "replayed.db")
            try:
                await replay.send(replayed, 20, timed=False)  # warm-up
                for _ in range(20):
                    await table.click(rng)
                table.trips, table.cpu = 0, 0.0
                times: list[float] = []
                for start in range(0, clicks, block):
                    turn = min(block, clicks - start)
                    await replay.send(replayed, turn)
                    times += [await table.click(rng) for _ in range(turn)]
            finally:
                await replayed.close()
        own = replay.cpu / clicks, replay.wall / clicks
        cpu, trips = table.cpu / clicks, table.trips / clicks
        p50, p99 = statistics.median(times), percentile(times, 0.99)
        budget = min(CPU_PER_CLICK_MS / 1000, FLOOR_TIMES * own[0])
        return [
            (
                "click: floor, the click's own commit (its statements, one transaction)",
                "",
                f"{ms(own[0])} CPU, {ms(own[1])}",
                0.0,
            ),
            (
                "click: floor, one small row committed",
                "",
                f"{ms(least[0])} CPU, {ms(least[1])}",
                0.0,
            ),
            (
                "click: one game, CPU per click",
                f"<= {CPU_PER_CLICK_MS:g} ms, <= {FLOOR_TIMES:g}x own commit",
                f"{ms(cpu)} ({cpu / own[0]:.2f}x own commit, {cpu / least[0]:.1f}x one row)",
                cpu / budget,
            ),
            (
                "click: one game, p50",
                f"<= {ONE_GAME_P50_MS:g} ms",
                ms(p50),
                p50 * 1000 / ONE_GAME_P50_MS,
            ),
            ("click: one game, p99", "", ms(p99), 0.0),
            ("click: one game, transactions per click", "<= 1", f"{trips:.2f}", trips),
        ]

    return await with_tables(1, run)


async def burst(games: int, rounds: int, budget_ms: float = 0.0) -> list[Row]:
    """Every game clicks at the same instant, ``rounds`` times; ``budget_ms``: p99's."""
    rng = random.Random(2)

    async def run(opened: list[Table]) -> list[Row]:
        await asyncio.gather(*(t.click(rng) for t in opened))  # warm-up round
        times: list[float] = []
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(rounds):
            times += await asyncio.gather(*(t.click(rng) for t in opened))
        rate = len(times) / (time.perf_counter() - start)
        cpu = (time.process_time() - cpu) / len(times)
        p99 = percentile(times, 0.99)
        return [
            (
                f"click: {games:,} games clicked at once, p99",
                f"<= {budget_ms:g} ms" if budget_ms else "",
                ms(p99),
                p99 * 1000 / budget_ms if budget_ms else 0.0,
            ),
            (
                f"click: {games:,} games clicked at once, p50, clicks/s, CPU per click",
                "",
                f"{ms(statistics.median(times))}, {rate:,.0f}/s, {ms(cpu)}",
                0.0,
            ),
        ]

    return await with_tables(games, run)


async def sustained(games: int, seconds: float, rate: float = SUSTAINED_RATE) -> list[Row]:
    """Clicks arrive at ``rate`` per second, game after game; none waits for another's."""
    rng = random.Random(3)

    async def run(opened: list[Table]) -> list[Row]:
        loop = asyncio.get_running_loop()
        latencies: list[float] = []
        completed: list[float] = []

        async def arrive(table: Table, due: float) -> None:
            await table.click(rng)
            completed.append(loop.time())
            latencies.append(completed[-1] - due)

        pending = []
        collecting = Collecting()
        start, cpu = loop.time(), time.process_time()
        for k in range(int(seconds * rate)):
            due = start + k / rate
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            pending.append(asyncio.ensure_future(arrive(opened[k % len(opened)], due)))
        await asyncio.gather(*pending)
        collected = collecting.stop() / (loop.time() - start)
        cpu = (time.process_time() - cpu) / len(latencies)
        begin, end = start + seconds / 10, start + seconds
        done = sum(begin <= t < end for t in completed)
        achieved, arrived = done / (end - begin), rate * (end - begin)
        p99 = percentile(latencies, 0.99)
        # Finishing within 1% of the clicks that arrived in the window is keeping up
        # (its edges cut the clicks in flight there: 2,000/s x 5 ms is 10 clicks), and
        # then p99 alone makes the ratio; else the shortfall does, if larger.
        behind = 0.0 if done >= 0.99 * arrived else arrived / max(done, 1)
        name = f"click: {rate:,.0f}/s arriving over {games:,} games"
        return [
            (
                f"{name}, p99 at the rate achieved",
                f"<= {SUSTAINED_P99_MS:g} ms at >= {rate:,.0f}/s",
                f"{ms(p99)} at {achieved:,.0f}/s",
                max(p99 * 1000 / SUSTAINED_P99_MS, behind),
            ),
            (
                f"{name}, p50, CPU per click, in garbage collection",
                "",
                f"{ms(statistics.median(latencies))}, {ms(cpu)}, {collected:.0%}",
                0.0,
            ),
        ]

    return await with_tables(games, run)


class Collecting:
    """Adds up the time the garbage collector runs, from now until :meth:`stop`."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0
        gc.callbacks.append(self._heard)

    def _heard(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started

    def stop(self) -> float:
        gc.callbacks.remove(self._heard)
        return self.seconds


def rows(quick: bool = False) -> list[Row]:
    clicks = 300 if quick else 1_000
    least = asyncio.run(floor(500 if quick else 3_000))
    found = asyncio.run(one_game(clicks, least))
    found += asyncio.run(burst(100, 3 if quick else 10))
    found += asyncio.run(burst(1_000, 2 if quick else 5, BURST_P99_MS))
    found += asyncio.run(sustained(1_000, 1.0 if quick else 3.0))
    return found


async def profile(clicks: int, shown: int = 25) -> str:
    """Where one game's clicks spend their time, on each of the two threads."""
    rng = random.Random(1)

    async def run(opened: list[Table]) -> list[Row]:
        table = opened[0]
        writer = getattr(table.service.store.engine, "writer", None)
        assert writer is not None, "a SQLite store has a writer connection"
        for _ in range(20):  # warm-up
            await table.click(rng)
        loop, written = cProfile.Profile(), cProfile.Profile()
        # A profile is its thread's: SQL functions run on the connection's own thread.
        await writer.create_function("profile_on", 0, written.enable)
        await writer.create_function("profile_off", 0, written.disable)
        await writer.execute("SELECT profile_on()")
        loop.enable()
        for _ in range(clicks):
            await table.click(rng)
        loop.disable()
        await writer.execute("SELECT profile_off()")
        for name, profiled in (("event loop's thread", loop), ("writer thread", written)):
            text = io.StringIO()
            pstats.Stats(profiled, stream=text).sort_stats("tottime").print_stats(shown)
            found.append(f"--- {clicks:,} clicks, the {name}\n{text.getvalue()}")
        return []

    found: list[str] = []
    await with_tables(1, run)
    return "\n".join(found)


STATE = {
    "turn": 1,
    "sheets": {str(p): {"rows": {c: list(range(2, 12)) for c in "rgby"}} for p in range(4)},
}
"""A state about as long as a 4-player game's (2 KB of JSON)."""


async def changes(count: int, checkpointer: bool) -> str:
    """``count`` changes of one game, each sent when the last is stored: their times."""
    engine_module.CHECKPOINT_EVERY = 200 if checkpointer else 10**12
    engine_module.WRITER_CHECKPOINT_PAGES = 10_000 if checkpointer else 1_000
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "changes.db")
        try:
            game = await store.games.create(GUILD, 1, PLAYERS[0], "classic", {}, 7)
            game = await store.games.set_players(game.id, game.version, list(PLAYERS))
            game = await store.games.start(game.id, game.version, STATE)
            cpu = time.process_time()
            for k in range(count):
                change = GameChange(
                    [(PLAYERS[0], {"kind": "pass", "k": k}, "player")],
                    {**STATE, "turn": k},
                    events=[(k, "passed", PLAYERS[0], {}), (k, "turn", None, {"turn": k})],
                )
                start = time.perf_counter()
                game = (await store.games.change(game, change)).record
                times.append(time.perf_counter() - start)
            cpu = (time.process_time() - cpu) / count
        finally:
            await store.close()
    shown = ", ".join(f"{name} {ms(percentile(times, share))}" for name, share in SHARES)
    return f"{'with' if checkpointer else 'without'} the checkpoint connection: {shown}, " + (
        f"slowest {ms(max(times))}, CPU {ms(cpu)}"
    )


SHARES = (("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs")
    parser.add_argument("--profile", action="store_true", help="profile one game's clicks")
    parser.add_argument(
        "--checkpoints", action="store_true", help="changes with the checkpointer and without"
    )
    parser.add_argument("--without", choices=["group-commit"], help="an engine piece taken out")
    args = parser.parse_args()
    if args.without == "group-commit":
        engine_module.BATCH = 1
    if args.profile:
        print(asyncio.run(profile(300 if args.quick else 3_000)))
        return
    if args.checkpoints:
        for checkpointer in (True, False, True, False):
            print(asyncio.run(changes(1_000 if args.quick else 5_000, checkpointer)))
        return
    for what, budget, figure, ratio in rows(args.quick):
        shown = f"{ratio:.2f}" if ratio else ""
        print(f"{what:<52} {budget:>12} {figure:>12} {shown:>6}")


if __name__ == "__main__":
    main()
