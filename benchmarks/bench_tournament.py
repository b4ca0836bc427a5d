"""How long does a tournament of 256 take to seat a round and to draw its standings?

Plays a 256-player classic tournament at tables of four with repeat opponents avoided
(seeded scores of -10 to 140 a game, one player in ten withdrawing along the way), then
times, in CPU (median and slowest of ``--runs``):

* seating its last round (:func:`bot.tournament.next_round`: the standings of nine
  rounds, whom everyone has met, the search for a seating without repeats and the swaps
  that group the players as the standings order them);
* the standings image for a player far down the list: the standings, their lines
  (:func:`bot.render.standings_lines.standings_rows`) and the PNG.

Budget 50 ms each.

    python -m benchmarks.bench_tournament [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.render import render_standings
from bot.render.lines import BoardTable
from bot.render.standings_lines import standings_rows
from bot.tournament import TournamentSettings, next_round, standings
from bot.tournament.settings import MAX_ROUNDS
from tests.tournament.helpers import run

BUDGET_MS = 50.0
PLAYERS = 256
SEED = 2026
NAMES = (
    "Maximilian Alexander von Schönhausen-Überlingen",
    "王小明🎲",
    "Zoë Ñúñez 🐉✨",
    "Zofia Wiśniewska",
    "Mehmet Yılmaz",
    "さくら",
    "김민준",
    "João Pedro",
)
Row = tuple[str, str, str, float]


def cpu_ms(work: Callable[[], object], runs: int) -> tuple[float, float]:
    """The median and the slowest CPU time of ``runs`` calls, in ms."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), max(times)


def rows(quick: bool = False, runs: int | None = None) -> list[Row]:
    """(what, budget, figure, ratio) lines; a ratio above 1 misses the budget. ``runs``:
    15, or 5 if ``quick``."""
    runs = runs or (5 if quick else 15)
    played = TournamentSettings("Bench Cup", rounds=MAX_ROUNDS - 1)
    leaving = {p: 1 + p % (MAX_ROUNDS - 1) for p in range(10, PLAYERS + 1, 10)}
    entrants, rounds, results = run(played, PLAYERS, SEED, leaving, scores=(-10, 140))
    settings = TournamentSettings("Bench Cup", rounds=MAX_ROUNDS)
    seated = next_round(settings, entrants, rounds, results, SEED)
    lines = standings(settings, entrants, rounds, results)
    viewer = lines[len(lines) // 2].player
    names = {p: NAMES[p % len(NAMES)] for p in range(1, PLAYERS + 1)}
    notes = {p: "withdrawn" for p in leaving}

    def image() -> bytes:
        found = standings(settings, entrants, rounds, results)
        table = BoardTable(
            "Bench Cup — standings",
            f"after round {len(rounds)} of {MAX_ROUNDS} · {PLAYERS} players",
            "#",
            "Player",
            ("Points", "Opp.", "Score"),
            standings_rows(found, names, viewer, notes),
            "Ties: opponents' points, then total score.",
            sorted_column=0,
        )
        return render_standings(table)

    seat = cpu_ms(lambda: next_round(settings, entrants, rounds, results, SEED), runs)
    image()  # the fonts and the palette, loaded once in a running bot
    draw = cpu_ms(image, runs)
    size = len(image())
    return [
        (
            f"tournament: seat a round of {PLAYERS}",
            f"<= {BUDGET_MS:g} ms",
            f"{seat[0]:.1f} ms",
            seat[0] / BUDGET_MS,
        ),
        (
            f"  (round {seated.number} of {MAX_ROUNDS}: {seated.repeats} repeats; "
            f"slowest {seat[1]:.1f} ms)",
            "",
            "",
            0.0,
        ),
        (
            f"tournament: standings image of {PLAYERS}",
            f"<= {BUDGET_MS:g} ms",
            f"{draw[0]:.1f} ms",
            draw[0] / BUDGET_MS,
        ),
        (f"  ({size:,} B PNG; slowest {draw[1]:.1f} ms)", "", "", 0.0),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for what, budget, figure, ratio in rows(runs=args.runs):
        print(f"{what:<50} {budget:>10} {figure:>10} " + (f"{ratio:6.2f}" if ratio else ""))


if __name__ == "__main__":
    main()
