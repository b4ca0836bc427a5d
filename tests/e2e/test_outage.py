"""Discord away for an hour, then back (benchmarks/outage.py plays it): deadlines still
fire while it is away, the bot does not hammer it, and once it is back every lagging
channel is caught up, the one that lagged longest first (after a restart of the bot
during the outage too), within the write budget, with one summary of the turns it
missed rather than a line (or a message) per turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.outage import TICK, outage


@pytest.mark.parametrize(("channels", "end_sessions", "restart", "reconnect"),
                         [(20, True, False, "identified"), (4, False, False, "resumed"),
                          (8, True, True, "identified")])
async def test_channels_are_caught_up_after_an_hour_without_discord(
        database: Path, channels: int, end_sessions: bool, restart: bool,
        reconnect: str) -> None:
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
