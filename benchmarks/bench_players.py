"""How well and how fast do the computer players play? Whole games through the rules API.

One row per budget, with its ratio (above 1 misses it):

* ``hard``'s decision, CPU time (``time.thread_time``, so a busy machine does not
  inflate it), p99, in every variant with 2, 3, 4 and 5 seats (as many as it allows)
  all played by ``hard``: ≤ 10 ms; and alone (the solo form), held to the same;
* ``hard`` beats ``normal`` and ``normal`` beats ``easy`` in ≥ 70% of games, in every
  variant: head-to-head 2-player games, the higher final total wins, a tie counts half,
  seats alternate from game to game, every game its own seed;
* classic solo ``hard`` mean score ≥ 110, Qwinto 2-player self-play ``hard`` mean
  score per player ≥ 60 (± is the 95% confidence interval).

Solo form: the rules core's own game class built with one seat (``min_players`` is
enforced by ``new_game`` only), so the one player is the active player every turn and
every rule, end condition and score is the rules core's.

Games are played one after another in this one process (the machine is shared); the
load average is printed before and after. :func:`rows` gives the same rows, in the
shape of ``python -m benchmarks``'s table.

    python -m benchmarks.bench_players [--games 4000] [--speed-games 30]
        [--variants classic,qwinto] [--parts speed,duels,scores]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Sequence

from bot.players import choose
from bot.rules import Game, new_game
from bot.rules import variant_class as _variant_class

VARIANTS = ("classic", "longo", "onboard", "qwinto")
PARTS = ("speed", "duels", "scores")
BUDGET_MS = 10.0
WIN_TARGET = 0.70
DUELS = (("hard", "normal"), ("normal", "easy"))
SEATS = (1, 2, 3, 4, 5)  # 1: the solo form
SCORE_TARGETS = {("classic", "solo"): 110.0, ("qwinto", "self-play"): 60.0}

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)


def solo_game(variant: str, seed: int) -> Game:
    """A one-seat game of the rules core: that player is active every turn."""
    return _variant_class(variant)([-1], seed, {})


def play(
    game: Game, levels: dict[int, str], seconds: dict[str, list[float]] | None = None
) -> dict[int, int]:
    """Play ``game`` to the end with each seat at its level; the final totals.
    ``seconds``: each level's CPU time per decision is added to it."""
    rng = random.Random(game.seed)
    while not game.finished:
        player = min(game.decision().waiting)
        start = time.thread_time()
        move = choose(game, player, rng, levels[player])
        if seconds is not None:
            seconds.setdefault(levels[player], []).append(time.thread_time() - start)
        game, _ = game.apply(player, move)
    return {p: s.total for p, s in game.scores().items()}


def duel_game(variant: str, first: str, second: str, seed: int) -> float:
    """``first``'s points in one game against ``second`` (1 win, ½ tie); seats alternate."""
    seats = {-1: first, -2: second} if seed % 2 == 0 else {-1: second, -2: first}
    totals = play(new_game(variant, [-1, -2], 10**6 + seed), seats)
    mine = next(t for p, t in totals.items() if seats[p] == first)
    theirs = next(t for p, t in totals.items() if seats[p] == second)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def half_width(values: Sequence[float]) -> float:
    """Half the 95% confidence interval of the mean."""
    return 1.96 * statistics.pstdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def speed_rows(variant: str, games: int) -> list[Row]:
    """``hard``'s CPU time per decision in games of 2-5 seats, all ``hard``."""
    found = []
    cls = _variant_class(variant)
    for seats in (n for n in SEATS if n == 1 or cls.min_players <= n <= cls.max_players):
        seconds: dict[str, list[float]] = {}
        for seed in range(games):
            game = (
                solo_game(variant, 2 * 10**6 + seed)
                if seats == 1
                else new_game(variant, [-1 - i for i in range(seats)], 2 * 10**6 + seed)
            )
            play(game, dict.fromkeys(game.players, "hard"), seconds)
        times = [t * 1000 for t in seconds["hard"]]
        p99 = percentile(times, 0.99)
        who = "alone" if seats == 1 else f"{seats} players"
        found.append(
            (
                f"players: hard decision CPU p99, {variant}, {who}",
                f"<= {BUDGET_MS:g} ms",
                f"{p99:.2f} ms (p50 {percentile(times, 0.5):.2f}, n {len(times)})",
                p99 / BUDGET_MS,
            )
        )
    return found


def duel_rows(variant: str, games: int) -> list[Row]:
    found = []
    for first, second in DUELS:
        points = [duel_game(variant, first, second, seed) for seed in range(games)]
        rate = statistics.fmean(points)
        found.append(
            (
                f"players: {first} beats {second}, {variant}, {games} games",
                f">= {WIN_TARGET:.0%}",
                f"{rate:.1%} ± {half_width(points):.1%}",
                WIN_TARGET / rate if rate else math.inf,
            )
        )
    return found


def score_rows(variant: str, games: int) -> list[Row]:
    found = []
    for part in ("solo", "self-play"):
        if (variant, part) not in SCORE_TARGETS:
            continue
        values: list[float] = []
        for seed in range(games):
            game = solo_game(variant, seed) if part == "solo" else new_game(variant, [-1, -2], seed)
            values += play(game, dict.fromkeys(game.players, "hard")).values()
        mean, target = statistics.fmean(values), SCORE_TARGETS[variant, part]
        found.append(
            (
                f"players: hard mean score, {variant} {part}, {games} games",
                f">= {target:g}",
                f"{mean:.1f} ± {half_width(values):.1f}",
                target / mean if mean > 0 else math.inf,
            )
        )
    return found


def rows(
    games: int = 4000,
    speed_games: int = 30,
    variants: Sequence[str] = VARIANTS,
    parts: Sequence[str] = PARTS,
) -> list[Row]:
    """Every budget row of the computer players, in one process, one game at a time."""
    found: list[Row] = []
    for variant in variants:
        if "speed" in parts:
            found += speed_rows(variant, speed_games)
        if "duels" in parts:
            found += duel_rows(variant, games)
        if "scores" in parts:
            found += score_rows(variant, min(games, 2000))
    return found


def table(found: Sequence[Row]) -> str:
    width = max(len(r[0]) for r in found)
    lines = [f"{'what':<{width}}  {'budget':>8}  {'figure':>32}  {'ratio':>6}"]
    for what, budget, figure, ratio in found:
        mark = "  !" if ratio > 1 else ""
        lines.append(f"{what:<{width}}  {budget:>8}  {figure:>32}  {ratio:6.2f}{mark}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=4000, help="games per duel (scores: at most 2,000)"
    )
    parser.add_argument(
        "--speed-games",
        type=int,
        default=30,
        help="games per variant and seat count for the decision times",
    )
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--parts", default=",".join(PARTS))
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}", flush=True)
    started = time.perf_counter()
    for variant in args.variants.split(","):  # a table per variant, as soon as it is done
        print(
            table(rows(args.games, args.speed_games, [variant], args.parts.split(","))), flush=True
        )
    print(
        f"({time.perf_counter() - started:.0f} s; load average after: "
        f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}; a ratio above 1 misses its budget)"
    )


if __name__ == "__main__":
    main()
