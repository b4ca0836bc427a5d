"""Soak over simulated days: does the bot's process or its database grow without end?

``python -m benchmarks.soak_days [--clicks 200000] [--tables 40] [--day 5000]``

Plays through the service (:class:`~bot.service.games.GameService`, no Discord
layer) on a real SQLite file, on a fake clock: ``--tables`` channels of 20 servers
play at once, each a game of a random variant (Qwixx twice as often as the others)
between 2-4 members, a fifth of them with a computer player; every round each table
clicks once (a random legal move of a person the game waits for; a new game once one
ends, now and then one abandoned, a lobby cancelled). The clock moves so that ``--day``
clicks make a day; the timer's query runs every round, the leaderboard, stats and
history are read every 1,000 clicks, and each game that ends is marked shown and
rated, as its channel's post does.

At regular intervals it prints the process's resident memory (``VmRSS``), its open
file descriptors, the service's per-game locks, the database file and its WAL; at the
end the slope of memory and descriptors (least squares, per 10,000 clicks, over all
samples and over the second half), the database size per finished game, the largest
WAL seen, and what pruning the games that ended more than ``--keep-days`` ago frees.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.heap import tune_gc
from bot.players import is_computer
from bot.rules import Game
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.rated import RatingService
from bot.service.stats import StatsService
from bot.store import Store
from bot.store.maintenance import PruneReport
from tests.fakes import FakeClock

VARIANTS = ("classic", "classic", "longo", "onboard", "qwinto")
GUILDS = 20
MEMBERS = 12  # per server
DAY = 86_400.0
START = 1_767_225_600.0  # 2026-01-01 00:00 UTC


def rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least squares slope of ``ys`` over ``xs`` (0 with fewer than two points)."""
    if len(xs) < 2:
        return 0.0
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return 0.0 if var == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var


def size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@dataclass
class Counts:
    clicks: int = 0
    refused: int = 0
    games: int = 0
    finished: int = 0
    abandoned: int = 0
    cancelled: int = 0


@dataclass
class Soak:
    service: GameService
    stats: StatsService
    ratings: RatingService
    clock: FakeClock
    rng: random.Random
    counts: Counts = field(default_factory=Counts)


def member(guild: int, index: int) -> int:
    return 10**17 + guild * 1_000 + index


class Table:
    """One channel: a game after another."""

    def __init__(self, soak: Soak, guild: int, channel: int) -> None:
        self.soak, self.guild, self.channel = soak, guild, channel
        self.game_id = 0
        self.game: Game | None = None

    async def open(self) -> None:
        soak, rng = self.soak, self.soak.rng
        service = soak.service
        people = rng.sample(range(MEMBERS), rng.randint(2, 4))
        host = member(self.guild, people[0])
        variant = rng.choice(VARIANTS)
        lobby = await service.lobby.open(self.guild, self.channel, host, variant)
        soak.counts.games += 1
        for index in people:
            await service.names.remember(self.guild, member(self.guild, index), f"M{index}")
        if rng.random() < 0.02:  # a lobby nobody starts
            await service.lobby.cancel(lobby.id, host)
            soak.counts.cancelled += 1
            await self.open()
            return
        for index in people[1:]:
            await service.lobby.join(lobby.id, member(self.guild, index))
        if rng.random() < 0.2 and len(people) < 4:
            await service.lobby.add_computer(lobby.id, host)
        self.game_id = lobby.id
        self.game = (await service.lobby.start(lobby.id, host)).game

    async def ended(self) -> None:
        """What the channel's post of the end does: shown, and rated."""
        outcome = await self.soak.service.keeper.read(self.game_id)
        record = outcome.record
        await self.soak.service.keeper.show(record, None, {})
        if record.status == "finished":
            self.soak.counts.finished += 1
            await self.soak.ratings.settle(record)
        else:
            self.soak.counts.abandoned += 1

    async def click(self) -> None:
        soak, rng = self.soak, self.soak.rng
        if self.game is None:
            await self.open()
        game = self.game
        assert game is not None
        if rng.random() < 0.0005:  # someone gives up the game
            await soak.service.turns.abandon(self.channel, member(self.guild, 0), can_manage=True)
            await self.ended()
            self.game = None
            return
        decision = game.decision()
        waiting = sorted(p for p in decision.waiting if not is_computer(p))
        if not waiting:  # the computers' answer was left to the timer
            await soak.service.deadlines.fire(self.game_id)
            self.game = (await soak.service.keeper.read(self.game_id)).game
            return
        player = rng.choice(waiting)
        soak.counts.clicks += 1
        try:
            outcome = await soak.service.turns.move(
                self.game_id,
                player,
                game.turn,
                decision.phase,
                rng.choice(game.legal_moves(player)),
            )
        except ServiceError:
            soak.counts.refused += 1
            self.game = (await soak.service.keeper.read(self.game_id)).game
            return
        self.game = outcome.game
        if outcome.record.status != "running":
            await self.ended()
            self.game = None


@dataclass
class Sample:
    clicks: int
    rss_kb: int
    fds: int
    locks: int
    db: int
    wal: int
    finished: int


def show(sample: Sample, days: float, seconds: float) -> None:
    print(
        f"{sample.clicks:>9,} {days:>6.1f} {sample.finished:>8,} {sample.rss_kb / 1024:>8.1f} "
        f"{sample.fds:>4} {sample.locks:>6,} {sample.db / 1e6:>8.2f} {sample.wal / 1e6:>7.2f} "
        f"{seconds:>7.0f}",
        flush=True,
    )


