"""The decoded rows a store keeps: used only while the row is exactly as kept."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.records.games import GameChange, GameRecord
from bot.store import Store
from bot.store.cache import RecordCache
from bot.store.changes import store_change
from bot.store.dialect import to_postgres
from bot.store.engine import Tx
from bot.store.records import GAME_COLUMNS, game_from_row
from tests.fakes import FakeClock

from .helpers import HOST, make_running, query

MOVE = (HOST, {"kind": "pass"}, "player")


def write_raw(database: str | Path, sql: str, params: tuple[Any, ...]) -> None:
    """Change the database behind the store's back, as another process would."""
    if isinstance(database, Path):
        with closing(sqlite3.connect(database)) as conn, conn:
            conn.execute(sql, params)
        return
    with psycopg.connect(database) as conn:
        conn.execute(to_postgres(sql), params)


async def seen(store: Store, game_id: int) -> GameRecord:
    """The record a click reads."""
    record = await store.games.get(game_id)
    assert record is not None
    return record


async def step(store: Store, game_id: int, turn: int) -> GameRecord:
    """A click: the game read, a move stored on it."""
    change = GameChange([MOVE], {"turn": turn})
    return (await store.games.change(await seen(store, game_id), change)).record


async def test_a_click_reads_the_record_the_last_write_left(store: Store) -> None:
    game = await make_running(store)
    written = await step(store, game.id, 1)
    assert await seen(store, game.id) is written  # not decoded again
    assert store.games._records.hits >= 1


async def test_a_write_by_another_store_is_seen(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    game = await make_running(store)
    await step(store, game.id, 1)
    async with Store(database, clock=clock) as other:
        await step(other, game.id, 2)
        await other.games.set_message(game.id, 777)
    found = await seen(store, game.id)
    assert (found.state, found.version, found.message_id) == ({"turn": 2}, game.version + 2, 777)
    assert found == await store.games.get(game.id)


async def test_a_row_changed_without_a_version_bump_is_decoded_afresh(
    store: Store, database: str | Path
) -> None:
    game = await make_running(store)
    before = await step(store, game.id, 1)
    write_raw(
        database,
        "UPDATE games SET state = ?, shown = ? WHERE id = ?",
        ('{"turn":9}', '{"turn":9}', game.id),
    )
    found = await seen(store, game.id)
    assert found.version == before.version
    assert (found.state, found.shown) == ({"turn": 9}, {"turn": 9})


async def test_the_kept_row_is_the_row_a_read_finds(store: Store, database: str | Path) -> None:
    game = await make_running(store)
    await step(store, game.id, 1)
    kept_row, _ = store.games._records._rows[game.id]
    assert (
        kept_row == query(database, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game.id,))[0]
    )


def row(game_id: int, state: str, version: int) -> tuple[Any, ...]:
    return (
        game_id,
        1,
        2,
        None,
        3,
        "classic",
        "{}",
        7,
        "[3]",
        state,
        "running",
        version,
        1.0,
        2.0,
        None,
        60,
        None,
        None,
        0,
        "{}",
        0,
        "{}",
        None,
    )


async def test_a_write_that_never_committed_is_a_miss_not_a_wrong_answer(
    store: Store,
) -> None:
    game = await make_running(store)

    async def rolled_back(tx: Tx) -> None:
        await store_change(tx, game, GameChange([MOVE], {"turn": 2}), 5.0, store.games._records)
        raise RuntimeError("rolled back after all")

    with pytest.raises(RuntimeError):
        await store.engine.transact(rolled_back)
    found = await seen(store, game.id)
    assert found == game and found.state == game.state


def test_the_cache_stays_within_its_size() -> None:
    cache = RecordCache(kept=2)
    for game_id in range(1, 6):
        cache.record(row(game_id, "{}", 1))
    assert 1 <= len(cache._rows) <= 2
    assert cache.record(row(5, "{}", 1)).id == 5 and cache.hits == 1


def test_an_ended_game_is_let_go() -> None:
    cache = RecordCache()
    cache.record(row(1, '{"turn":1}', 4))
    assert 1 in cache._rows
    cache.record((*row(1, "{}", 5)[:10], "finished", *row(1, "{}", 5)[11:]))
    assert 1 not in cache._rows
    finished = (*row(2, "{}", 1)[:10], "abandoned", *row(2, "{}", 1)[11:])
    assert cache.record(finished).status == "abandoned" and 2 not in cache._rows


def test_kept_rows_share_the_texts_of_the_columns_of_few_values() -> None:
    cache = RecordCache()
    fresh = "".join(["run", "ning"])  # a string of its own, as a row read makes
    first = cache.record((*row(1, '{"turn":1}', 4)[:10], fresh, *row(1, "{}", 4)[11:]))
    second = cache.record(row(2, '{"turn":1}', 4))
    assert first.status is second.status is cache._rows[1][0][10] is cache._rows[2][0][10]
    assert first.variant is second.variant and first.state == {"turn": 1}
    assert cache.record(row(1, '{"turn":1}', 4)) is first  # still the row kept


async def test_a_change_keeps_the_decoded_values_of_the_columns_it_left(
    store: Store, database: str | Path
) -> None:
    game = await make_running(store)
    moved = (await store.games.change(game, GameChange([MOVE], {"turn": 1}))).record
    assert moved.options is game.options and moved.players is game.players
    assert moved.presence is game.presence and moved.shown is game.shown
    away = {"away": [HOST], "streak": {}}
    left = (await store.games.change(moved, GameChange([MOVE], {"turn": 2}, presence=away))).record
    assert left.presence == away and left.players is game.players
    fresh = game_from_row(
        query(database, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game.id,))[0]
    )
    assert left == fresh and left.state == {"turn": 2}
