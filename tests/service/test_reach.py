"""Reaching people where they are: quiet hours hold calls and reminders back until they
end (the game is due then), a direct message's click is its player's, and a member
whose direct messages Discord refuses is remembered (and told) once."""

from __future__ import annotations

import pytest

from bot.records.prefs import Prefs
from bot.records.seats import Seats
from bot.rules import PASS
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.timing import DecisionClock
from bot.service.where import Where
from tests.fakes import FakeClock, at

GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22
HOUR = 3600.0
NIGHT = (23 * 60, 7 * 60)
"""Quiet from 23:00 to 07:00."""


async def started(service: GameService, *players: int, turn_time: int = 86400) -> int:
    record = await service.lobby.open(GUILD, CHANNEL, players[0], "classic", turn_time=turn_time)
    for player in players[1:]:
        await service.lobby.join(record.id, player)
    await service.lobby.start(record.id, players[0])
    return record.id


# --- the clock's moments ---------------------------------------------------------
def test_without_quiet_hours_the_clock_has_its_two_rounds() -> None:
    clock = DecisionClock.start(0.0, 1000)
    assert [(m.at, m.kind) for m in clock.moments] == [(500, "round"), (900, "round")]
    assert clock.next_due() == 500


def test_a_round_skips_the_quiet_and_their_quiet_hours_end_owes_them_the_reminder() -> None:
    """A 12-hour decision from midnight: the half-time round (06:00) finds Ana asleep and
    skips her; at 07:00 she is called (the decision began in her quiet hours) and
    reminded; the last round (11:00) reaches everyone."""
    quiet = ((ANA, Prefs(quiet=NIGHT)), (BEN, Prefs()))
    clock = DecisionClock.start(at(7, 0), 12 * 3600, quiet)
    moments = clock.moments
    assert [(m.at, m.kind) for m in moments] == [
        (at(7, 6), "round"),
        (at(7, 7), "wake"),
        (at(7, 11), "round"),
    ]
    assert moments[0].held == {ANA}
    assert moments[1].woken == {ANA} and moments[1].owed == {ANA}
    assert moments[2].held == frozenset()
    assert [c.next_due() for c in (clock, clock.reminded(), clock.reminded().reminded())] == [
        at(7, 6),
        at(7, 7),
        at(7, 11),
    ]
    assert clock.reminded().reminded().reminded().next_due() == clock.deadline


def test_quiet_hours_that_outlast_the_decision_owe_nothing() -> None:
    """A 4-hour decision from 01:00 ends (05:00) before Ana's quiet hours do (07:00):
    her rounds are skipped and nothing wakes her before the deadline."""
    clock = DecisionClock.start(at(7, 1), 4 * 3600, ((ANA, Prefs(quiet=NIGHT)),))
    assert [m.kind for m in clock.moments] == ["round", "round"]
    assert all(m.held == {ANA} for m in clock.moments)


def test_a_person_without_quiet_hours_changes_nothing() -> None:
    plain = DecisionClock.start(at(7, 0), 12 * 3600)
    seats = Seats(prefs={ANA: Prefs(), BEN: Prefs(quiet=(600, 600))})  # an empty span
    assert seats.timed == ()
    assert DecisionClock.start(at(7, 0), 12 * 3600, seats.timed).moments == plain.moments


# --- the game due when quiet hours end ---------------------------------------------
async def test_a_game_is_due_when_its_sleeping_player_wakes_and_reminds_her_then(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = at(7, 0)
    await service.members.change(ANA, quiet=NIGHT)
    game_id = await started(service, ANA, BEN, turn_time=12 * 3600)
    clock.now = at(7, 6) - 1
    assert await service.deadlines.due() == []
    clock.now = at(7, 6)
    half = await service.deadlines.fire(game_id)
    assert half is not None and half.events[0].data["players"] == [BEN]  # Ana sleeps
    assert await service.deadlines.fire(game_id) is None
    clock.now = at(7, 7) - 1
    assert await service.deadlines.due() == []
    clock.now = at(7, 7)
    assert await service.deadlines.due() == [game_id]
    woke = await service.deadlines.fire(game_id)
    assert woke is not None and woke.events[0].data["players"] == [ANA]
    assert woke.record.version > half.record.version  # the channel is shown again
    assert await service.deadlines.fire(game_id) is None  # once
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    clock.now = at(7, 11)
    last = await service.deadlines.fire(game_id)
    assert last is not None and last.events[0].data["players"] == [ANA]


async def test_waking_someone_who_already_decided_reminds_nobody(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = at(7, 2)
    await service.members.change(ANA, quiet=NIGHT)
    game_id = await started(service, ANA, BEN, turn_time=12 * 3600)
    await service.turns.move(game_id, ANA, 1, "action1", PASS)
    clock.now = at(7, 7)
    woke = await service.deadlines.fire(game_id)
    assert woke is not None and woke.events[0].data["players"] == []


# --- where a click comes from --------------------------------------------------------
async def test_a_click_in_the_bots_direct_messages_is_its_players(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    record = (await service.keeper.read(game_id)).record
    dm = Where(None, 999, direct=True)
    dm.check(record, ANA, 0.0)  # her own game
    with pytest.raises(ServiceError) as refused:
        dm.check(record, 33, 0.0)  # not a player of it
    assert refused.value.key == "error.other_channel"
    with pytest.raises(ServiceError):
        Where(None, 999).check(record, ANA, 0.0)  # another DM (a user install's) is not it
    moved = await service.turns.move(game_id, ANA, 1, "action1", PASS, where=dm)
    assert moved.changed


# --- closed direct messages --------------------------------------------------------------
async def test_closed_direct_messages_are_remembered_in_every_game_and_told_once(
    service: GameService,
) -> None:
    await service.members.change(ANA, dm=True)
    game_id = await started(service, ANA, BEN)
    changed = await service.members.dms_closed(ANA)
    assert [o.record.id for o in changed] == [game_id]
    prefs = Seats.of((await service.keeper.read(game_id)).record).prefs_of(ANA)
    assert prefs.dm and prefs.dm_blocked and not prefs.by_dm and not prefs.dm_blocked_told
    assert await service.members.dms_closed(ANA) == []  # known already
    told = await service.members.told_dms_closed(ANA)
    assert told is not None and [o.record.id for o in told] == [game_id]
    assert await service.members.told_dms_closed(ANA) is None  # once
    assert Seats.of((await service.keeper.read(game_id)).record).prefs_of(ANA).dm_blocked_told
    again = await service.members.change(ANA, dm=True)  # opened them, and says so
    assert again.by_dm and not again.dm_blocked_told
    assert Seats.of((await service.keeper.read(game_id)).record).prefs_of(ANA).by_dm


async def test_a_member_who_never_chose_direct_messages_has_nothing_to_be_told(
    service: GameService,
) -> None:
    assert await service.members.told_dms_closed(BEN) is None
