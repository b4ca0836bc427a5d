"""A click's path through the service: the game read at most once, checked once, and
decided on the record this process kept, which compare-and-set checks when it writes.
A kept record that another writer replaced never refuses anyone nor stores anything:
it is read afresh."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.players import is_computer
from bot.records.options import Options
from bot.rules import PASS, Game, Move
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.service.where import Where
from bot.store import Store

GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22
HERE = Where(GUILD, CHANNEL)


def counting_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each read of a game's row (by id or by channel) the service makes from now on."""
    reads: list[int] = []
    for name in ("get", "in_channel"):
        read = getattr(store.games, name)

        async def counted(key: int, _read: Any = read) -> Any:
            reads.append(key)
            return await _read(key)

        monkeypatch.setattr(store.games, name, counted)
    return reads


async def started(service: GameService, *, computer: bool = False) -> int:
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    if computer:
        await service.lobby.add_computer(record.id, ANA)
    else:
        await service.lobby.join(record.id, BEN)
    return (await service.lobby.start(record.id, ANA)).record.id


async def click(service: GameService, game_id: int, game: Game, rng: random.Random) -> Outcome:
    player = min(p for p in game.decision().waiting if not is_computer(p))
    move = rng.choice(game.legal_moves(player))
    return await service.turns.move(
        game_id, player, game.turn, game.decision().phase, move, where=HERE
    )


async def test_moves_on_a_kept_game_read_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, rng = GameService(store, seeds=lambda: 3), random.Random(1)
    game_id = await started(service)
    game = (await service.keeper.read(game_id)).game
    reads = counting_reads(store, monkeypatch)
    for _ in range(6):
        assert game is not None
        outcome = await click(service, game_id, game, rng)
        game = outcome.game
    assert reads == []
    assert outcome.record == await store.games.get(game_id)
    assert game is not None and game.to_json() == outcome.record.state


