"""SQLite's writer: transactions sent while one runs go together, each still atomic."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

import bot.store.sqlite as engine_module
from bot.records.errors import VersionConflict
from bot.records.games import GameChange, GameRecord
from bot.store import Store
from bot.store.engine import Tx

from .helpers import HOST, Held, make_running, query, sqlite_only

pytestmark = sqlite_only
MOVE = (HOST, {"kind": "pass"}, "player")
PATIENCE = 30.0  # seconds before a hang counts as a failure (never a speed check)


async def games(store: Store, count: int) -> list[GameRecord]:
    return [await make_running(store, channel_id=1_000 + k) for k in range(count)]


async def heard(store: Store) -> list[str]:
    """Every statement the store's connections run from now on."""
    statements: list[str] = []
    await store.engine.watch(statements.append)  # type: ignore[attr-defined]
    return statements


def commits(statements: list[str]) -> int:
    return statements.count("COMMIT")


async def test_transactions_sent_together_share_commits_and_all_land(
    store: Store, database: Path
) -> None:
    opened = await games(store, 30)
    statements = await heard(store)
    stored = await asyncio.gather(
        *(store.games.change(game, GameChange([MOVE], {"turn": game.id})) for game in opened)
    )
    assert 2 <= commits(statements) < len(opened)
    assert [changed.record.state for changed in stored] == [{"turn": game.id} for game in opened]
    assert query(database, "SELECT COUNT(*) FROM moves")[0][0] == len(opened)


async def test_a_transaction_that_fails_undoes_only_itself(store: Store, database: Path) -> None:
    opened = await games(store, 6)
    stale = opened[3]

    async def half_done(tx: Tx) -> None:
        await tx.execute("UPDATE games SET message_id = 5 WHERE id = ?", (opened[0].id,))
        raise RuntimeError("changed its mind")

    results = await asyncio.gather(
        *(
            store.games.change(
                replace(game, version=game.version - (game is stale)),
                GameChange([MOVE], {"turn": 1}),
            )
            for game in opened
        ),
        store.engine.transact(half_done),
        return_exceptions=True,
    )
    assert isinstance(results[3], VersionConflict)
    assert isinstance(results[-1], RuntimeError)
    assert all(not isinstance(r, BaseException) for k, r in enumerate(results[:-1]) if k != 3)
    rows = dict(query(database, "SELECT id, version FROM games"))
    assert rows == {game.id: game.version + (game is not stale) for game in opened}
    assert query(database, "SELECT message_id FROM games WHERE id = ?", (opened[0].id,)) == [
        (None,)
    ]


async def test_a_caller_gone_meanwhile_holds_up_no_one_and_is_not_stored(
    store: Store, database: Path
) -> None:
    opened = await games(store, 4)
    sent = [
        asyncio.ensure_future(store.games.change(game, GameChange([MOVE], {"turn": 1})))
        for game in opened
    ]
    await asyncio.sleep(0)  # all four sent: the first runs, the others queue
    sent[2].cancel()
    await asyncio.gather(*sent, return_exceptions=True)
    versions = dict(query(database, "SELECT id, version FROM games"))
    assert [versions[game.id] - game.version for game in opened] == [1, 1, 0, 1]


async def test_a_caller_cancelled_mid_transaction_leaves_nothing_and_the_writer_free(
    store: Store, database: Path
) -> None:
    game = await make_running(store)
    held = Held(store, PATIENCE)

    async def slow(tx: Tx) -> None:
        await tx.execute("UPDATE games SET message_id = 7 WHERE id = ?", (game.id,))
        await held.hold()

    stuck = asyncio.ensure_future(store.engine.transact(slow))
    await held.inside()
    stuck.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stuck
    held.release()  # the work ends, and its caller is gone: undone, not committed
    after = await store.games.change(game, GameChange([MOVE], {"turn": 1}))
    assert after.record.version == game.version + 1
    assert query(database, "SELECT message_id FROM games")[0][0] is None


async def test_a_caller_gone_while_its_batch_runs_is_left_out_of_it(
    store: Store, database: Path
) -> None:
    opened = await games(store, 4)
    held = Held(store, PATIENCE)

    async def first(tx: Tx) -> None:
        await held.hold()

    holding = asyncio.ensure_future(store.engine.transact(first))
    await held.inside()
    sent = [
        asyncio.ensure_future(store.games.change(game, GameChange([MOVE], {"turn": 1})))
        for game in opened
    ]
    await asyncio.sleep(0)  # all four queued behind the first
    sent[1].cancel()
    held.release()
    await holding
    await asyncio.gather(*sent, return_exceptions=True)
    versions = dict(query(database, "SELECT id, version FROM games"))
    assert [versions[game.id] - game.version for game in opened] == [1, 0, 1, 1]


async def test_a_transaction_is_one_call_to_the_writers_thread(store: Store) -> None:
    """BEGIN, the statements and COMMIT run inside one call (SQLite's trace marks the
    statements run inside another with ``--``); transactions sent together, one call
    a batch."""
    opened = await games(store, 30)
    statements: list[str] = []
    writer = store.engine.writer  # type: ignore[attr-defined]
    await writer.set_trace_callback(statements.append)
    await store.games.change(opened[0], GameChange([MOVE], {"turn": 1}))
    call, *inside = statements
    assert call.startswith(f"SELECT {engine_module.RUN_FUNCTION}(")
    assert all(s.startswith("-- ") for s in inside)
    assert (inside[0], inside[-1]) == ("-- BEGIN IMMEDIATE", "-- COMMIT")
    statements.clear()
    await asyncio.gather(
        *(store.games.change(game, GameChange([MOVE], {"turn": 2})) for game in opened[1:])
    )
    calls = [s for s in statements if not s.startswith("-- ")]
    assert len(calls) == commits([s.removeprefix("-- ") for s in statements]) == 2


