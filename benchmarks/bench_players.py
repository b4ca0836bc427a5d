"""How well and how fast do the computer players play? Whole games through the rules API.

Per variant and level: mean score per player ± 95% confidence interval, solo and in
2-player self-play; head-to-head win rates (ties count half, seats alternate); time per
decision, p50 and p99 (budget 50 ms at p99 for every level). Targets for ``hard``:
classic solo ≥ 105, Qwinto 2-player self-play ≥ 60, ``hard`` beats ``normal`` and
``normal`` beats ``easy`` in ≥ 65% of games.

Solo form: the rules core's own game class built with one seat (``min_players`` is
enforced by ``new_game`` only), so the one player is the active player every turn and
every rule, end condition and score is the rules core's.

    python -m benchmarks.bench_players [--games 2000] [--variants classic,qwinto]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.players import LEVELS, choose
from bot.rules import Game, new_game
from bot.rules import variant_class as _variant_class

VARIANTS = ("classic", "longo", "onboard", "qwinto")
BUDGET_MS = 50.0
TARGETS = {("classic", "solo", "hard"): 105.0, ("qwinto", "self-play", "hard"): 60.0}
WIN_TARGET = 0.65
DUELS = (("normal", "easy"), ("hard", "normal"), ("hard", "easy"))


@dataclass
class Timings:
    seconds: dict[str, list[float]] = field(default_factory=lambda: {lv: [] for lv in LEVELS})


def solo_game(variant: str, seed: int) -> Game:
    """A one-seat game of the rules core: that player is active every turn."""
    return _variant_class(variant)([-1], seed, {})


def play(game: Game, levels: dict[int, str], timings: Timings) -> dict[int, int]:
    """Play ``game`` to the end with each seat at its level; the final totals."""
    rng = random.Random(game.seed)
    while not game.finished:
        player = min(game.decision().waiting)
        start = time.perf_counter()
        move = choose(game, player, rng, levels[player])
        timings.seconds[levels[player]].append(time.perf_counter() - start)
        game, _ = game.apply(player, move)
    return {p: s.total for p, s in game.scores().items()}


def mean_ci(values: Sequence[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return f"{mean:6.1f} ± {half:4.1f}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def scores(variant: str, level: str, games: int, solo: bool, timings: Timings) -> list[int]:
    found: list[int] = []
    for seed in range(games):
        game = solo_game(variant, seed) if solo else new_game(variant, [-1, -2], seed)
        found += play(game, dict.fromkeys(game.players, level), timings).values()
    return found


def duel(variant: str, first: str, second: str, games: int, timings: Timings) -> float:
    """The share of games ``first`` wins against ``second`` (ties half)."""
    points = 0.0
    for seed in range(games):
        seats = {-1: first, -2: second} if seed % 2 == 0 else {-1: second, -2: first}
        totals = play(new_game(variant, [-1, -2], 10**6 + seed), seats, timings)
        mine = next(t for p, t in totals.items() if seats[p] == first)
        theirs = next(t for p, t in totals.items() if seats[p] == second)
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points / games


def target_note(key: tuple[str, str, str], values: Sequence[float]) -> str:
    if key not in TARGETS:
        return ""
    mean = statistics.fmean(values)
    verdict = "met" if mean >= TARGETS[key] else "MISSED"
    return f"  target ≥ {TARGETS[key]:.0f}: {verdict} (ratio {mean / TARGETS[key]:.2f})"


def bench_variant(variant: str, games: int) -> None:
    timings = Timings()
    print(f"\n== {variant} ({games} games per row)")
    for mode, solo in (("solo", True), ("self-play", False)):
        for level in LEVELS:
            values = scores(variant, level, games, solo, timings)
            note = target_note((variant, mode, level), values)
            print(f"{mode:9} {level:6} mean {mean_ci(values)}{note}", flush=True)
    for first, second in DUELS:
        rate = duel(variant, first, second, games, timings)
        verdict = "met" if rate >= WIN_TARGET else "MISSED"
        print(f"{first} beats {second}: {rate:.1%}  (target ≥ {WIN_TARGET:.0%}: {verdict})",
              flush=True)
    for level in LEVELS:
        times = timings.seconds[level]
        p99 = percentile(times, 0.99)
        print(f"decision {level:6} p50 {percentile(times, 0.5):6.2f} ms  p99 {p99:6.2f} ms  "
              f"(budget {BUDGET_MS:.0f} ms, ratio {p99 / BUDGET_MS:.2f}, "
              f"{len(times)} decisions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print("solo = the rules core's game class with one seat (active every turn); "
          "self-play = 2 seats at the same level; mean score per player ± 95% CI")
    for variant in args.variants.split(","):
        bench_variant(variant, args.games)


if __name__ == "__main__":
    main()
