"""The bot on a fake clock in a sandbox, as the end-to-end tests of time (turn times,
quiet hours, time away, live play) start it: its timers look once an hour, and a test
moves the clock and ticks them itself."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from bot.app import QwixxBot
from bot.sandbox import GuildSpec, Sandbox
from tests.fakes import FakeClock

from .conftest import UNLIMITED, make_bot


def timed_bot(
    database: Path, sb: Sandbox, clock: FakeClock, seed: int = 99, coalesce: float = 0.05
) -> QwixxBot:
    """The bot for ``sb``'s server on ``clock``, every game on ``seed``."""
    return make_bot(database, sb, seed, clock=clock, tick=3600, coalesce=coalesce)


@asynccontextmanager
async def clocked(
    database: Path,
    clock: FakeClock,
    guild: GuildSpec,
    members: Sequence[str],
    seed: int = 99,
) -> AsyncIterator[Sandbox]:
    """A sandbox of ``guild`` and ``members`` with :func:`timed_bot` logged in; at the
    end, no request the bot made may have failed."""
    async with Sandbox(**UNLIMITED, guilds=[guild], members=list(members), settle=0.02) as sandbox:
        await sandbox.run_bot(timed_bot(database, sandbox, clock, seed))
        yield sandbox
        assert sandbox.failures == [], sandbox.describe_failures()


def bot(sb: Sandbox) -> QwixxBot:
    """The bot ``sb`` runs."""
    assert isinstance(sb.bot, QwixxBot)
    return sb.bot
