"""How fast is the rules core? Random games through the public rules API, against an anchor.

Plays complete games in which every waiting player picks a uniformly random legal move
(``decision()``, ``legal_moves()``, ``apply()`` — what the service and the computer
players call), and times them in CPU time (the machine's other work does not count).
The anchor, ``../shared/anchors/qwixx_sim.py`` (a minimal classic Qwixx engine with a
simple policy), runs in the same process in alternating rounds, so the ratio holds on any
machine. Budgets: classic 2-player games/s at least the anchor's rate; every variant's
time per decision within 1.2x of classic's.

Time still depends on what else shares the processor's caches; instructions do not. With
valgrind installed, the same games are also counted under callgrind
(:func:`instruction_rows`, 50 games of each kind, about a minute): instructions per
classic game against the anchor's, and per decision for every variant, each the
difference between a run that plays the games and one that only warms up (imports,
tables, one game of each kind), so start-up cancels out.

    python -m benchmarks.bench_rules [--seconds 2] [--anchor PATH] [--callgrind-games 50]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType

from bot.rules import new_game

ROOT = Path(__file__).resolve().parents[1]
ANCHOR = ROOT.parent / "shared" / "anchors" / "qwixx_sim.py"
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
    """Games per second and microseconds per decision over about ``seconds`` of this
    process's CPU time."""
    games = decisions = 0
    start = time.process_time()  # CPU time: another process's load does not count
    while (elapsed := time.process_time() - start) < seconds:
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
    return Rate(
        statistics.median(r.games_per_s for r in rates),
        statistics.median(r.us_per_decision for r in rates),
    )


def per_variant(seconds: float, players: tuple[int, ...] = PLAYERS) -> dict[str, Rate]:
    """Each variant's rate, interleaved over rounds (the median round counts), so that a
    busy moment of the machine does not fall on one variant only."""
    rates: dict[str, list[Rate]] = {v: [] for v in VARIANTS}
    for _ in range(ROUNDS):
        for variant in VARIANTS:
            rates[variant].append(
                measure(
                    partial(random_game, variant, players=players), seconds / ROUNDS / len(VARIANTS)
                )
            )
    return {v: median_rate(r) for v, r in rates.items()}


def rows(
    seconds: float = 2.0, anchor_path: Path = ANCHOR, callgrind_games: int | None = None
) -> list[tuple[str, str, str, float]]:
    """(what, budget, figure, ratio) lines; a ratio above 1 misses the budget.
    ``callgrind_games``: games of each kind counted under callgrind (0: none; None:
    :data:`CALLGRIND_GAMES`, or 10 for a short run of under 2 s)."""
    ours, anchor = engine_vs_anchor(seconds, anchor_path)
    lines = [
        ("rules: anchor qwixx_sim 2p", "(yardstick)", f"{anchor.games_per_s:,.0f} games/s", 0.0),
        (
            "rules: classic 2p random games",
            f">= {anchor.games_per_s:,.0f} games/s",
            f"{ours.games_per_s:,.0f} games/s",
            anchor.games_per_s / ours.games_per_s,
        ),
    ]
    rates = per_variant(seconds)
    classic = rates["classic"].us_per_decision
    for variant, rate in rates.items():
        lines.append(
            (
                f"rules: {variant} per decision",
                f"<= {1.2 * classic:.1f} us",
                f"{rate.us_per_decision:.1f} us",
                rate.us_per_decision / (1.2 * classic),
            )
        )
    four = measure(lambda seed: random_game("classic", seed, (1, 2, 3, 4)), seconds / 4)
    lines.append(
        ("rules: classic 4p random games", "(info)", f"{four.games_per_s:,.0f} games/s", 0.0)
    )
    if callgrind_games is None:
        callgrind_games = CALLGRIND_GAMES if seconds >= 2 else 10
    if callgrind_games:
        lines += instruction_rows(callgrind_games, anchor_path)
    return lines


# --- instructions under callgrind ---------------------------------------------------
CALLGRIND_GAMES = 50
PLAY = """
import random, sys
from benchmarks.bench_rules import VARIANTS, anchor_play, load_anchor, random_game
from pathlib import Path
anchor = anchor_play(load_anchor(Path(sys.argv[1])))
for variant in VARIANTS:
    random_game(variant, 10_000)
anchor(0)
kind, games = sys.argv[2], int(sys.argv[3])
decisions = 0
for seed in range(games):
    decisions += anchor(seed) if kind == "anchor" else random_game(kind, seed)
print(decisions)
"""


def callgrind(kind: str, games: int, anchor_path: Path = ANCHOR) -> tuple[int, int]:
    """Instructions and decisions (the anchor: turns) of ``games`` games of ``kind``
    (a variant or "anchor") under callgrind, start-up and warm-up included."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                PLAY,
                str(anchor_path),
                kind,
                str(games),
            ],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError("callgrind wrote no total")
        return int(found.group(1)), int(done.stdout.split()[-1])


def instructions(
    kind: str, games: int, base: int, anchor_path: Path = ANCHOR
) -> tuple[float, float]:
    """Instructions per game and per decision of ``kind``, ``base`` (the warm-up run's
    count) taken off."""
    total, decisions = callgrind(kind, games, anchor_path)
    return (total - base) / games, (total - base) / max(decisions, 1)


def instruction_rows(
    games: int = CALLGRIND_GAMES, anchor_path: Path = ANCHOR
) -> list[tuple[str, str, str, float]]:
    """The callgrind rows: classic 2p per game against the anchor's, every variant per
    decision against 1.2x classic's (none when valgrind is not installed)."""
    if shutil.which("valgrind") is None:
        return []
    base, _ = callgrind("anchor", 0, anchor_path)
    anchor, _ = instructions("anchor", games, base, anchor_path)
    per = {v: instructions(v, games, base, anchor_path) for v in VARIANTS}
    classic = per["classic"][1]
    lines = [
        ("rules: anchor qwixx_sim 2p, callgrind", "(yardstick)", f"{anchor:,.0f} instr/game", 0.0),
        (
            "rules: classic 2p, callgrind",
            f"<= {anchor:,.0f} instr/game",
            f"{per['classic'][0]:,.0f} instr/game",
            per["classic"][0] / anchor,
        ),
    ]
    for variant, (_, decision) in per.items():
        lines.append(
            (
                f"rules: {variant} per decision, callgrind",
                f"<= {1.2 * classic / 1000:,.1f}k instr",
                f"{decision / 1000:,.1f}k instr",
                decision / (1.2 * classic),
            )
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="time spent on the engine (and as much on the anchor)",
    )
    parser.add_argument("--anchor", type=Path, default=ANCHOR)
    parser.add_argument(
        "--callgrind-games",
        type=int,
        default=CALLGRIND_GAMES,
        help="games of each kind counted under callgrind (0: none)",
    )
    args = parser.parse_args()
    for what, budget, figure, ratio in rows(args.seconds, args.anchor, args.callgrind_games):
        shown = f"{ratio:6.2f}" if ratio else "     -"
        print(f"{what:<42}{budget:>22}{figure:>20}{shown:>8}")


if __name__ == "__main__":
    main()
