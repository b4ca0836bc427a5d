"""How fast are the images? Sheets, dice, the On Board track and the final scoreboard.

Builds representative games with the rules API (three players, seeded random legal moves
that mostly cross a number and rarely skip many), then times each render function on
them — the same call the bot makes in its worker thread — and prints the median time
per call, the PNG's size and the ratio to its target (a ratio above 1 misses it).

    python benchmarks/bench_render.py [--runs 20] [--seed 7] [--only sheet,dice,...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.render import render_board, render_dice, render_scoreboard, render_sheet
from bot.rules import PASS, Game, Move, new_game

PLAYERS = [101, 202, 303]
NAMES = {101: "Ana", 202: "Mehmet", 303: "Zofia Wiśniewska"}
TARGETS_MS = {"sheet": 30.0, "dice": 10.0, "board": 40.0, "scoreboard": 80.0}
SIZE_LIMITS = {"sheet": 60_000, "dice": 20_000, "board": 80_000, "scoreboard": 150_000}


def pick(game: Game, player: int, rng: random.Random) -> Move:
    """A plausible move: for Qwixx games mostly a cross that skips little, for Qwinto a
    throw of two or three dice and the sum written roughly where it belongs."""
    options = game.legal_moves(player)
    if game.variant == "qwinto":
        rolls = [m for m in options if m.kind == "roll" and len(m.dice) >= 2]
        places = [m for m in options if m.kind == "place"]
        if rolls:
            return rng.choice(rolls)
        if places and rng.random() < 0.9:
            return rng.choice(places)
        return next((m for m in options if m.kind == "keep"), rng.choice(options))
    moves = [m for m in options if m != PASS]
    skips = getattr(game, "skipped_by", None)
    cheap = [m for m in moves if skips is None or len(skips(player, m)) <= 1]
    if cheap and rng.random() < 0.85:
        return rng.choice(cheap)
    return PASS if PASS in options else rng.choice(options)


def play(game: Game, decisions: int, rng: random.Random) -> Game:
    for _ in range(decisions):
        if game.finished:
            break
        player = min(game.decision().waiting)
        game, _ = game.apply(player, pick(game, player, rng))
    return game


def finish(game: Game, rng: random.Random) -> Game:
    for _ in range(5000):
        if game.finished:
            return game
        game = play(game, 1, rng)
    raise RuntimeError(f"{game.variant} did not finish")


@dataclass
class Case:
    kind: str  # sheet, dice, board, scoreboard
    label: str
    call: Callable[[], bytes]


def cases(seed: int) -> list[Case]:
    found: list[Case] = []
    for variant, options, decisions in (("classic", None, 60), ("longo", None, 80),
                                        ("onboard", {"board": "A"}, 60), ("qwinto", None, 40)):
        rng = random.Random(seed)
        game = play(new_game(variant, PLAYERS, seed, options), decisions, rng)
        player = min(game.decision().waiting)
        moves = game.legal_moves(player)
        ended = finish(game, rng)
        found.append(Case("sheet", variant, lambda g=game, p=player, m=moves:
                          render_sheet(g, p, NAMES[p], m)))
        found.append(Case("dice", variant, lambda g=game: render_dice(g.dice)))
        if variant == "onboard":
            found.append(Case("board", variant, lambda g=game, m=moves:
                              render_board(g, NAMES, m)))  # type: ignore[arg-type]
        found.append(Case("scoreboard", variant, lambda g=ended:
                          render_scoreboard(g, NAMES)))
    return found


def median_ms(call: Callable[[], bytes], runs: int) -> tuple[float, int]:
    data = call()  # warm up: fonts, caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", default="", help="comma-separated kinds to time")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    print(f"{'image':<22}{'ms/call':>9}{'target':>8}{'ratio':>7}{'bytes':>9}{'limit':>9}")
    for case in cases(args.seed):
        if only and case.kind not in only:
            continue
        ms, size = median_ms(case.call, args.runs)
        target = TARGETS_MS[case.kind]
        flag = "" if ms <= target and size < SIZE_LIMITS[case.kind] else "  !"
        print(f"{case.kind + ' ' + case.label:<22}{ms:>9.1f}{target:>8.0f}{ms / target:>7.2f}"
              f"{size:>9}{SIZE_LIMITS[case.kind]:>9}{flag}")


if __name__ == "__main__":
    main()
