"""Computer levels per seat, solo practice, hints and away seats a computer fills."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.players import choose
from bot.records.options import Options
from bot.rules import PASS, Move, new_game
from bot.rules.base import dice_rng
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.stats import StatsService
from tests.fakes import FakeClock
from tests.service.helpers import play_randomly

GUILD, CHANNEL, ANA, BEN, CEM = 1, 100, 11, 22, 33


@pytest.fixture
def seeds() -> Callable[[], int]:
    """A seed of its own for each game (500 on), so that no two games are dealt the same dice."""
    return iter(range(500, 10_000)).__next__


async def refused(key: str, call: object) -> None:
    with pytest.raises(ServiceError) as error:
        await call  # type: ignore[misc]
    assert error.value.key == key


async def test_a_computer_seat_plays_at_its_level(service: GameService) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    lobby = await service.lobby.add_computer(lobby.id, ANA, "hard")
    lobby = await service.lobby.add_computer(lobby.id, ANA)
    lobby = await service.lobby.set_level(lobby.id, ANA, -2, "normal")
    assert lobby.options["levels"] == {"-1": "hard", "-2": "normal"}
    await refused("error.unknown_level", service.lobby.add_computer(lobby.id, ANA, "genius"))
    await refused("error.no_such_computer", service.lobby.set_level(lobby.id, ANA, ANA, "hard"))
    await refused("error.host_only", service.lobby.set_level(lobby.id, BEN, -1, "easy"))
    await service.lobby.start(lobby.id, ANA)
    await play_randomly(service, lobby.id, random.Random(3))
    record = (await service.keeper.read(lobby.id)).record
    assert record.status == "finished"

    game = new_game("classic", record.players, record.seed, {})
    levels = {-1: "hard", -2: "normal"}
    for stored in await service.store.games.moves(lobby.id):
        move = Move.from_json(stored.move)
        if stored.player_id < 0:  # each computer move is the one its level picks
            rng = dice_rng(
                game.seed, "computer", game.turn, game.decision().phase, stored.player_id
            )
            assert move == choose(game, stored.player_id, rng, levels[stored.player_id])
        game, _ = game.apply(stored.player_id, move)
    assert game.to_json() == record.state


async def test_solo_practice_is_played_alone_and_gives_personal_bests(
    service: GameService, clock: FakeClock
) -> None:
    stats = StatsService(service.store, clock=clock)
    scores = []
    for game in range(2):
        lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic", play=Options(solo=True))
        await refused("error.solo_only", service.lobby.join(lobby.id, BEN))
        await refused("error.solo_only", service.lobby.add_computer(lobby.id, ANA))
        started = await service.lobby.start(lobby.id, ANA)
        assert started.game is not None and tuple(started.game.players) == (ANA,)
        await play_randomly(service, lobby.id, random.Random(game))
        outcome = await service.keeper.read(lobby.id)
        assert outcome.record.status == "finished" and outcome.game is not None
        scores.append(outcome.game.scores()[ANA].total)
        assert (await service.keeper.replay(lobby.id)).to_json() == outcome.record.state
        clock.now += 60

    mine = await stats.player(GUILD, ANA)
    assert mine.overall is None and not mine.empty  # nothing counted, practice kept
    [best] = mine.practice
    assert (best.variant, best.games, best.best, best.last) == (
        "classic",
        2,
        max(scores),
        scores[-1],
    )
    assert (await stats.leaderboard(GUILD, ANA)).empty
    history = await stats.history(GUILD)
    assert [(h.practice, h.counted) for h in history] == [(True, False)] * 2


async def test_a_game_with_hints_hints_a_legal_move_and_does_not_count(
    service: GameService, clock: FakeClock
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic", play=Options(hints=True))
    await service.lobby.join(lobby.id, BEN)
    outcome = await service.lobby.start(lobby.id, ANA)
    assert outcome.game is not None
    game, hint = await service.turns.hint(lobby.id, ANA, 1)
    assert hint.move in game.legal_moves(ANA) and hint.text
    await refused("error.stale_turn", service.turns.hint(lobby.id, ANA, 2))
    await refused("error.not_player", service.turns.hint(lobby.id, CEM, 1))
    await play_randomly(service, lobby.id, random.Random(5))
    stats = StatsService(service.store, clock=clock)
    assert (await stats.leaderboard(GUILD, ANA)).empty
    [played] = await stats.history(GUILD)
    assert played.hints and not played.counted and len(played.lines) == 2

    plain = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(plain.id, BEN)
    await service.lobby.start(plain.id, ANA)
    await refused("error.no_hints", service.turns.hint(plain.id, ANA, 1))


async def let_expire(service: GameService, clock: FakeClock, game_id: int, late: int) -> None:
    """Everyone else passes; ``late``'s decisions run out until a computer plays them."""
    for _ in range(40):
        outcome = await service.keeper.read(game_id)
        if late in outcome.record.presence.get("away", []):
            return
        game = outcome.game
        assert game is not None
        for player in sorted(game.decision().waiting - {late}):
            await service.turns.move(game_id, player, game.turn, None, PASS)
        game = (await service.keeper.read(game_id)).game
        assert game is not None
        if late in game.decision().waiting:
            clock.now += 86400
            assert await service.deadlines.fire(game_id) is not None
    raise AssertionError(f"{late} never went away")


