"""Clicks/s and latency with 1,000 games in play: one process or two, SQLite or PostgreSQL.

Each process is a worker running the real service (``bench_click``'s click path: read,
rules, compare-and-set, move and event log) over one shared database. With two
processes, each plays the games of its own shard's guilds (500 each), as two sharded
bot processes would. Two loads:

* flat out — every game clicks again as soon as its last click was answered, so 1,000
  clicks are always in flight: the most clicks per second the setup sustains, and the
  latency (p50, p99) of a click meanwhile (mostly queueing: 1,000 / clicks per second);
* 500 clicks/s arriving, spread evenly over the games (and the processes): the
  latency from a click's arrival to its answer, waiting included, below saturation.

PostgreSQL is a throwaway server started as the tests start theirs
(``tests/store/postgres_server.py``), or the one ``--postgres URL`` names (its
database is used as is: give it an empty one). Without PostgreSQL, only SQLite runs.
There are no budgets: the table is for comparing the four setups.

    python -m benchmarks.bench_scale [--quick] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.bench_click import Table, ms, percentile
from bot.heap import tune_gc
from bot.service.games import GameService
from bot.shards import shard_of
from bot.store import Store

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)
GAMES = 1_000
ARRIVING = 500.0  # clicks per second, for the latency below saturation
BASE_GUILD = 200_000_000_000 << 22  # a snowflake on shard 0 of 2
READY = "ready"
RUNS = itertools.count(1)


def guild_of(shard: int, count: int) -> int:
    guild = BASE_GUILD + (shard << 22)
    assert shard_of(guild, count) == shard
    return guild


async def work(
    database: str, shard: int, count: int, games: int, seconds: float, rate: float, channels: int
) -> None:
    """One worker: open ``games`` games in its shard's guild, say so, wait for the go
    (a line on stdin), click for ``seconds`` (flat out, or ``rate`` clicks/s arriving),
    print the latencies as JSON. Channel ids start at ``channels`` (a database may
    serve several runs)."""
    async with Store(database if "://" in database else Path(database)) as store:
        seeds = iter(range(shard * 10**8 + 1, 10**9))
        service = GameService(store, seeds=lambda: next(seeds))
        tables = [
            Table(service, channels + 10**7 * shard + k, guild_of(shard, count))
            for k in range(games)
        ]
        for table in tables:
            await table.open()
        warm_up = random.Random(0)
        await asyncio.gather(*(t.click(warm_up) for t in tables))  # connections, caches
        tune_gc()  # as the bot, once started
        print(READY, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        start = time.perf_counter()
        clicks = arriving(tables, seconds, rate) if rate else flat_out(tables, seconds)
        latencies = await clicks
        elapsed = time.perf_counter() - start  # the last clicks included
    print(json.dumps({"latencies": latencies, "elapsed": elapsed}), flush=True)


async def flat_out(tables: list[Table], seconds: float) -> list[float]:
    rng, latencies = random.Random(len(tables)), []
    end = time.perf_counter() + seconds

    async def keep_clicking(table: Table) -> None:
        while time.perf_counter() < end:
            latencies.append(await table.click(rng))

    await asyncio.gather(*(keep_clicking(t) for t in tables))
    return latencies


async def arriving(tables: list[Table], seconds: float, rate: float) -> list[float]:
    """Clicks arrive at ``rate`` per second, game after game; latency from arrival."""
    rng, latencies = random.Random(len(tables)), []
    loop = asyncio.get_running_loop()

    async def arrive(table: Table, due: float) -> None:
        await table.click(rng)
        latencies.append(loop.time() - due)

    pending, start = [], loop.time()
    for k in range(int(seconds * rate)):
        due = start + k / rate
        if due > loop.time():
            await asyncio.sleep(due - loop.time())
        pending.append(asyncio.ensure_future(arrive(tables[k % len(tables)], due)))
    await asyncio.gather(*pending)
    return latencies


async def run(
    database: str, processes: int, seconds: float, rate: float = 0.0
) -> tuple[list[float], float]:
    """Latencies of the clicks of ``processes`` workers sharing ``GAMES`` games, and
    the seconds until the last was answered."""
    run = next(RUNS)
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.bench_scale",
            "--worker",
            database,
            str(shard),
            str(processes),
            str(GAMES // processes),
            str(seconds),
            str(rate / processes),
            str(10**9 * run),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for shard in range(processes)
    ]
    for worker in workers:  # every game open before any click
        assert worker.stdout is not None
        line = await worker.stdout.readline()
        if line.decode().strip() != READY:
            raise RuntimeError(f"a worker failed to start (exit {await worker.wait()})")
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write(b"go\n")
        await worker.stdin.drain()
    latencies: list[float] = []
    elapsed = 0.0
    for worker in workers:
        out, _ = await worker.communicate()
        if await worker.wait() != 0:
            raise RuntimeError(f"a worker failed (exit {worker.returncode})")
        report = json.loads(out)
        latencies += report["latencies"]
        elapsed = max(elapsed, report["elapsed"])
    return latencies, elapsed


def rows_for(backend: str, database: Iterator[str], seconds: float) -> list[Row]:
    found: list[Row] = []
    for processes in (1, 2):
        name = f"scale: {backend}, {processes} process{'es' if processes > 1 else ''}"
        latencies, elapsed = asyncio.run(run(next(database), processes, seconds))
        found += [
            (f"{name}, flat out, clicks/s", "", f"{len(latencies) / elapsed:,.0f}/s", 0.0),
            (f"{name}, flat out, p99", "", ms(percentile(latencies, 0.99)), 0.0),
        ]
        latencies, _ = asyncio.run(run(next(database), processes, seconds, ARRIVING))
        found += [
            (f"{name}, {ARRIVING:,.0f}/s arriving, p50", "", ms(statistics.median(latencies)), 0.0),
            (f"{name}, {ARRIVING:,.0f}/s arriving, p99", "", ms(percentile(latencies, 0.99)), 0.0),
        ]
    return found


def sqlite_files(folder: Path) -> Iterator[str]:
    for n in range(1, 100):
        yield str(folder / f"scale{n}.db")


@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[Iterator[str] | None]:
    """Fresh PostgreSQL databases (or ``url`` again); None if no server can start."""
    if url is not None:
        yield iter(lambda: url, None)
        return
    from tests.store.postgres_server import PostgresServer, ServerError

    try:
        running = PostgresServer.running()
        server = running.__enter__()
    except ServerError as error:
        print(f"PostgreSQL left out: {error}", file=sys.stderr)
        yield None
        return
    try:
        yield iter(server.new_database, None)
    finally:
        running.__exit__(None, None, None)


def rows(quick: bool = False, url: str | None = None) -> list[Row]:
    seconds = 1.5 if quick else 4.0
    with tempfile.TemporaryDirectory() as folder:
        found = rows_for("SQLite", sqlite_files(Path(folder)), seconds)
    with postgres(url) as databases:
        if databases is not None:
            found += rows_for("PostgreSQL", databases, seconds)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs")
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database")
    parser.add_argument("--worker", nargs=7, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        database, shard, count, games, seconds, rate, channels = args.worker
        asyncio.run(
            work(
                database,
                int(shard),
                int(count),
                int(games),
                float(seconds),
                float(rate),
                int(channels),
            )
        )
        return
    for what, budget, figure, ratio in rows(args.quick, args.postgres):
        shown = f"{ratio:.2f}" if ratio else ""
        print(f"{what:<56} {budget:>6} {figure:>12} {shown:>6}")


if __name__ == "__main__":
    main()
