"""Computers answer outside the person's transaction: a click commits the person's
move alone; each computer step is decided on a thread, outside any transaction, and
stored by compare-and-set after it (again on the latest game if another writer came
between). So a computer that thinks long holds up no other game."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

import bot.service.play as play_module
from bot.players import is_computer
from bot.rules import Game, Move
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.service.timing import DecisionClock
from bot.store import StoreError

GUILD, CHANNEL, ANA, BEN, CEM = 1, 100, 11, 22, 33
PATIENCE = 30.0  # seconds before a hang counts as a failure (never a speed check)


class SlowComputer:
    """``choose`` that, once armed, blocks its first call on a thread until released."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.armed, self.thinking, self.release = (
            threading.Event(),
            threading.Event(),
            threading.Event(),
        )
        self.calls = 0
        choose: Callable[..., Move] = play_module.choose

        def slow(game: Game, player: int, rng: random.Random, level: str) -> Move:
            self.calls += 1
            if self.armed.is_set():
                self.armed.clear()
                self.thinking.set()
                assert self.release.wait(PATIENCE), "never released"
            return choose(game, player, rng, level)

        monkeypatch.setattr(play_module, "choose", slow)


async def against_a_computer(service: GameService, channel: int = CHANNEL) -> int:
    record = await service.lobby.open(GUILD, channel, ANA, "classic")
    record = await service.lobby.add_computer(record.id, ANA)
    return (await service.lobby.start(record.id, ANA)).record.id


async def two_people(service: GameService, channel: int) -> int:
    record = await service.lobby.open(GUILD, channel, BEN, "classic")
    await service.lobby.join(record.id, CEM)
    return (await service.lobby.start(record.id, BEN)).record.id


def anas_move(game: Game, rng: random.Random) -> tuple[Move, bool]:
    """A legal move of Ana's, and whether the computer must answer it."""
    move = rng.choice(game.legal_moves(ANA))
    after, _ = game.apply(ANA, move)
    return move, not after.finished and any(is_computer(p) for p in after.decision().waiting)


async def until_the_computer_answers_next(
    service: GameService, game_id: int, rng: random.Random
) -> tuple[Game, Move]:
    """Play Ana's moves until her next one makes the computer decide; that game and move."""
    for _ in range(200):
        game = (await service.keeper.read(game_id)).game
        assert game is not None and not game.finished and game.decision().waiting == {ANA}
        move, answered = anas_move(game, rng)
        if answered:
            return game, move
        await service.turns.move(game_id, ANA, game.turn, game.decision().phase, move)
    raise AssertionError("the computer never had to answer")


async def click(service: GameService, game_id: int, game: Game, move: Move) -> Outcome:
    return await service.turns.move(game_id, ANA, game.turn, game.decision().phase, move)


async def sources_after(service: GameService, game_id: int, seq: int) -> list[tuple[int, str]]:
    return [
        (m.player_id, m.source) for m in await service.store.games.moves(game_id) if m.seq > seq
    ]


async def test_a_computer_thinking_long_holds_up_no_other_game(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(5)
    slow_game, other = await against_a_computer(service), await two_people(service, CHANNEL + 1)
    game, move = await until_the_computer_answers_next(service, slow_game, rng)
    logged = len(await service.store.games.moves(slow_game))
    computer = SlowComputer(monkeypatch)
    computer.armed.set()
    clicked = asyncio.ensure_future(click(service, slow_game, game, move))
    try:
        assert await asyncio.to_thread(computer.thinking.wait, PATIENCE)
        # Ana's move is committed already, alone; the computer thinks outside it.
        assert await sources_after(service, slow_game, logged) == [(ANA, "player")]
        elsewhere = (await service.keeper.read(other)).game
        assert elsewhere is not None
        decision = elsewhere.decision()
        person = sorted(decision.waiting)[0]
        done = await asyncio.wait_for(
            service.turns.move(
                other,
                person,
                elsewhere.turn,
                decision.phase,
                rng.choice(elsewhere.legal_moves(person)),
            ),
            PATIENCE,
        )
        assert [m.player_id for m in await service.store.games.moves(other)] == [person]
        assert done.record.version > 0
        assert not clicked.done() and not computer.release.is_set()  # still thinking
    finally:
        computer.release.set()
    outcome = await asyncio.wait_for(clicked, PATIENCE)
    answered = await sources_after(service, slow_game, logged)
    assert answered[0] == (ANA, "player") and len(answered) > 1
    assert all(source == "computer" and is_computer(player) for player, source in answered[1:])
    assert outcome.game is not None
    assert not any(is_computer(p) for p in outcome.game.decision().waiting)
    assert outcome.record == (await service.keeper.read(slow_game)).record
    assert [e.kind for e in outcome.events].count("turn") <= 2  # Ana's and the computer's
    assert (await service.keeper.replay(slow_game)).to_json() == outcome.record.state


async def test_the_computer_decides_again_when_the_game_moved_on_meanwhile(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(8)
    game_id = await against_a_computer(service)
    game, move = await until_the_computer_answers_next(service, game_id, rng)
    logged = len(await service.store.games.moves(game_id))
    computer = SlowComputer(monkeypatch)
    computer.armed.set()
    clicked = asyncio.ensure_future(click(service, game_id, game, move))
    try:
        assert await asyncio.to_thread(computer.thinking.wait, PATIENCE)
        current = await service.store.games.get(game_id)  # another writer comes between
        assert current is not None
        clock = DecisionClock.of(current)
        assert clock is not None
        await service.store.games.set_timing(game_id, current.version, clock.reminded().timing())
    finally:
        computer.release.set()
    outcome = await asyncio.wait_for(clicked, PATIENCE)
    answered = await sources_after(service, game_id, logged)
    assert answered[0] == (ANA, "player")
    assert all(source == "computer" for _, source in answered[1:]) and len(answered) > 1
    assert outcome.record == (await service.keeper.read(game_id)).record
    assert outcome.record.version == current.version + 2  # the reminder, then the answer
    assert (await service.keeper.replay(game_id)).to_json() == outcome.record.state


async def test_an_answer_that_could_not_be_stored_is_the_timers_at_once(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person's move stays acknowledged; the game, left waiting for its computer,
    is due at once, and firing it has the computer answer."""
    rng = random.Random(3)
    game_id = await against_a_computer(service)
    game, move = await until_the_computer_answers_next(service, game_id, rng)
    logged = len(await service.store.games.moves(game_id))

    store = service.store.games.change
    writes: list[int] = []

    async def failing(*args: Any, **kwargs: Any) -> Any:
        """The person's move is stored; the disk is full by the computer's answer."""
        writes.append(1)
        if len(writes) > 1:
            raise StoreError("database or disk is full")
        return await store(*args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(service.store.games, "change", failing)
        outcome = await click(service, game_id, game, move)
    assert outcome.game is not None
    assert any(is_computer(p) for p in outcome.game.decision().waiting)
    assert await sources_after(service, game_id, logged) == [(ANA, "player")]
    assert await service.deadlines.due() == [game_id]
    fired = await service.deadlines.fire(game_id)
    assert fired is not None and fired.game is not None
    assert not any(is_computer(p) for p in fired.game.decision().waiting)
    answered = await sources_after(service, game_id, logged)
    assert len(answered) > 1 and {source for _, source in answered[1:]} == {"computer"}
    assert await service.deadlines.due() == []  # due again when its clock says
    assert await service.deadlines.fire(game_id) is None
    assert (await service.keeper.replay(game_id)).to_json() == fired.record.state
