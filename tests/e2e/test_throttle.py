"""Clicks far faster than a person makes them, through the real bot and the stand-in:
a member's burst is answered calmly within Discord's 3 seconds and goes no further,
while another member's click goes through."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import QwixxBot
from bot.cogs.throttle import BURST, ClickBuckets
from bot.sandbox import GuildSpec, Sandbox

from .conftest import SEED, UNLIMITED, fast_budget

SLOW_DOWN = "Slow down a little: your clicks are coming faster than the bot takes them."


@pytest.fixture
async def throttled(tmp_path: Path) -> AsyncIterator[tuple[Sandbox, QwixxBot]]:
    async with Sandbox(
        guilds=[GuildSpec(channels=("general",))], members=["Ana", "Ben"], **UNLIMITED, settle=0.02
    ) as sandbox:
        bot = QwixxBot(
            tmp_path / "qwixx.db",
            dev_guild=sandbox.guild.id,
            seeds=lambda: SEED,
            coalesce=0.05,
            budget=fast_budget(),
            clicks=ClickBuckets(refill=600.0),
        )  # no refill during the burst
        await sandbox.run_bot(bot)
        yield sandbox, bot
        assert sandbox.failures == [], sandbox.describe_failures()


async def test_a_burst_is_slowed_down_politely_another_member_goes_through(
    throttled: tuple[Sandbox, QwixxBot],
) -> None:
    sb, bot = throttled
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    assert bot.throttle is not None
    handed_on: list[dict[str, Any]] = []
    parse = bot.throttle._parse

    def counted(data: dict[str, Any]) -> None:
        handed_on.append(data)
        parse(data)

    bot.throttle._parse = counted
    burst = await asyncio.gather(*(ana.click(lobby, label="Join") for _ in range(BURST + 5)))
    answers = [outcome.message.content for outcome in burst]
    slowed = [a for a in answers if a.startswith(SLOW_DOWN)]
    assert len(slowed) == 6 and bot.throttle.throttled == 6  # /qwixx start took a token
    assert all("already in this game" in a for a in answers if a not in slowed)
    assert len(handed_on) == len(burst) - len(slowed)  # the rest never reached the bot
    for outcome in burst:  # each answered, privately, within Discord's 3 seconds
        record = outcome.interaction
        assert not outcome.failed and outcome.message.ephemeral
        assert record.acknowledged_at is not None
        assert record.acknowledged_at - record.created_at < 3.0
    joined = await ben.click(lobby, label="Join")
    assert f"<@{ben.id}>" in joined.message.content and "(2/5)" in joined.message.content
