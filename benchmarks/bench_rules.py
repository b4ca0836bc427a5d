"""How fast is the rules core? Random games through the public rules API, against an anchor.

Plays complete games in which every waiting player picks a uniformly random legal move
(``decision()``, ``legal_moves()``, ``apply()`` — what the service and the computer
players call), and times them. The anchor, ``../shared/anchors/qwixx_sim.py`` (a minimal
classic Qwixx engine with a simple policy), runs in the same process right after, so the
ratio holds on any machine. Budgets: classic 2-player games/s at least half the anchor's
rate; every variant's time per decision within 1.5x of classic's.

    python -m benchmarks.bench_rules [--seconds 2] [--anchor PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType

from bot.rules import new_game

ANCHOR = Path(__file__).resolve().parents[2] / "shared" / "anchors" / "qwixx_sim.py"
PLAYERS = (101, 202)
VARIANTS = ("classic", "longo", "onboard", "qwinto")
ROUNDS = 3  # alternating rounds of engine and anchor; the median round counts


@dataclass(frozen=True)
class Rate:
    games_per_s: float
    us_per_decision: float


def random_game(variant: str, seed: int, players: tuple[int, ...] = PLAYERS) -> int:
    """Play one game with uniformly random legal moves; returns the decisions made."""
    rng = random.Random(seed)
    game = new_game(variant, players, seed)
    decisions = 0
    while not game.finished:
        player = min(game.decision().waiting)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
        decisions += 1
    return decisions


def measure(play: Callable[[int], int], seconds: float) -> Rate:
    """Games per second and microseconds per decision over about ``seconds``."""
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += play(games)
        games += 1
    return Rate(games / elapsed, elapsed / max(decisions, 1) * 1e6)


def load_anchor(path: Path = ANCHOR) -> ModuleType:
    spec = importlib.util.spec_from_file_location("qwixx_sim", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def anchor_play(anchor: ModuleType, players: int = 2) -> Callable[[int], int]:
    rng = random.Random(1)

    def play(_: int) -> int:
        _, turns = anchor.play(players, rng)
        return int(turns)
    return play


def engine_vs_anchor(seconds: float, anchor_path: Path = ANCHOR) -> tuple[Rate, Rate]:
    """Classic 2-player rate and the anchor's, interleaved; the median of each."""
    anchor = anchor_play(load_anchor(anchor_path))
    ours, theirs = [], []
    for _ in range(ROUNDS):
        ours.append(measure(lambda seed: random_game("classic", seed), seconds / ROUNDS))
        theirs.append(measure(anchor, seconds / ROUNDS))
    return median_rate(ours), median_rate(theirs)


def median_rate(rates: list[Rate]) -> Rate:
    return Rate(statistics.median(r.games_per_s for r in rates),
                statistics.median(r.us_per_decision for r in rates))


def per_variant(seconds: float, players: tuple[int, ...] = PLAYERS) -> dict[str, Rate]:
    """Each variant's rate, interleaved over rounds (the median round counts), so that a
    busy moment of the machine does not fall on one variant only."""
    rates: dict[str, list[Rate]] = {v: [] for v in VARIANTS}
    for _ in range(ROUNDS):
        for variant in VARIANTS:
            rates[variant].append(measure(
                partial(random_game, variant, players=players),
                seconds / ROUNDS / len(VARIANTS)))
    return {v: median_rate(r) for v, r in rates.items()}


def rows(seconds: float = 2.0, anchor_path: Path = ANCHOR) -> list[tuple[str, str, str, float]]:
    """(what, budget, figure, ratio) lines; a ratio above 1 misses the budget."""
    ours, anchor = engine_vs_anchor(seconds, anchor_path)
    lines = [
        ("rules: anchor qwixx_sim 2p", "(yardstick)", f"{anchor.games_per_s:,.0f} games/s", 0.0),
        ("rules: classic 2p random games", f">= {anchor.games_per_s / 2:,.0f} games/s",
         f"{ours.games_per_s:,.0f} games/s", anchor.games_per_s / 2 / ours.games_per_s),
    ]
    rates = per_variant(seconds)
    classic = rates["classic"].us_per_decision
    for variant, rate in rates.items():
        lines.append((f"rules: {variant} per decision", f"<= {1.5 * classic:.1f} us",
                      f"{rate.us_per_decision:.1f} us",
                      rate.us_per_decision / (1.5 * classic)))
    four = measure(lambda seed: random_game("classic", seed, (1, 2, 3, 4)), seconds / 4)
    lines.append(("rules: classic 4p random games", "(info)",
                  f"{four.games_per_s:,.0f} games/s", 0.0))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time spent on the engine (and as much on the anchor)")
    parser.add_argument("--anchor", type=Path, default=ANCHOR)
    args = parser.parse_args()
    for what, budget, figure, ratio in rows(args.seconds, args.anchor):
        shown = f"{ratio:6.2f}" if ratio else "     -"
        print(f"{what:<34}{budget:>22}{figure:>20}{shown:>8}")


if __name__ == "__main__":
    main()
