"""How fast are /qwixx leaderboard, stats and history on a large history?

Creates a temporary SQLite store (the real schema and indexes), fills it with
100,000 results over 1,000 players in one guild (plus a little noise in a second
guild; every game reviewed with each person's accuracy, every person rated in each
variant), then times each command's reads through :class:`bot.service.stats.StatsService`
— the same call the command makes: SQL through the store, ranking and names —
and prints the median time and its ratio to the 20 ms target.

    python benchmarks/bench_stats.py [--results 100000] [--players 1000] [--runs 25]
                                     [--span-days 365]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from bot.service.stats import SORTS, StatsService
from bot.store import Store

GUILD, OTHER_GUILD = 111_222_333_444_555_666, 999_888_777_666_555_444
NOW = 1_767_225_600.0 + 17 * 86_400 + 13 * 3_600  # 2026-01-18 13:00 UTC, a Sunday
SPAN_DAYS = 365  # by default, games spread evenly over the year before NOW
VARIANTS = (("classic", 0.5), ("longo", 0.25), ("qwinto", 0.25))
TARGET_MS = 20.0
BATCH = 20_000
Row = tuple[Any, ...]


def fake_games(
    rng: random.Random, guild: int, players: list[int], results: int, first_id: int, span: float
) -> tuple[list[Row], list[Row], list[Row]]:
    """Rows for ``games``, ``matches`` and ``results`` until ``results`` player lines."""
    games: list[Row] = []
    matches: list[Row] = []
    lines: list[Row] = []
    game_id = first_id
    names, weights = [v for v, _ in VARIANTS], [w for _, w in VARIANTS]
    while len(lines) < results:
        seats = rng.sample(players, min(rng.randint(2, 5), results - len(lines)))
        if len(seats) < 2:
            seats = rng.sample(players, 2)
        variant = rng.choices(names, weights)[0]
        finished = NOW - rng.random() * span
        started = finished - rng.uniform(600, 2_400)
        scores = [rng.randint(-20, 140) for _ in seats]
        ordered = sorted(scores, reverse=True)
        games.append(
            (
                game_id,
                guild,
                1,
                guild,
                variant,
                "{}",
                1,
                "[]",
                "finished",
                2,
                started,
                finished,
                finished,
            )
        )
        matches.append(
            (game_id, guild, 1, variant, started, finished, rng.randint(12, 40), len(seats), 1)
        )
        for seat, (player, score) in enumerate(zip(seats, scores, strict=True)):
            rank = ordered.index(score) + 1
            lines.append(
                (game_id, player, guild, variant, seat, score, rank, int(rank == 1), 1, finished)
            )
        game_id += 1
    return games, matches, lines


def fill(path: Path, results: int, players: int, span_days: float, seed: int = 7) -> int:
    """Bulk-load with executemany in big transactions; returns the number of games."""
    rng = random.Random(seed)
    ids = [10**17 + 7_919 * k for k in range(players)]
    span = span_days * 86_400
    games, matches, lines = fake_games(rng, GUILD, ids, results, 1, span)
    noise = fake_games(rng, OTHER_GUILD, ids[: players // 10], results // 20, len(games) + 1, span)
    with sqlite3.connect(path, isolation_level=None) as db:
        for table, marks, rows in (
            ("games", 13, games + noise[0]),
            ("matches", 9, matches + noise[1]),
            ("results", 10, lines + noise[2]),
        ):
            columns = {
                "games": "id, guild_id, channel_id, host_id, variant, options, seed, players, "
                "status, version, created_at, updated_at, finished_at",
                "matches": "game_id, guild_id, channel_id, variant, started_at, finished_at, "
                "turns, players, counted",
                "results": "game_id, player_id, guild_id, variant, seat, score, rank, won, "
                "counted, finished_at",
            }[table]
            sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * marks)})"
            for start in range(0, len(rows), BATCH):
                db.execute("BEGIN")
                db.executemany(sql, rows[start : start + BATCH])
                db.execute("COMMIT")
        # every game reviewed, every person's accuracy kept (what /qwixx stats averages)
        reviewed = [(g[0], g[1], NOW) for g in games + noise[0]]
        accuracies = [
            (line[0], line[1], line[2], line[3], line[9], rng.random(), rng.randint(20, 60), 0)
            for line in lines + noise[2]
        ]
        # and every person rated in every variant they played (the rating shown per variant)
        rated = sorted({(line[2], line[3], line[1]) for line in lines + noise[2]})
        ratings = [
            (guild, variant, player, rng.uniform(15, 35), rng.uniform(1, 8), rng.randint(1, 300))
            for guild, variant, player in rated
        ]
        for sql, rows in (
            (
                "INSERT INTO ratings (guild_id, variant, player_id, mu, sigma, games) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                ratings,
            ),
            (
                "INSERT INTO reviewed_games (game_id, guild_id, reviewed_at) VALUES (?, ?, ?)",
                reviewed,
            ),
            (
                "INSERT INTO accuracies (game_id, player_id, guild_id, variant, finished_at, "
                "accuracy, decisions, hints) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                accuracies,
            ),
        ):
            for start in range(0, len(rows), BATCH):
                db.execute("BEGIN")
                db.executemany(sql, rows[start : start + BATCH])
                db.execute("COMMIT")
        db.executemany(
            "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (?, ?, ?, ?)",
            [(GUILD, p, f"player{k}", NOW) for k, p in enumerate(ids)],
        )
    return len(games)


async def timed(call: Callable[[], Awaitable[object]], runs: int) -> float:
    await call()  # warm the page cache and the statement cache
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=25)
    parser.add_argument(
        "--span-days",
        type=float,
        default=SPAN_DAYS,
        help="finish times spread over this many days before now "
        "(e.g. 17 puts the whole history in this month)",
    )
    args = parser.parse_args()
    timings = await measure(args.results, args.players, args.span_days, args.runs, verbose=True)
    width = max(len(name) for name, _ in timings)
    print(f"{'query':<{width}}  median ms  / {TARGET_MS:.0f} ms")
    for name, median in timings:
        print(f"{name:<{width}}  {median:9.2f}  {median / TARGET_MS:6.2f}")
    worst = max(median for _, median in timings)
    print(f"slowest: {worst:.2f} ms ({'within' if worst < TARGET_MS else 'OVER'} the target)")


async def measure(
    results: int = 100_000,
    players: int = 1_000,
    span_days: float = SPAN_DAYS,
    runs: int = 25,
    verbose: bool = False,
) -> list[tuple[str, float]]:
    """Fill a temporary store and time every query: (name, median ms) pairs."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        async with Store(path):
            pass  # creates the schema
        start = time.perf_counter()
        count = fill(path, results, players, span_days)
        async with Store(path, clock=lambda: NOW) as store:
            await store.stats.rebuild_totals()
            if verbose:
                print(
                    f"filled {results:,} results in {count:,} games over {players:,} "
                    f"players in one guild over {span_days:g} days in "
                    f"{time.perf_counter() - start:.1f} s (+{results // 20:,} results in "
                    "another guild)"
                )
            return await timings(store, runs)


