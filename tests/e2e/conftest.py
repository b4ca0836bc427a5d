"""The real bot against the local Discord stand-in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import QwixxBot
from bot.channel.budget import WriteBudget
from bot.sandbox import GuildSpec, Sandbox
from tests.fakes import FakeClock

SEED = 20261126
# These tests play as fast as clicks go, far faster than Discord lets a channel be
# written; the sandboxes they use turn the stand-in's write limit off. The budget
# itself is tested in test_channel.py, with the limit on.
UNLIMITED = {"write_limit": False}


def fast_budget() -> WriteBudget:
    return WriteBudget(writes=10_000, window=1.0)


def make_bot(
    database: str | Path, sb: Sandbox, seed: int = SEED, coalesce: float = 0.05, **settings: Any
) -> QwixxBot:
    """The bot on ``database`` for ``sb``'s server, every game on ``seed``, with the
    write budget these tests play at (``settings``: the rest of QwixxBot's, e.g. ``tick``)."""
    return QwixxBot(
        database,
        dev_guild=sb.guild.id,
        seeds=lambda: seed,
        coalesce=coalesce,
        budget=fast_budget(),
        **settings,
    )


async def started(sb: Sandbox, database: Path) -> QwixxBot:
    """The bot started on ``database``, once it has done with the dice's emojis (their
    uploads at start-up are not a test's requests to count)."""
    bot = make_bot(database, sb)
    await sb.run_bot(bot)
    await sb.wait_for(lambda: bot.dice_emojis.task is not None and bot.dice_emojis.task.done())
    return bot


@pytest.fixture
def clock() -> FakeClock:
    """The time of a bot made with ``clock=clock``: it moves only when the test moves it
    (a module of tests on a given date has its own)."""
    return FakeClock()


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "qwixx.db"


@pytest.fixture
async def sb(database: Path) -> AsyncIterator[Sandbox]:
    """A sandbox with four members and two channels, and the bot logged in."""
    guild = GuildSpec(channels=("general", "games"))
    async with Sandbox(
        guilds=[guild], members=["Ana", "Ben", "Cem", "Dan"], **UNLIMITED, settle=0.02
    ) as sandbox:
        await started(sandbox, database)
        yield sandbox
        assert sandbox.failures == [], sandbox.describe_failures()
