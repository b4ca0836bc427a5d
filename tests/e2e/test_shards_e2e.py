"""Two bot processes, shards 0 and 1 of 2, on one database, against one stand-in.

Four games run at once, two in a guild of each shard. The process of shard 1 is
SIGKILLed while its games wait on a decision nobody takes, and restarted once that
decision is overdue; meanwhile shard 0's process fires its own deadlines and must
leave the others alone. Every game completes, every deadline fires once, by the
process that serves the game's guild, each turn is posted once, the leaderboard of
each guild agrees with its games' final scores, and only shard 0's process syncs the
commands.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import Choice, final_message, next_turn, play_round, turn_message
from bot.sandbox.records import ChannelRecord, GuildRecord, StoredMessage
from bot.shards import ShardPlan
from bot.store import Store
from tests.store.postgres_server import PostgresServer

from .conftest import UNLIMITED

ROOT = Path(__file__).resolve().parents[2]
TIME_FACTOR = 30.0  # the bots' clock: a 5-minute turn lasts 10 s
START = 60.0  # seconds a bot process may take to connect, however busy the machine
LONG = 120.0  # seconds for a deadline to fall due and be shown
ANSWER = 30.0
"""Seconds a click may wait for its answer: the bots are processes of their own, one just
restarted among them, on a machine that may run another suite beside (the stand-in's
5 s were once too few for a deferred sheet's follow-up). Clicks end as soon as answered."""
TURN = re.compile(r"\*\*Turn (\d+)\*\*")
RANKED = re.compile(r"^(\d+)\. <@(\d+)> — ([−-]?\d+)", re.MULTILINE)  # a minus sign
BOARD_LINE = re.compile(r"^\S+\. (\w+): games (\d+), wins (\d+) .*best (-?\d+)$")


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database for both processes: a SQLite file (in WAL mode it serves two
    processes on one machine) or the tests' PostgreSQL server (``tests/conftest.py``)."""
    if request.param == "sqlite":
        return str(tmp_path / "qwixx.db")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.clean_database()


@asynccontextmanager
async def opened(database: str) -> AsyncIterator[Store]:
    store = await Store.open(database)
    try:
        yield store
    finally:
        await store.close()


@dataclass
class BotProcess:
    """``tests/e2e/bot_process.py`` running some shards, its timer firings reported."""

    sb: Sandbox
    database: str
    shards: ShardPlan
    base: float
    log: Path
    process: asyncio.subprocess.Process | None = None
    runs: int = 0

    async def start(self) -> None:
        """Spawn and wait until the shard's new session is connected (commands synced)."""
        known = set(self.sb.server.gateway.sessions)
        self.runs += 1
        with self.log.open("a") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.bot_process",
                self.sb.server.base_url,
                self.sb.server.gateway_url,
                self.database,
                "0",
                "--shards",
                str(self.shards),
                "--report-fires",
                "--time-factor",
                str(TIME_FACTOR),
                "--time-base",
                str(self.base),
                cwd=ROOT,
                stdout=log,
                stderr=log,
            )

        def connected() -> bool:
            if self.process is not None and self.process.returncode is not None:
                raise AssertionError(f"bot process exited: {self.log.read_text()[-2000:]}")
            return any(
                s.socket is not None
                and not s.socket.closed
                and s.id not in known
                and s.shard == (self.shards.ids[0], self.shards.count)
                for s in self.sb.server.gateway.live
            )

        await self.sb.wait_for(connected, timeout=START)

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        gateway = self.sb.server.gateway
        await self.sb.wait_for(
            lambda: (
                not any(
                    s.socket is not None and s.shard == (self.shards.ids[0], self.shards.count)
                    for s in gateway.live
                )
            )
        )

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()

    def fires(self) -> list[tuple[int, str]]:
        """(game, kind) of every timer firing this process reported, in all its runs."""
        return [
            (int(game), kind)
            for line in self.log.read_text().splitlines()
            if line.startswith("fired ")
            for _, game, kind in [line.split()]
        ]


