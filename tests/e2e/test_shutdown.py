"""Stopping the bot with SIGTERM (``docker stop``, systemd) or SIGINT.

The bot refuses new interactions at once ("The bot is restarting; …"), lets those
being handled finish, runs the pending channel syncs, closes the gateway and the
store and exits 0, within 10 s. In the subprocess test four members keep clicking
**Pass** while the bot gets SIGTERM; one click is held in flight (after its commit,
before its answer: ``--hold-move``) until the others have been refused, so that the
refusals are seen for certain. Every click is answered, either with its move (and
the move is stored) or with the refusal (and nothing is); a restarted bot plays the
game on to its end. The in-process tests check the gate itself and the stop's limit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import discord
import pytest

from bot import __main__ as cli
from bot.app import QwixxBot
from bot.i18n.english import EN
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import (
    OPEN_SHEET,
    Choice,
    final_message,
    next_turn,
    play_to_end,
    wait_for_turn,
)
from bot.sandbox.driver import ActionOutcome
from bot.sandbox.records import StoredMessage
from bot.store import Store

from .conftest import UNLIMITED

ROOT = Path(__file__).resolve().parents[2]
START = 60.0  # seconds a bot process may take to connect, however busy the machine
LONG = 60.0  # seconds for anything the test waits on, however busy the machine
STOP_WITHIN = 10.0
RESTARTING = EN["error.restarting"]
PASSED = EN["you.passed"]
DEFERRED = (5, 6)  # callback types that promise an answer through the token later
NAMES = ("Ana", "Ben", "Cem", "Dan")


@dataclass
class BotProcess:
    """``tests/e2e/bot_process.py``, its output read line by line as it comes."""

    sb: Sandbox
    database: Path
    log: IO[str]
    lines: list[str] = field(default_factory=list)
    process: asyncio.subprocess.Process | None = None
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def start(self, *extra: str) -> None:
        known = set(self.sb.server.gateway.sessions)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.bot_process",
            self.sb.server.base_url,
            self.sb.server.gateway_url,
            str(self.database),
            str(self.sb.guild.id),
            "--log-level",
            "INFO",
            *extra,
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read(self.process))

        def connected() -> bool:
            if self.process is not None and self.process.returncode is not None:
                raise AssertionError(f"bot process exited: {''.join(self.lines[-30:])}")
            return any(
                s.socket is not None and not s.socket.closed and s.id not in known
                for s in self.sb.server.gateway.live
            )

        await self.sb.wait_for(connected, timeout=START)

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        async for raw in process.stdout:
            line = raw.decode(errors="replace")
            self.log.write(line)
            async with self._changed:
                self.lines.append(line)
                self._changed.notify_all()

    async def line(self, text: str) -> str:
        """The first line of output containing ``text``, once there is one."""

        def found() -> str | None:
            return next((line for line in self.lines if text in line), None)

        async with asyncio.timeout(LONG), self._changed:
            await self._changed.wait_for(lambda: found() is not None)
        return found() or ""

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    async def exited(self) -> int:
        assert self.process is not None and self._reader is not None
        code = await self.process.wait()
        await self._reader
        return code

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.exited()


@dataclass
class Click:
    sb: Sandbox
    member: SimMember
    outcome: ActionOutcome

    @property
    def said(self) -> str:
        """What this click was answered, privately (not the member's other messages
        that changed meanwhile)."""
        return "\n".join(
            m.content
            for m in self.sb.server.world.messages.values()
            if m.interaction_id == self.outcome.interaction.id and m.ephemeral
        )

    @property
    def refused(self) -> bool:
        return RESTARTING in self.said

    @property
    def passed(self) -> bool:
        return PASSED in self.said


async def keep_passing(
    sb: Sandbox, member: SimMember, clicks: list[Click], released: asyncio.Event
) -> None:
    """Press **Pass** on the turn message, again and again, until refused (or, for the
    member whose click was held, until it was released)."""
    while not released.is_set():
        turn = await next_turn(sb, None)
        if turn is None:
            raise AssertionError("the game ended before the bot was stopped")
        try:
            outcome = await member.click(turn, label="Pass")
        except (LookupError, ValueError):  # the message lost its buttons meanwhile
            await asyncio.sleep(0)
            continue
        clicks.append(Click(sb, member, outcome))
        if clicks[-1].refused:
            return


async def open_game(sb: Sandbox, members: list[SimMember]) -> StoredMessage:
    host, *guests = members
    lobby = (await host.slash("qwixx", "start", variant="classic")).message
    for guest in guests:
        await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return await wait_for_turn(sb)


def always_pass(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
    return next((c for c in offered if c.text == "Pass"), offered[-1])


def unanswered(sb: Sandbox) -> list[int]:
    """Interactions never acknowledged, or deferred and never answered."""
    return [
        r.id
        for r in sb.server.world.interactions.values()
        if not r.acknowledged or (r.callback_type in DEFERRED and not r.answered)
    ]


async def test_sigterm_in_a_burst_of_clicks_answers_every_click_and_exits_0(tmp_path: Path) -> None:
    database = tmp_path / "qwixx.db"
    async with (
        Sandbox(**UNLIMITED, members=list(NAMES), settle=0.02, timeout=LONG) as sb,
        asyncio.timeout(LONG * 4),
    ):
        with (tmp_path / "bot.log").open("w") as log:
            first = BotProcess(sb, database, log)
            second = BotProcess(sb, database, log)
            try:
                await first.start("--hold-move", "8")
                members = [sb.member(name) for name in NAMES]
                await open_game(sb, members)
                clicks: list[Click] = []
                released = asyncio.Event()
                clicking = {
                    m.id: asyncio.create_task(keep_passing(sb, m, clicks, released))
                    for m in members
                }
                held = int((await first.line("held ")).split()[1])
                signalled = time.monotonic()
                first.signal(signal.SIGTERM)
                await first.line("stopping (SIGTERM)")
                await asyncio.gather(*(t for user, t in clicking.items() if user != held))
                asker = next(m for m in members if m.id != held)
                status = await asker.slash("qwixx", "status")
                released.set()
                first.signal(signal.SIGUSR1)
                code = await first.exited()
                took = time.monotonic() - signalled
                assert code == 0, "".join(first.lines[-30:])
                await clicking[held]
                stopped = await first.line("stopped in")
                assert took < STOP_WITHIN, f"{took:.1f} s"
                assert "cut short" not in stopped, stopped
                assert status.failed is None and RESTARTING in status.message.content
                assert all(c.outcome.failed is None for c in clicks)
                assert unanswered(sb) == []
                assert sb.failures == [], sb.describe_failures()
                refused = [c for c in clicks if c.refused]
                assert {c.member.id for c in refused} == {m.id for m in members} - {held}
                async with Store(database) as store:
                    stored = Counter(m.player_id for m in await store.games.moves(1))
                # A second Pass on the same turn and action repeats the choice: answered
                # again, kept once.
                passed = Counter(
                    member
                    for member, _ in {
                        (c.member.id, c.outcome.interaction.data.get("custom_id"))
                        for c in clicks
                        if c.passed
                    }
                )
                told = "\n".join(f"{c.member.name}: {c.said!r}" for c in clicks)
                assert stored == passed, told  # each answered pass is kept, nothing else is
                assert any(c.passed for c in clicks if c.member.id == held)
                answered = sum(passed.values())
                print(
                    f"\nstop: {took:.2f} s from SIGTERM to exit ({stopped.strip()}); "
                    f"{len(clicks)} clicks: {answered} passes answered and stored, "
                    f"{len(refused)} refused, {len(clicks) - answered - len(refused)} "
                    f"answered otherwise (not theirs to decide), 1 command refused"
                )

                await second.start()  # the game goes on from the store
                await play_to_end(sb, members, always_pass)
                final = final_message(sb)
                assert final is not None and "final scores" in final.content
                second.signal(signal.SIGTERM)
                assert await second.exited() == 0
                assert sb.failures == [], sb.describe_failures()
            finally:
                await first.stop()
                await second.stop()


# --- in process ------------------------------------------------------------------------


class Held:
    """A bot's moves (passes included), each held after its commit until released."""

    def __init__(self, bot: QwixxBot) -> None:
        self.reached = asyncio.Event()
        self.release = asyncio.Event()
        turns = bot.service.turns
        move = turns.move

        async def held(*args: Any, **kwargs: Any) -> Any:
            outcome = await move(*args, **kwargs)
            self.reached.set()
            await self.release.wait()
            return outcome

        turns.move = held  # type: ignore[method-assign]


