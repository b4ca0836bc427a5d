"""Kill torture: ``python -m benchmarks.torture [--kills 50] [--games 4] [--seed 1]``.

Two members play games of every variant against the bot in a separate process
(``tests/e2e/bot_process.py``), which is SIGKILLed at random points (in the
migrations, at start-up, after a lobby change, after a move's commit, after a
timer firing, between a post and the record of it) and restarted on the same
database each time. Prints the kills, the moves members were told were saved,
those missing from the move log (lost, must be 0), decisions applied twice (0),
games finished, and the longest time the channel lagged the store.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.cogs.buttons import decode_move
from bot.cogs.views import you_did
from bot.rules import Move, new_game
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import OPEN_SHEET, Choice, choices, turn_message
from bot.sandbox.driver import ActionOutcome
from tests.fuzz.fuzzer import audit

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("classic", "longo", "onboard", "qwinto")
POINTS = ("commit", "commit", "commit", "lobby", "timer", "posted", "startup")
TIME_FACTOR = 60.0  # the bot's clock: a 5-minute turn time lasts 5 s
LAG_BUDGET = 15.0  # seconds the channel may lag the store, restarts included


Decision = tuple[int, int, int, str, str]
"""(game, player, turn, phase, move as JSON): one decision a member was told was saved.
A choice taken again unchanged is the same decision (it is not stored twice)."""


def decisions(
    game_id: int,
    variant: str,
    players: list[int],
    seed: int,
    rules: dict[str, Any],
    rows: list[tuple[int, str, str]],
) -> set[Decision]:
    """The members' decisions in a game's move log, each with its turn and phase."""
    game, found = new_game(variant, players, seed, rules), set()
    for player, move, source in rows:
        decision = game.decision()
        if source == "player":
            found.add(
                (
                    game_id,
                    player,
                    decision.turn,
                    decision.phase,
                    json.dumps(json.loads(move), sort_keys=True),
                )
            )
        game, _ = game.apply(player, Move.from_json(json.loads(move)))
    return found


@dataclass
class Figures:
    kills: Counter[str] = field(default_factory=Counter)
    acknowledged: set[Decision] = field(default_factory=set)
    lost: int = 0
    twice: int = 0
    finished: int = 0
    games: int = 0
    longest_lag: float = 0.0
    other_failures: list[str] = field(default_factory=list)


class Lag:
    """Watches the database: how long each game's channel shows less than is stored."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.since: dict[int, float] = {}
        self.longest = 0.0

    def rows(self) -> list[tuple[int, int, int, str]]:
        if not self.database.exists():
            return []
        with contextlib.closing(
            sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5)
        ) as db:
            try:
                return db.execute(
                    "SELECT id, version, shown_version, status FROM games WHERE status != 'lobby'"
                ).fetchall()
            except sqlite3.OperationalError:  # not migrated yet
                return []

    def look(self) -> bool:
        """Record lags; True if every channel shows its game's last version."""
        now = time.monotonic()
        for game, version, shown, _ in self.rows():
            if shown < version:
                self.since.setdefault(game, now)
            elif game in self.since:
                self.longest = max(self.longest, now - self.since.pop(game))
        for start in self.since.values():
            self.longest = max(self.longest, now - start)
        return not self.since

    async def watch(self) -> None:
        while True:
            self.look()
            await asyncio.sleep(0.1)


