"""Deadlines, reminders, expiry, away players and leaving, with an injected clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rules import PASS
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.store import Store
from tests.fakes import FakeClock

GUILD, CHANNEL, ANA, BEN, CEM = 1, 100, 11, 22, 33
HOUR = 3600.0


async def started(
    service: GameService, *players: int, turn_time: int = 86400, channel: int = CHANNEL
) -> int:
    record = await service.lobby.open(GUILD, channel, players[0], "classic", turn_time=turn_time)
    for player in players[1:]:
        await service.lobby.join(record.id, player)
    await service.lobby.start(record.id, players[0])
    return record.id


async def sources(service: GameService, game_id: int) -> list[tuple[int, str]]:
    return [(m.player_id, m.source) for m in await service.store.games.moves(game_id)]


async def test_a_started_game_has_a_deadline_and_nothing_is_due_before_half_time(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN)
    record = (await service.keeper.read(game_id)).record
    assert record.deadline == clock.now + 86400 and record.stage_started == clock.now
    clock.now += 12 * HOUR - 1
    assert await service.deadlines.due() == []
    assert await service.deadlines.fire(game_id) is None


async def test_reminders_at_half_time_and_before_the_end_never_twice_never_for_the_decided(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    clock.now += 12 * HOUR
    assert await service.deadlines.due() == [game_id]
    first = await service.deadlines.fire(game_id)
    assert first is not None and first.events[0].kind == "reminder"
    assert first.events[0].data["players"] == [ANA, CEM]
    assert await service.deadlines.fire(game_id) is None  # not twice
    clock.now += 11 * HOUR
    second = await service.deadlines.fire(game_id)
    assert second is not None and second.events[0].kind == "reminder"
    assert await service.deadlines.fire(game_id) is None
    assert await service.deadlines.due() == []
    assert (await service.keeper.read(game_id)).record.reminders == 2


async def test_expiry_in_action_1_passes_the_late_and_starts_a_new_clock(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    game = (await service.keeper.read(game_id)).game
    assert game is not None
    cross = next((m for m in game.legal_moves(ANA) if m.kind == "cross"), PASS)
    await service.turns.move(game_id, ANA, 1, "action1", cross)
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    clock.now += 86400
    outcome = await service.deadlines.fire(game_id)
    assert outcome is not None and outcome.events[0].kind == "expired"
    assert outcome.events[0].data["players"] == [CEM]
    assert (CEM, "expired") in await sources(service, game_id)
    game = outcome.game
    assert game is not None and game.sheets[CEM].penalties == 0  # not active: no penalty
    record = outcome.record
    assert (game.turn, game.decision().phase) == (1, "action2")  # this seed offers action 2
    assert record.stage_started == clock.now and record.deadline == clock.now + 86400


async def test_an_active_player_who_lets_the_time_run_out_takes_the_penalty(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN)
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    clock.now += 86400
    outcome = await service.deadlines.fire(game_id)
    assert outcome is not None and outcome.game is not None
    assert outcome.game.sheets[ANA].penalties == 1
    assert any(e.kind == "penalty" and e.player == ANA for e in outcome.events)
    assert outcome.game.turn == 2  # the game moved on
    assert {s for p, s in await sources(service, game_id) if p == ANA} == {"expired"}


async def test_three_expiries_in_a_row_mark_a_player_away_and_the_game_stops_waiting(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    events = []
    for _ in range(12):
        outcome = await service.keeper.read(game_id)
        game = outcome.game
        assert game is not None
        if CEM in outcome.record.presence.get("away", []):
            break
        for player in sorted(game.decision().waiting - {CEM}):
            await service.turns.move(game_id, player, game.turn, None, PASS)
            game = (await service.keeper.read(game_id)).game
            assert game is not None
            if CEM not in game.decision().waiting:
                break
        if CEM in game.decision().waiting:
            clock.now += 86400
            fired = await service.deadlines.fire(game_id)
            assert fired is not None
            events += fired.events
    away = [e for e in events if e.kind == "away"]
    assert [(e.player, e.data["reason"]) for e in away] == [(CEM, "expired")]
    assert len([e for e in events if e.kind == "expired"]) == 3
    game = (await service.keeper.read(game_id)).game
    assert game is not None and CEM not in game.decision().waiting


async def test_a_player_who_decides_again_is_back(service: GameService, clock: FakeClock) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    await service.turns.leave_game(CHANNEL, CEM)
    record = (await service.keeper.read(game_id)).record
    assert record.presence["away"] == [CEM]
    game = (await service.keeper.read(game_id)).game
    assert game is not None
    while CEM not in game.decision().waiting:
        player = min(game.decision().waiting)
        await service.turns.move(game_id, player, game.turn, None, PASS)
        game = (await service.keeper.read(game_id)).game
        assert game is not None
        if game.finished:
            return
    raise AssertionError("an away player was waited for")


async def test_leaving_gives_up_the_seat_and_too_few_seats_end_without_ranking(
    service: GameService,
) -> None:
    await started(service, ANA, BEN, CEM)
    left = await service.turns.leave_game(CHANNEL, CEM)
    assert left.record.status == "running"
    assert any(e.kind == "away" and e.data["reason"] == "left" for e in left.events)
    with pytest.raises(ServiceError) as twice:
        await service.turns.leave_game(CHANNEL, CEM)
    assert twice.value.key == "error.not_player"
    ended = await service.turns.leave_game(CHANNEL, BEN)
    assert ended.record.status == "abandoned"
    assert any(e.kind == "game_over" and e.data["reason"] == "no_seats" for e in ended.events)
    assert await service.store.stats.history(GUILD) == []  # not ranked, not in the stats


async def test_leaving_a_lobby_is_the_lobby_leave(service: GameService) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    outcome = await service.turns.leave_game(CHANNEL, BEN)
    assert outcome.record.players == [ANA] and outcome.game is None


async def test_overdue_deadlines_after_downtime_fire_once_in_order(
    database: str | Path, clock: FakeClock
) -> None:
    store = await Store.open(database, clock=clock)
    service = GameService(store, seeds=lambda: 7, clock=clock)
    first = await started(service, ANA, BEN, channel=1)
    clock.now += 60
    second = await started(service, ANA, BEN, channel=2)
    await store.close()

    clock.now += 3 * 86400  # the bot was down for three days
    store = await Store.open(database, clock=clock)
    again = GameService(store, clock=clock)
    try:
        assert await again.deadlines.due() == [first, second]
        fired = [await again.deadlines.fire(game_id) for game_id in await again.deadlines.due()]
        assert all(o is not None and o.events[0].kind == "expired" for o in fired)
        assert [await again.deadlines.fire(g) for g in (first, second)] == [None, None]  # not twice
        for game_id in (first, second):
            record = (await again.keeper.read(game_id)).record
            assert record.deadline == clock.now + 86400  # a full turn time from now
    finally:
        await store.close()


async def test_a_game_with_players_who_never_answer_ends_driven_by_deadlines(
    service: GameService, clock: FakeClock
) -> None:
    game_id = await started(service, ANA, BEN, CEM, turn_time=300)
    for _ in range(2000):
        outcome = await service.keeper.read(game_id)
        if outcome.record.status != "running":
            break
        game = outcome.game
        assert game is not None
        if ANA in game.decision().waiting:
            await service.turns.move(game_id, ANA, game.turn, None, game.legal_moves(ANA)[0])
            continue
        clock.now += 300
        assert await service.deadlines.fire(game_id) is not None
    record = (await service.keeper.read(game_id)).record
    assert record.status in ("finished", "abandoned")
    assert {s for p, s in await sources(service, game_id) if p != ANA} <= {"expired", "away"}
    replayed = await service.keeper.replay(game_id)
    assert replayed.to_json() == record.state


async def test_turn_times_and_the_server_default(service: GameService) -> None:
    assert await service.settings.turn_time(GUILD, None) == 86400
    assert await service.settings.turn_time(GUILD, "2h") == 7200
    with pytest.raises(ServiceError) as bad:
        await service.settings.turn_time(GUILD, "forever")
    assert bad.value.key == "error.duration" and "forever" in bad.value.text()
    assert await service.settings.set_turn_time(GUILD, "30m") == 1800
    assert await service.settings.turn_time(GUILD, None) == 1800
    assert await service.settings.turn_time(GUILD + 1, None) == 86400


async def test_my_games_lists_the_games_waiting_for_me(service: GameService) -> None:
    first = await started(service, ANA, BEN, channel=1)
    await started(service, BEN, CEM, channel=2)
    assert [o.record.id for o in await service.turns.waiting_for(GUILD, ANA)] == [first]
    await service.turns.move(first, ANA, 1, "action1", PASS)
    assert await service.turns.waiting_for(GUILD, ANA) == []
    assert len(await service.turns.waiting_for(GUILD, BEN)) == 2
    assert await service.turns.waiting_for(GUILD + 1, BEN) == []


async def test_who_asked_to_be_nudged_is_reminded_soon_and_again(
    service: GameService, clock: FakeClock
) -> None:
    """Cem asked to be reminded soon and again: after 1, 2, 4, 8 and 12 hours of a day's
    decision he alone is reminded; at half time Ana (who did not ask); an hour before
    the end both."""
    await service.members.change(CEM, nudge=True)
    game_id = await started(service, ANA, BEN, CEM)
    start = clock.now
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    told = []
    for hours in (1, 2, 4, 8, 12, 12, 23):
        clock.now = start + hours * HOUR
        fired = await service.deadlines.fire(game_id)
        assert fired is not None and fired.events[0].kind == "reminder"
        told.append(fired.events[0].data["players"])
    assert told == [[CEM]] * 5 + [[ANA], [ANA, CEM]]
    assert await service.deadlines.fire(game_id) is None
