"""The pace of an asynchronous game: how long simulated people take to finish one, today
and with the new behaviour, side by side.

    python -m benchmarks.bench_async [--seed 1] [--games N] [--only-variant classic,qwinto]
        [--players 3] [--behaviours today,new] [--quick]

Simulated people play whole games of every variant with 2-5 people (On Board 2-4)
through the real service (:class:`~bot.service.games.GameService` on a SQLite file in a
temporary folder, on a fake clock), its timers (the timer loop's pass,
:meth:`bot.timers.Timers.tick`, run at the moment a reminder or a deadline is
due: the clock jumps from one event to the next) and the channel's real publisher
(:class:`~bot.channel.publisher.Publisher`), whose writes are recorded
(:mod:`benchmarks.pace.recorders`): only the mentions the bot really sends have an
effect. By default 40 games per row for 3 people and 15 for the other sizes, each game
played once per behaviour, with the same people, dice and start.

**The model** — fixed, and the same for every behaviour, so that only the bot makes the
difference (:class:`benchmarks.pace.people.Model`):

* Each person looks at Discord 4 times per 16 waking hours, at random: a Poisson
  process over their waking time (a mean of 4 waking hours between looks).
* Waking hours are 07:00-23:00 in each person's own time zone, 16 h awake, 8 h asleep;
  each person's offset from UTC is drawn uniformly within ±3 h, per game, from the
  seeded generator. The host starts the game in a look of theirs, at a moment drawn
  uniformly within their waking hours; everyone has joined the lobby by then.
* A look lasts 3 minutes and answers everything waiting on that person at any moment
  during those 3 minutes (a look that begins while one is under way makes it last
  longer). Each tap takes 10 seconds, reading and deciding included, and people at the
  table tap one after another, so a look answers a handful of decisions, not a game.
* A notification is a new message (a post or a follow-up, not an edit: Discord does
  not notify on edits) that mentions the person and whose allowed mentions let it ping
  them; later, a direct message. Each notification received while awake and not
  looking is one chance in 3 to bring a look, within 30 minutes (uniformly); a look
  that would begin in their night does not happen, and no notification brings a look
  at night. One message that notifies is one chance; two messages are two chances,
  drawn apart.
* Every decision is the Hard computer player's choice
  (``bot.players.choose(game, player, rng, "hard")``, its generator seeded by the game's
  seed, turn, phase and player), so both behaviours play the same strategy.
* The game's turn time is the bot's default (24 h), with its reminders (half-time and
  an hour before the deadline); decisions that time out do what the bot does (a pass,
  and three in a row take the seat away).
* Seeded: the whole run is reproducible from ``--seed``; each game's seed, people,
  time zones and start come from the seed, the variant, the size and the game's index,
  and each person's looks by themselves are the same whatever the bot does.

**Taps** count the Discord interactions a person makes for a decision (opening a select
menu is not one). Today (:class:`benchmarks.pace.behaviours.Today`): **Open my sheet**,
unless the person's sheet still follows the turn (shown for it by a click less than 15
minutes ago: the bot moves an open sheet on to its player's next decision), then the
move; a costly move (one that skips 3 numbers or more) asks first, and **Yes** is one
more; a pass with no sheet open is the public **Pass** on the turn message, one tap.

**Figures**, per variant, number of people and behaviour: median and p90 days to
finish; waits per game (a wait: the game is waiting only on people none of whom is
looking; it ends when one of them looks, or when a deadline moves the game on), and the
decision phases that waited; decisions each person took by hand; taps per decision, and
per decision taken in a look a notification brought; new messages (channel posts and
direct messages) and notifications each person got per day of game; decisions that ran
out. Then the ratio new/today, and the budgets: a 3-person classic game finishes in a
median of at most 3 days, Qwinto, Longo and On Board in at most 4; at most 1.2 taps per
decision taken from a notification. For each row that misses a budget, what its time is
spent on: waits by phase and by who (the active player, others, or everyone), the
hours during which everyone waited on slept, and the hours of waits only a deadline
ended.

The new behaviour (:class:`benchmarks.pace.behaviours.Planned`) is the bot as members
use what it offers: one visit for both actions, the Hard computer on other people's
turns and for a time run out, direct messages with their night as quiet hours, and
reminders soon and again. ``--behaviours today,new,asking`` adds
:class:`benchmarks.pace.behaviours.Asking`: the same, but the members keep deciding
every white sum on other people's turns themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

from bot.rules import VARIANTS

from .pace.behaviours import Asking, Behaviour, Planned, Today
from .pace.figures import (
    LEGEND,
    TAPS_BUDGET,
    Figures,
    figures,
    misses,
    ratio,
    table,
)
from .pace.people import Model
from .pace.session import Session
from .pace.table import GameLog

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)

ORDER = ("classic", "longo", "onboard", "qwinto")
SIZES = (2, 3, 4, 5)
BEHAVIOURS: dict[str, type[Today]] = {"today": Today, "new": Planned, "asking": Asking}
GAMES = {3: 40}
"""Games per row, by number of people (others: :data:`OTHER_GAMES`)."""
OTHER_GAMES = 15
QUICK = {3: 8}
QUICK_OTHER = 4


def sizes(variant: str, wanted: Sequence[int]) -> list[int]:
    cls = VARIANTS[variant]
    return [n for n in wanted if cls.min_players <= n <= cls.max_players]


async def measure(
    seed: int,
    variants: Sequence[str],
    people: Sequence[int],
    behaviours: Sequence[Behaviour],
    games: dict[int, int],
    other_games: int,
    model: Model | None = None,
) -> list[list[Figures]]:
    """Every row's figures, one per behaviour, each game played once per behaviour."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        async with Session(Path(folder), seed, model) as session:
            for variant in variants:
                for size in sizes(variant, people):
                    began = time.perf_counter()
                    logs: dict[str, list[GameLog]] = {b.name: [] for b in behaviours}
                    count = games.get(size, other_games)
                    for index in range(count):
                        for behaviour in behaviours:
                            logs[behaviour.name].append(
                                await session.play(behaviour, variant, size, index)
                            )
                    rows.append([figures(logs[b.name], size) for b in behaviours])
                    print(
                        f"  {variant} with {size}: {count} games x {len(behaviours)} "
                        f"in {time.perf_counter() - began:.0f} s",
                        file=sys.stderr,
                    )
    return rows


