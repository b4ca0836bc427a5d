"""Every benchmark in one run, one table: what, budget, figure, ratio (above 1 misses it).

    python -m benchmarks [--quick] [--only rules,render,click,bot,stats,ratings,daily,startup,...]

* rules — random games through the rules API against the ``qwixx_sim`` anchor, measured
  in the same run (:mod:`benchmarks.bench_rules`);
* render — every image of :mod:`benchmarks.bench_render`: time and PNG size;
* click — the service's click path over a real SQLite file: one game, bursts of 100 and
  1,000 games, 2,000 clicks/s arriving over 1,000 games (:mod:`benchmarks.bench_click`);
* bot — a click in the bot as a whole, through the local Discord stand-in: its CPU
  against its own sheet image's, its SQL statements and HTTP requests
  (:mod:`benchmarks.bench_bot`);
* stats — every leaderboard, stats and history query on 100,000 results, once spread
  over a year and once all in the current month (:mod:`benchmarks.bench_stats`);
* ratings — the rating leaderboard and a rating update at a game's end, on 100,000
  results (:mod:`benchmarks.bench_ratings`);
* daily — the daily challenge's percentile, server ranking and streak reads, with
  100,000 attempts at one day's dice (:mod:`benchmarks.bench_daily`);
* players — the computer players: ``hard``'s decision time, each level against the one
  below over 4,000 duels per variant, ``hard``'s mean scores (:mod:`benchmarks.bench_players`;
  by far the longest section, over ten minutes: name the others with ``--only`` to
  leave it out);
* startup — 10,000 stored games, 1,000 running: time to be ready, resident memory
  before and after a sheet of each variant is drawn (:mod:`benchmarks.bench_startup`);
* tournament — seating a round of 256 players and drawing their standings image, in CPU
  (:mod:`benchmarks.bench_tournament`).

``--quick`` shortens every measurement (fewer runs, 20,000 results) for a smoke run.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import traceback
from collections.abc import Callable

from . import (
    bench_bot,
    bench_click,
    bench_daily,
    bench_players,
    bench_ratings,
    bench_render,
    bench_rules,
    bench_startup,
    bench_stats,
    bench_tournament,
)

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)


def rules_rows(quick: bool) -> list[Row]:
    return bench_rules.rows(1.0 if quick else 3.0)


def render_rows(quick: bool) -> list[Row]:
    return [
        (f"render: {name}", budget, figure, 0.0 if ratio == "-" else float(ratio))
        for name, budget, figure, ratio in bench_render.results(5 if quick else 20)
    ]


def click_rows(quick: bool) -> list[Row]:
    return bench_click.rows(quick)


def stats_rows(quick: bool) -> list[Row]:
    results, runs = (20_000, 5) if quick else (100_000, 9)
    found: list[Row] = []
    for spread, days in (("over a year", bench_stats.SPAN_DAYS), ("all this month", 17)):
        timings = asyncio.run(bench_stats.measure(results, span_days=days, runs=runs))
        name, worst = max(timings, key=lambda t: t[1])
        found.append(
            (
                f"stats: slowest of {len(timings)} queries, {results:,} results {spread}",
                f"<= {bench_stats.TARGET_MS:g} ms",
                f"{worst:.1f} ms",
                worst / bench_stats.TARGET_MS,
            )
        )
        found.append((f"  (that is: {name})", "", "", 0.0))
    return found


def ratings_rows(quick: bool) -> list[Row]:
    results, runs = (20_000, 5) if quick else (100_000, 15)
    figures = asyncio.run(bench_ratings.measure(results, runs=runs))
    return [
        (
            f"ratings: {name}, {results:,} results",
            f"<= {target:g} ms",
            f"{median:.2f} ms",
            median / target,
        )
        for name, median, target in figures
    ]


def daily_rows(quick: bool) -> list[Row]:
    results, runs = (20_000, 5) if quick else (100_000, 15)
    figures = asyncio.run(bench_daily.measure(results, runs=runs))
    return [
        (
            f"daily: {name}, {results:,} attempts at one day's dice",
            f"<= {target:g} ms",
            f"{median:.2f} ms",
            median / target,
        )
        for name, median, target in figures
    ]


def players_rows(quick: bool) -> list[Row]:
    return bench_players.rows(400 if quick else 4000, 10 if quick else 30)


def startup_rows(quick: bool) -> list[Row]:
    return bench_startup.rows(2_000, 200) if quick else bench_startup.rows()


SECTIONS: dict[str, Callable[[bool], list[Row]]] = {
    "rules": rules_rows,
    "render": render_rows,
    "click": click_rows,
    "bot": bench_bot.rows,
    "stats": stats_rows,
    "ratings": ratings_rows,
    "daily": daily_rows,
    "startup": startup_rows,
    "players": players_rows,
    "tournament": bench_tournament.rows,
}


def run(names: list[str], quick: bool) -> list[Row]:
    """Every section's rows; a section that fails shows its error instead of its figures."""
    found: list[Row] = []
    for name in names:
        try:
            found += SECTIONS[name](quick)
        except Exception as error:  # one broken benchmark must not hide the others
            traceback.print_exc()
            found.append((f"{name}: failed", "", f"{type(error).__name__}", 0.0))
    return found


def table(rows: list[Row]) -> str:
    width = max(len(r[0]) for r in rows)
    lines = [f"{'what':<{width}}  {'budget':>18}  {'figure':>18}  {'ratio':>6}"]
    for what, budget, figure, ratio in rows:
        shown = f"{ratio:6.2f}" if ratio else ""
        mark = "  !" if ratio > 1 else ""
        lines.append(f"{what:<{width}}  {budget:>18}  {figure:>18}  {shown:>6}{mark}")
    return "\n".join(lines)


def main() -> int:
    """Print the table; the exit status is 1 if a section failed (its error is shown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs, for a smoke test")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections of {', '.join(SECTIONS)}",
    )
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n]
    unknown = set(names) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    start = time.perf_counter()
    rows = run(names, args.quick)
    print(table(rows))
    print(
        f"({time.perf_counter() - start:.0f} s; a ratio above 1 misses its budget, "
        "the rules anchor is measured in the same run)"
    )
    return 1 if any(what.endswith(": failed") for what, *_ in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