def bot_of(sb: Sandbox) -> QwixxBot:
    assert isinstance(sb.bot, QwixxBot)
    return sb.bot


async def test_a_new_interaction_after_the_stop_began_is_refused(
    sb: Sandbox, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = bot_of(sb)
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    turn = await open_game(sb, [ana, ben, cem])
    hold = Held(bot)
    in_flight = asyncio.create_task(ben.click(turn, label="Pass"))
    await hold.reached.wait()
    with caplog.at_level(logging.INFO, logger="bot"):
        stopping = asyncio.create_task(bot.stop("test"))
        await sb.wait_for(lambda: bot.gate is not None and not bot.gate.open)
        refused = await cem.click(turn, label="Pass")
        sheet = await ana.click(turn, label=OPEN_SHEET)
        command = await ana.slash("qwixx", "sheet")
        assert not stopping.done()  # Ben's click is still being handled
        hold.release.set()
        answered = await in_flight
        await stopping
    for outcome in (refused, sheet, command):
        assert outcome.failed is None
        assert [m.content for m in outcome.ephemeral] == [RESTARTING]
    assert answered.failed is None and PASSED in answered.message.content
    async with Store(database) as store:
        moves = await store.games.moves(1)
    assert [m.player_id for m in moves] == [ben.id]  # Ben's pass, and nothing of Cem's
    said = [r.getMessage() for r in caplog.records if r.name == "bot.app"]
    assert any(
        s.startswith("stopping (test): new interactions are refused; 1 being handled") for s in said
    ), said
    assert any(
        s.startswith("stopped in ") and "1 interactions finished, 3 refused" in s for s in said
    ), said
    assert bot.store is None and bot.is_closed()


async def test_a_stop_cuts_short_what_outlives_its_limit(
    sb: Sandbox, caplog: pytest.LogCaptureFixture
) -> None:
    bot = bot_of(sb)
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await open_game(sb, [ana, ben])
    hold = Held(bot)  # never released
    in_flight = asyncio.create_task(ben.click(turn, label="Pass"))
    await hold.reached.wait()
    bot.stop_wait = 0.5
    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="bot"):
        await bot.stop("test")
    assert time.monotonic() - started < 5.0
    in_flight.cancel()
    cut = [r.getMessage() for r in caplog.records if "cut short" in r.getMessage()]
    assert len(cut) == 1 and "(qx:1:1:" in cut[0], cut
    assert bot.store is None and bot.is_closed()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_signal_before_the_bot_is_connected_ends_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord cannot be reached and the bot waits to try again: SIGTERM ends the wait."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    bot = QwixxBot(tmp_path / "q.db")

    async def sleep(seconds: float) -> None:
        if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, signal.SIG_IGN, None):
            pytest.skip("no signal handler here (not the main thread)")
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(LONG)  # ended by the signal

    with caplog.at_level(logging.INFO, logger="bot"):
        await asyncio.wait_for(cli.serve(bot, "token", sleep), LONG)
    said = [r.getMessage() for r in caplog.records]
    assert "SIGTERM: stopping before the bot was connected" in said
    assert bot.is_closed() and bot.store is None
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handlers are gone


HANGING = """
import asyncio, logging
import bot.__main__ as cli
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
cli.STOP_WITHIN = 0.5

class Hanging:  # a bot whose stop never ends
    stage = "closing the store"
    gate = None

    async def stop(self, reason):
        await asyncio.Event().wait()

async def main():
    stopper = cli.Stopper(Hanging(), asyncio.current_task())
    stopper.starting = None  # connected
    stopper.received("SIGTERM")
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def test_a_stop_that_hangs_ends_the_process_at_the_deadline() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HANGING,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(), LONG)
    assert process.returncode == 1, output.decode()
    assert "still stopping after 0.5 s (closing the store): exiting anyway" in output.decode()
