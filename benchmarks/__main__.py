"""Every benchmark in one run, one table: what, budget, figure, ratio (above 1 misses it).

    python -m benchmarks [--quick] [--only rules,render,stats,startup]

* rules — random games through the rules API against the ``qwixx_sim`` anchor, measured
  in the same run (:mod:`benchmarks.bench_rules`);
* render — every image of :mod:`benchmarks.bench_render`, plus a 5-player scoreboard;
* stats — every leaderboard, stats and history query on 100,000 results, once spread
  over a year and once all in the current month (:mod:`benchmarks.bench_stats`);
* startup — 10,000 stored games, 1,000 running: time to be ready, resident memory
  (:mod:`benchmarks.bench_startup`).

``--quick`` shortens every measurement (fewer runs, 20,000 results) for a smoke run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
import traceback
from collections.abc import Callable

from . import bench_render, bench_rules, bench_startup, bench_stats

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)

SHEET_BUDGET_MS = 5.0
SCOREBOARD_5P_BUDGET_MS = 15.0
FIVE = {1: "Ana", 2: "Mehmet", 3: "Zofia Wiśniewska", 4: "Lea", 5: "Ben"}


def rules_rows(quick: bool) -> list[Row]:
    return bench_rules.rows(1.0 if quick else 3.0)


def render_rows(quick: bool) -> list[Row]:
    runs = 5 if quick else 20
    found: list[Row] = []
    for case in bench_render.cases(7):
        ms, size = bench_render.median_ms(case.call, runs)
        budget = SHEET_BUDGET_MS if case.kind == "sheet" else bench_render.TARGETS_MS[case.kind]
        found.append((f"render: {case.kind} {case.label} ({size / 1000:.0f} kB)",
                      f"<= {budget:g} ms", f"{ms:.1f} ms", ms / budget))
    ms, size = bench_render.median_ms(five_player_scoreboard(), runs)
    found.append((f"render: scoreboard 5 players ({size / 1000:.0f} kB)",
                  f"<= {SCOREBOARD_5P_BUDGET_MS:g} ms", f"{ms:.1f} ms",
                  ms / SCOREBOARD_5P_BUDGET_MS))
    return found


def five_player_scoreboard() -> Callable[[], bytes]:
    rng = random.Random(7)
    game = bench_render.finish(bench_render.new_game("classic", list(FIVE), 7), rng)
    return lambda: bench_render.render_scoreboard(game, FIVE)


def stats_rows(quick: bool) -> list[Row]:
    results, runs = (20_000, 5) if quick else (100_000, 9)
    found: list[Row] = []
    for spread, days in (("over a year", bench_stats.SPAN_DAYS), ("all this month", 17)):
        timings = asyncio.run(bench_stats.measure(results, span_days=days, runs=runs))
        name, worst = max(timings, key=lambda t: t[1])
        found.append((f"stats: slowest of {len(timings)} queries, {results:,} results {spread}",
                      f"<= {bench_stats.TARGET_MS:g} ms", f"{worst:.1f} ms",
                      worst / bench_stats.TARGET_MS))
        found.append((f"  (that is: {name})", "", "", 0.0))
    return found


def startup_rows(quick: bool) -> list[Row]:
    return bench_startup.rows(2_000, 200) if quick else bench_startup.rows()


SECTIONS: dict[str, Callable[[bool], list[Row]]] = {
    "rules": rules_rows, "render": render_rows, "stats": stats_rows, "startup": startup_rows}


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs, for a smoke test")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections of {', '.join(SECTIONS)}")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n]
    unknown = set(names) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    start = time.perf_counter()
    rows = run(names, args.quick)
    print(table(rows))
    print(f"({time.perf_counter() - start:.0f} s; a ratio above 1 misses its budget, "
          "the rules anchor is measured in the same run)")


if __name__ == "__main__":
    main()
