"""How fast and how small are the images? Sheets, dice, the On Board track, the table
view, the final scoreboard and the leaderboard, against their budgets.

Builds representative games with the rules API (seeded random legal moves that mostly
cross a number and rarely skip many), then times each render function on them — the
same call the bot makes in its worker thread — and prints, per image, the budget, the
median time (p50) and the ratio, then the PNG's size against the size the same image
had when the image budgets were set (``BASELINE_BYTES``), or when a sheet's rows were
deflated in cached runs if smaller (``CACHED_ROWS_BYTES``), or once it drew more to read on a phone
(``LEGIBLE_BYTES``). A ratio above 1 misses the budget.

    python benchmarks/bench_render.py [--runs 20] [--seed 7] [--only sheet,sheet-game,...]
        [--games 2]

Nothing of a PNG is cached: every render deflates all its rows. "sheet X" renders one
mid-game sheet whose printed card and written pieces (sprites) are cached, as in a bot
that has run for a while; "sheet-cold X" (no budget) empties the written pieces before
each run, as for a sheet whose every piece is new; "sheets along X" renders a new state
each time, as the bot does, with the written pieces emptied at the start of each game;
"sheets over N more games X" (kind ``sheet-steady``, no budget) renders them along games
after others, with every cache as they left it.

:func:`results` gives the same rows to another benchmark runner.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.heap import tune_malloc
from bot.render import (
    canvas,
    render_board,
    render_dice,
    render_scoreboard,
    render_sheet,
    render_table,
)
from bot.render.leaderboard import render_leaderboard
from bot.render.lines import BoardRow, BoardTable
from bot.rules import PASS, Game, Move, new_game
from bot.rules.dice import DICE_V2
from bot.rules.onboard import OnBoardGame

PLAYERS = [101, 202, 303, 404, 505]
NAMES = {101: "Ana", 202: "Mehmet", 303: "Zofia Wiśniewska", 404: "Lee", 505: "Bo"}
VARIANTS = (
    ("classic", None, 60),
    ("longo", None, 80),
    ("onboard", {"board": "A"}, 60),
    ("qwinto", None, 40),
)
MAX_PLAYERS = {"onboard": 4}
DICE = DICE_V2  # the games' dice, as those BASELINE_BYTES were drawn from (same games)
# Caches of what players wrote, emptied at the start of each game "along" and before each
# run of "sheet-cold": the sprites.
WRITTEN_CACHES = ("CARD_SPRITES",)
BUDGET_MS = {
    "sheet": 5.0,
    "dice": 10.0,
    "board": 40.0,
    "scoreboard": 80.0,
    "scoreboard-5": 15.0,
    "table-5": 15.0,
    "leaderboard": 15.0,
}
# PNG bytes of the same images (same games) drawn by the renderer of commit acf24a9, when
# the image budgets were set, on the games the rules deal with dice version 2 (commit
# 103933c), which these games keep: sizes must not grow. Games dealt otherwise need these
# measured again: that renderer (git archive acf24a9 bot/render) over the current rules,
# then this script.
BASELINE_BYTES = {
    "sheet classic": 24263,
    "sheet longo": 29358,
    "sheet onboard": 25199,
    "sheet qwinto": 13719,
    "dice classic": 3744,
    "dice longo": 3787,
    "dice onboard": 3756,
    "dice qwinto": 2213,
    "board onboard": 34890,
    "scoreboard classic": 33011,
    "scoreboard longo": 62963,
    "scoreboard onboard": 34832,
    "scoreboard qwinto": 21741,
    "table-5 classic": 41319,
    "table-5 longo": 77922,
    "table-5 onboard": 36057,
    "table-5 qwinto": 20471,
    "scoreboard-5 classic": 52670,
    "scoreboard-5 longo": 101098,
    "scoreboard-5 onboard": 44966,
    "scoreboard-5 qwinto": 30803,
    "leaderboard top-10": 28469,
}
# Sheets as drawn at commit 220771d, whose rows were deflated in cached runs:
# one stream deflated whole must be no larger. The other images were encoded as now.
CACHED_ROWS_BYTES = {
    "sheet classic": 23724,
    "sheet longo": 28550,
    "sheet onboard": 24869,
    "sheet qwinto": 13351,
}
# The three On Board images above have their sizes as drawn at commit dcaab23: since
# 93a191b every block of the table and scoreboard has a line of its own under the name
# (names whole), which On Board's fills with the pawn's field and bonus and the penalty
# boxes (they shared the name's line before, and cut the name short). The bytes are that
# line's, not a worse encoding: left blank, the images are 32,336 / 32,642 / 41,191 B,
# within the old budgets (33,709 / 35,094 / 43,518 B); the commit before 93a191b drew
# them in 33,018 / 34,011 / 43,176 B. A lower line saves 0.1-0.2% (the text and boxes are
# the bytes); libdeflate's level 9 instead of 7 saves 1.5-2% for 2.5-3 times the time of
# compressing them. The other variants' blocks have the line too, within their budgets.
# Images that draw more to read on a phone (at 350 px wide, see tests/render/
# test_render_phone.py), with their sizes as drawn then (commit 784f4f4 and the ring's
# cached masks after it, which leave the bytes as they were), against which they are
# measured since: a crossed number's X runs on under its digits, ringed 1.5 px in the
# cell's colour (the sheets' rings 1%; the small sheets' crosses 4-9% of the Qwixx
# games' tables and scoreboards); Longo's table and scoreboard words are 11 px on a phone
# (5-6% more), and its row letters as tall as its digits there (blocks 825 px wide instead
# of 765: 9-11% more); Qwinto's small sheets draw pentagons and the blank field's letter (2-7%);
# the On Board track has nine fields a line, its bonuses in pills and its words larger
# (it was 33,514 B before, 37,545 B in the fixed palette, 41,313 B in an adaptive one).
LEGIBLE_BYTES = {
    "sheet classic": 23946,
    "sheet longo": 28868,
    "sheet onboard": 25139,
    "scoreboard classic": 35543,
    "table-5 classic": 42978,
    "scoreboard-5 classic": 56463,
    "scoreboard longo": 72853,
    "table-5 longo": 90860,
    "scoreboard-5 longo": 116492,
    "board onboard": 37545,
    "scoreboard onboard": 37291,
    "table-5 onboard": 37758,
    "scoreboard-5 onboard": 49118,
    # Qwinto's small sheets since 0d04f9e: a number is crossed over its digits, corner to
    # corner of its cell, so that two digits read whole through the X (0.4-1.5% more; the
    # other variants' tables and scoreboards stayed within the sizes above).
    "scoreboard qwinto": 22422,
    "table-5 qwinto": 22148,
    "scoreboard-5 qwinto": 32024,
}


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
    kind: str  # a key of BUDGET_MS
    label: str
    call: Callable[[], bytes]
    prepare: Callable[[], None] | None = None  # before each timed run, not timed

    @property
    def name(self) -> str:
        return f"{self.kind} {self.label}"


def games(
    seed: int, variant: str, options: dict[str, Any] | None, decisions: int, players: int
) -> tuple[Game, Game]:
    """A game mid-way (``decisions`` in) and the same game played to its end."""
    rng = random.Random(seed)
    game = play(
        new_game(variant, PLAYERS[:players], seed, options, dice_version=DICE), decisions, rng
    )
    return game, finish(game, rng)


def cases(seed: int) -> list[Case]:
    found: list[Case] = []
    for variant, options, decisions in VARIANTS:
        game, ended = games(seed, variant, options, decisions, 3)
        player = min(game.decision().waiting)
        moves = game.legal_moves(player)
        sheet = partial(render_sheet, game, player, NAMES[player], moves)
        found.append(Case("sheet", variant, sheet))
        found.append(Case("sheet-cold", variant, sheet, lambda: empty(WRITTEN_CACHES)))
        found.append(Case("dice", variant, partial(render_dice, game.dice_on_table())))
        if isinstance(game, OnBoardGame):
            found.append(Case("board", variant, partial(render_board, game, NAMES, moves)))
        found.append(Case("scoreboard", variant, partial(render_scoreboard, ended, NAMES)))
        most = MAX_PLAYERS.get(variant, 5)
        full, full_ended = games(seed, variant, options, decisions, most)
        latest = {
            p: {(m.row, m.number)}
            for p in full.players[:2]
            for m in full.legal_moves(p)[:1]
            if m.row and m.number is not None
        }
        found.append(Case("table-5", variant, partial(render_table, full, NAMES, latest)))
        found.append(Case("scoreboard-5", variant, partial(render_scoreboard, full_ended, NAMES)))
    found.append(Case("leaderboard", "top-10", lambda: render_leaderboard(leaderboard())))
    return found


def leaderboard() -> BoardTable:
    """A month's leaderboard as the bot shows it: ten lines, five value columns sorted by
    wins, and the caller's own line apart below them."""
    rows = [
        BoardRow(
            str(rank),
            f"{NAMES[PLAYERS[rank % 5]]} {rank}",
            (
                str(90 - rank),
                str(60 - 3 * rank),
                f"{66 - rank} %",
                f"{70 - rank}.4",
                str(120 - rank),
            ),
            leader=rank == 1,
            you=rank == 4,
        )
        for rank in range(1, 11)
    ]
    rows.append(
        BoardRow(
            "17", "Zofia Wiśniewska", ("31", "12", "39 %", "51.0", "88"), you=True, detached=True
        )
    )
    return BoardTable(
        "All games — this month",
        "ranked by wins · 184 players",
        "#",
        "player",
        ("games", "wins", "win rate", "average", "best"),
        tuple(rows),
        "Players with fewer than 5 games this month are not ranked.",
        sorted_column=1,
    )


