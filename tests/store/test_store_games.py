"""Game lifecycle: create, read, lobby updates, start, abandon, channel exclusivity."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.records.errors import ChannelBusy, GameNotFound, StoreError, VersionConflict, WrongStatus
from bot.records.games import GameRecord, Timing
from bot.store import LATEST_VERSION, Store
from bot.store.migrations import BEHIND_SINCE, MIGRATIONS
from bot.store.migrations import apply_migrations as apply
from bot.store.store import engine_for
from tests.fakes import FakeClock

from .helpers import (
    CHANNEL,
    GUILD,
    HOST,
    PLAYER2,
    PLAYER3,
    make_lobby,
    make_running,
    play,
    sqlite_only,
)


async def test_create_and_get(store: Store, clock: FakeClock) -> None:
    game = await make_lobby(store, seed=2**63 - 1)
    assert game == GameRecord(
        id=game.id,
        guild_id=GUILD,
        channel_id=CHANNEL,
        message_id=None,
        host_id=HOST,
        variant="qwixx",
        options={"colors": "classic"},
        seed=2**63 - 1,
        players=[HOST],
        state=None,
        status="lobby",
        version=1,
        created_at=clock.now,
        updated_at=clock.now,
        finished_at=None,
        shown_version=1,  # the lobby message is the command's own answer
    )
    assert game.is_active
    assert await store.games.get(game.id) == game
    assert await store.games.get(game.id + 1) is None


async def test_update_lobby(store: Store) -> None:
    game = await make_lobby(store)
    updated = await store.games.set_players(game.id, 1, [HOST, PLAYER3, PLAYER2])
    assert updated.players == [HOST, PLAYER3, PLAYER2]
    assert updated.version == 2
    assert updated.status == "lobby"
    assert await store.games.get(game.id) == updated

    with pytest.raises(VersionConflict) as info:
        await store.games.set_players(game.id, 1, [HOST])
    assert (info.value.expected, info.value.actual) == (1, 2)
    assert (await store.games.get(game.id)) == updated


async def test_update_lobby_validates_players(store: Store) -> None:
    game = await make_lobby(store)
    with pytest.raises(ValueError, match="duplicate"):
        await store.games.set_players(game.id, 1, [HOST, HOST])
    with pytest.raises(TypeError):
        await store.games.set_players(game.id, 1, [HOST, "301"])  # type: ignore[list-item]
    assert (await store.games.get(game.id)) == game


async def test_unknown_game_raises_not_found(store: Store) -> None:
    with pytest.raises(GameNotFound):
        await store.games.set_players(999, 1, [HOST])
    with pytest.raises(GameNotFound):
        await store.games.start(999, 1, {})
    with pytest.raises(GameNotFound):
        await play(store, replace(await make_running(store), id=999), HOST, {}, {})
    with pytest.raises(GameNotFound):
        await store.games.abandon(999, 1)
    with pytest.raises(GameNotFound):
        await store.games.set_message(999, 5)


async def test_start_game(store: Store, clock: FakeClock) -> None:
    game = await make_lobby(store)
    clock.tick(10)
    started = await store.games.start(game.id, 1, {"turn": 0, "dice": [1, 2, 3]})
    assert started.status == "running"
    assert started.state == {"turn": 0, "dice": [1, 2, 3]}
    assert started.version == 2
    assert (started.created_at, started.updated_at) == (game.created_at, clock.now)
    assert await store.games.get(game.id) == started


async def test_wrong_status_transitions(store: Store) -> None:
    lobby = await make_lobby(store)
    with pytest.raises(WrongStatus):
        await play(store, lobby, HOST, {}, {})

    running = await make_running(store, channel_id=CHANNEL + 1)
    with pytest.raises(WrongStatus):
        await store.games.start(running.id, running.version, {})
    with pytest.raises(WrongStatus):
        await store.games.set_players(running.id, running.version, [HOST])

    ended = await store.games.abandon(running.id, running.version)
    with pytest.raises(WrongStatus):
        await store.games.abandon(ended.id, ended.version)
    with pytest.raises(WrongStatus):
        await play(store, ended, HOST, {}, {})
    assert await store.games.get(ended.id) == ended


async def test_abandon(store: Store, clock: FakeClock) -> None:
    game = await make_lobby(store)
    clock.tick(5)
    abandoned = await store.games.abandon(game.id, 1)
    assert abandoned.status == "abandoned"
    assert abandoned.version == 2
    assert abandoned.finished_at == clock.now
    assert not abandoned.is_active
    with pytest.raises(VersionConflict):
        await store.games.abandon(game.id, 1)


async def test_one_active_game_per_channel(store: Store) -> None:
    first = await make_lobby(store)
    with pytest.raises(ChannelBusy) as info:
        await make_lobby(store, host_id=PLAYER2)
    assert info.value.game_id == first.id
    other = await make_lobby(store, channel_id=CHANNEL + 1)
    assert other.id != first.id

    await store.games.start(first.id, 1, {})
    with pytest.raises(ChannelBusy):
        await make_lobby(store)
    assert (await store.games.in_channel(CHANNEL)).id == first.id  # type: ignore[union-attr]


async def test_abandoned_game_frees_channel(store: Store) -> None:
    first = await make_lobby(store)
    await store.games.abandon(first.id, first.version)
    assert await store.games.in_channel(CHANNEL) is None
    second = await make_lobby(store)
    assert (await store.games.in_channel(CHANNEL)) == second


async def test_finished_game_frees_channel(store: Store) -> None:
    game = await make_running(store)
    await play(store, game, HOST, {"m": 1}, {"done": True}, "finished")
    assert await store.games.in_channel(CHANNEL) is None
    second = await make_lobby(store)
    assert second.status == "lobby"
    assert [g.id for g in await store.games.of_channel(CHANNEL)] == [second.id, game.id]
    assert [g.id for g in await store.games.of_channel(CHANNEL, limit=1)] == [second.id]


@sqlite_only  # test_postgres races two creators on PostgreSQL
async def test_unique_index_enforced_by_database(store: Store) -> None:
    """Even bypassing the API, the schema allows one lobby/running game per channel."""
    game = await make_running(store)
    with pytest.raises(StoreError, match="UNIQUE"):
        await store.engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, variant, options, seed, "
                "players, status, created_at, updated_at) "
                "VALUES (1, ?, 1, 'qwixx', '{}', 1, '[1]', 'lobby', 0, 0)",
                (game.channel_id,),
            )
        )


async def test_game_in_channel(store: Store) -> None:
    assert await store.games.in_channel(CHANNEL) is None
    game = await make_lobby(store)
    await make_lobby(store, channel_id=CHANNEL + 1)
    assert await store.games.in_channel(CHANNEL) == game


async def test_active_games(store: Store) -> None:
    lobby = await make_lobby(store, channel_id=1)
    running = await make_running(store, channel_id=2)
    gone = await make_lobby(store, channel_id=3)
    await store.games.abandon(gone.id, gone.version)
    assert [g.id for g in await store.games.active()] == [lobby.id, running.id]


async def test_set_message_keeps_version(store: Store, clock: FakeClock) -> None:
    game = await make_lobby(store)
    clock.tick(3)
    await store.games.set_message(game.id, 123456789012345678)
    after = await store.games.get(game.id)
    assert after is not None
    assert after.message_id == 123456789012345678
    assert (after.version, after.updated_at) == (game.version, game.updated_at)
    await store.games.set_message(game.id, None)
    assert (await store.games.get(game.id)).message_id is None  # type: ignore[union-attr]


async def test_rejects_non_int_ids_and_bad_json(store: Store) -> None:
    with pytest.raises(TypeError):
        await make_lobby(store, channel_id="200")
    with pytest.raises(ValueError, match="64-bit"):
        await make_lobby(store, seed=2**64)
    with pytest.raises(TypeError):
        await make_lobby(store, options={"x": object()})
    with pytest.raises(ValueError):
        await make_lobby(store, options={"x": float("nan")})
    assert await store.games.in_channel(CHANNEL) is None


async def test_clock_stamps(store: Store, clock: FakeClock) -> None:
    clock.now = 1000.0
    game = await make_lobby(store)
    assert (game.created_at, game.updated_at, game.finished_at) == (1000.0, 1000.0, None)
    clock.now = 1010.5
    game = await store.games.set_players(game.id, game.version, [HOST, PLAYER2])
    assert (game.created_at, game.updated_at) == (1000.0, 1010.5)
    clock.now = 1020.0
    game = await store.games.start(game.id, game.version, {})
    clock.now = 1030.0
    game = await play(store, game, HOST, {}, {})
    assert (game.updated_at, game.finished_at) == (1030.0, None)
    clock.now = 1040.0
    game = await play(store, game, PLAYER2, {}, {}, status="finished")
    assert (game.created_at, game.updated_at, game.finished_at) == (1000.0, 1040.0, 1040.0)
    assert [m.created_at for m in await store.games.moves(game.id)] == [1030.0, 1040.0]


async def test_closed_store_raises(db_path, clock: FakeClock) -> None:
    store = await Store.open(db_path, clock=clock)
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StoreError, match="not open"):
        await store.games.get(1)


async def test_names_are_remembered_per_guild_latest_wins(store) -> None:
    await store.names.remember(1, 10, "Ana")
    await store.names.remember(1, 10, "Ana B.")
    await store.names.remember(2, 10, "Elsewhere")
    await store.names.remember(1, 11, "Mehmet")
    assert await store.names.of(1, [10, 11, 12]) == {10: "Ana B.", 11: "Mehmet"}
    assert await store.names.of(2, [10]) == {10: "Elsewhere"}
    assert await store.names.of(1, []) == {}


async def test_due_and_lagging_games_of_some_shards_only(store: Store, clock: FakeClock) -> None:
    """A sharded process asks for its own guilds' games: the filter is in the query, so
    the limit counts only those (Discord's shard of a guild: ``(id >> 22) % count``)."""
    guilds = [(n << 22) + 7 for n in range(6)]  # on shards 0, 1, 2, 0, 1, 2 of 3
    games = []
    for channel, guild in enumerate(guilds, CHANNEL):
        game = await make_lobby(store, channel, guild_id=guild, expires=clock.now + channel)
        game = await store.games.set_players(game.id, game.version, [HOST, PLAYER2])
        games.append(
            await store.games.start(
                game.id, game.version, {"turn": 0}, Timing(clock.now, None, 0, clock.now + channel)
            )
        )
    now = clock.now + 1000
    assert [g.id for g in await store.games.due(now)] == [g.id for g in games]
    mine = await store.games.due(now, limit=2, shards=([0, 2], 3))
    assert [g.guild_id for g in mine] == [guilds[0], guilds[2]]
    assert [g.id for g in await store.games.due(now, shards=([1], 3))] == [games[1].id, games[4].id]
    assert await store.games.lagging(shards=([2], 3)) == [games[2].id, games[5].id]
    assert await store.games.lagging(shards=([], 3)) == []


async def test_behind_since_keeps_the_first_failure_until_the_channel_is_shown(
    store: Store, clock: FakeClock
) -> None:
    """``behind_since``: the first time the channel could not be updated, kept through
    later failures and a show of an older version, cleared by the show of the stored one."""
    game = await make_running(store)
    assert game.shown_version < game.version and game.behind_since is None
    await store.games.mark_behind(game.id, clock.now)
    first = clock.now
    await store.games.mark_behind(game.id, clock.tick(60))
    assert (await store.games.get(game.id)).behind_since == first  # type: ignore[union-attr]
    older = replace(game, version=game.version - 1)  # a move came since
    assert (await store.games.set_shown(older, None, {"turn": 1})).behind_since == first
    assert (await store.games.get(game.id)).behind_since == first  # type: ignore[union-attr]
    shown = await store.games.set_shown(game, None, {"turn": 1})
    assert shown == await store.games.get(game.id)
    assert shown.behind_since is None and shown.shown_version == game.version
    await store.games.mark_behind(game.id, clock.tick(60))  # in sync: nothing to remember
    assert (await store.games.get(game.id)).behind_since is None  # type: ignore[union-attr]


async def test_lagging_games_come_behind_longest_first_then_by_id(
    database: str | Path, clock: FakeClock
) -> None:
    """The catch-up's order is the store's, so a store opened again (a restarted bot)
    finds it: marked games by ``behind_since``, then the games never marked, by id."""
    async with Store(database, clock=clock) as store:
        games = [(await make_running(store, CHANNEL + n)).id for n in range(5)]
        for game, seconds in ((games[3], 10.0), (games[1], 20.0), (games[4], 20.0)):
            await store.games.mark_behind(game, clock.now + seconds)
    async with Store(database, clock=clock) as store:
        assert await store.games.lagging() == [games[3], games[1], games[4], games[0], games[2]]
        assert await store.games.lagging(limit=2) == [games[3], games[1]]


async def test_the_behind_since_migration_keeps_every_game_lagging_as_it_was(
    database: str | Path, request: pytest.FixtureRequest
) -> None:
    """A database from before version 15: its games get ``behind_since`` None and lag as
    they did (caught up by id)."""
    if isinstance(database, str):  # the shared one is at the latest version: a new one
        database = request.getfixturevalue("postgres").new_database()
    engine = engine_for(database)
    await engine.open()
    try:
        assert await apply(engine, 1.0, MIGRATIONS[: BEHIND_SINCE.version - 1]) == 14
        await engine.transact(
            lambda tx: tx.executemany(
                "INSERT INTO games (id, guild_id, channel_id, host_id, variant, options, seed, "
                "players, status, version, shown_version, created_at, updated_at) "
                "VALUES (?, 1, ?, 3, 'classic', '{}', 7, '[3]', 'running', ?, 2, 1.0, 1.0)",
                [(2, 20, 5), (1, 10, 4), (3, 30, 2)],
            )
        )
    finally:
        await engine.close()
    async with Store(database) as store:
        assert store.schema_version == LATEST_VERSION >= BEHIND_SINCE.version
        assert [(await store.games.get(g)).behind_since for g in (1, 2, 3)] == [None] * 3  # type: ignore[union-attr]
        assert await store.games.lagging() == [1, 2]


async def test_games_left_behind_by_the_process_before_are_marked_once(
    store: Store, clock: FakeClock
) -> None:
    """At a process's start, a channel that lags a change made before it (the process
    before stopped without showing it) was left behind; a change made since, a lobby,
    a game in sync or one marked earlier is not, nor a game of another process's shards."""
    old, marked, shown, other = [await make_running(store, CHANNEL + n) for n in range(4)]
    await store.games.mark_behind(marked.id, clock.now - 5)
    await store.games.set_shown(shown, None, {})
    lobby = await make_lobby(store, CHANNEL + 9)
    started = clock.tick(10)
    fresh = await make_running(store, CHANNEL + 10)  # changed by the new process
    other_guild = (1 << 22) + GUILD  # on shard 1 of 2 (GUILD is on shard 0)
    elsewhere = await make_running(store, CHANNEL + 11)
    await store.engine.transact(
        lambda conn: conn.execute(
            "UPDATE games SET guild_id = ?, updated_at = ? WHERE id = ?",
            (other_guild, clock.now - 60, elsewhere.id),
        )
    )
    now = clock.tick(1)

    assert await store.games.mark_left_behind(started, now, ([0], 2)) == 2
    behind = {
        g.id: (await store.games.get(g.id)).behind_since  # type: ignore[union-attr]
        for g in (old, marked, shown, other, lobby, fresh, elsewhere)
    }
    assert behind == {
        old.id: now,
        marked.id: started - 15,
        shown.id: None,
        other.id: now,
        lobby.id: None,
        fresh.id: None,
        elsewhere.id: None,
    }
    assert await store.games.mark_left_behind(started, clock.tick(1), ([0], 2)) == 0
