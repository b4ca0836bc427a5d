"""The leaderboard by skill rating through the real bot and the local Discord stand-in."""

from __future__ import annotations

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
    assert f"1. <@{ben.id}> — −15 · rating " in first.content
    assert f"2. <@{ana.id}> — −20 · rating −" in first.content  # a loss, from 0
    await quick_game(sb, ana, cem, two)  # Cem wins

    board = (await ana.slash("qwixx", "leaderboard", sort="rating")).message
    assert board.content.splitlines() == ["🏆 **Qwixx** leaderboard · all time · by rating"]
    lines = alt_text(board).splitlines()
    assert lines[0] == "Qwixx leaderboard, all time, by rating:"
    # Cem beat an Ana already rated below the start: a smaller gain than Ben's
    assert [line.split(":")[0] for line in lines[1:4]] == ["1. Ben", "2. Cem", "3. Ana"]
    assert all("(provisional)" in line for line in lines[1:4])
    assert lines[3].endswith("games 2") and lines[1].endswith("games 1")
    assert lines[-1].startswith("Rating: ")
    assert board.labels == ["Share"]
    shared = await ana.click(board, label="Share")
    [posted] = [m for m in shared.messages if not m.ephemeral] or [sb.messages()[-1]]
    assert "by rating" in posted.content

    week = (await cem.slash("qwixx", "leaderboard", sort="rating", period="week")).message
    assert week.content.splitlines()[1] == (
        "Ratings take in every game since the first, so this one is all time."
    )
    assert "2. Cem: rating 323 (provisional), games 1" in alt_text(week)