def always_pass(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
    return next((c for c in offered if c.text == "Pass"), offered[-1])


@dataclass
class Table:
    """One game in one channel between two members of its own, who always pass."""

    sb: Sandbox
    guild: GuildRecord
    channel: ChannelRecord
    names: tuple[str, str]
    idle_turn: int
    """The turn on which nobody decides: its deadline must end it."""
    idling: asyncio.Event = field(default_factory=asyncio.Event)
    idled: asyncio.Event = field(default_factory=asyncio.Event)
    go_on: asyncio.Event = field(default_factory=asyncio.Event)
    """What a table holding on a turn waits for."""
    final: StoredMessage | None = None

    def members(self) -> list[SimMember]:
        return [self.sb.member(name, guild=self.guild, channel=self.channel) for name in self.names]

    async def play(self, hold_turn: int | None = None) -> None:
        """The whole game; before acting on ``hold_turn`` it waits for ``go_on``."""
        host, guest = self.members()
        lobby = (
            await host.slash(
                "qwixx", "start", variant="classic", turn_time="5m", in_channel=self.channel
            )
        ).message
        await guest.click(lobby, label="Join")
        await host.click(lobby, label="Start")
        while (turn := await next_turn(self.sb, self.channel)) is not None:
            number = int(TURN.search(turn.content)[1])  # type: ignore[index]
            if number == hold_turn and not self.go_on.is_set():
                await self.go_on.wait()
                continue  # look again: the turn may have moved on meanwhile
            if number == self.idle_turn and not self.idling.is_set():
                self.idling.set()
                await self.sb.wait_for(lambda t=turn: self.moved_on(t), timeout=LONG)
                self.idled.set()
                continue
            await play_round(self.sb, [host, guest], always_pass, self.channel)
        self.final = final_message(self.sb, self.channel)

    def moved_on(self, turn: StoredMessage) -> bool:
        """The deadline of ``turn`` was shown: a newer turn message, or the end."""
        now = turn_message(self.sb, self.channel)
        return final_message(self.sb, self.channel) is not None or (
            now is not None and now.id != turn.id
        )


def bot_now(base: float) -> float:
    """The bots' clock (see ``--time-factor``)."""
    return base + (time.time() - base) * TIME_FACTOR


async def run_kill_scenario(
    sb: Sandbox, even: list[Table], odd: list[Table], second: BotProcess, database: str
) -> None:
    """Kill shard 1 while its games idle; let shard 0 fire deadlines of its own that
    fall due after shard 1's; then restart shard 1, whose deadlines are overdue."""
    await asyncio.gather(*(t.idling.wait() for t in odd))
    await second.kill()
    async with opened(database) as store:
        waiting = [await store.games.in_channel(t.channel.id) for t in odd]
    deadlines = [g.deadline for g in waiting if g is not None and g.deadline is not None]
    assert len(deadlines) == len(odd)
    for table in even:  # their idle turn starts now: its deadline comes after shard 1's
        table.go_on.set()
    await asyncio.gather(*(t.idled.wait() for t in even))
    assert bot_now(second.base) >= max(deadlines)
    for table in odd:  # nobody moved shard 1's games on while its process was down
        shown = turn_message(sb, table.channel)
        assert shown is not None and f"**Turn {table.idle_turn}**" in shown.content
    await second.start()


async def test_two_shard_processes_share_one_database_and_survive_a_kill(
    shared_database: str, tmp_path: Path
) -> None:
    guilds = [
        GuildSpec("Even", channels=("one", "two"), shard=(0, 2)),
        GuildSpec("Odd", channels=("one", "two"), shard=(1, 2)),
    ]
    async with Sandbox(**UNLIMITED, guilds=guilds, settle=0.02, timeout=ANSWER) as sb:
        base = time.time()
        first, second = (
            BotProcess(sb, shared_database, ShardPlan((n,), 2), base, tmp_path / f"shard{n}.log")
            for n in (0, 1)
        )
        try:
            await asyncio.gather(first.start(), second.start())
            even, odd = (
                [
                    Table(
                        sb,
                        guild,
                        sb.server.world.channels[channel],
                        (f"Ana{n}{i}", f"Ben{n}{i}"),
                        idle_turn=3 - n,
                    )
                    for i, channel in enumerate(guild.channel_ids)
                ]
                for n, guild in enumerate(sb.guilds)
            )
            games = [*(t.play(hold_turn=2) for t in even), *(t.play() for t in odd)]
            playing = asyncio.gather(*games)
            try:
                async with asyncio.timeout(LONG * 3):
                    await run_kill_scenario(sb, even, odd, second, shared_database)
                    await playing
            finally:
                playing.cancel()
            await check_games(sb, [*even, *odd], [first, second], shared_database)
            await check_leaderboards(sb, even, odd)
        finally:
            await first.stop()
            await second.stop()
        assert second.runs == 2
        synced = [c for c in sb.server.calls if c.endpoint.startswith("PUT /applications")]
        assert len(synced) == 1  # commands are the application's: shard 0's process syncs
        assert sb.failures == [], sb.describe_failures()


async def check_games(
    sb: Sandbox, tables: list[Table], processes: list[BotProcess], database: str
) -> None:
    """Every game finished; every deadline fired once, by its guild's process; each
    turn posted once."""
    async with opened(database) as store:
        records = {t.channel.id: (await store.games.of_channel(t.channel.id))[0] for t in tables}
        events = {r.id: await store.games.events(r.id) for r in records.values()}
    owner = {r.id: r.guild_id for r in records.values()}
    for table in tables:
        record = records[table.channel.id]
        assert record.status == "finished", table.channel.name
        assert table.final is not None and "final scores" in table.final.content
        expired = Counter(e.turn for e in events[record.id] if e.kind == "expired")
        assert table.idle_turn in expired
        assert max(expired.values()) <= 2, expired  # a classic turn has two decisions
        turns = Counter(
            int(n) for m in sb.messages(table.channel) for n in TURN.findall(m.content)[:1]
        )
        assert turns and set(turns.values()) == {1}, turns  # each turn posted once
    for process in processes:
        fired = [game for game, kind in process.fires() if kind == "expired"]
        assert fired and all(process.shards.owns(owner[game]) for game in fired), fired
    reported = Counter(game for p in processes for game, kind in p.fires() if kind == "expired")
    stored = Counter(game for game, rows in events.items() for e in rows if e.kind == "expired")
    assert reported == stored


async def check_leaderboards(sb: Sandbox, *guild_tables: list[Table]) -> None:
    """Each guild's leaderboard counts its own games' final scores, as posted."""
    for tables in guild_tables:
        expected: dict[int, list[tuple[int, int]]] = {}
        for table in tables:
            assert table.final is not None
            for rank, user, score in RANKED.findall(table.final.content):
                expected.setdefault(int(user), []).append((int(rank), int(score.replace("−", "-"))))
        host = tables[0].members()[0]
        board = (await host.slash("qwixx", "leaderboard", in_channel=tables[0].channel)).message
        [image] = board.attachments
        shown = {
            m[1]: (int(m[2]), int(m[3]), int(m[4]))
            for line in (image.description or "").splitlines()
            if (m := BOARD_LINE.match(line))
        }
        names = {m.id: m.name for t in tables for m in t.members()}
        assert shown == {
            names[user]: (
                len(games),
                sum(rank == 1 for rank, _ in games),
                max(score for _, score in games),
            )
            for user, games in expected.items()
        }