def median_ms(
    call: Callable[[], bytes], runs: int, prepare: Callable[[], None] | None = None
) -> tuple[float, int, float]:
    """Median wall time (ms), the PNG's size, and the median CPU time of this process
    (ms): the last moves less when other processes share the machine. ``prepare`` runs
    before each call, untimed."""
    data = call()  # warm up: fonts, caches
    times, cpu = [], []
    for _ in range(runs):
        if prepare is not None:
            prepare()
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(times), len(data), statistics.median(cpu)


Row = tuple[str, str, str, str]


def rows_of(case: Case, runs: int) -> list[Row]:
    """The time rows of ``case`` and, if it has a baseline, its size row (the sheet-cold
    case: its time rows, without a budget)."""
    ms, size, cpu = median_ms(case.call, runs, case.prepare)
    budget = BUDGET_MS.get(case.kind)
    if budget is None:
        return [(f"{case.name} cpu p50", "(no budget)", f"{cpu:.1f} ms", "-")]
    rows = [
        (f"{case.name} p50", f"≤ {budget:g} ms", f"{ms:.1f} ms", f"{ms / budget:.2f}"),
        (f"{case.name} cpu p50", f"≤ {budget:g} ms", f"{cpu:.1f} ms", f"{cpu / budget:.2f}"),
    ]
    before = LEGIBLE_BYTES.get(case.name) or min(
        BASELINE_BYTES.get(case.name, 0), CACHED_ROWS_BYTES.get(case.name, 1 << 30)
    )
    if before:
        rows.append((f"{case.name} PNG", f"≤ {before:,} B", f"{size:,} B", f"{size / before:.3f}"))
    else:
        rows.append((f"{case.name} PNG", "(new)", f"{size:,} B", "-"))
    return rows


