"""The real bot on PostgreSQL, against the Discord stand-in: the connection that holds
a game's lock is ended mid-game, while the bot is writing that game's channel. The
server frees the lock, so another process takes the game and stores; the bot's own
write under the lock it believed it held is refused (nothing stored over the other's),
and play goes on to the end with every turn posted once."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from bot.channel.publisher import Publisher
from bot.records.errors import LockLost
from bot.sandbox import Sandbox
from bot.sandbox.autoplay import final_message, play_round, play_to_end
from bot.store import GameRecord, Store
from tests.store.helpers import query
from tests.store.postgres_server import PostgresServer

from .conftest import UNLIMITED
from .test_postgres_outage import playing

PATIENCE = 60.0  # seconds before a hang counts as a failure (never a speed check)
REFUSED = "its lock went with a broken connection"


async def test_a_lock_connection_ended_mid_game(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = postgres.new_database()
    entered, go_on = asyncio.Event(), asyncio.Event()
    armed = [False]
    show = Publisher.show

    async def paused(self: Publisher, *args: Any, later: bool = False) -> Any:
        if armed[0] and not later:  # the sync holds the game's lock, has written the
            armed[0] = False  # channel and is about to store what it shows
            entered.set()
            await go_on.wait()
        return await show(self, *args, later=later)

    failed: list[tuple[BaseException, GameRecord | None]] = []
    sync = Publisher.sync

    async def syncing(self: Publisher, game_id: int, *args: Any) -> None:
        try:
            await sync(self, game_id, *args)
        except Exception as error:
            failed.append((error, await other.games.get(game_id)))  # the game as then stored
            raise

    monkeypatch.setattr(Publisher, "show", paused)
    monkeypatch.setattr(Publisher, "sync", syncing)
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb, Store(url) as other:
        # tick: the timer loop's catch-up stays out of the way; clicks publish.
        table = await playing(sb, url, rounds=1, tick=3600)
        store, ana, ben, policy = table.store, *table.members, table.policy

        armed[0] = True
        round_ = asyncio.ensure_future(play_round(sb, [ana, ben], policy))
        await asyncio.wait_for(entered.wait(), PATIENCE)
        [(pid,)] = query(
            url, "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = 1"
        )
        assert query(url, "SELECT pg_terminate_backend(?)", (pid,)) == [(True,)]
        async with asyncio.timeout(PATIENCE):  # the other process takes the game...
            async with other.game_lock(1):
                before = await other.games.get(1)
                assert before is not None
                await other.games.set_shown(
                    replace(before, version=before.shown_version),
                    before.message_id,
                    {**before.shown, "other": True},
                )  # ...and stores
        go_on.set()
        assert await asyncio.wait_for(round_, PATIENCE)

        # The bot's write under the lock it believed it held was refused: what the
        # other process stored stands.
        [(error, then)] = failed
        assert isinstance(error, LockLost) and [r for r in caplog.records if REFUSED in r.message]
        assert then is not None and then.shown.get("other") is True
        assert then.shown_version == before.shown_version < then.version
        assert then.behind_since is None  # the channel was written: no outage to tell

        final = await play_to_end(sb, [ana, ben], policy)
        assert final is not None and final is final_message(sb)
        publisher = sb.bot.publisher  # type: ignore[union-attr]
        await publisher.reviewed()  # the final message's accuracies, edited in
        await publisher.drain()
        record = await store.games.get(1)
        assert record is not None and record.status == "finished"
        assert record.shown_version == record.version
        assert (await sb.bot.service.keeper.replay(1)).to_json() == record.state  # type: ignore[union-attr]
        nonces = [m.nonce for m in sb.messages() if m.nonce]
        assert len(nonces) == len(set(nonces))  # no post made twice
        assert sb.failures == [], sb.describe_failures()
