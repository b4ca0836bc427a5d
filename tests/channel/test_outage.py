"""Since when Discord has not answered the channel's writes."""

from __future__ import annotations

import logging

import pytest

from bot.channel.outage import Outage
from tests.fakes import FakeClock


def test_an_unreachable_discord_is_remembered_from_its_first_failure() -> None:
    clock = FakeClock(100.0)
    outage = Outage(clock)
    outage.failed(ConnectionError("no route"))
    clock.tick(30)
    outage.failed(TimeoutError())
    assert outage.since == 100.0


def test_a_refused_write_is_no_outage() -> None:
    outage = Outage(FakeClock())
    outage.failed(ValueError("a missing permission"))
    assert outage.since is None


def test_a_write_that_goes_through_ends_it_and_says_how_long_it_lasted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock(100.0)
    outage = Outage(clock)
    outage.failed(ConnectionError("no route"))
    clock.tick(45)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bot.channel.outage"):
        outage.reached()
        outage.reached()  # said once
    assert outage.since is None
    assert [r.getMessage() for r in caplog.records] == [
        "Discord answers again, after 45 s; the lagging channels are caught up"
    ]
