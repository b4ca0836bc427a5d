"""The changes told to a channel and the syncs that wait for them to settle."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.channel.debounce import Debounce, Told
from bot.records.games import StoredEvent
from tests.cogs.records import game_record


def event(seq: int, turn: int = 1) -> StoredEvent:
    return StoredEvent(seq=seq, turn=turn, kind="passed", player=7, data={})


def told(version: int, since: int | None, *seqs: int) -> Told:
    record = game_record([7, 8], status="running", version=version)
    return Told(record, None, [event(s) for s in seqs], since)


class Syncs:
    """A sync that notes what it was handed."""

    def __init__(self) -> None:
        self.done: list[tuple[int, Told | None]] = []

    async def __call__(self, game_id: int, change: Told | None) -> None:
        self.done.append((game_id, change))


def test_changes_that_follow_on_keep_the_events_of_those_not_shown_yet() -> None:
    debounce = Debounce(Syncs())
    debounce.told(told(3, 2, 1))
    debounce.told(told(4, 3, 2))
    kept = debounce.take(5)
    assert kept is not None
    assert (kept.record.version, kept.since) == (4, 2)
    assert [e.seq for e in kept.stored] == [1, 2]
    assert debounce.take(5) is None  # taken once


def test_a_change_that_does_not_follow_on_replaces_the_waiting_one() -> None:
    debounce = Debounce(Syncs())
    debounce.told(told(3, 2, 1))
    debounce.told(told(6, 5, 4))  # versions 4 and 5 were not told: read them
    kept = debounce.take(5)
    assert kept is not None and (kept.since, [e.seq for e in kept.stored]) == (5, [4])


def test_an_older_change_told_late_changes_nothing_but_the_newest_stays() -> None:
    debounce = Debounce(Syncs())
    debounce.told(told(4, 3, 2))
    debounce.told(told(3, 2, 1))
    assert debounce.newest(5) == 4
    kept = debounce.take(5)
    assert kept is not None and kept.record.version == 4 and [e.seq for e in kept.stored] == [2]


def test_forgetting_a_game_lets_go_of_its_newest_version() -> None:
    debounce = Debounce(Syncs())
    debounce.told(told(4, 3))
    debounce.forget(5)
    assert debounce.newest(5) == 0


async def test_a_burst_becomes_one_sync_with_the_newest_change() -> None:
    syncs = Syncs()
    debounce = Debounce(syncs)
    for version in (3, 4, 5):
        debounce.told(told(version, version - 1, version))
        debounce.later(5, 0.0)
    assert not debounce.idle
    while not debounce.idle:
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert [(g, c.record.version if c else None) for g, c in syncs.done] == [(5, 5)]
    assert syncs.done[0][1] is not None and [e.seq for e in syncs.done[0][1].stored] == [3, 4, 5]


async def test_draining_runs_the_waiting_syncs_now_and_a_failed_one_does_not_stop_it() -> None:
    done: list[int] = []

    async def sync(game_id: int, change: Told | None) -> None:
        done.append(game_id)
        if game_id == 1:
            raise RuntimeError("Discord refused")

    debounce = Debounce(sync)
    debounce.later(1, 3600.0)
    debounce.later(2, 3600.0)
    await debounce.drain()
    assert sorted(done) == [1, 2] and debounce.idle


async def test_draining_waits_for_a_sync_already_under_way() -> None:
    """A sync that woke up before the drain is awaited too: once drained, the channel
    shows what was told before."""
    started, release, done = asyncio.Event(), asyncio.Event(), []

    async def sync(game_id: int, change: Told | None) -> None:
        started.set()
        await release.wait()
        done.append(game_id)

    debounce = Debounce(sync)
    debounce.later(7, 0.0)
    await started.wait()  # it left the queue and is showing its game now
    drained = asyncio.create_task(debounce.drain())
    await asyncio.sleep(0)
    assert not drained.done() and not debounce.idle
    release.set()
    await drained
    assert done == [7] and debounce.idle


def test_told_of_keeps_what_the_channel_reads_of_a_change() -> None:
    change = told(3, 2, 1)
    again = Told.of(replace(change, since=1))
    assert (again.record, again.game, again.stored, again.since) == (
        change.record,
        None,
        change.stored,
        1,
    )