@dataclass
class Figures:
    """What a soak measured."""

    counts: Counts
    samples: list[Sample]
    seconds: float
    days: float
    db: int  # the file's size after its last checkpoint
    wal_max: int
    pruned: PruneReport
    locks_left: int  # the service's per-game locks once every click was answered


async def soak(
    folder: Path,
    clicks: int,
    tables: int,
    day_clicks: int,
    every: int,
    keep_days: float,
    seed: int,
    shown: bool = True,
) -> Figures:
    """Play ``clicks`` clicks (see the module's docstring) on a file in ``folder``;
    with ``shown``, print each sample as it is taken."""
    path = folder / "soak.db"
    clock = FakeClock(START)
    # Closed whatever happens (its threads would keep the process alive); at the end, its
    # last checkpoint: the file then holds everything.
    async with Store(path, clock=clock) as store:
        seeds = iter(range(1, 10**9))
        service = GameService(store, seeds=lambda: next(seeds), clock=clock)
        state = Soak(
            service,
            StatsService(store, clock=clock),
            RatingService(store),
            clock,
            random.Random(seed),
        )
        channels = [Table(state, 1 + k % GUILDS, 10_000 + k) for k in range(tables)]
        tune_gc()  # as the bot sets its collector once started
        step = DAY / day_clicks
        samples: list[Sample] = []
        wal_max = 0
        started = time.monotonic()
        if shown:
            print(
                f"{'clicks':>9} {'days':>6} {'finished':>8} {'RSS MB':>8} {'fds':>4} "
                f"{'locks':>6} {'db MB':>8} {'WAL MB':>7} {'seconds':>7}"
            )
        next_sample, next_read = 0, 1_000
        while state.counts.clicks < clicks:
            before = state.counts.clicks
            await asyncio.gather(*(table.click() for table in channels))
            clock.now += step * max(1, state.counts.clicks - before)
            for game_id in await service.deadlines.due():
                await service.deadlines.fire(game_id)
            wal_max = max(wal_max, size(path.with_name("soak.db-wal")))
            if state.counts.clicks >= next_read:
                guild = state.rng.randint(1, GUILDS)
                await state.stats.leaderboard(guild, member(guild, 0))
                await state.stats.player(guild, member(guild, 1))
                await state.stats.history(guild)
                next_read += 1_000
            if state.counts.clicks >= next_sample:
                sample = Sample(
                    state.counts.clicks,
                    rss_kb(),
                    open_fds(),
                    len(getattr(service, "_locks", ())),
                    size(path),
                    size(path.with_name("soak.db-wal")),
                    state.counts.finished,
                )
                samples.append(sample)
                if shown:
                    show(sample, (clock.now - START) / DAY, time.monotonic() - started)
                next_sample += every
        seconds = time.monotonic() - started
        locks_left = len(getattr(service, "_locks", ()))
    db = size(path)
    async with Store(path, clock=clock) as store:
        pruned = await store.maintenance.prune(clock.now - keep_days * DAY)
    return Figures(
        state.counts, samples, seconds, (clock.now - START) / DAY, db, wal_max, pruned, locks_left
    )


def report(figures: Figures, keep_days: float) -> None:
    counts, samples, db = figures.counts, figures.samples, figures.db
    print()
    print(
        f"clicks {counts.clicks:,} ({counts.refused:,} refused) in {figures.seconds:.0f} s "
        f"over {figures.days:.1f} simulated days; games {counts.games:,}: "
        f"{counts.finished:,} finished, {counts.abandoned:,} abandoned, "
        f"{counts.cancelled:,} lobbies cancelled"
    )
    xs = [s.clicks / 10_000 for s in samples]
    half = len(samples) // 2
    for name, values in (
        ("resident memory, MB", [s.rss_kb / 1024 for s in samples]),
        ("open file descriptors", [float(s.fds) for s in samples]),
        ("service's per-game locks", [float(s.locks) for s in samples]),
    ):
        print(
            f"slope of {name} per 10,000 clicks: {slope(xs, values):+.3f} (all samples), "
            f"{slope(xs[half:], values[half:]):+.3f} (second half); "
            f"first {values[0]:g}, last {values[-1]:g}"
        )
    ended = counts.finished + counts.abandoned
    print(
        f"database {db / 1e6:.1f} MB after its last checkpoint: {db / max(1, ended):,.0f} "
        f"bytes per ended game ({db / max(1, counts.clicks):,.0f} per click); "
        f"largest WAL seen {figures.wal_max / 1e6:.2f} MB"
    )
    pruned = figures.pruned
    print(
        f"prune of the games that ended over {keep_days:g} days before the end: "
        f"{pruned.games:,} games, {pruned.moves:,} moves, {pruned.events:,} events; "
        f"{(pruned.freed_bytes or 0) / 1e6:.1f} MB freed inside the file "
        f"({(pruned.freed_bytes or 0) / max(1, db):.0%} of it)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200_000)
    parser.add_argument("--tables", type=int, default=40, help="games played at once")
    parser.add_argument("--day", type=int, default=5_000, help="clicks per simulated day")
    parser.add_argument(
        "--every",
        type=int,
        default=0,
        help="clicks between samples (default: a twentieth of the run)",
    )
    parser.add_argument("--keep-days", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    every = args.every or max(100, args.clicks // 20)
    with tempfile.TemporaryDirectory(prefix="qwixx-soak-") as folder:
        figures = asyncio.run(
            soak(Path(folder), args.clicks, args.tables, args.day, every, args.keep_days, args.seed)
        )
    report(figures, args.keep_days)


if __name__ == "__main__":
    main()
