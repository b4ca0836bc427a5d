"""Leaderboard, stats and history through the real bot and the local Discord stand-in.

Games are played quickly: everyone always passes, so the active player takes a
penalty each turn and the host (active first) reaches four penalties on turn 7.
The host scores -20, the other player -15 and wins: figures the test can predict.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest

from bot.app import QwixxBot
from bot.i18n.words import t
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import Choice, play_to_end, wait_for_turn
from bot.sandbox.records import ChannelRecord, StoredMessage

from .conftest import SEED, UNLIMITED, fast_budget


def always_pass(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
    return next((c for c in offered if c.text == "Pass"), offered[-1])


def make_bot(database: Path) -> QwixxBot:
    """Commands synced globally, so that every guild of the stand-in has them."""
    return QwixxBot(database, seeds=lambda: SEED, coalesce=0.05, budget=fast_budget())


@pytest.fixture
async def sb(database: Path) -> AsyncIterator[Sandbox]:
    alpha = GuildSpec("Alpha", channels=("one", "two", "three", "four"))
    async with Sandbox(
        **UNLIMITED, guilds=[alpha, GuildSpec("Beta")], members=["Ana", "Ben", "Cem"], settle=0.02
    ) as sandbox:
        await sandbox.run_bot(make_bot(database))
        yield sandbox
        assert sandbox.failures == [], sandbox.describe_failures()


async def quick_game(
    sb: Sandbox,
    host: SimMember,
    guest: SimMember,
    channel: ChannelRecord | None = None,
    *,
    reviewed: bool = True,
) -> StoredMessage:
    """A classic game of two members who always pass, played to its end; with
    ``reviewed``, once its final scoreboard shows their accuracies too (the one edit
    that follows the end), so that nothing of the game changes afterwards."""
    lobby = (await host.slash("qwixx", "start", variant="classic", in_channel=channel)).message
    await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    await wait_for_turn(sb, channel)
    final = await play_to_end(sb, [host, guest], always_pass, channel)
    if reviewed:
        await sb.wait_for(lambda: "🎯" in sb.server.world.messages[final.id].content)
    return sb.server.world.messages[final.id]


def alt_text(message: StoredMessage) -> str:
    [image] = message.attachments
    assert image.filename == "leaderboard.png" and image.image().format == "PNG"
    return image.description or ""


def field_values(message: StoredMessage) -> dict[str, str]:
    [embed] = message.embeds
    return {f["name"]: f["value"] for f in embed["fields"]}


async def test_leaderboard_stats_and_history_of_one_server(sb: Sandbox, database: Path) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    beta = sb.guilds[1]
    eve, fay = sb.member("Eve", guild=beta), sb.member("Fay", guild=beta)
    beta_channel = sb.server.world.channels[beta.channel_ids[0]]

    empty = (await ana.slash("qwixx", "leaderboard")).message
    assert empty.ephemeral and "No finished games" in empty.content

    # one channel per game: autoplay looks for the channel's final scores
    one, two, three, four = (sb.channel_named(n) for n in ("one", "two", "three", "four"))
    first = await quick_game(sb, ana, ben, one)  # Ben wins
    assert f"1. <@{ben.id}> — −15" in first.content  # a minus sign, not a dash
    second = await quick_game(sb, ben, ana, two)  # Ana wins
    await quick_game(sb, ana, cem, three)  # Cem wins
    await quick_game(sb, eve, fay, beta_channel)  # another server: Fay wins
    lobby = (await ana.slash("qwixx", "start", variant="classic", in_channel=four)).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb, four)
    await ana.slash("qwixx", "abandon", in_channel=four)  # abandoned: never counted

    # everyone has one win: one shared first place, better win rate shown first
    board = (await ben.slash("qwixx", "leaderboard")).message
    assert board.ephemeral
    assert board.content.splitlines() == [
        "🏆 **All games** leaderboard · all time · by wins",
        t("leaderboard.ties_average"),
    ]  # ties: stated keys
    assert alt_text(board).splitlines() == [
        "All games leaderboard, all time, by wins:",
        "1. Cem: games 1, wins 1 (100%), average -15.0, best -15",
        "1. Ben: games 2, wins 1 (50%), average -17.5, best -15",
        "1. Ana: games 3, wins 1 (33%), average -18.3, best -15",
        "Win rate and average rank only players with at least 3 games.",
    ]
    # a rate sort ranks only Ana (3 games); Ben sees his own line, unranked
    rate = (
        await ben.slash("qwixx", "leaderboard", sort="rate", period="week", variant="classic")
    ).message
    assert rate.content.splitlines()[0] == "🏆 **Qwixx** leaderboard · this week · by win rate"
    assert alt_text(rate).splitlines()[1:] == [
        "1. Ana: games 3, wins 1 (33%), average -18.3, best -15",
        "–. Ben: games 2, wins 1 (50%), average -17.5, best -15",
        "Win rate and average rank only players with at least 3 games. "
        "2 with fewer than 3 games not ranked.",
    ]
    other = (await eve.slash("qwixx", "leaderboard", sort="best")).message
    assert [line.split(":")[0] for line in alt_text(other).splitlines()[1:-1]] == [
        "1. Fay",
        "2. Eve",
    ]

    await cast(QwixxBot, sb.bot).publisher.reviewed()  # the games' accuracies kept
    stats = (await ana.slash("qwixx", "stats", user=ben)).message
    assert stats.ephemeral and stats.embeds[0]["title"] == "📊 Ben on this server"
    fields = {name: value.splitlines() for name, value in field_values(stats).items()}
    figures = [
        "Games **2** · Wins **1** (50%) · Average **-17.5** · Best **-15**",
        "Last 2 games: −20 · −15",
    ]
    assert fields.keys() == {"All games", "Qwixx"}
    assert fields["All games"][:2] == fields["Qwixx"][:2] == figures
    accuracy = fields["Qwixx"][2]  # the average of his two games' accuracies
    assert re.fullmatch(r"Accuracy \*\*\d{1,3}%\*\* over 2 reviewed games", accuracy)
    assert fields["All games"][2:] == [accuracy]  # one variant: the same average
    # the rating his last game's final message told, still provisional
    told = re.search(rf"<@{ben.id}> — −?\d+ · rating (\d+\?) \(", second.content)
    assert told is not None
    assert fields["Qwixx"][3:] == [f"Rating **{told[1]}** after 2 rated games"]
    footer = stats.embeds[0]["footer"]["text"]
    assert "Accuracy: how close" in footer and "? provisional under 5 rated games" in footer
    assert "everyone starts at 1500" in footer
    mine = (await fay.slash("qwixx", "stats")).message
    assert field_values(mine)["All games"].startswith("Games **1** · Wins **1** (100%)")
    nobody = (await cem.slash("qwixx", "stats", user=sb.member("Dan"))).message
    assert "has no finished games on this server" in nobody.content

    history = (await cem.slash("qwixx", "history")).message
    lines = history.embeds[0]["description"].splitlines()
    assert len(lines) == 3  # the abandoned game is not there; nor Beta's
    assert f"🏆 <@{cem.id}> -15 · <@{ana.id}> -20" in lines[0]
    assert f"🏆 <@{ana.id}> -15 · <@{ben.id}> -20" in lines[1]
    assert f"🏆 <@{ben.id}> -15 · <@{ana.id}> -20" in lines[2]
    assert history.labels == ["Sheets 1", "Sheets 2", "Sheets 3", "Share"]
    own = (await cem.slash("qwixx", "history", user=ben)).message
    assert len(own.embeds[0]["description"].splitlines()) == 2

    # the button survives a restart of the bot
    await sb.stop_bot()
    await sb.run_bot(make_bot(database))
    sheets = await cem.click(history, label="Sheets 3")
    [answer] = sheets.ephemeral
    assert "final sheets" in answer.content and f"<@{ben.id}>" in answer.content
    assert [a.filename for a in answer.attachments] == ["scoreboard.png"]
    beta_history = (await fay.slash("qwixx", "history")).message
    assert len(beta_history.embeds[0]["description"].splitlines()) == 1
    assert f"<@{ana.id}>" not in beta_history.embeds[0]["description"]
