"""A game played live once everyone at the table asks, slow again at anyone's word, told
in the channel; the server's live turn time in /qwixx settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox import GuildSpec, Sandbox
from bot.sandbox.autoplay import wait_for_turn
from tests.fakes import FakeClock

from .clocked import clocked


@pytest.fixture
async def sb(database: Path, clock: FakeClock) -> AsyncIterator[Sandbox]:
    guild = GuildSpec(channels=("general",))
    async with clocked(database, clock, guild, ["Ana", "Ben", "Cem"]) as sandbox:
        yield sandbox


async def test_everyone_asks_the_game_turns_live_and_anyone_slows_it(
    sb: Sandbox, clock: FakeClock
) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    for member in (ben, cem):
        await member.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb)
    asked = (await ana.slash("qwixx", "pace", mode="live")).message
    assert asked.ephemeral and "once everyone at the table asks" in asked.content
    await sb.wait_for_message(lambda m: "asked to play live (10m a decision)" in m.content)
    await ben.slash("qwixx", "pace", mode="live")
    live = (await cem.slash("qwixx", "pace", mode="live")).message
    assert live.ephemeral and live.content == "The game is live now: 10m a decision."
    await sb.wait_for_message(lambda m: "Everyone asked: the game is live, 10m" in m.content)
    again = (await ben.slash("qwixx", "pace", mode="live")).message
    assert again.ephemeral and "live already" in again.content
    slow = (await ben.slash("qwixx", "pace", mode="slow")).message
    assert slow.content == "The game is slow again: 24h a decision."
    await sb.wait_for_message(lambda m: "slowed the game down: 24h a decision" in m.content)
