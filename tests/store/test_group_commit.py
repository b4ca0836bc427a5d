"""SQLite's writer: transactions sent while one runs go together, each still atomic."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

import bot.store.sqlite as store_module
from bot.store import GameChange, GameRecord, Store, VersionConflict

from .helpers import HOST, counting_trips, make_running, query, sqlite_only, writer

pytestmark = sqlite_only
MOVE = (HOST, {"kind": "pass"}, "player")


async def games(store: Store, count: int) -> list[GameRecord]:
    return [await make_running(store, channel_id=1_000 + k) for k in range(count)]


async def test_transactions_sent_together_share_round_trips_and_all_land(
    store: Store, database: Path
) -> None:
    opened = await games(store, 30)
    trips = counting_trips(store, "_db")
    stored = await asyncio.gather(
        *(
            store.record_change(game.id, game.version, GameChange([MOVE], {"turn": game.id}))
            for game in opened
        )
    )
    assert 2 <= len(trips) < len(opened)
    assert [record.state for record in stored] == [{"turn": game.id} for game in opened]
    assert query(database, "SELECT COUNT(*) FROM moves")[0][0] == len(opened)


async def test_a_transaction_that_fails_undoes_only_itself(store: Store, database: Path) -> None:
    opened = await games(store, 6)
    stale = opened[3]

    def half_done(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE games SET message_id = 5 WHERE id = ?", (opened[0].id,))
        raise RuntimeError("changed its mind")

    results = await asyncio.gather(
        *(
            store.record_change(
                game.id, game.version - (game is stale), GameChange([MOVE], {"turn": 1})
            )
            for game in opened
        ),
        store._transact(half_done),
        return_exceptions=True,
    )
    assert isinstance(results[3], VersionConflict)
    assert isinstance(results[-1], RuntimeError)
    assert all(isinstance(r, GameRecord) for k, r in enumerate(results[:-1]) if k != 3)
    rows = dict(query(database, "SELECT id, version FROM games"))
    assert rows == {game.id: game.version + (game is not stale) for game in opened}
    assert query(database, "SELECT message_id FROM games WHERE id = ?", (opened[0].id,)) == [
        (None,)
    ]


async def test_a_caller_gone_meanwhile_holds_up_no_one(store: Store) -> None:
    opened = await games(store, 4)
    sent = [
        asyncio.ensure_future(
            store.record_change(game.id, game.version, GameChange([MOVE], {"turn": 1}))
        )
        for game in opened
    ]
    await asyncio.sleep(0)  # all four sent: the first runs, the others queue
    sent[2].cancel()
    await asyncio.gather(*sent, return_exceptions=True)
    later = await store.get_game(opened[3].id)
    assert later is not None and later.version == opened[3].version + 1
    assert (await store.get_game(opened[1].id)).version == opened[1].version + 1  # type: ignore[union-attr]


@pytest.mark.parametrize("count", [1, 5])
async def test_close_waits_for_what_was_sent(database: Path, count: int) -> None:
    store = await Store.open(database)
    opened = await games(store, count)
    sent = [
        asyncio.ensure_future(
            store.record_change(game.id, game.version, GameChange([MOVE], {"turn": 1}))
        )
        for game in opened
    ]
    await asyncio.sleep(0)  # sent: the first runs, the others queue
    await store.close()
    assert all(isinstance(done.result(), GameRecord) for done in sent)
    assert query(database, "SELECT COUNT(*) FROM moves")[0][0] == count


async def test_a_long_queue_goes_in_batches_of_bounded_size(
    store: Store, database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BATCH", 4)
    opened = await games(store, 13)
    trips = counting_trips(store, "_db")
    await asyncio.gather(
        *(
            store.record_change(game.id, game.version, GameChange([MOVE], {"turn": 1}))
            for game in opened
        )
    )
    assert len(trips) == 1 + 3  # the first alone, then the twelve queued meanwhile by four
    assert query(database, "SELECT COUNT(*) FROM moves")[0][0] == 13


async def test_a_failure_that_wrote_nothing_needs_no_savepoints(store: Store) -> None:
    """Most failures in a batch write nothing (a refused click, a lost compare-and-set):
    the others then run once, with no savepoint statement; only a failure after
    writing makes the batch go again, each under a savepoint."""
    game = await make_running(store)
    runs: list[object] = []
    statements: list[str] = []
    await writer(store).run(lambda conn: conn.set_trace_callback(statements.append))

    def sets(message_id: int) -> Callable[[sqlite3.Connection], int]:
        def work(conn: sqlite3.Connection) -> int:
            runs.append(message_id)
            conn.execute("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game.id))
            return message_id

        return work

    def refuses(conn: sqlite3.Connection) -> None:
        runs.append("refused")
        raise ValueError("no")

    results = await asyncio.gather(
        *(store._transact(w) for w in (sets(1), sets(2), refuses, sets(3))), return_exceptions=True
    )
    assert results[:2] + results[3:] == [1, 2, 3] and isinstance(results[2], ValueError)
    assert runs == [1, 2, "refused", 3]
    assert not any("SAVEPOINT" in s for s in statements)
    assert (await store.get_game(game.id)).message_id == 3  # type: ignore[union-attr]
