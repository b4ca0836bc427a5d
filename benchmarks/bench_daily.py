"""How fast are the daily challenge's reads on a busy day?

Fills a temporary SQLite store with the worst case for one day's dice: ``--results``
finished attempts (100,000) at the same day and variant, over 1,000 servers, and one
member with a year of days behind them; then times, through the store (median of
``--runs``):

* the percentile: how a score stands among everyone's of the day's dice;
* a server's ranking of the day (what its live message shows);
* a member's finished days, from which the streak is counted;
* the whole read of a result (the three, and par, as :meth:`DailyService.finish` does).

Target 20 ms each.

    python -m benchmarks.bench_daily [--results 100000] [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bot.store import Store

from .bench_stats import timed

TARGET_MS = 20.0
DAY, VARIANT = "2026-11-27", "classic"
GUILDS = 1_000
MEMBER = 7


def fill(path: Path, results: int) -> None:
    """``results`` finished attempts at one day's dice (games rows included), and a
    year of days of :data:`MEMBER`; written directly, in one transaction."""
    rng = random.Random(1)
    conn = sqlite3.connect(path)
    games = [
        (i, 1 + i % GUILDS, -i, 1 + i, VARIANT, "{}", i, "[]", "finished", 1.0, 1.0)
        for i in range(1, results + 366)
    ]
    conn.executemany(
        "INSERT INTO games (id, guild_id, channel_id, host_id, variant, options, "
        "seed, players, status, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        games,
    )
    attempts: list[tuple[Any, ...]] = [
        (DAY, VARIANT, 1_000 + i, 1 + i % GUILDS, 1, i, rng.randint(-20, 140), float(i))
        for i in range(1, results + 1)
    ]
    first = date.fromisoformat(DAY)
    attempts += [
        ((first - timedelta(days=d)).isoformat(), VARIANT, MEMBER, 1, 1, results + 1 + d, 50, 0.0)
        for d in range(365)
    ]
    conn.executemany(
        "INSERT INTO daily_attempts (day, variant, user_id, guild_id, channel_id, "
        "game_id, score, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        attempts,
    )
    conn.execute("INSERT INTO daily_pars (day, variant, score) VALUES (?, ?, 90)", (DAY, VARIANT))
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()


async def measure(results: int = 100_000, runs: int = 15) -> list[tuple[str, float, float]]:
    """(what, median ms, target ms) for each read."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "daily.db"
        await (await Store.open(path)).close()  # the schema, then the rows beside it
        fill(path, results)
        store = await Store.open(path)
        try:

            async def result() -> None:
                await store.daily.standing(DAY, VARIANT, 60)
                await store.daily.ranking(1, DAY, VARIANT)
                await store.daily.finished_days(MEMBER, DAY)
                await store.daily.par(DAY, VARIANT)

            found = [
                (
                    "percentile among everyone's attempts",
                    await timed(lambda: store.daily.standing(DAY, VARIANT, 60), runs),
                ),
                (
                    "a server's ranking of the day",
                    await timed(lambda: store.daily.ranking(1, DAY, VARIANT), runs),
                ),
                (
                    "a member's days, for the streak",
                    await timed(lambda: store.daily.finished_days(MEMBER, DAY), runs),
                ),
                ("a result's reads together", await timed(result, runs)),
            ]
        finally:
            await store.close()
    return [(what, ms, TARGET_MS) for what, ms in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for what, ms, target in asyncio.run(measure(args.results, args.runs)):
        print(
            f"daily: {what}, {args.results:,} attempts: {ms:.2f} ms "
            f"(target {target:g} ms, ratio {ms / target:.2f})"
        )


if __name__ == "__main__":
    main()
