"""How long does the host's upkeep take on a large history? ``backup``, ``prune``,
``migrate``, ``copy-db`` and the first start's rating, on 100,000 finished games.

The history (:func:`build`) is made of real games: ``--templates`` games of Qwixx,
Qwixx Longo and Qwinto between 2-4 people are played through the service on a SQLite
file (random legal moves of whoever the game waits for, to the end), then copied under
new ids into the measured database, ``--games`` times in all: each copy with its whole
move and event log, its results, spread over 50 servers and 1,000 people, finished
over the year before now (so half of them ended more than six months ago). Every
game's channel shows its end, nothing is rated yet (as before the first start with
ratings).

Then each command runs as a host runs it (``python -m bot COMMAND``, in a process of
its own, start-up included) and its wall time is printed:

* ``backup`` of the whole file;
* ``prune --dry-run`` and ``prune`` of the games that ended more than six months ago;
* ``migrate`` of the same history built at schema version 8, before the move and event
  logs were rebuilt as keyed tables (the longest migration so far);
* ``copy-db`` into an empty PostgreSQL database (a throwaway server started as the
  tests start theirs, or ``--postgres URL``; left out without either);
* the first start's rating of every game (:meth:`RatingService.backfill`, what the bot
  runs before it connects), in this process.

    python -m benchmarks.bench_upkeep [--games 100000] [--templates 40]
        [--only backup,prune,migrate,copy-db,rating] [--postgres URL] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from bot.service.games import GameService
from bot.service.rated import RatingService
from bot.store import Store
from bot.store.migrations import MIGRATIONS, apply_migrations
from bot.store.sqlite import SqliteEngine

NOW = time.time()
YEAR = 365 * 86_400
GUILDS = [1_100_000_000_000_000_000 + k * 7_919 for k in range(50)]
PEOPLE = [10**17 + k * 104_729 for k in range(1_000)]
VARIANTS = ("classic", "classic", "longo", "qwinto")
BATCH = 500  # games inserted per transaction
OLD_SCHEMA = 8
TABLES = ("games", "moves", "game_events", "matches", "results")
Row = dict[str, Any]


async def play(store: Store, game_number: int, rng: random.Random) -> None:
    """One whole game through the service: a lobby, its players, random legal moves."""
    service = GameService(store, seeds=lambda: rng.randrange(2**31))
    seats = [PEOPLE[k] for k in rng.sample(range(50), rng.randint(2, 4))]
    record = await service.lobby.open(
        GUILDS[0], 1_000 + game_number, seats[0], VARIANTS[game_number % len(VARIANTS)]
    )
    for person in seats[1:]:
        await service.lobby.join(record.id, person)
    game = (await service.lobby.start(record.id, seats[0])).game
    while game is not None and not game.finished:
        decision = game.decision()
        player = min(decision.waiting)
        move = rng.choice(game.legal_moves(player))
        game = (
            await service.turns.move(record.id, player, decision.turn, decision.phase, move)
        ).game
    done = await store.games.get(record.id)
    assert done is not None
    await store.games.set_shown(done, None, {})  # its channel shows the end


def rows_of(db: sqlite3.Connection, table: str, game_id: int) -> list[Row]:
    key = "id" if table == "games" else "game_id"
    cursor = db.execute(f'SELECT * FROM "{table}" WHERE {key} = ?', (game_id,))
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor]


def templates(folder: Path, count: int, seed: int) -> list[dict[str, list[Row]]]:
    """``count`` finished games played through the service: each game's rows per table."""
    path = folder / "templates.db"
    path.unlink(missing_ok=True)
    rng = random.Random(seed)

    async def run() -> None:
        async with Store(path) as store:
            for number in range(count):
                await play(store, number, rng)

    asyncio.run(run())
    with closing(sqlite3.connect(path)) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM games ORDER BY id")]
        return [{table: rows_of(db, table, game_id) for table in TABLES} for game_id in ids]


def schema(path: Path, version: int | None) -> None:
    """An empty database at ``version`` (None: the current schema)."""

    async def migrated() -> None:
        engine = SqliteEngine(path)
        await engine.open()
        try:
            await apply_migrations(engine, NOW, None if version is None else MIGRATIONS[:version])
        finally:
            await engine.close()

    asyncio.run(migrated())


def copies(
    made: list[dict[str, list[Row]]], games: int, seed: int
) -> Iterator[dict[str, list[Row]]]:
    """Each game of the history: a template's rows under a new id, server, people and
    time; the oldest game first."""
    rng = random.Random(seed)
    for number in range(games):
        template = made[number % len(made)]
        game_id = number + 1
        guild = GUILDS[number % len(GUILDS)]
        old = template["games"][0]
        finished = NOW - YEAR + YEAR * (number + 0.5) / games
        shift = finished - float(old["finished_at"])
        seated = [r["player_id"] for r in template["results"]]
        people = dict(zip(seated, rng.sample(PEOPLE, len(seated)), strict=True))
        moved: dict[str, list[Row]] = {}
        for table, rows in template.items():
            moved[table] = []
            for row in rows:
                new = dict(row)
                new["id" if table == "games" else "game_id"] = game_id
                for key in ("guild_id",):
                    if key in new:
                        new[key] = guild
                for key in ("player_id", "host_id", "player"):
                    if new.get(key) in people:
                        new[key] = people[new[key]]
                for key in (
                    "created_at",
                    "updated_at",
                    "finished_at",
                    "started_at",
                    "stage_started",
                ):
                    if new.get(key) is not None:
                        new[key] = float(new[key]) + shift
                if "channel_id" in new:
                    new["channel_id"] = guild + number % 20
                moved[table].append(new)
        yield moved


