"""Members' data through the real bot and the local Discord stand-in: a server that
removes the bot keeps its data for the grace period, and loses it after."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.sandbox import ActionOutcome, GuildSpec, Sandbox, SimMember, payloads
from bot.sandbox.autoplay import Choice, play_to_end, wait_for_turn
from bot.sandbox.records import ChannelRecord, StoredMessage
from tests.fakes import FakeClock

from .conftest import SEED, UNLIMITED, fast_budget

DAY = 86400


def always_pass(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
    return next((c for c in offered if c.text == "Pass"), offered[-1])


@pytest.fixture
def bot(database: Path, clock: FakeClock) -> QwixxBot:
    """Commands synced globally, so that every guild of the stand-in has them; the
    timers tick every 50 ms on ``clock``."""
    return QwixxBot(
        database,
        seeds=lambda: SEED,
        coalesce=0.05,
        budget=fast_budget(),
        clock=clock,
        tick=0.05,
        forget_after=30 * DAY,
    )


@pytest.fixture
async def sb(bot: QwixxBot) -> AsyncIterator[Sandbox]:
    async with Sandbox(
        **UNLIMITED,
        guilds=[GuildSpec("Alpha"), GuildSpec("Beta")],
        members=["Ana", "Ben"],
        settle=0.02,
    ) as sandbox:
        await sandbox.run_bot(bot)
        yield sandbox
        assert sandbox.failures == [], sandbox.describe_failures()


async def quick_game(
    sb: Sandbox, host: SimMember, guest: SimMember, channel: ChannelRecord | None = None
) -> StoredMessage:
    lobby = (await host.slash("qwixx", "start", variant="classic", in_channel=channel)).message
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    await wait_for_turn(sb, channel)
    final = await play_to_end(sb, [host, guest], always_pass, channel)
    # The review's accuracies are added to the final message once worked out: wait for
    # that edit, so that it is not taken for part of a later answer.
    await sb.wait_for(lambda: "🎯" in sb.server.world.messages[final.id].content)
    return sb.server.world.messages[final.id]


async def rows_of(bot: QwixxBot, guild_id: int) -> tuple[int, int]:
    """The server's games, and whether the bot marked it as left."""
    assert bot.store is not None
    games = await bot.store.engine.fetch(
        "SELECT COUNT(*) FROM games WHERE guild_id = ?", (guild_id,)
    )
    left = await bot.store.engine.fetch(
        "SELECT COUNT(*) FROM departed_guilds WHERE guild_id = ?", (guild_id,)
    )
    return int(games[0][0]), int(left[0][0])


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.05)


async def test_a_server_that_removes_the_bot_loses_its_data_after_the_grace_period(
    sb: Sandbox, bot: QwixxBot, clock: FakeClock
) -> None:
    alpha, beta = sb.guilds
    await quick_game(sb, sb.member("Ana"), sb.member("Ben"))
    eve, fay = sb.member("Eve", guild=beta), sb.member("Fay", guild=beta)
    await quick_game(sb, eve, fay, sb.server.world.channels[beta.channel_ids[0]])
    gateway = sb.server.gateway

    # Removed, and invited back within the grace period: everything stays.
    await gateway.dispatch("GUILD_DELETE", {"id": str(alpha.id)})
    await eventually(lambda: same(rows_of(bot, alpha.id), (1, 1)))
    clock.now += 29 * DAY
    joined = payloads.guild(sb.server.world, alpha)
    joined.pop("unavailable", None)  # a server joined, not one coming back from an outage
    await gateway.dispatch("GUILD_CREATE", joined)
    await eventually(lambda: same(rows_of(bot, alpha.id), (1, 0)))
    clock.now += 5 * DAY
    await asyncio.sleep(0.3)  # several ticks of the timers
    assert await rows_of(bot, alpha.id) == (1, 0)

    # Removed for good: once 30 days are over, the timers delete the server's rows.
    await gateway.dispatch("GUILD_DELETE", {"id": str(alpha.id)})
    await eventually(lambda: same(rows_of(bot, alpha.id), (1, 1)))
    clock.now += 30 * DAY - 60
    await asyncio.sleep(0.3)
    assert await rows_of(bot, alpha.id) == (1, 1)
    clock.now += 120
    await eventually(lambda: same(rows_of(bot, alpha.id), (0, 0)))
    assert await rows_of(bot, beta.id) == (1, 0)


async def same(value: Awaitable[tuple[int, int]], expected: tuple[int, int]) -> bool:
    return await value == expected


def said(outcome: ActionOutcome) -> str:
    """Everything the member was answered, privately."""
    assert all(m.ephemeral for m in outcome.messages), "answers only the member"
    return "\n".join(m.content for m in outcome.messages)


async def test_privacy_then_forget_me_after_leaving_the_lobby(sb: Sandbox, bot: QwixxBot) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    await quick_game(sb, ana, ben)
    shown = said(await ana.slash("qwixx", "privacy"))
    assert "What this bot keeps about you" in shown and "**Alpha**" in shown
    assert "Your display name, written on the game images: Ana" in shown
    assert "Games you sat in: 1" in shown and "after 30 days" in shown
    assert "forget-me" in shown

    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    question = (await ana.slash("qwixx", "forget-me")).message
    assert question.ephemeral and "Forget you on every server?" in question.content
    kept = await ana.click(question, label="Back")
    assert "Nothing changed." in kept.message.content
    question = (await ana.slash("qwixx", "forget-me")).message
    refused = await ana.click(question, label="Yes")
    assert f"You still play in <#{sb.channel.id}>" in refused.message.content
    await ana.click(lobby, label="Cancel")

    question = (await ana.slash("qwixx", "forget-me")).message
    done = await ana.click(question, label="Yes")
    assert "Done: you are forgotten" in done.message.content and "2 games" in done.message.content
    assert done.message.components == []
    assert bot.store is not None
    for (table,) in await bot.store.engine.fetch(
        "SELECT name FROM sqlite_master WHERE type = 'table'", ()
    ):
        for row in await bot.store.engine.fetch(f'SELECT * FROM "{table}"', ()):
            assert str(ana.id) not in str(row) and "'Ana'" not in str(row), (table, row)
    assert "keeps nothing about you" in said(await ana.slash("qwixx", "privacy"))
    assert "Games you sat in: 1" in said(await ben.slash("qwixx", "privacy"))


async def test_privacy_in_another_language(sb: Sandbox) -> None:
    ana = sb.member("Ana", locale="de")
    shown = said(await ana.slash("qwixx", "privacy"))
    assert "Dieser Bot speichert nichts über dich" in shown
