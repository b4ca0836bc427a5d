"""How fast does the bot get ready, and how much memory do open games take?

Fills a temporary SQLite store (the real schema) with 10,000 games, of which 1,000 are
running with real mid-game states of every variant (the rest finished), then starts a
fresh Python process that imports the bot (discord.py included), sets the allocator and
the collector as the bot's start-up does (:mod:`bot.heap`), opens the store, reads
the lobby and running games and has the service open each running game as its first
click would (the record and the game it keeps for the next click), and reports the
time of each step and the process's resident memory with those games open. Budgets:
< 2 s to be ready, <= 60 MB resident, and <= 75 MB once a sheet of each variant is then
drawn (the drawing code, Pillow and the fonts load at the first image, and the
renderer's caches, bounded in bytes, begin to fill): what a bot holds once it has
answered its first clicks.

``--where`` also prints what holds the memory: the largest allocations made while the
games were opened (tracemalloc, by the line that made them).

    python -m benchmarks.bench_startup [--games 10000] [--running 1000] [--where]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.rules import VARIANTS, new_game
from bot.store import Store

NOW = 1_767_225_600.0
PLAYERS = [10**17 + 7_919 * k for k in range(200)]

READY_BUDGET_S = 2.0
MEMORY_BUDGET_MB = 60.0
DRAWN_BUDGET_MB = 75.0

# Run in a fresh process: the clock starts before the first import.
CHILD = """
import time, sys
start = time.perf_counter()
import asyncio, discord, bot.app
from bot.service.games import GameService
from bot.heap import tune_gc, tune_malloc
from bot.store import Store
imported = time.perf_counter()
tune_malloc()  # as the bot's start-up (bot.__main__) does before it opens the store
tune_gc()

def resident_mb():
    with open("/proc/self/status") as status:
        line = next(l for l in status if l.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024

async def main(where):
    after_imports = resident_mb()
    if where:
        import tracemalloc
        tracemalloc.start(1)
    opened = time.perf_counter()
    async with Store(sys.argv[1]) as store:
        service = GameService(store)
        running = [r.id for r in await store.games.active() if r.status == "running"]
        loaded = time.perf_counter()
        games = {}
        for game_id in running:
            game = (await service.keeper.read(game_id)).game
            game.decision()
            games.setdefault(game.variant, game)
        ready = time.perf_counter()
        open_mb = resident_mb()
        from bot.render import render_sheet  # the first image: Pillow, the fonts, the card
        for game in games.values():
            player = game.players[0]
            render_sheet(game, player, "Ana", game.legal_moves(player))
        print(len(running), imported - start, loaded - opened, ready - loaded,
              ready - start, after_imports, open_mb, resident_mb())
        if where:
            for stat in tracemalloc.take_snapshot().statistics("lineno")[:15]:
                frame = stat.traceback[0]
                print(f"# {stat.size / 2**20:6.2f} MB {stat.count:7,d} blocks  "
                      f"{frame.filename.split('/site-packages/')[-1]}:{frame.lineno}")

asyncio.run(main("--where" in sys.argv))
"""


def states(count: int, seed: int = 1) -> list[tuple[str, list[int], dict[str, Any]]]:
    """``count`` mid-game states of every variant, played with random legal moves."""
    rng = random.Random(seed)
    found = []
    for k in range(count):
        variant = sorted(VARIANTS)[k % len(VARIANTS)]
        players = rng.sample(PLAYERS, rng.randint(2, 4))
        game = new_game(variant, players, k)
        for _ in range(rng.randint(5, 40)):
            if game.finished:
                break
            player = min(game.decision().waiting)
            game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
        found.append((variant, players, game.to_json()))
    return found


def fill(path: Path, games: int, running: int) -> None:
    """Bulk-insert ``games`` games (``running`` of them running) and their moves."""
    samples = states(min(running, 200))
    rows, moves = [], []
    for gid in range(1, games + 1):
        variant, players, state = samples[gid % len(samples)]
        status = "running" if gid <= running else "finished"
        rows.append(
            (
                gid,
                1,
                1_000 + gid,
                players[0],
                variant,
                "{}",
                gid,
                json.dumps(players),
                json.dumps(state),
                status,
                40,
                NOW - 3_600,
                NOW,
                None if status == "running" else NOW,
            )
        )
        moves += [
            (gid, seq, players[seq % len(players)], '{"kind": "pass"}', NOW) for seq in range(1, 41)
        ]
    with sqlite3.connect(path, isolation_level=None) as db:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, variant, options, "
            "seed, players, state, status, version, created_at, updated_at, "
            "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany(
            "INSERT INTO moves (game_id, seq, player_id, move, created_at) VALUES (?, ?, ?, ?, ?)",
            moves,
        )
        db.execute("COMMIT")


def measure(
    games: int = 10_000, running: int = 1_000, where: bool = False
) -> tuple[dict[str, float], list[str]]:
    """Fill a store, start a fresh process on it: its figures by name, and (``where``)
    the lines telling what holds the memory."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"

        async def create() -> None:
            async with Store(path):
                pass

        asyncio.run(create())
        fill(path, games, running)
        lines = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), *(["--where"] if where else [])],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.splitlines()
    names = (
        "restored",
        "import_s",
        "read_s",
        "restore_s",
        "ready_s",
        "imports_mb",
        "rss_mb",
        "drawn_mb",
    )
    found = dict(zip(names, map(float, lines[0].split()), strict=True))
    return found, [line.removeprefix("# ") for line in lines[1:]]


def rows(games: int = 10_000, running: int = 1_000) -> list[tuple[str, str, str, float]]:
    """(what, budget, figure, ratio) lines for the one table."""
    return table(measure(games, running)[0], games, running)


def table(found: dict[str, float], games: int, running: int) -> list[tuple[str, str, str, float]]:
    where = f"{games:,} games, {running:,} running"
    return [
        (
            f"start-up: ready ({where})",
            f"< {READY_BUDGET_S:g} s",
            f"{found['ready_s']:.2f} s",
            found["ready_s"] / READY_BUDGET_S,
        ),
        ("start-up: of which imports", "", f"{found['import_s']:.2f} s", 0.0),
        (
            "start-up: read, then open the running games",
            "",
            f"{found['read_s']:.2f} + {found['restore_s']:.2f} s",
            0.0,
        ),
        (
            f"memory: resident, {int(found['restored']):,} games open",
            f"<= {MEMORY_BUDGET_MB:g} MB",
            f"{found['rss_mb']:.1f} MB",
            found["rss_mb"] / MEMORY_BUDGET_MB,
        ),
        ("memory: of which the imports", "", f"{found['imports_mb']:.1f} MB", 0.0),
        (
            "memory: the same, a sheet of each variant then drawn",
            f"<= {DRAWN_BUDGET_MB:g} MB",
            f"{found['drawn_mb']:.1f} MB",
            found["drawn_mb"] / DRAWN_BUDGET_MB,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--running", type=int, default=1_000)
    parser.add_argument("--where", action="store_true", help="what holds the memory")
    args = parser.parse_args()
    found, lines = measure(args.games, args.running, args.where)
    for what, budget, figure, ratio in table(found, args.games, args.running):
        shown = f"{ratio:6.2f}" if ratio else "     -"
        print(f"{what:<44}{budget:>10}{figure:>16}{shown:>8}")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