def report(rows: Sequence[Sequence[Figures]]) -> str:
    """The table, then where the time goes in each row that misses a budget."""
    parts = [table(rows), textwrap.fill(LEGEND, 100)]
    missed = [told for told in map(misses, rows) if told]
    if missed:
        parts += ["Where the time goes, in the rows that miss a budget:", *missed]
    return "\n\n".join(parts)


def summary(rows: Sequence[Sequence[Figures]]) -> list[Row]:
    """The budgeted figures in the shape of ``python -m benchmarks``'s table: each
    behaviour's median days for 3 people, and its taps per decision taken from a
    notification over every row."""
    found: list[Row] = []
    for row in rows:
        for figure in row:
            budget = figure.day_budget
            if budget is not None:
                found.append(
                    (
                        f"async: {figure.variant}, {figure.people} people, {figure.behaviour}, "
                        "median days to finish",
                        f"<= {budget:g} days",
                        f"{figure.median:.1f} (p90 {figure.p90:.1f})",
                        figure.median / budget,
                    )
                )
    for index, first in enumerate(rows[0] if rows else []):
        decisions = sum(row[index].notified_counts[0] for row in rows)
        per = ratio(sum(row[index].notified_counts[1] for row in rows), decisions)
        found.append(
            (
                f"async: {first.behaviour}, taps per decision taken from a notification",
                f"<= {TAPS_BUDGET:g}",
                f"{per:.2f} ({decisions:,} decisions)",
                per / TAPS_BUDGET,
            )
        )
    return found


def rows(quick: bool = False, seed: int = 1) -> list[Row]:
    """``python -m benchmarks --only async``: every row, its table printed, and the
    budgeted figures returned."""
    began = time.perf_counter()
    games, other = (QUICK, QUICK_OTHER) if quick else (GAMES, OTHER_GAMES)
    behaviours = [Today(), Planned()]
    found = asyncio.run(measure(seed, ORDER, SIZES, behaviours, games, other))
    print(report(found))
    print(f"(the pace: {time.perf_counter() - began:.0f} s)")
    return summary(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, help="games per row (default: 40 for 3 people, 15)")
    parser.add_argument("--only-variant", default=",".join(ORDER), help="comma-separated")
    parser.add_argument("--players", default="2,3,4,5", help="comma-separated sizes, 2-5")
    parser.add_argument("--behaviours", default=",".join(BEHAVIOURS), help="comma-separated")
    parser.add_argument("--quick", action="store_true", help="8 games for 3 people, 4 for others")
    args = parser.parse_args()
    variants = [v for v in args.only_variant.split(",") if v]
    unknown = [v for v in variants if v not in ORDER]
    if unknown:
        parser.error(f"unknown variants: {', '.join(unknown)} (of {', '.join(ORDER)})")
    try:
        people = [int(n) for n in args.players.split(",") if n]
    except ValueError:
        parser.error(f"--players takes numbers such as 2,3: not {args.players!r}")
    if not people or any(n not in SIZES for n in people):
        parser.error(f"--players takes sizes of {', '.join(map(str, SIZES))}")
    names = [b for b in args.behaviours.split(",") if b]
    if not names or any(b not in BEHAVIOURS for b in names):
        parser.error(f"--behaviours takes {', '.join(BEHAVIOURS)}")
    if args.games is not None and args.games < 1:
        parser.error("--games takes a number of games of at least 1")
    games, other = (QUICK, QUICK_OTHER) if args.quick else (GAMES, OTHER_GAMES)
    if args.games is not None:
        games, other = {}, args.games
    logging.basicConfig(level=logging.ERROR)
    began = time.perf_counter()
    found = asyncio.run(
        measure(args.seed, variants, people, [BEHAVIOURS[b]() for b in names], games, other)
    )
    print(report(found))
    print(
        f"(seed {args.seed}; {time.perf_counter() - began:.0f} s of wall time, "
        f"{time.process_time():.0f} s of CPU)"
    )


if __name__ == "__main__":
    main()
