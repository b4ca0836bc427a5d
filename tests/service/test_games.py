"""The use cases: lobby, start, moves, refusals, concurrency, replay and restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.rules import PASS, Move
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.store import Store
from tests.store.helpers import counting_trips

from .helpers import play_randomly

GUILD, CHANNEL, ANA, BEN, CEM = 1, 100, 11, 22, 33


@pytest.fixture
def seeds() -> Callable[[], int]:
    """Every game dealt by seed 1234, the dice this module's expectations were checked on."""
    return lambda: 1234


async def started(service: GameService, *players: int) -> int:
    record = await service.lobby.open(GUILD, CHANNEL, players[0], "classic")
    for player in players[1:]:
        await service.lobby.join(record.id, player)
    await service.lobby.start(record.id, players[0])
    return record.id


def refusal(error: pytest.ExceptionInfo[ServiceError]) -> str:
    return error.value.key


async def test_lobby_join_leave_and_start(service: GameService) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    record = await service.lobby.join(record.id, BEN)
    record = await service.lobby.join(record.id, CEM)
    record = await service.lobby.leave(record.id, CEM)
    assert record.players == [ANA, BEN]
    outcome = await service.lobby.start(record.id, ANA)
    assert outcome.record.status == "running"
    assert outcome.game is not None and outcome.game.players == (ANA, BEN)


@pytest.mark.parametrize(
    ("action", "key"),
    [
        ("join_twice", "error.already_joined"),
        ("start_alone", "error.need_players"),
        ("start_by_guest", "error.host_only"),
        ("host_leaves", "error.host_leaves"),
        ("stranger_leaves", "error.not_joined"),
        ("cancel_by_guest", "error.host_only"),
    ],
)
async def test_lobby_refusals_name_the_problem(service: GameService, action: str, key: str) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    calls = {
        "join_twice": lambda: service.lobby.join(record.id, ANA),
        "start_alone": lambda: service.lobby.start(record.id, ANA),
        "start_by_guest": lambda: service.lobby.start(record.id, BEN),
        "host_leaves": lambda: service.lobby.leave(record.id, ANA),
        "stranger_leaves": lambda: service.lobby.leave(record.id, CEM),
        "cancel_by_guest": lambda: service.lobby.cancel(record.id, BEN),
    }
    with pytest.raises(ServiceError) as error:
        await calls[action]()
    assert refusal(error) == key
    assert (await service.keeper.read(record.id)).record.status == "lobby"


async def test_one_game_per_channel_and_unknown_variant(service: GameService) -> None:
    await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    with pytest.raises(ServiceError) as busy:
        await service.lobby.open(GUILD, CHANNEL, BEN, "classic")
    assert refusal(busy) == "error.channel_busy"
    with pytest.raises(ServiceError) as unknown:
        await service.lobby.open(GUILD, CHANNEL + 1, BEN, "yahtzee")
    assert refusal(unknown) == "error.unknown_variant"


async def test_full_lobby_and_late_join(service: GameService) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, 1, "classic")
    for player in range(2, 6):
        record = await service.lobby.join(record.id, player)
    with pytest.raises(ServiceError) as full:
        await service.lobby.join(record.id, 6)
    assert refusal(full) == "error.lobby_full"
    await service.lobby.start(record.id, 1)
    with pytest.raises(ServiceError) as late:
        await service.lobby.join(record.id, 6)
    assert refusal(late) == "error.already_started"