async def test_a_work_that_awaits_anything_but_its_tx_is_refused_and_undone(
    store: Store, database: Path
) -> None:
    game = await make_running(store)

    async def waits(tx: Tx) -> None:
        await tx.execute("UPDATE games SET message_id = 8 WHERE id = ?", (game.id,))
        await asyncio.sleep(0)

    with pytest.raises(engine_module.AwaitsOutside):
        await store.engine.transact(waits)
    assert query(database, "SELECT message_id FROM games")[0][0] is None
    after = await store.games.change(game, GameChange([MOVE], {"turn": 1}))
    assert after.record.version == game.version + 1


@pytest.mark.parametrize("count", [1, 5])
async def test_close_waits_for_what_was_sent(database: Path, count: int) -> None:
    store = await Store.open(database)
    opened = await games(store, count)
    sent = [
        asyncio.ensure_future(store.games.change(game, GameChange([MOVE], {"turn": 1})))
        for game in opened
    ]
    await asyncio.sleep(0)  # sent: the first runs, the others queue
    await store.close()
    assert all(done.result().record.version == 4 for done in sent)
    assert query(database, "SELECT COUNT(*) FROM moves")[0][0] == count


async def test_a_long_queue_goes_in_batches_of_bounded_size(
    store: Store, database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "BATCH", 4)
    opened = await games(store, 13)
    statements = await heard(store)
    await asyncio.gather(
        *(store.games.change(game, GameChange([MOVE], {"turn": 1})) for game in opened)
    )
    assert commits(statements) == 1 + 3  # the first alone, then the twelve queued by four
    assert query(database, "SELECT COUNT(*) FROM moves")[0][0] == 13


def sets(game: GameRecord, message_id: int, runs: list[object]) -> Callable[[Tx], object]:
    async def work(tx: Tx) -> int:
        runs.append(message_id)
        await tx.execute("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game.id))
        return message_id

    return work


async def test_a_failure_that_wrote_nothing_needs_no_savepoints(store: Store) -> None:
    """Most failures in a batch write nothing (a refused click, a lost compare-and-set):
    the others then run once, with no savepoint statement; only a failure after
    writing makes the batch go again, each under a savepoint."""
    game = await make_running(store)
    runs: list[object] = []
    statements = await heard(store)

    async def refuses(tx: Tx) -> None:
        runs.append("refused")
        raise ValueError("no")

    works = (sets(game, 1, runs), sets(game, 2, runs), refuses, sets(game, 3, runs))
    results = await asyncio.gather(
        *(store.engine.transact(w) for w in works),  # type: ignore[arg-type]
        return_exceptions=True,
    )
    assert results[:2] + results[3:] == [1, 2, 3] and isinstance(results[2], ValueError)
    assert runs == [1, 2, "refused", 3]
    assert not any("SAVEPOINT" in s for s in statements)
    assert (await store.games.get(game.id)).message_id == 3  # type: ignore[union-attr]


async def test_a_failure_after_writing_runs_the_batch_again_under_savepoints(
    store: Store,
) -> None:
    game = await make_running(store)
    runs: list[object] = []
    statements = await heard(store)

    async def half_done(tx: Tx) -> None:
        runs.append("half")
        await tx.execute("UPDATE games SET message_id = 9 WHERE id = ?", (game.id,))
        raise ValueError("no")

    works = (sets(game, 1, runs), sets(game, 2, runs), half_done, sets(game, 3, runs))
    results = await asyncio.gather(
        *(store.engine.transact(w) for w in works),  # type: ignore[arg-type]
        return_exceptions=True,
    )
    assert results[:2] + results[3:] == [1, 2, 3] and isinstance(results[2], ValueError)
    assert runs == [1, 2, "half", 2, "half", 3]  # the first alone; the batch of the rest twice
    assert sum("SAVEPOINT" in s for s in statements) == 3
    assert (await store.games.get(game.id)).message_id == 3  # type: ignore[union-attr]


async def test_what_a_channel_shows_is_one_statement_committed_by_itself(
    store: Store, database: Path
) -> None:
    game = await make_running(store)
    statements = await heard(store)
    await store.games.set_shown(game, 5, {"turn": 1})
    assert [" ".join(s.split()[:3]) for s in statements] == ["UPDATE games SET"]
    assert query(database, "SELECT shown_version, message_id FROM games") == [(game.version, 5)]


async def test_what_a_channel_shows_while_the_writer_is_busy_goes_with_the_queue(
    store: Store, database: Path
) -> None:
    opened = await games(store, 3)
    statements = await heard(store)
    await asyncio.gather(
        store.games.change(opened[0], GameChange([MOVE], {"turn": 1})),
        *(store.games.set_shown(game, 6, {}) for game in opened[1:]),
    )
    assert commits(statements) == 2  # the change alone, then both shown together
    rows = query(database, "SELECT id, shown_version, message_id FROM games ORDER BY id")
    assert rows[1:] == [(game.id, game.version, 6) for game in opened[1:]]