async def test_a_kept_game_another_process_moved_on_never_refuses(
    store: Store, database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other process's move makes this one's kept record stale: the click names the
    turn and phase as they now are, which the kept record would refuse; read afresh, it
    is played."""
    service, rng = GameService(store, seeds=lambda: 3), random.Random(2)
    game_id = await started(service)
    async with Store(database) as elsewhere:
        other = GameService(elsewhere)
        moved = (await other.keeper.read(game_id)).game
        while moved is not None and moved.turn == 1:  # past the turn the kept record is on
            moved = (await click(other, game_id, moved, rng)).game
    assert moved is not None
    kept = service.keeper.kept(game_id)
    assert kept is not None and kept.game is not None and kept.game.turn != moved.turn
    reads = counting_reads(store, monkeypatch)
    after = await click(service, game_id, moved, rng)
    assert reads == [game_id]  # the refusal's confirmation, whose read is then played on
    assert after.changed and after.record == await store.games.get(game_id)


async def test_a_stale_kept_game_is_written_over_by_nobody(
    store: Store, database: str | Path
) -> None:
    """Decided on a kept record another process replaced, a move that is legal on both
    fails its compare-and-set and is decided again on the game as stored."""
    service = GameService(store, seeds=lambda: 3)
    game_id = await started(service)
    async with Store(database) as elsewhere:
        await GameService(elsewhere).turns.move(game_id, BEN, 1, "action1", PASS)
    outcome = await service.turns.move(game_id, ANA, 1, "action1", PASS)
    assert [m.player_id for m in await store.games.moves(game_id)] == [BEN, ANA]
    assert outcome.record == await store.games.get(game_id)
    assert outcome.game is not None and outcome.game.to_json() == outcome.record.state


async def test_a_costly_move_is_asked_about_then_made_once(store: Store) -> None:
    service = GameService(store, seeds=lambda: 3)
    game_id = await started(service)
    game = (await service.keeper.read(game_id)).game
    assert game is not None
    move = next(m for m in game.legal_moves(ANA) if m != PASS)
    phase = game.decision().phase

    def always(game: Game, player: int, move: Move) -> bool:
        return True

    asked = await service.turns.move(game_id, ANA, 1, phase, move, where=HERE, costly=always)
    assert asked.kind == "asked" and await store.games.moves(game_id) == []
    made = await service.turns.move(game_id, ANA, 1, phase, move, where=HERE, confirmed=True)
    assert made.kind == "changed" and len(await store.games.moves(game_id)) == 1
    again = await service.turns.move(game_id, ANA, 1, phase, move, where=HERE, confirmed=True)
    assert again.kind == "chosen" and len(await store.games.moves(game_id)) == 1
    tapped = await service.turns.move(game_id, ANA, 1, phase, move, where=HERE)
    assert tapped.kind == "same" and len(await store.games.moves(game_id)) == 1


async def test_a_click_from_elsewhere_is_refused_before_anything_else(store: Store) -> None:
    service = GameService(store, seeds=lambda: 3)
    game_id = await started(service)
    for where in (Where(GUILD, CHANNEL + 1), Where(GUILD + 1, CHANNEL)):
        with pytest.raises(ServiceError) as refused:
            await service.turns.move(game_id, ANA, 9, "nonsense", PASS, where=where)
        assert refused.value.key == "error.other_channel"
        with pytest.raises(ServiceError) as refused:
            await service.turns.open_sheet(game_id, ANA, 1, where=where)
        assert refused.value.key == "error.other_channel"
    assert await store.games.moves(game_id) == []


async def test_the_events_of_a_change_are_those_it_stored(store: Store) -> None:
    """The channel tells its story from the events a change returns: exactly those the
    store holds since the version the change began from, computers' answers included."""
    service, rng = GameService(store, seeds=lambda: 5), random.Random(3)
    game_id = await started(service, computer=True)
    game = (await service.keeper.read(game_id)).game
    players: set[int | None] = set()
    for _ in range(8):
        assert game is not None
        before = len(await store.games.events(game_id))
        outcome = await click(service, game_id, game, rng)
        stored = (await store.games.events(game_id))[before:]
        assert outcome.since is not None and outcome.record.version > outcome.since
        assert [(e.turn, e.kind, e.player, e.data) for e in outcome.stored] == [
            (e.turn, e.kind, e.player, e.data) for e in stored
        ]
        players |= {e.player for e in stored}
        game = outcome.game
    assert any(is_computer(p) for p in players if p is not None)


async def test_opening_a_sheet_reads_once_and_brings_an_away_player_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(store, seeds=lambda: 3)
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic", play=Options(fill_away=True))
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    await service.turns.leave_game(CHANNEL, BEN)  # a computer plays Ben's seat now
    game = (await service.keeper.read(record.id)).game
    assert game is not None
    reads = counting_reads(store, monkeypatch)
    opened = await service.turns.open_sheet(record.id, ANA, game.turn, where=HERE)
    assert reads == [record.id] and not opened.changed
    back = await service.turns.open_sheet(record.id, BEN, game.turn, where=HERE)
    assert reads == [record.id] * 2 and back.changed
    assert back.events[0].kind == "away" and back.events[0].data == {"reason": "back"}
    assert BEN not in back.record.presence["away"]


async def test_what_a_channel_shows_rides_on_the_next_change(store: Store) -> None:
    """Shown later, the channel's state is stored by the game's next change; shown now,
    it is stored at once and what waited is dropped, never written over it."""
    service, rng = GameService(store, seeds=lambda: 3), random.Random(4)
    game_id = await started(service)
    first = await service.keeper.read(game_id)
    assert first.game is not None
    moved = await click(service, game_id, first.game, rng)
    service.keeper.show_later(moved.record, 77, {"turn": 1, "files": "dice"})
    assert (await store.games.get(game_id)).shown_version < moved.record.version  # type: ignore[union-attr]
    assert moved.game is not None
    after = await click(service, game_id, moved.game, rng)
    assert (after.record.shown_version, after.record.message_id) == (moved.record.version, 77)
    assert after.record.shown == {"turn": 1, "files": "dice"}
    assert after.record == await store.games.get(game_id)
    service.keeper.show_later(moved.record, 78, {"turn": 1, "files": "older"})
    shown = await service.keeper.show(after.record, 79, {"turn": 1, "files": "newer"})
    assert (shown.shown_version, shown.message_id) == (after.record.version, 79)
    assert after.game is not None
    last = await click(service, game_id, after.game, rng)
    assert (last.record.message_id, last.record.shown) == (79, {"turn": 1, "files": "newer"})