async def timings(store: Store, runs: int) -> list[tuple[str, float]]:
    service = StatsService(store, clock=lambda: NOW)
    board = await service.leaderboard(GUILD, 0, period="all", sort="wins")
    regular = board.lines[0].player_id
    typical = (await service.leaderboard(GUILD, 0, top=10_000)).lines[500].player_id
    cases: list[tuple[str, Callable[[], Awaitable[object]]]] = []
    for period in ("all", "month", "week"):
        for sort in SORTS:
            cases.append(
                (
                    f"leaderboard period={period} sort={sort}",
                    partial(service.leaderboard, GUILD, typical, period=period, sort=sort),
                )
            )
        cases.append(
            (
                f"leaderboard period={period} variant=longo sort=average",
                partial(
                    service.leaderboard,
                    GUILD,
                    typical,
                    variant="longo",
                    period=period,
                    sort="average",
                ),
            )
        )
    cases += [
        ("stats (a typical player)", lambda: service.player(GUILD, typical)),
        ("stats (the most winning player)", lambda: service.player(GUILD, regular)),
        ("history (server)", lambda: service.history(GUILD)),
        ("history user (a typical player)", lambda: service.history(GUILD, typical)),
    ]
    return [(name, await timed(call, runs)) for name, call in cases]


if __name__ == "__main__":
    asyncio.run(main())
