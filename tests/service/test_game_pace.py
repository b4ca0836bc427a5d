"""A game played live or slow: everyone asks to play live, anyone slows it down, and the
pending decision's clock starts again with each switch."""

from __future__ import annotations

import pytest

from bot.records.seats import Seats
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.timing import DEFAULT_LIVE_TIME, DEFAULT_TURN_TIME
from tests.fakes import FakeClock

GUILD, CHANNEL, ANA, BEN, CEM = 1, 100, 11, 22, 33


async def started(service: GameService, *players: int) -> int:
    record = await service.lobby.open(GUILD, CHANNEL, players[0], "classic")
    for player in players[1:]:
        await service.lobby.join(record.id, player)
    await service.lobby.start(record.id, players[0])
    return record.id


async def test_live_once_everyone_asked_then_slow_at_anyones_word(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    clock.now += 600
    asked = await service.pace.ask(game_id, ANA, "live")
    assert [e.kind for e in asked.events] == ["pace_asked"]
    assert asked.events[0].data == {"asked": [ANA], "turn_time": DEFAULT_LIVE_TIME}
    assert asked.record.turn_time == DEFAULT_TURN_TIME
    await service.pace.ask(game_id, BEN, "live")
    clock.now += 60
    live = await service.pace.ask(game_id, CEM, "live")
    assert [(e.kind, e.data["to"]) for e in live.events] == [("pace", "live")]
    record = live.record
    assert record.turn_time == DEFAULT_LIVE_TIME and record.options["pace"] == "live"
    assert (record.stage_started, record.deadline) == (clock.now, clock.now + DEFAULT_LIVE_TIME)
    assert Seats.of(record).live == frozenset()
    slow = await service.pace.ask(game_id, BEN, "slow")
    assert slow.record.turn_time == DEFAULT_TURN_TIME and "pace" not in slow.record.options
    assert slow.record.deadline == clock.now + DEFAULT_TURN_TIME
    told = [(e.kind, e.player) for e in await service.keeper.events(game_id) if "pace" in e.kind]
    assert told == [("pace_asked", ANA), ("pace_asked", BEN), ("pace", CEM), ("pace", BEN)]


async def test_the_servers_live_time(service: GameService) -> None:
    await service.settings.set_live_time(GUILD, "15m")
    game_id = await started(service, ANA, BEN)
    await service.pace.ask(game_id, ANA, "live")
    live = await service.pace.ask(game_id, BEN, "live")
    assert live.record.turn_time == 15 * 60


@pytest.mark.parametrize(
    "who, speed, key",
    [
        (ANA, "slow", "error.pace_already_slow"),
        (ANA, "fast", "error.pace_unknown"),
        (99, "live", "error.not_player"),
    ],
)
async def test_refusals(service: GameService, who: int, speed: str, key: str) -> None:
    game_id = await started(service, ANA, BEN)
    with pytest.raises(ServiceError) as refused:
        await service.pace.ask(game_id, who, speed)
    assert refused.value.key == key


async def test_a_live_time_the_bot_cannot_read_is_refused(service: GameService) -> None:
    with pytest.raises(ServiceError) as refused:
        await service.settings.set_live_time(GUILD, "soon")
    assert refused.value.key == "error.duration"