def build(
    path: Path,
    made: list[dict[str, list[Row]]],
    games: int,
    version: int | None = None,
    seed: int = 7,
) -> None:
    """The history of ``games`` finished games in a new SQLite file at ``path``."""
    schema(path, version)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        names = {
            t: [c[1] for c in db.execute(f'PRAGMA table_info("{t}")') if c[1] in made[0][t][0]]
            for t in TABLES
        }
        pending: dict[str, list[Row]] = {t: [] for t in TABLES}

        def flush() -> None:
            db.execute("BEGIN")
            for table, rows in pending.items():
                db.executemany(
                    f'INSERT INTO "{table}" ({", ".join(names[table])}) VALUES '
                    f"({', '.join('?' * len(names[table]))})",
                    [tuple(row[n] for n in names[table]) for row in rows],
                )
                rows.clear()
            db.execute("COMMIT")

        for number, game in enumerate(copies(made, games, seed), 1):
            for table, rows in game.items():
                pending[table] += rows
            if number % BATCH == 0:
                flush()
        flush()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if version is None:

        async def totals() -> None:
            async with Store(path) as store:
                await store.stats.rebuild_totals()

        asyncio.run(totals())


def command(*args: str) -> float:
    """Seconds ``python -m bot ARGS`` takes (it must succeed); its output is shown."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    print("  " + "\n  ".join((done.stdout + done.stderr).strip().splitlines()))
    if done.returncode:
        raise SystemExit(f"qwixx-bot {args[0]} failed ({done.returncode})")
    return seconds


def rating(path: Path) -> float:
    """Seconds the first start's rating of every counted game takes."""

    async def run() -> float:
        async with Store(path) as store:
            start = time.perf_counter()
            rated = await RatingService(store).backfill()
            seconds = time.perf_counter() - start
        print(f"  rated {rated:,} games")
        return seconds

    return asyncio.run(run())


@contextmanager
def postgres(url: str | None) -> Iterator[str | None]:
    """``url``, or an empty database of a throwaway server (None if none can start)."""
    if url:
        yield url
        return
    from tests.store.postgres_server import PostgresServer, ServerError

    try:
        with PostgresServer.running() as server:
            yield server.new_database()
    except ServerError as error:
        print(f"(no PostgreSQL for copy-db: {str(error).splitlines()[0]})")
        yield None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--templates", type=int, default=40)
    parser.add_argument("--only", default="backup,prune,migrate,copy-db,rating")
    parser.add_argument("--postgres", help="an empty PostgreSQL database for copy-db")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep the files")
    args = parser.parse_args()
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="qwixx-upkeep-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        made = templates(folder, args.templates, seed=1)
        history = folder / "history.db"
        history.unlink(missing_ok=True)
        build(history, made, args.games)
        logs = sum(len(t["moves"]) + len(t["game_events"]) for t in made) / len(made)
        print(
            f"built {args.games:,} finished games ({logs:.0f} moves and events a game, "
            f"from {len(made)} played) in {time.perf_counter() - start:.0f} s: "
            f"{history.stat().st_size / 1e9:.2f} GB"
        )
        times: list[tuple[str, float]] = []
        half = time.strftime("%Y-%m-%d", time.gmtime(NOW - YEAR / 2))
        if "backup" in only:
            times.append(
                ("backup", command("backup", str(folder / "backup.db"), "--database", str(history)))
            )
            (folder / "backup.db").unlink()
        if "copy-db" in only:
            with postgres(args.postgres) as url:
                if url:
                    times.append(("copy-db", command("copy-db", str(history), url)))
        if "rating" in only:
            times.append(("first start's rating", rating(history)))
        if "prune" in only:
            prune = ["prune", "--finished-before", half, "--database", str(history)]
            times.append(("prune --dry-run", command(*prune, "--dry-run")))
            times.append(("prune", command(*prune)))
        if "migrate" in only:
            old = folder / "old.db"
            old.unlink(missing_ok=True)
            build(old, made, args.games, version=OLD_SCHEMA)
            print(
                f"built the same history at schema version {OLD_SCHEMA}: "
                f"{old.stat().st_size / 1e9:.2f} GB"
            )
            times.append(
                (f"migrate (from version {OLD_SCHEMA})", command("migrate", "--database", str(old)))
            )
    width = max((len(name) for name, _ in times), default=0)
    print(f"\n{'command':<{width}}  seconds  ({args.games:,} games)")
    for name, seconds in times:
        print(f"{name:<{width}}  {seconds:7.1f}")


if __name__ == "__main__":
    main()
