"""The click throttle at unit level: a token bucket per member, kept for a bounded
number of members; a throttled interaction never reaches the parser behind it."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from bot.cogs.throttle import BURST, REFILL, ClickBuckets, Throttle, member_of
from tests.fakes import FakeClock

ANA, BEN = 101, 102


def click(member: int, kind: int = 3, in_guild: bool = True) -> dict[str, Any]:
    user = {"id": str(member)}
    return {"id": "1", "type": kind, **({"member": {"user": user}} if in_guild else {"user": user})}


def test_ten_at_once_then_one_every_half_second() -> None:
    assert (BURST, REFILL) == (10, 5.0)
    clock: FakeClock = FakeClock(0.0)
    buckets = ClickBuckets(clock=clock)
    assert [buckets.take(ANA) for _ in range(11)] == [True] * 10 + [False]
    assert buckets.take(BEN)  # another member's bucket is full
    clock.now += 0.49
    assert not buckets.take(ANA)  # a refused click takes nothing ...
    clock.now += 0.01
    assert buckets.take(ANA) and not buckets.take(ANA)  # ... and half a second gives one
    clock.now += 60
    assert sum(buckets.take(ANA) for _ in range(20)) == 10  # never more than the burst


def test_a_person_clicking_briskly_is_never_held_back() -> None:
    clock: FakeClock = FakeClock(0.0)
    buckets = ClickBuckets(clock=clock)
    for _ in range(200):  # two clicks a second for over a minute
        assert buckets.take(ANA)
        clock.now += 0.5


def test_the_members_kept_are_bounded_the_longest_unseen_dropped_first() -> None:
    clock: FakeClock = FakeClock(0.0)
    buckets = ClickBuckets(burst=2, kept=3, clock=clock)
    for member in (1, 2, 3):
        buckets.take(member)
    buckets.take(1)  # seen again: now the most recent
    buckets.take(4)  # one too many: 2, unseen longest, goes
    assert len(buckets) == 3
    assert not buckets.take(1)  # 1's bucket was kept (empty)
    assert buckets.take(2) and buckets.take(2)  # 2 starts again with a full bucket
    assert len(buckets) == 3


def test_wrong_buckets_are_refused() -> None:
    for wrong in ({"burst": 0}, {"refill": 0.0}, {"kept": 0}):
        with pytest.raises(ValueError):
            ClickBuckets(**wrong)  # type: ignore[arg-type]


def test_the_member_is_read_in_a_server_and_in_a_dm() -> None:
    assert member_of(click(ANA)) == ANA
    assert member_of(click(BEN, in_guild=False)) == BEN
    assert member_of({"id": "1", "type": 3}) is None


class Recording(Throttle):
    """A throttle in front of a parser that keeps what it is handed, noting whom it
    would tell to slow down."""

    def __init__(self, buckets: ClickBuckets) -> None:
        self.parsed: list[dict[str, Any]] = []
        super().__init__(cast(Any, None), buckets, self.parsed.append)
        self.answered: list[dict[str, Any]] = []

    async def slow_down(self, data: dict[str, Any]) -> None:
        self.answered.append(data)


async def test_a_burst_is_answered_without_reaching_the_bot_another_member_goes_through() -> None:
    throttle = Recording(ClickBuckets(clock=FakeClock(0.0)))
    answered = throttle.answered
    for _ in range(15):
        throttle.receive(click(ANA))
    throttle.receive(click(BEN))
    for _ in range(30):  # typing in an autocompleted option: neither counted nor refused
        throttle.receive(click(ANA, kind=4))
    await asyncio.sleep(0)
    assert [member_of(d) for d in throttle.parsed if d["type"] == 3] == [ANA] * 10 + [BEN]
    assert len(answered) == throttle.throttled == 5
    assert all(member_of(d) == ANA for d in answered)
