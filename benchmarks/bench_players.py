"""How well and how fast do the computer players play? Whole games through the rules API.

Per variant and level: mean score per player ± 95% confidence interval, solo and in
2-player self-play; head-to-head win rates (ties count half, seats alternate); time per
decision, p50 and p99 (budget 50 ms at p99 for every level). Targets for ``hard``:
classic solo ≥ 105, Qwinto 2-player self-play ≥ 60, ``hard`` beats ``normal`` and
``normal`` beats ``easy`` in ≥ 65% of games.

Solo form: the rules core's own game class built with one seat (``min_players`` is
enforced by ``new_game`` only), so the one player is the active player every turn and
every rule, end condition and score is the rules core's.

Games are split into chunks of seeds played by at most two worker processes (the
figures do not depend on the number of workers: every game has its own seed).

    python -m benchmarks.bench_players [--games 2000] [--variants classic,qwinto]
        [--parts solo,self-play,duels] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.players import LEVELS, choose
from bot.rules import Game, new_game
from bot.rules import variant_class as _variant_class

VARIANTS = ("classic", "longo", "onboard", "qwinto")
PARTS = ("solo", "self-play", "duels")
BUDGET_MS = 50.0
TARGETS = {("classic", "solo", "hard"): 105.0, ("qwinto", "self-play", "hard"): 60.0}
WIN_TARGET = 0.65
DUELS = (("normal", "easy"), ("hard", "normal"), ("hard", "easy"))
CHUNK = 50  # games per task handed to a worker
MAX_WORKERS = 2  # the machine is shared


@dataclass(frozen=True)
class Task:
    """Games ``start``…``stop - 1`` of one figure: ``levels`` per seat (one seat: solo)."""

    variant: str
    part: str
    levels: tuple[str, ...]
    start: int
    stop: int


@dataclass
class Outcome:
    task: Task
    values: list[float]  # scores per player, or per game the first level's points (duels)
    seconds: dict[str, list[float]]


def solo_game(variant: str, seed: int) -> Game:
    """A one-seat game of the rules core: that player is active every turn."""
    return _variant_class(variant)([-1], seed, {})


def play(game: Game, levels: dict[int, str],
         seconds: dict[str, list[float]]) -> dict[int, int]:
    """Play ``game`` to the end with each seat at its level; the final totals."""
    rng = random.Random(game.seed)
    while not game.finished:
        player = min(game.decision().waiting)
        start = time.perf_counter()
        move = choose(game, player, rng, levels[player])
        seconds[levels[player]].append(time.perf_counter() - start)
        game, _ = game.apply(player, move)
    return {p: s.total for p, s in game.scores().items()}


def run(task: Task) -> Outcome:
    """Play the task's games (in a worker)."""
    seconds: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    values: list[float] = []
    for seed in range(task.start, task.stop):
        if task.part == "solo":
            values += play(solo_game(task.variant, seed), {-1: task.levels[0]},
                           seconds).values()
        elif task.part == "self-play":
            game = new_game(task.variant, [-1, -2], seed)
            values += play(game, dict.fromkeys(game.players, task.levels[0]), seconds).values()
        else:
            first, second = task.levels
            values.append(duel_game(task.variant, first, second, seed, seconds))
    return Outcome(task, values, seconds)


def duel_game(variant: str, first: str, second: str, seed: int,
              seconds: dict[str, list[float]]) -> float:
    """``first``'s points in one game against ``second`` (1 win, ½ tie); seats alternate."""
    seats = {-1: first, -2: second} if seed % 2 == 0 else {-1: second, -2: first}
    totals = play(new_game(variant, [-1, -2], 10**6 + seed), seats, seconds)
    mine = next(t for p, t in totals.items() if seats[p] == first)
    theirs = next(t for p, t in totals.items() if seats[p] == second)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def tasks(variant: str, parts: Sequence[str], games: int) -> Iterator[Task]:
    figures: list[tuple[str, tuple[str, ...]]] = [
        (part, (level,)) for part in PARTS[:2] if part in parts for level in LEVELS]
    if "duels" in parts:
        figures += [("duels", pair) for pair in DUELS]
    for part, levels in figures:
        for start in range(0, games, CHUNK):
            yield Task(variant, part, levels, start, min(games, start + CHUNK))


def mean_ci(values: Sequence[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return f"{mean:6.1f} ± {half:4.1f}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def target_note(key: tuple[str, str, str], values: Sequence[float]) -> str:
    if key not in TARGETS:
        return ""
    mean = statistics.fmean(values)
    verdict = "met" if mean >= TARGETS[key] else "MISSED"
    return f"  target ≥ {TARGETS[key]:.0f}: {verdict} (ratio {mean / TARGETS[key]:.2f})"


def report(variant: str, games: int, outcomes: list[Outcome]) -> None:
    """Print one variant's figures, in the order of :func:`tasks`."""
    print(f"\n== {variant} ({games} games per figure)")
    figures: dict[tuple[str, tuple[str, ...]], list[float]] = {}
    seconds: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    for outcome in sorted(outcomes, key=lambda o: o.task.start):
        figures.setdefault((outcome.task.part, outcome.task.levels), []).extend(outcome.values)
        for level, times in outcome.seconds.items():
            seconds[level] += times
    levels_of: list[tuple[str, ...]] = [(x,) for x in LEVELS]
    order = [(p, lv) for p in PARTS for lv in levels_of + list(DUELS)]
    for part, levels in [key for key in order if key in figures]:
        values = figures[part, levels]
        if part == "duels":
            rate = statistics.fmean(values)
            half = 1.96 * statistics.pstdev(values) / math.sqrt(len(values))
            verdict = "met" if rate >= WIN_TARGET else "MISSED"
            print(f"{levels[0]} beats {levels[1]}: {rate:.1%} ± {half:.1%}  "
                  f"(target ≥ {WIN_TARGET:.0%}: {verdict})")
        else:
            note = target_note((variant, part, levels[0]), values)
            print(f"{part:9} {levels[0]:6} mean {mean_ci(values)}{note}")
    for level in LEVELS:
        times = seconds[level]
        if times:
            p99 = percentile(times, 0.99)
            print(f"decision {level:6} p50 {percentile(times, 0.5):6.2f} ms  p99 {p99:6.2f} ms"
                  f"  (budget {BUDGET_MS:.0f} ms, ratio {p99 / BUDGET_MS:.2f}, "
                  f"{len(times)} decisions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument("--workers", type=int, default=MAX_WORKERS)
    args = parser.parse_args()
    parts = args.parts.split(",")
    workers = max(1, min(MAX_WORKERS, args.workers))
    print("solo = the rules core's game class with one seat (active every turn); "
          "self-play = 2 seats at the same level; mean score per player ± 95% CI; "
          f"{workers} worker(s)")
    started = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        for variant in args.variants.split(","):
            todo = list(tasks(variant, parts, args.games))
            report(variant, args.games, list(pool.imap_unordered(run, todo)))
    print(f"\n{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