def empty(names: tuple[str, ...]) -> None:
    """Empty the caches of :mod:`bot.render.canvas` so named that it has (the renderer
    that measured ``BASELINE_BYTES`` had none of them)."""
    for name in names:
        cache = getattr(canvas, name, None)
        if cache is not None:
            cache.clear()


def states_of(
    variant: str, options: dict[str, Any] | None, seed: int, decisions: int = 150
) -> list[tuple[Game, int, list[Move]]]:
    """A game's states as the bot renders them: at every decision, the player to decide
    and their options."""
    rng = random.Random(seed)
    game = new_game(variant, PLAYERS[:3], seed, options, dice_version=DICE)
    states = []
    for _ in range(decisions):
        if game.finished:
            break
        player = min(game.decision().waiting)
        states.append((game, player, game.legal_moves(player)))
        game, _ = game.apply(player, pick(game, player, rng))
    return states


def sheet_times(states: list[tuple[Game, int, list[Move]]]) -> list[float]:
    """The CPU time (ms) of each state's sheet."""
    times = []
    for game, player, moves in states:
        start = time.process_time()
        render_sheet(game, player, NAMES[player], moves)
        times.append((time.process_time() - start) * 1000)
    return times


def along_games(seed: int, decisions: int = 150) -> list[Row]:
    """Sheets as the bot renders them while games go on: at every decision the sheet of
    the player to decide, with their options, each render a new image, the caches of
    what is written (sprites) empty at the start. Mean, p50 and p90 CPU time."""
    budget = BUDGET_MS["sheet"]
    found: list[Row] = []
    for variant, options, _ in VARIANTS:
        states = states_of(variant, options, seed, decisions)
        render_sheet(*states[0][:2], NAMES[states[0][1]])  # the printed card
        empty(WRITTEN_CACHES)
        times = sheet_times(states)
        mean, p90 = statistics.mean(times), sorted(times)[int(len(times) * 0.9)]
        p50 = statistics.median(times)
        name = f"sheets along {variant}"
        found += [
            (f"{name} cpu mean", f"≤ {budget:g} ms", f"{mean:.1f} ms", f"{mean / budget:.2f}"),
            (f"{name} cpu p50", f"≤ {budget:g} ms", f"{p50:.1f} ms", f"{p50 / budget:.2f}"),
            (f"{name} cpu p90", "", f"{p90:.1f} ms", "-"),
        ]
    return found


