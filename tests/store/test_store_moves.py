"""Moves, compare-and-set and concurrency."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.records.errors import ChannelBusy, StoreError, VersionConflict
from bot.records.games import GameChange, MoveRecord
from bot.store import Store
from tests.fakes import FakeClock

from .helpers import HOST, PLAYER2, make_running, play, sqlite_only


async def test_moves_append_in_order(store: Store, clock: FakeClock) -> None:
    game = await make_running(store)
    stamps = []
    for turn in range(1, 4):
        stamps.append(clock.tick())
        player = HOST if turn % 2 else PLAYER2
        game = await play(store, game, player, {"turn": turn, "cross": ["red", 5]}, {"turn": turn})
        assert game.state == {"turn": turn}
    assert game.version == 6
    assert game.status == "running"
    moves = await store.games.moves(game.id)
    assert [m.seq for m in moves] == [1, 2, 3]
    assert moves[0] == MoveRecord(game.id, 1, HOST, {"turn": 1, "cross": ["red", 5]}, stamps[0])
    assert [m.created_at for m in moves] == stamps
    assert [m.player_id for m in moves] == [HOST, PLAYER2, HOST]
    assert await store.games.moves(game.id + 100) == []


async def test_seq_is_per_game(store: Store) -> None:
    a = await make_running(store, channel_id=1)
    b = await make_running(store, channel_id=2)
    a = await play(store, a, HOST, {"g": "a"}, {})
    b = await play(store, b, HOST, {"g": "b"}, {})
    a = await play(store, a, HOST, {"g": "a"}, {})
    assert [(m.seq, m.move) for m in await store.games.moves(a.id)] == [
        (1, {"g": "a"}),
        (2, {"g": "a"}),
    ]
    assert [(m.seq, m.move) for m in await store.games.moves(b.id)] == [(1, {"g": "b"})]


async def test_stale_version_conflicts_and_appends_nothing(store: Store) -> None:
    game = await make_running(store)
    won = await play(store, game, HOST, {"n": 1}, {"winner": 1})
    with pytest.raises(VersionConflict) as info:
        await play(store, game, PLAYER2, {"n": 2}, {"winner": 2})
    assert (info.value.expected, info.value.actual) == (game.version, won.version)
    assert await store.games.get(game.id) == won
    assert [m.move for m in await store.games.moves(game.id)] == [{"n": 1}]


async def test_future_version_conflicts(store: Store) -> None:
    game = await make_running(store)
    with pytest.raises(VersionConflict):
        await play(store, replace(game, version=game.version + 1), HOST, {}, {"x": 1})
    assert await store.games.get(game.id) == game
    assert await store.games.moves(game.id) == []


async def test_invalid_status_argument(store: Store) -> None:
    game = await make_running(store)
    with pytest.raises(ValueError):
        await play(store, game, HOST, {}, {}, status="lobby")
    assert await store.games.get(game.id) == game


async def test_moves_may_end_a_game_without_ranking(store: Store) -> None:
    """Seats given up: the last moves and the end are one transaction, with no results."""
    game = await make_running(store)
    change = GameChange([(HOST, {"kind": "pass"}, "away")], {"s": 1}, status="abandoned")
    ended = (await store.games.change(game, change)).record
    assert ended.status == "abandoned" and ended.finished_at is not None
    assert [(m.player_id, m.source) for m in await store.games.moves(game.id)] == [(HOST, "away")]
    assert await store.games.due(now=10**12) == []


@sqlite_only  # a trigger in SQLite's syntax; test_stats_store has the backend-neutral case
async def test_state_rolls_back_when_move_insert_fails(store: Store, db_path: Path) -> None:
    """The state update and the move insert share one transaction."""
    game = await make_running(store)
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "CREATE TRIGGER no_moves BEFORE INSERT ON moves "
            "BEGIN SELECT RAISE(ABORT, 'moves are frozen'); END"
        )
    with pytest.raises(StoreError, match="frozen"):
        await play(store, game, HOST, {"n": 1}, {"changed": True})
    assert await store.games.get(game.id) == game
    assert await store.games.moves(game.id) == []
    # The connection is usable again afterwards (no transaction left open).
    with sqlite3.connect(db_path) as conn:
        conn.execute("DROP TRIGGER no_moves")
    after = await play(store, game, HOST, {"n": 1}, {"changed": True})
    assert after.version == game.version + 1


def _outcomes(results: list[object]) -> tuple[list[object], list[BaseException]]:
    wins = [r for r in results if not isinstance(r, BaseException)]
    losses = [r for r in results if isinstance(r, BaseException)]
    return wins, losses


async def test_concurrent_moves_same_store(store: Store) -> None:
    game = await make_running(store)
    for round_ in range(10):
        results = await asyncio.gather(
            play(store, game, HOST, {"by": "host"}, {"r": round_}),
            play(store, game, PLAYER2, {"by": "p2"}, {"r": round_}),
            return_exceptions=True,
        )
        wins, losses = _outcomes(results)
        assert len(wins) == 1 and len(losses) == 1
        assert isinstance(losses[0], VersionConflict)
        game = wins[0]  # type: ignore[assignment]
        assert game.version == 4 + round_
    assert [m.seq for m in await store.games.moves(game.id)] == list(range(1, 11))


async def test_concurrent_moves_two_connections(db_path: Path, clock: FakeClock) -> None:
    async with Store(db_path, clock=clock) as one, Store(db_path, clock=clock) as two:
        game = await make_running(one)
        for round_ in range(20):
            results = await asyncio.gather(
                play(one, game, HOST, {"by": 1}, {"r": round_}),
                play(two, game, PLAYER2, {"by": 2}, {"r": round_}),
                return_exceptions=True,
            )
            wins, losses = _outcomes(results)
            assert len(wins) == 1, results
            assert len(losses) == 1 and isinstance(losses[0], VersionConflict), results
            game = wins[0]  # type: ignore[assignment]
        assert game.version == 3 + 20
        moves = await two.games.moves(game.id)
        assert [m.seq for m in moves] == list(range(1, 21))
        assert await one.games.get(game.id) == await two.games.get(game.id) == game


async def test_concurrent_create_in_one_channel(db_path: Path) -> None:
    async with Store(db_path) as one, Store(db_path) as two:
        results = await asyncio.gather(
            one.games.create(1, 7, HOST, "qwixx", {}, 1),
            two.games.create(1, 7, PLAYER2, "qwixx", {}, 2),
            return_exceptions=True,
        )
        wins, losses = _outcomes(results)
        assert len(wins) == 1 and len(losses) == 1
        assert isinstance(losses[0], ChannelBusy)