async def test_moves_are_checked_against_turn_phase_and_seat(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    game = (await service.keeper.read(game_id)).game
    assert game is not None
    with pytest.raises(ServiceError) as stranger:
        await service.turns.move(game_id, CEM, 1, "action1", PASS)
    assert refusal(stranger) == "error.not_player"
    with pytest.raises(ServiceError) as stale:
        await service.turns.move(game_id, ANA, 0, "action1", PASS)
    assert refusal(stale) == "error.stale_turn"
    assert stale.value.values == {"turn": 0, "current": 1}
    with pytest.raises(ServiceError) as wrong_phase:
        await service.turns.move(game_id, ANA, 1, "action2", PASS)
    assert refusal(wrong_phase) == "error.stale_phase"
    with pytest.raises(ServiceError) as illegal:
        await service.turns.move(game_id, ANA, 1, "action1", Move("cross", "red", 99))
    assert refusal(illegal) == "error.illegal"
    assert await service.store.games.moves(game_id) == []


async def test_simultaneous_clicks_by_different_players_both_count(
    service: GameService, database: str | Path
) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    other = GameService(await Store.open(database))  # a second process
    try:
        await asyncio.gather(
            service.turns.move(game_id, ANA, 1, "action1", PASS),
            other.turns.move(game_id, BEN, 1, "action1", PASS),
        )
    finally:
        await other.store.close()
    moves = await service.store.games.moves(game_id)
    assert sorted(m.player_id for m in moves) == [ANA, BEN]


async def test_double_click_counts_once(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    await service.turns.move(game_id, ANA, 1, "action1", PASS)
    await service.turns.move(game_id, BEN, 1, "action1", PASS)
    game = (await service.keeper.read(game_id)).game
    assert game is not None and game.decision().phase == "action2"
    move = game.legal_moves(ANA)[0]
    results = await asyncio.gather(
        *(service.turns.move(game_id, ANA, 1, "action2", move) for _ in range(2)),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], ServiceError)
    assert errors[0].key == "error.stale_turn"
    assert len(await service.store.games.moves(game_id)) == 3


async def test_a_secret_choice_tapped_twice_is_stored_once(service: GameService) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    version = (await service.keeper.read(game_id)).record.version
    first, second = await asyncio.gather(
        *(service.turns.move(game_id, ANA, 1, "action1", PASS) for _ in range(2))
    )
    assert [m.player_id for m in await service.store.games.moves(game_id)] == [ANA]
    assert (await service.keeper.read(game_id)).record.version == version + 1
    assert first.game is not None and second.game is not None
    assert ANA not in second.game.decision().waiting


async def test_finished_and_abandoned_games_refuse_moves(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    with pytest.raises(ServiceError) as denied:
        await service.turns.abandon(CHANNEL, BEN, can_manage=False)
    assert refusal(denied) == "error.abandon_denied"
    record = (await service.turns.abandon(CHANNEL, BEN, can_manage=True)).record
    assert record.status == "abandoned"
    with pytest.raises(ServiceError) as over:
        await service.turns.move(game_id, ANA, 1, "action1", PASS)
    assert refusal(over) == "error.game_over"
    with pytest.raises(ServiceError) as none:
        await service.turns.abandon(CHANNEL, ANA, can_manage=True)
    assert refusal(none) == "error.no_game"


async def test_a_whole_game_replays_from_its_log(service: GameService) -> None:
    game_id = await started(service, ANA, BEN, CEM)
    await play_randomly(service, game_id, random.Random(7))
    outcome = await service.keeper.read(game_id)
    assert outcome.record.status == "finished"
    assert outcome.game is not None and outcome.game.finished
    replayed = await service.keeper.replay(game_id)
    assert replayed.to_json() == outcome.record.state


async def test_games_survive_a_restart(database: str | Path) -> None:
    store = await Store.open(database)
    service = GameService(store, seeds=lambda: 99)
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    running = await started_in(service, CHANNEL + 1)
    await service.turns.move(running, ANA, 1, "action1", PASS)
    before = (await service.keeper.read(running)).record.state
    await store.close()

    again = GameService(await Store.open(database))
    try:
        assert (await again.keeper.read(lobby.id)).record.players == [ANA]
        after = await again.keeper.read(running)
        assert after.record.state == before
        await play_randomly(again, running, random.Random(3))
        assert (await again.keeper.replay(running)).to_json() == (
            await again.keeper.read(running)
        ).record.state
    finally:
        await again.store.close()


async def started_in(service: GameService, channel: int) -> int:
    record = await service.lobby.open(GUILD, channel, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    return (await service.lobby.start(record.id, ANA)).record.id


async def test_names_fall_back_to_seat_labels(service: GameService) -> None:
    await service.names.remember(GUILD, ANA, "Ana")
    assert await service.names.of(GUILD, [ANA, BEN]) == {ANA: "Ana", BEN: "Player 2"}


async def test_computer_seats_are_added_by_the_host_and_never_waited_for(
    service: GameService,
) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    with pytest.raises(ServiceError) as guest:
        await service.lobby.add_computer(record.id, BEN)
    assert refusal(guest) == "error.host_only"
    for _ in range(4):
        record = await service.lobby.add_computer(record.id, ANA)
    assert record.players == [ANA, -1, -2, -3, -4]
    with pytest.raises(ServiceError) as full:
        await service.lobby.add_computer(record.id, ANA)
    assert refusal(full) == "error.lobby_full"
    outcome = await service.lobby.start(record.id, ANA)
    assert outcome.game is not None and outcome.game.decision().waiting == {ANA}
    assert {m.source for m in await service.store.games.moves(record.id)} == {"computer"}
    assert (await service.names.of(GUILD, [ANA, -2]))[-2] == "Computer 2"
    await play_randomly(service, record.id, random.Random(1))
    stored = (await service.keeper.read(record.id)).record.state
    assert (await service.keeper.replay(record.id)).to_json() == stored


async def test_when_the_last_person_leaves_computers_finish_the_game_unranked(
    service: GameService,
) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    for _ in range(2):
        record = await service.lobby.add_computer(record.id, ANA)
    await service.lobby.start(record.id, ANA)
    outcome = await service.turns.leave_game(CHANNEL, ANA)
    assert outcome.record.status == "finished"  # the computers played it out at once
    [game] = await service.store.stats.history(GUILD)
    assert not game.counted and [line.player_id for line in game.lines] == [ANA]


async def test_a_click_is_one_round_trip_to_the_writer_and_no_read(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    writes, reads = counting_trips(service.store, "_db"), counting_trips(service.store, "_reader")
    outcome = await service.turns.move(game_id, ANA, 1, "action1", PASS)
    assert (len(writes), reads) == (1, [])
    assert outcome.record == (await service.keeper.read(game_id)).record
    assert [m.player_id for m in await service.store.games.moves(game_id)] == [ANA]


async def test_a_click_on_a_vanished_game_is_refused(service: GameService) -> None:
    with pytest.raises(ServiceError) as gone:
        await service.turns.move(404, ANA, 1, "action1", PASS)
    assert refusal(gone) == "error.game_gone"


async def test_a_double_tap_on_the_public_pass_decides_one_phase_only(service: GameService) -> None:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "onboard")
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    await service.turns.move(record.id, ANA, 1, "action1", PASS)
    await service.turns.move(record.id, BEN, 1, "action1", PASS)
    game = (await service.keeper.read(record.id)).game
    assert game is not None and game.decision().phase == "action2"  # then action 3 follows
    results = await asyncio.gather(
        *(service.turns.move(record.id, ANA, 1, "action2", PASS) for _ in range(2)),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1 and errors[0].key == "error.stale_phase"
    assert len(await service.store.games.moves(record.id)) == 3


async def test_the_publishers_of_a_game_take_turns_through_the_service(
    service: GameService,
) -> None:
    """``games.channel_lock``: one holder per game at a time; other games are free."""
    held, other_game = asyncio.Event(), asyncio.Event()
    order: list[str] = []

    async def first() -> None:
        async with service.keeper.channel_lock(1):
            order.append("first in")
            held.set()
            async with service.keeper.channel_lock(2):  # another game's lock is free meanwhile
                other_game.set()
            await asyncio.sleep(0)
            order.append("first out")

    async def second() -> None:
        await held.wait()
        async with service.keeper.channel_lock(1):
            order.append("second in")

    await asyncio.gather(first(), second())
    assert other_game.is_set()
    assert order == ["first in", "first out", "second in"]
