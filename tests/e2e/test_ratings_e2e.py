"""The leaderboard by skill rating through the real bot and the local Discord stand-in."""

from __future__ import annotations

import re
from pathlib import Path

from bot.sandbox import Sandbox

from .test_stats_e2e import alt_text, quick_game, sb

__all__ = ["sb"]  # the stand-in with two servers, from the statistics' tests


async def test_the_rating_leaderboard(sb: Sandbox, database: Path) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    empty = (await ana.slash("qwixx", "leaderboard", sort="rating")).message
    assert empty.ephemeral and "No counted games to rate on this server yet" in empty.content
    unknown = (await ana.slash("qwixx", "leaderboard", sort="rating", variant="qwinto")).message
    assert "No rated games of Qwinto on this server yet" in unknown.content

    one, two = sb.channel_named("one"), sb.channel_named("two")
    first = await quick_game(sb, ana, ben, one)  # Ben wins
    won = re.search(rf"1\. <@{ben.id}> — −15 · rating (1\d\d\d)\? \(\+(\d+)\)", first.content)
    lost = re.search(rf"2\. <@{ana.id}> — −20 · rating (1\d\d\d)\? \(−(\d+)\)", first.content)
    assert won and lost  # both from 1500, provisional: up for the win, down for the loss
    assert int(won[1]) == 1500 + int(won[2]) > 1500 > int(lost[1]) == 1500 - int(lost[2])
    second = await quick_game(sb, ana, cem, two)  # Cem wins
    told = dict(re.findall(r"<@(\d+)> — −?\d+ · rating (\d+\?)", second.content))

    board = (await ana.slash("qwixx", "leaderboard", sort="rating")).message
    assert board.content.splitlines() == ["🏆 **Qwixx** leaderboard · all time · by rating"]
    lines = alt_text(board).splitlines()
    assert lines[0] == "Qwixx leaderboard, all time, by rating:"
    # Cem beat an Ana already rated below the start: a smaller gain than Ben's
    assert [line.split(":")[0] for line in lines[1:4]] == ["1. Ben", "2. Cem", "3. Ana"]
    assert all("(provisional)" in line for line in lines[1:4])
    assert lines[3].endswith("games 2") and lines[1].endswith("games 1")
    assert lines[-1].startswith("Rating: ")
    # the numbers the final messages told, each person's last
    assert lines[1:4] == [
        f"1. Ben: rating {won[1]}? (provisional), games 1",
        f"2. Cem: rating {told[str(cem.id)]} (provisional), games 1",
        f"3. Ana: rating {told[str(ana.id)]} (provisional), games 2",
    ]
    assert board.labels == ["Share"]
    shared = await ana.click(board, label="Share")
    [posted] = [m for m in shared.messages if not m.ephemeral] or [sb.messages()[-1]]
    assert "by rating" in posted.content

    week = (await cem.slash("qwixx", "leaderboard", sort="rating", period="week")).message
    assert week.content.splitlines()[1] == (
        "Ratings take in every game since the first, so this one is all time."
    )
    assert f"2. Cem: rating {told[str(cem.id)]} (provisional), games 1" in alt_text(week)