class Torture:
    def __init__(self, sb: Sandbox, database: Path, rng: random.Random, log: Any) -> None:
        self.sb, self.database, self.rng, self.log = sb, database, rng, log
        self.members = [sb.member("Ana"), sb.member("Ben")]
        self.process: asyncio.subprocess.Process | None = None
        self.point: str | None = None
        self.base = time.time()
        self.figures = Figures()
        self.variants = 0

    async def spawn(self, point: str | None) -> None:
        """Start the bot (dying at ``point``) and wait until it is ready or dead."""
        synced = self.synced()
        extra = ["--die-at", point] if point else []
        self.point = point
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.bot_process",
            self.sb.server.base_url,
            self.sb.server.gateway_url,
            str(self.database),
            str(self.sb.guild.id),
            *extra,
            "--time-factor",
            str(TIME_FACTOR),
            "--time-base",
            str(self.base),
            cwd=ROOT,
            stdout=self.log,
            stderr=self.log,
        )
        deadline = time.monotonic() + 60
        while (
            time.monotonic() < deadline
            and self.alive()
            and not (self.sb.server.gateway.connected and self.synced() > synced)
        ):
            await asyncio.sleep(0.05)

    def synced(self) -> int:
        return len([c for c in self.sb.server.calls if "commands" in c.route])

    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def ensure_running(self, kills: int) -> None:
        if self.alive():
            return
        if self.process is not None:
            await self.process.wait()
            if self.process.returncode == -9:
                self.figures.kills[str(self.point).split(":")[0]] += 1
        await self.sb.wait_for(lambda: not self.sb.server.gateway.connected, timeout=30)
        done = sum(self.figures.kills.values())
        point = self.plan(done) if done < kills else None
        print(f"  start {done + 1}, dies at {point or 'no point'}", file=sys.stderr)
        await self.spawn(point)

    def plan(self, done: int) -> str:
        if done < 2:  # the database is new: the migrations, then start-up
            return "migrate:1" if done == 0 else "startup:1"
        point = self.rng.choice(POINTS)
        return f"{point}:{1 if point == 'startup' else self.rng.randint(1, 4)}"  # once a start

    # --- playing ------------------------------------------------------------------
    def current(self) -> tuple[int, str] | None:
        with contextlib.closing(
            sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5)
        ) as db:
            try:
                row = db.execute(
                    "SELECT id, status FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                    (self.sb.channel.id,),
                ).fetchone()
            except sqlite3.OperationalError:
                return None
        return (int(row[0]), str(row[1])) if row else None

    async def step(self) -> None:
        """One thing a member does, decided from the store and the channel."""
        game = self.current()
        ana, ben = self.members
        waiting = game is not None and game[1] in ("lobby", "running")
        if waiting and self.point and self.point.startswith("timer"):  # a deadline falls due
            await self.idle(12.0)
            return
        if game is None or game[1] in ("finished", "abandoned"):
            variant = VARIANTS[self.variants % len(VARIANTS)]
            self.variants += 1
            await ana.slash("qwixx", "start", variant=variant, turn_time="5m")
        elif game[1] == "lobby":
            lobby = next((m for m in reversed(self.sb.messages()) if "Join" in m.labels), None)
            if lobby is None:
                await self.idle(1.0)
                return
            if "Ben" not in lobby.content and "<@" + str(ben.id) not in lobby.content:
                await ben.click(lobby, label="Join")
            else:
                await ana.click(lobby, label="Start")
        else:
            await self.move(game[0], self.rng.choice(self.members))

    async def move(self, game_id: int, member: SimMember) -> None:
        turn = turn_message(self.sb)
        if turn is None:
            await self.idle(1.0)
            return
        opened = await member.click(turn, label=OPEN_SHEET)
        sheet = None if opened.failed else next(iter(opened.followups), None)
        offered = choices(sheet) if sheet is not None else []
        if sheet is None or not offered:
            return
        choice = self.rng.choice(offered)
        outcome = await self.take(member, sheet, choice)
        move = decode_move(choice.value or choice.custom_id.split(":")[-1])
        number, phase = choice.custom_id.split(":")[2:4]
        if (
            outcome.failed is None
            and outcome.response is not None
            and you_did(move) in outcome.response.content
        ):
            self.figures.acknowledged.add(
                (game_id, member.id, int(number), phase, json.dumps(move.to_json(), sort_keys=True))
            )

    @staticmethod
    async def take(member: SimMember, message: Any, choice: Choice) -> ActionOutcome:
        if choice.value is None:
            return await member.click(message, custom_id=choice.custom_id)
        return await member.select(message, [choice.value], custom_id=choice.custom_id)

    async def idle(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)


