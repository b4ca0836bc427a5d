"""The click path: one transaction in one round trip, reads beside writes, no idle writes."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.store import GameChange, GameNotFound, GameRecord, Store, Timing, WrongStatus
from bot.store.records import GAME_COLUMNS, game_from_row
from bot.store.stats import GameResults, PlayerResult

from .helpers import (
    GUILD,
    HOST,
    PLAYER2,
    FakeClock,
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


async def test_change_game_is_one_round_trip_and_no_read(store: Store) -> None:
    game = await make_running(store)
    writes, reads = counting_trips(store, "_db"), counting_trips(store, "_reader")

    def decide(record: GameRecord) -> tuple[GameChange, str]:
        assert record == game
        return change(), "seen"

    record, value = await store.change_game(game.id, decide)
    assert (len(writes), reads, value) == (1, [], "seen")
    assert record.version == game.version + 1


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
    record, _ = await store.change_game(game.id, lambda r: (change(**fields), None))
    assert record == await store.get_game(game.id) == decoded(database, game.id)
    recorded = (
        await store.record_change(record.id, record.version, change())
        if record.status == "running"
        else record
    )
    assert recorded == await store.get_game(game.id) == decoded(database, game.id)


def decoded(database: str | Path, game_id: int) -> GameRecord:
    """The game's row decoded afresh (a store's reads may hand back the record it kept)."""
    return game_from_row(
        query(database, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))[0]
    )


async def test_an_unchanged_presence_is_not_written_again(
    store: Store, database: str | Path
) -> None:
    game = await make_running(store)
    away = {"away": [PLAYER2], "streak": {str(HOST): 0}}
    first, _ = await store.change_game(game.id, lambda r: (change(presence=away), None))
    again, _ = await store.change_game(
        game.id, lambda r: (change(presence={"streak": {str(HOST): 0}, "away": [PLAYER2]}), None)
    )
    assert first.presence == again.presence == away
    assert again == decoded(database, game.id)
    assert query(database, "SELECT presence FROM games WHERE id = ?", (game.id,)) == [
        (f'{{"away":[{PLAYER2}],"streak":{{"{HOST}":0}}}}',)
    ]


async def test_a_refusal_in_decide_writes_nothing(store: Store) -> None:
    game = await make_running(store)

    def decide(record: GameRecord) -> tuple[GameChange, None]:
        raise LookupError("not your turn")

    with pytest.raises(LookupError):
        await store.change_game(game.id, decide)
    assert await store.get_game(game.id) == game
    assert await store.moves(game.id) == []
    # The writer is free again: the next change goes through.
    record, _ = await store.change_game(game.id, lambda r: (change(), None))
    assert record.version == game.version + 1


async def test_nothing_to_change_keeps_the_version(store: Store) -> None:
    game = await make_running(store)
    record, value = await store.change_game(game.id, lambda r: (None, r.version))
    assert record == game and value == game.version
    assert await store.get_game(game.id) == game


async def test_change_game_refuses_unknown_and_stopped_games(store: Store) -> None:
    lobby = await make_lobby(store)
    with pytest.raises(GameNotFound):
        await store.change_game(lobby.id + 50, lambda r: (change(), None))
    with pytest.raises(WrongStatus):
        await store.change_game(lobby.id, lambda r: (change(), None))
    with pytest.raises(ValueError, match="results"):
        await store.change_game(lobby.id, lambda r: (change(results=GameResults(1, ())), None))


async def test_reads_do_not_wait_behind_a_write(store: Store) -> None:
    """While the writer's thread is held inside a transaction, reads still answer and
    see the last committed state."""
    game = await make_running(store)
    inside, release = threading.Event(), threading.Event()

    def held(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE games SET state = '{}' WHERE id = ?", (game.id,))
        inside.set()
        release.wait(PATIENCE)

    writing = asyncio.ensure_future(store._transact(held))
    try:
        assert await asyncio.to_thread(inside.wait, PATIENCE)
        found = await asyncio.wait_for(store.get_game(game.id), PATIENCE)
        assert found == game
        assert await asyncio.wait_for(store.leaderboard_totals(GUILD), PATIENCE) == []
    finally:
        release.set()
        await writing
    assert (await store.get_game(game.id) or game).state == {}


async def test_an_unchanged_name_is_not_written(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    await store.remember_name(GUILD, HOST, "Ana")
    writes = counting_trips(store, "_db")
    clock.tick()
    await store.remember_name(GUILD, HOST, "Ana")
    assert writes == []
    # Another process (no memory of it) writes no row either: updated_at stays.
    async with Store(database, clock=clock) as other:
        await other.remember_name(GUILD, HOST, "Ana")
        await other.remember_name(GUILD, PLAYER2, "Ben")
    rows = query(database, "SELECT user_id, name, updated_at FROM player_names ORDER BY user_id")
    assert rows == [(HOST, "Ana", clock.now - 1), (PLAYER2, "Ben", clock.now)]
    clock.tick()
    await store.remember_name(GUILD, HOST, "Ana B.")
    assert await store.names(GUILD, [HOST]) == {HOST: "Ana B."}


@sqlite_only
async def test_writer_is_in_wal_mode_with_normal_sync(store: Store) -> None:
    def pragmas(conn: sqlite3.Connection) -> tuple[str, int]:
        return (
            conn.execute("PRAGMA journal_mode").fetchone()[0],
            conn.execute("PRAGMA synchronous").fetchone()[0],
        )

    assert await store._transact(pragmas) == ("wal", 1)  # 1: NORMAL


@sqlite_only
async def test_checkpoints_run_beside_the_writes(store: Store, db_path: Path) -> None:
    game = await make_running(store)
    for _ in range(450):  # past two checkpoints
        await store.set_message(game.id, 1)
    checkpointing = store._engine.checkpointing  # type: ignore[attr-defined]
    assert checkpointing is not None
    await checkpointing
    await store.close()
    with sqlite3.connect(db_path) as check:
        assert check.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert check.execute("SELECT message_id FROM games").fetchone() == (1,)


async def test_clicks_from_two_processes_each_decide_on_the_latest_state(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    """Clicks racing through two stores (and PostgreSQL's several writers) never decide
    on a state another click already replaced: none fails, none is lost."""
    game = await make_running(store)
    seen: list[int] = []

    def decide(record: GameRecord) -> tuple[GameChange, None]:
        seen.append(record.version)
        return change(), None

    async with Store(database, clock=clock) as other:
        await asyncio.gather(*(s.change_game(game.id, decide) for s in (store, other) * 4))
    assert sorted(seen) == list(range(game.version, game.version + 8))
    assert len(await store.moves(game.id)) == 8
