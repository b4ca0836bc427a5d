"""The click path: a change that reads nothing, reads beside writes, no idle writes."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.records.errors import GameNotFound, ReadFailed, StoreError, VersionConflict, WrongStatus
from bot.records.games import (
    GameChange,
    GameRecord,
    GameResults,
    PlayerResult,
    Showing,
    StoredEvent,
    Timing,
)
from bot.store import Store
from bot.store.engine import Tx
from bot.store.records import GAME_COLUMNS, game_from_row
from tests.fakes import FakeClock

from .helpers import (
    GUILD,
    HOST,
    PLAYER2,
    Held,
    counting_trips,
    make_lobby,
    make_running,
    query,
    sqlite_only,
)

MOVE = (HOST, {"kind": "cross", "row": "red", "number": 2}, "player")
PATIENCE = 30.0  # seconds before a hang counts as a failure (never a speed check)


def change(**fields: Any) -> GameChange:
    values: dict[str, Any] = {"moves": [MOVE], "state": {"turn": 2, "dice": [1, 2]}}
    values.update(fields)
    return GameChange(**values)


def decoded(database: str | Path, game_id: int) -> GameRecord:
    """The game's row decoded afresh (a store's reads may hand back the record it kept)."""
    return game_from_row(
        query(database, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))[0]
    )


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {
            "timing": Timing(1.0, 2.0, 1, 2.0),
            "presence": {"away": [PLAYER2]},
            "events": [(2, "cross", HOST, {"row": "red"})],
        },
        {"status": "abandoned", "events": [(2, "game_over", None, {"reason": "no_seats"})]},
        {
            "status": "finished",
            "results": GameResults(
                9, (PlayerResult(HOST, 0, 30, 1, True), PlayerResult(PLAYER2, 1, 20, 2, False))
            ),
        },
    ],
)
async def test_the_record_after_a_change_is_what_a_read_finds(
    store: Store, clock: FakeClock, fields: dict[str, Any], database: str | Path
) -> None:
    game = await make_running(store)
    clock.tick(5)
    record = (await store.games.change(game, change(**fields))).record
    assert record == await store.games.get(game.id) == decoded(database, game.id)
    if record.status == "running":
        record = (await store.games.change(record, change())).record
    assert record == await store.games.get(game.id) == decoded(database, game.id)


async def test_the_columns_a_change_leaves_are_as_stored_not_as_the_caller_saw_them(
    store: Store, database: str | Path
) -> None:
    """The channel's columns move without a version bump: a change made on a record
    read before they moved returns them as they are now."""
    game = await make_running(store)
    shown = await store.games.set_shown(game, 42, {"turn": 1})
    assert shown == decoded(database, game.id)
    record = (await store.games.change(game, change())).record
    assert (record.message_id, record.shown, record.shown_version) == (42, {"turn": 1}, 3)
    assert record == decoded(database, game.id)


async def test_the_events_a_change_returns_are_what_a_read_finds(store: Store) -> None:
    game = await make_running(store)
    first = await store.games.change(game, change(events=[(1, "roll", HOST, {"dice": [1]})]))
    events = [(1, "cross", HOST, {"row": "red"}), (2, "turn", None, {}), (2, "pass", PLAYER2, {})]
    second = await store.games.change(first.record, change(events=events))
    assert first.events == (StoredEvent(1, 1, "roll", HOST, {"dice": [1]}),)
    assert [(e.seq, e.turn, e.kind) for e in second.events] == [
        (2, 1, "cross"),
        (3, 2, "turn"),
        (4, 2, "pass"),
    ]
    assert [*first.events, *second.events] == await store.games.events(game.id)
    assert list(second.events[1:]) == await store.games.events(game.id, first_turn=2)


async def test_several_moves_are_numbered_in_the_order_applied(store: Store) -> None:
    game = await make_running(store)
    first = await store.games.change(game, change())
    moves = [(PLAYER2, {"n": k}, "computer") for k in range(3)]
    await store.games.change(first.record, change(moves=moves))
    stored = await store.games.moves(game.id)
    assert [(m.seq, m.player_id, m.move, m.source) for m in stored] == [
        (1, HOST, MOVE[1], "player"),
        *((k + 2, PLAYER2, {"n": k}, "computer") for k in range(3)),
    ]


async def test_an_unchanged_presence_is_not_written_again(
    store: Store, database: str | Path
) -> None:
    game = await make_running(store)
    away = {"away": [PLAYER2], "streak": {str(HOST): 0}}
    first = (await store.games.change(game, change(presence=away))).record
    same = {"streak": {str(HOST): 0}, "away": [PLAYER2]}
    again = (await store.games.change(first, change(presence=same))).record
    assert first.presence == again.presence == away
    assert again == decoded(database, game.id)
    assert query(database, "SELECT presence FROM games WHERE id = ?", (game.id,)) == [
        (f'{{"away":[{PLAYER2}],"streak":{{"{HOST}":0}}}}',)
    ]


async def test_a_change_on_a_stale_record_conflicts_and_writes_nothing(store: Store) -> None:
    game = await make_running(store)
    moved = (await store.games.change(game, change())).record
    with pytest.raises(VersionConflict) as info:
        await store.games.change(game, change(events=[(2, "cross", HOST, {})]))
    assert (info.value.expected, info.value.actual) == (game.version, moved.version)
    assert await store.games.get(game.id) == moved
    assert len(await store.games.moves(game.id)) == 1
    assert await store.games.events(game.id) == []


async def test_a_change_refuses_unknown_and_stopped_games(store: Store) -> None:
    lobby = await make_lobby(store)
    with pytest.raises(GameNotFound):
        await store.games.change(replace(lobby, id=lobby.id + 50), change())
    with pytest.raises(WrongStatus):
        await store.games.change(lobby, change())
    with pytest.raises(ValueError, match="results"):
        await store.games.change(lobby, change(results=GameResults(1, ())))
    assert await store.games.get(lobby.id) == lobby


async def test_reads_do_not_wait_behind_a_write(store: Store) -> None:
    """While a transaction is open on the writer, reads still answer and see the last
    committed state."""
    game = await make_running(store)
    held = Held(store, PATIENCE)

    async def work(tx: Tx) -> None:
        await tx.execute("UPDATE games SET state = '{}' WHERE id = ?", (game.id,))
        await held.hold()

    writing = asyncio.ensure_future(store.engine.transact(work))
    try:
        await held.inside()
        found = await asyncio.wait_for(store.games.get(game.id), PATIENCE)
        assert found == game
        assert await asyncio.wait_for(store.stats.leaderboard(GUILD), PATIENCE) == []
    finally:
        held.release()
        await writing
    assert (await store.games.get(game.id) or game).state == {}


async def test_an_unchanged_name_is_not_written(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    await store.names.remember(GUILD, HOST, "Ana")
    writes = counting_trips(store, "_db")
    clock.tick()
    await store.names.remember(GUILD, HOST, "Ana")
    assert writes == []
    # Another process (no memory of it) writes no row either: updated_at stays.
    async with Store(database, clock=clock) as other:
        await other.names.remember(GUILD, HOST, "Ana")
        await other.names.remember(GUILD, PLAYER2, "Ben")
    rows = query(database, "SELECT user_id, name, updated_at FROM player_names ORDER BY user_id")
    assert rows == [(HOST, "Ana", clock.now - 1), (PLAYER2, "Ben", clock.now)]
    clock.tick()
    await store.names.remember(GUILD, HOST, "Ana B.")
    assert await store.names.of(GUILD, [HOST, PLAYER2]) == {HOST: "Ana B.", PLAYER2: "Ben"}


async def test_names_and_settings_once_read_are_not_read_again(store: Store) -> None:
    await store.names.remember(GUILD, HOST, "Ana")
    await store.settings.set_language(GUILD, "de")
    reads = counting_trips(store, "_reader")
    assert await store.names.of(GUILD, [HOST]) == {HOST: "Ana"}
    assert await store.settings.language(GUILD) == "de"
    assert await store.settings.turn_time(GUILD) is None
    assert reads == []
    assert await store.names.of(GUILD, [HOST, PLAYER2]) == {HOST: "Ana"}
    assert len(reads) == 1 and "player_names" in reads[0]
    assert await store.settings.language(GUILD + 1) is None
    assert await store.settings.language(GUILD + 1) is None
    assert len(reads) == 2


@sqlite_only
async def test_writer_is_in_wal_mode_with_normal_sync(store: Store) -> None:
    async def pragmas(tx: Tx) -> tuple[str, int]:
        return (
            (await tx.fetch("PRAGMA journal_mode"))[0][0],
            (await tx.fetch("PRAGMA synchronous"))[0][0],
        )

    assert await store.engine.transact(pragmas) == ("wal", 1)  # 1: NORMAL


@sqlite_only
async def test_checkpoints_run_beside_the_writes(store: Store, db_path: Path) -> None:
    game = await make_running(store)
    for _ in range(450):  # past two checkpoints
        await store.games.set_message(game.id, 1)
    checkpointing = store.engine.checkpointing  # type: ignore[attr-defined]
    assert checkpointing is not None
    await checkpointing
    await store.close()
    with sqlite3.connect(db_path) as check:
        assert check.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert check.execute("SELECT message_id FROM games").fetchone() == (1,)


async def test_clicks_from_two_processes_never_store_on_a_replaced_state(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    """Clicks racing through two stores (and PostgreSQL's several writers): each is
    stored on the version it read or refused, and stored on the state that replaced it
    once read again; none is lost."""
    game = await make_running(store)
    conflicts: list[int] = []

    async def click(s: Store) -> int:
        while True:
            record = await s.games.get(game.id)
            assert record is not None
            try:
                return (await s.games.change(record, change())).record.version
            except VersionConflict as conflict:
                conflicts.append(conflict.expected)

    async with Store(database, clock=clock) as other:
        versions = await asyncio.gather(*(click(s) for s in (store, other) * 4))
    assert sorted(versions) == list(range(game.version + 1, game.version + 9))
    assert len(await store.games.moves(game.id)) == 8


async def test_a_change_stores_what_the_channel_shows_unless_it_shows_as_new_already(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    game = await make_running(store)  # version 3, shown 1
    await store.games.mark_behind(game.id, clock.now)
    moved = (await store.games.change(game, change())).record  # version 4
    showing = Showing(moved.version, 7, {"turn": 2})
    carried = (await store.games.change(moved, change(), showing)).record  # version 5
    assert (carried.shown_version, carried.message_id, carried.shown) == (4, 7, {"turn": 2})
    assert carried.behind_since is None  # brought up to the version it had: no longer behind
    assert carried == decoded(database, game.id)
    shown = await store.games.set_shown(carried, 8, {"turn": 3})  # version 5, shown now
    late = Showing(carried.version, 9, {"turn": "late"})  # an older sync of the same version
    after = (await store.games.change(shown, change(), late)).record
    assert (after.shown_version, after.message_id, after.shown) == (5, 8, {"turn": 3})
    assert after.version == 6 and after == decoded(database, game.id)


async def test_a_read_that_fails_says_so_apart_from_a_write_that_fails(store: Store) -> None:
    with pytest.raises(ReadFailed):
        await store.engine.fetch("SELECT nothing FROM nowhere")
    with pytest.raises(StoreError) as failed:
        await store.engine.transact(lambda tx: tx.fetch("SELECT nothing FROM nowhere"))
    assert not isinstance(failed.value, ReadFailed)