async def test_an_away_seat_is_played_by_a_computer_until_its_player_returns(
    service: GameService, clock: FakeClock
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic", play=Options(fill_away=True))
    await service.lobby.join(lobby.id, BEN)
    await service.lobby.start(lobby.id, ANA)
    await let_expire(service, clock, lobby.id, BEN)
    events = await service.store.games.events(lobby.id)
    assert [e.data["reason"] for e in events if e.kind == "away"] == ["stand_in"]
    game = (await service.keeper.read(lobby.id)).game
    assert game is not None
    for _ in range(3):  # the game goes on for Ana alone; Ben's seat is played
        await service.turns.move(lobby.id, ANA, game.turn, None, game.legal_moves(ANA)[0])
        game = (await service.keeper.read(lobby.id)).game
        assert game is not None and BEN not in game.decision().waiting
    assert (BEN, "stand_in") in [
        (m.player_id, m.source) for m in await service.store.games.moves(lobby.id)
    ]
    record = (await service.keeper.read(lobby.id)).record
    assert record.status == "running" and record.presence["covered"] == [BEN]

    back = await service.turns.come_back(lobby.id, BEN)
    assert back is not None and [e.data for e in back.events if e.kind == "away"] == [
        {"reason": "back"}
    ]
    assert await service.turns.come_back(lobby.id, BEN) is None  # once
    assert BEN not in back.record.presence["away"]
    waited = False
    for _ in range(2000):
        game = (await service.keeper.read(lobby.id)).game
        assert game is not None
        if game.finished:
            break
        waiting = game.decision().waiting
        waited = waited or BEN in waiting
        player = min(waiting)
        await service.turns.move(lobby.id, player, game.turn, None, game.legal_moves(player)[0])
    assert waited  # Ben decides again himself

    stats = StatsService(service.store, clock=clock)
    [played] = await stats.history(GUILD)
    assert played.counted
    assert {line.player_id: line.stand_in for line in played.lines} == {ANA: False, BEN: True}
    assert (await stats.player(GUILD, BEN)).overall is None  # Ben's result counts for nobody
    ana = (await stats.player(GUILD, ANA)).overall
    assert ana is not None and ana.games == 1
    record = (await service.keeper.read(lobby.id)).record
    assert (await service.keeper.replay(lobby.id)).to_json() == record.state  # stand-in moves too


async def test_without_fill_away_an_away_seat_is_not_played_and_cannot_come_back(
    service: GameService, clock: FakeClock
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    for player in (BEN, CEM):
        await service.lobby.join(lobby.id, player)
    await service.lobby.start(lobby.id, ANA)
    await let_expire(service, clock, lobby.id, CEM)
    assert await service.turns.come_back(lobby.id, CEM) is None
    sources = {m.source for m in await service.store.games.moves(lobby.id) if m.player_id == CEM}
    assert "stand_in" not in sources
