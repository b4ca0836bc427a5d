"""A click reuses the game its last write left, and never one another writer replaced."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import bot.service.memo as memo
from bot.records.memo import IdentityMemo
from bot.records.options import Options
from bot.records.seats import Seats
from bot.rules import Game, new_game
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.store import Store

GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22


async def started(service: GameService) -> int:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    return record.id


async def click(
    service: GameService, game_id: int, rng: random.Random, game: Game | None = None
) -> Outcome:
    """A random legal move of whoever the game waits for (``game``: as last seen)."""
    game = game or (await service.keeper.read(game_id)).game
    assert game is not None and not game.finished
    player = min(game.decision().waiting)
    return await service.turns.move(
        game_id, player, game.turn, game.decision().phase, rng.choice(game.legal_moves(player))
    )


def counting_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    built: list[int] = []
    build = memo.game_from_json

    def counted(data: dict[str, object]) -> Game:
        built.append(1)
        return build(data)

    monkeypatch.setattr(memo, "game_from_json", counted)
    return built


async def test_clicks_in_a_row_build_the_game_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, rng = GameService(store, seeds=lambda: 7), random.Random(1)
    game_id = await started(service)
    outcome = await click(service, game_id, rng)
    built = counting_builds(monkeypatch)
    for _ in range(5):
        outcome = await click(service, game_id, rng, outcome.game)
    assert built == []
    assert outcome.game is not None
    assert outcome.game.to_json() == (await store.games.get(game_id)).state  # type: ignore[union-attr]


async def test_a_move_stored_by_another_process_is_played_on(
    store: Store, database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, rng = GameService(store, seeds=lambda: 7), random.Random(2)
    game_id = await started(service)
    await click(service, game_id, rng)
    async with Store(database) as elsewhere:
        moved = await click(GameService(elsewhere), game_id, rng)
    built = counting_builds(monkeypatch)
    after = await click(service, game_id, rng, moved.game)  # decided on the other's state
    assert built == [1]
    assert after.record.version == moved.record.version + 1
    assert after.game is not None
    assert after.game.to_json() == (await store.games.get(game_id)).state  # type: ignore[union-attr]


async def test_a_click_leaves_the_game_it_started_from_as_it_was(store: Store) -> None:
    service, rng = GameService(store, seeds=lambda: 7), random.Random(3)
    game_id = await started(service)
    seen = [await click(service, game_id, rng)]
    for _ in range(12):
        seen.append(await click(service, game_id, rng, seen[-1].game))
    for outcome in seen:
        assert outcome.game is not None and outcome.record.state is not None
        assert outcome.game.to_json() == outcome.record.state


def test_an_identity_memo_derives_once_per_object() -> None:
    derived: list[dict[str, int]] = []

    def derive(source: dict[str, int]) -> int:
        derived.append(source)
        return source["n"] * 2

    twice = IdentityMemo(derive, kept=2)
    first, equal, other = {"n": 1}, {"n": 1}, {"n": 5}
    assert [twice(first), twice(first), twice(equal), twice(other)] == [2, 2, 2, 10]
    assert [d is first for d in derived] == [True, False, False]  # equal, not the same
    assert twice({"n": 7}) == 14 and twice(first) == 2  # full: it started again
    assert len(derived) == 5


async def test_a_click_reads_options_and_seats_once(store: Store) -> None:
    service = GameService(store)
    game_id = await started(service)
    outcome = await service.keeper.read(game_id)
    options, seats = Options.of(outcome.record.options), Seats.of(outcome.record)
    assert options == Options.read(outcome.record.options)
    assert seats == Seats.read(outcome.record.presence)
    again = await service.keeper.read(game_id)
    assert Options.of(again.record.options) is options and Seats.of(again.record) is seats
    changed = replace(again.record, presence={"away": [BEN], "streak": {}})
    assert Seats.of(changed) == Seats(frozenset({BEN})) and Options.of(changed.options) is options


async def test_a_game_that_ended_is_let_go(store: Store) -> None:
    service, rng = GameService(store, seeds=lambda: 7), random.Random(4)
    game_id = await started(service)
    outcome = await click(service, game_id, rng)
    assert game_id in service.keeper._memo._games and game_id in store.games._records._rows
    while outcome.game is not None and not outcome.game.finished:
        outcome = await click(service, game_id, rng, outcome.game)
    assert game_id not in service.keeper._memo._games and game_id not in store.games._records._rows
    read = (await service.keeper.read(game_id)).game
    assert read is not None and outcome.game is not None
    assert read.to_json() == outcome.game.to_json()


def test_seats_that_do_not_change_are_the_same_seats() -> None:
    seats = Seats(frozenset({BEN}), {ANA: 0, BEN: 3})
    assert seats.back(ANA) is seats and seats.cover([]) is seats
    assert seats.back(BEN) == Seats(frozenset(), {ANA: 0, BEN: 0})
    assert Seats().back(ANA) == Seats(frozenset(), {ANA: 0})  # a first decision is written
    assert seats.cover([ANA]).covered == {ANA}


async def test_a_click_leaves_unchanged_seats_unwritten(store: Store) -> None:
    service, rng = GameService(store, seeds=lambda: 7), random.Random(5)
    game_id = await started(service)
    outcome = await click(service, game_id, rng)
    outcome = await click(service, game_id, rng, outcome.game)
    presence = outcome.record.presence
    for _ in range(4):
        outcome = await click(service, game_id, rng, outcome.game)
        assert outcome.record.presence is presence  # the record's own, not written again
    assert (await store.games.get(game_id)).presence == presence  # type: ignore[union-attr]


def test_games_built_from_states_share_their_texts() -> None:
    state = new_game("onboard", [ANA, BEN], 3).to_json()
    one, other = (memo.interned(json.loads(json.dumps(state))) for _ in range(2))
    assert one == state
    assert one["board"]["fields"][0]["colour"] is other["board"]["fields"][0]["colour"]
    assert one["phase"] is other["phase"] and one["board"]["name"] is other["board"]["name"]
