"""Discord away for an hour, then back (benchmarks/outage.py plays it): deadlines still
fire while it is away, the bot does not hammer it, and once it is back every lagging
channel is caught up, the one that lagged longest first (after a restart of the bot
during the outage too), within the write budget, with one summary of the turns it
missed rather than a line (or a message) per turn."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from benchmarks.outage import START, TICK, outage
from bot.app import QwixxBot
from bot.channel.publisher import Publisher
from bot.sandbox import GuildSpec, Sandbox

from .conftest import make_bot


@pytest.mark.parametrize(
    ("channels", "end_sessions", "restart", "reconnect"),
    [(20, True, False, "identified"), (4, False, False, "resumed"), (8, True, True, "identified")],
)
async def test_channels_are_caught_up_after_an_hour_without_discord(
    database: Path, channels: int, end_sessions: bool, restart: bool, reconnect: str
) -> None:
    result = await outage(channels, database, end_sessions=end_sessions, restart=restart)

    assert result.failures == []
    assert result.minutes_away >= 60
    assert min(result.missed_turns.values()) > 10  # many turns, all while Discord was away
    # While away: at most one failed write per tick (the catch-up stops at the first),
    # besides the deadlines that fired before the first failure said Discord was away.
    assert result.failed_requests <= result.seconds_away / TICK + channels
    # Back: the gateway came back as it should, and every channel shows its game's end.
    assert result.reconnect == reconnect
    assert result.lagging_after == 0
    assert result.ended == channels
    assert result.rate_limited == 0
    # Oldest first, which here is not the order of the games' ids: a new bot reads it
    # from the store.
    assert result.order == result.oldest_first
    assert result.oldest_first != sorted(result.oldest_first)
    # One summary per channel, no line per turn: the old turn's edit, the summary, the end.
    assert set(result.summaries.values()) == {1}
    assert result.turn_lines == 0
    assert max(result.posts.values()) == 2
    assert max(result.writes.values()) <= 3
    assert result.untold == []  # every penalty, lock and failed throw is in its channel


async def test_turns_a_stopped_bot_never_showed_count_as_missed_at_the_next_start(
    database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that stopped (or was killed) between storing a change and showing it: the
    next one's first catch-up hands the channel's plan a record that says since when
    the channel was behind (``behind_since``), and the write that shows it clears it."""
    planned: list[tuple[int, float | None]] = []
    project = Publisher.project

    async def spy(self: Publisher, record: Any, *args: Any) -> Any:
        planned.append((record.id, record.behind_since))
        return await project(self, record, *args)

    monkeypatch.setattr(Publisher, "project", spy)
    now = [START]
    async with Sandbox(members=["Ana"], settle=0.02) as sb:

        def bot() -> QwixxBot:  # one catch-up at its start, the next an hour later
            return make_bot(database, sb, seed=7, clock=lambda: now[0], tick=3600)

        await sb.run_bot(bot())
        service = sb.bot.service  # type: ignore[union-attr]
        ana = sb.member("Ana").id
        lobby = await service.lobby.open(sb.guild.id, sb.guild.channel_ids[0], ana, "classic")
        await service.lobby.add_computer(lobby.id, ana)
        await service.lobby.start(lobby.id, ana)  # stored, never shown by this bot
        await sb.stop_bot()
        assert planned == []

        now[0] += 60
        await sb.run_bot(bot())
        service = sb.bot.service  # type: ignore[union-attr]
        async with asyncio.timeout(sb.timeout):
            while await service.keeper.lagging():
                await asyncio.sleep(0.01)
        assert planned == [(lobby.id, now[0])]
        assert (await service.keeper.read(lobby.id)).record.behind_since is None
        assert sb.failures == [], sb.describe_failures()


async def test_a_review_leaves_a_channel_behind_since_an_outage_to_the_catch_up(
    database: Path,
) -> None:
    """The reviews of games that ended while Discord was away are done after a restart,
    beside the catch-up: showing their accuracies at once would write those channels
    out of the catch-up's order, so a channel behind since an outage waits for it; one
    that is not is shown at once."""
    async with Sandbox(members=["Ana"], guilds=[GuildSpec(channels=("a", "b"))], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb, seed=7, tick=3600))
        bot: Any = sb.bot
        service, ana = bot.service, sb.member("Ana").id
        games = []
        for channel in sb.guild.channel_ids:  # stored, not shown (no catch-up for an hour)
            lobby = await service.lobby.open(sb.guild.id, channel, ana, "classic")
            await service.lobby.add_computer(lobby.id, ana)
            games.append((await service.lobby.start(lobby.id, ana)).record.id)
        behind = games[0]
        await service.keeper.mark_behind(behind)

        for game in games:
            await bot.timers._show_review(game)
        assert await service.keeper.lagging() == [behind]
        await bot.publisher.catch_up()
        assert await service.keeper.lagging() == []
        assert sb.failures == [], sb.describe_failures()