async def run(kills: int, games: int, seed: int, folder: Path) -> Figures:
    database = folder / "torture.db"
    with (folder / "bot.log").open("w") as log:
        async with Sandbox(members=["Ana", "Ben"], write_limit=False, settle=0.02) as sb:
            torture = Torture(sb, database, random.Random(seed), log)
            lag = Lag(database)
            watcher = asyncio.create_task(lag.watch())
            try:
                while (
                    sum(torture.figures.kills.values()) < kills or finished_games(database) < games
                ):
                    await torture.ensure_running(kills)
                    with contextlib.suppress(
                        AssertionError, TimeoutError, ValueError, LookupError, PermissionError
                    ):
                        await torture.step()
                await torture.ensure_running(kills)
                deadline = time.monotonic() + 60
                while not lag.look() and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
            finally:
                watcher.cancel()
                if torture.process is not None and torture.process.returncode is None:
                    torture.process.terminate()
                    await torture.process.wait()
            figures = torture.figures
            figures.longest_lag = lag.longest
            figures.other_failures = [str(f) for f in sb.failures if f.kind != "interaction_failed"]
    audit_database(database, figures)
    return figures


def finished_games(database: Path) -> int:
    if not database.exists():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        try:
            return int(
                db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
            )
        except sqlite3.OperationalError:
            return 0


def audit_database(database: Path, figures: Figures) -> None:
    """Lost: told saved, not in the log. Twice: a decision applied more than once.
    Every stored game must also be the replay of its seed and move log."""

    stored: set[Decision] = set()
    with contextlib.closing(sqlite3.connect(database)) as db:
        games = db.execute(
            "SELECT id, variant, players, seed, options, state, status "
            "FROM games WHERE state IS NOT NULL"
        ).fetchall()
        for game_id, variant, players, seed, options, state, status in games:
            rows = db.execute(
                "SELECT player_id, move, source FROM moves WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
            moves = [(p, Move.from_json(json.loads(m))) for p, m, _ in rows]
            rules = json.loads(options or "{}").get("rules", {})
            stored |= decisions(game_id, variant, json.loads(players), seed, rules, rows)
            game, twice = audit(variant, json.loads(players), seed, rules, moves)
            assert game.to_json() == json.loads(state), f"game {game_id} differs from its replay"
            figures.twice += len(twice)
            if twice:
                print(f"  game {game_id} ({variant}): twice {twice}", file=sys.stderr)
            figures.finished += status == "finished"
            figures.games += 1
    lost = figures.acknowledged - stored
    for decision in sorted(lost):
        print(
            f"  lost: game {decision[0]}, turn {decision[2]} {decision[3]}: {decision[4]} "
            f"by {decision[1]}",
            file=sys.stderr,
        )
    figures.lost = len(lost)


def report(figures: Figures, seconds: float) -> None:
    kills = ", ".join(f"{k} {v}" for k, v in sorted(figures.kills.items()))
    print(f"kills               {sum(figures.kills.values())} ({kills})")
    print(f"moves acknowledged  {len(figures.acknowledged)}")
    print(f"moves lost          {figures.lost}")
    print(f"applied twice       {figures.twice}")
    print(f"games finished      {figures.finished} of {figures.games}")
    print(
        f"longest lag         {figures.longest_lag:.1f} s (budget {LAG_BUDGET:g} s, "
        f"ratio {figures.longest_lag / LAG_BUDGET:.2f})"
    )
    print(f"other failures      {len(figures.other_failures)} {figures.other_failures[:3]}")
    print(f"wall time           {seconds:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(args.kills, args.games, args.seed, Path(folder)))
    report(figures, time.monotonic() - started)
    sys.exit(1 if figures.lost or figures.twice or figures.other_failures else 0)


if __name__ == "__main__":
    main()