def steady_games(seed: int, games: int = 2) -> list[Row]:
    """What sheets cost a bot that has run a while (kind ``sheet-steady``, no budget):
    ``games`` games of each variant rendered along, then the mean and p90 CPU time of
    the sheets along ``games`` other games, with every cache as they left it."""
    found: list[Row] = []
    for variant, options, _ in VARIANTS:
        for k in range(games):
            sheet_times(states_of(variant, options, seed + 1000 + k))
        times = [
            t
            for k in range(games)
            for t in sheet_times(states_of(variant, options, seed + 2000 + k))
        ]
        name = f"sheets over {games} more games {variant} cpu"
        p90 = sorted(times)[int(len(times) * 0.9)]
        found += [
            (f"{name} mean", "(no budget)", f"{statistics.mean(times):.2f} ms", "-"),
            (f"{name} p90", "(no budget)", f"{p90:.1f} ms", "-"),
        ]
    return found


def results(
    runs: int = 20, seed: int = 7, only: set[str] | None = None, games: int = 2
) -> list[Row]:
    """(name, budget, figure, ratio) for every image: its p50 render time (wall clock,
    then CPU time of this process), and its PNG size against the size before (a ratio
    above 1 misses the budget); then sheets along played games, and after others."""
    found: list[Row] = []
    for case in cases(seed):
        if not only or case.kind in only:
            found += rows_of(case, runs)
    if not only or "sheet-game" in only:
        found += along_games(seed)
    if not only or "sheet-steady" in only:
        found += steady_games(seed, games)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", default="", help="comma-separated kinds to time")
    parser.add_argument("--games", type=int, default=2, help="games a variant, sheet-steady")
    args = parser.parse_args()
    tune_malloc()  # as the bot's start-up does (bot.heap)
    only = set(filter(None, args.only.split(",")))
    print(f"{'image':<40}{'budget':>14}{'figure':>13}{'ratio':>7}")
    for name, budget, figure, ratio in results(args.runs, args.seed, only, args.games):
        flag = "  !" if ratio != "-" and float(ratio) > 1 else ""
        print(f"{name:<40}{budget:>14}{figure:>13}{ratio:>7}{flag}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"(load average {load} on {os.cpu_count()} cores: other processes slow the wall clock)")


if __name__ == "__main__":
    main()
