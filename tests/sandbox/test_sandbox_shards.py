"""Shards: IDENTIFY with [shard_id, num_shards], each guild's events on its shard's
connection, and the close codes Discord uses for a shard that cannot be served."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import pytest
from discord.ext import commands

from bot.sandbox import GuildSpec, Sandbox
from bot.sandbox.gateway import (
    INVALID_SHARD,
    SHARDING_REQUIRED,
    GatewaySession,
    ShardRefused,
    read_shard,
)
from bot.sandbox.ids import Snowflakes

from .demo_bot import demo_group


class ShardedDemo(commands.AutoShardedBot):
    """The demo commands on some shards; ``last_interaction`` tells which process answered."""

    def __init__(self, ids: list[int] | None, count: int | None) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), shard_ids=ids, shard_count=count
        )
        self.last_interaction: discord.Interaction | None = None
        self.tree.add_command(demo_group(self))  # type: ignore[arg-type]
        self._connection.guild_ready_timeout = 0.05

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between shards: the stand-in has no identify rate limit."""


@contextlib.asynccontextmanager
async def running(*bots: commands.AutoShardedBot) -> AsyncIterator[None]:
    """``bots`` started side by side (as separate processes would be), until ready."""
    tasks = [asyncio.create_task(bot.start("sandbox-token")) for bot in bots]
    try:
        async with asyncio.timeout(10):
            while not all(bot.is_ready() for bot in bots):
                for task in tasks:
                    if task.done():
                        task.result()
                await asyncio.sleep(0.01)
        yield
    finally:
        for bot in bots:
            await bot.close()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def two_shards() -> list[GuildSpec]:
    return [GuildSpec("Even", shard=(0, 2)), GuildSpec("Odd", shard=(1, 2))]


async def test_each_process_gets_only_its_shards_guilds_and_their_events() -> None:
    async with Sandbox(guilds=two_shards()) as sb:
        even, odd = sb.guilds
        first, second = ShardedDemo([0], 2), ShardedDemo([1], 2)
        async with running(first, second):
            assert [g.id for g in first.guilds] == [even.id]
            assert [g.id for g in second.guilds] == [odd.id]
            shards = sorted(s.shard for s in sb.server.gateway.live if s.shard)
            assert shards == [(0, 2), (1, 2)]
            await sb.member("Ana", guild=even).slash("demo", "secret")
            assert first.last_interaction is not None and second.last_interaction is None
            answer = await sb.member("Ben", guild=odd).slash("demo", "secret")
            assert answer.message.content == "only you"
            assert second.last_interaction is not None
            assert second.last_interaction.guild_id == odd.id
            assert first.last_interaction.guild_id == even.id
        assert sb.failures == [], sb.describe_failures()


async def test_one_process_may_run_several_shards() -> None:
    async with Sandbox(guilds=two_shards()) as sb:
        bot = ShardedDemo([0, 1], 2)
        async with running(bot):
            assert sorted(bot.shards) == [0, 1]
            assert {g.id: g.shard_id for g in bot.guilds} == {
                sb.guilds[0].id: 0,
                sb.guilds[1].id: 1,
            }
            await sb.member("Ana", guild=sb.guilds[1]).slash("demo", "secret")
            assert bot.last_interaction is not None
        assert sb.failures == [], sb.describe_failures()


async def test_a_client_without_a_shard_count_takes_discords_advice() -> None:
    async with Sandbox(guilds=two_shards()) as sb:
        bot = ShardedDemo(None, None)
        async with running(bot):
            assert bot.shard_count == 1 and len(bot.guilds) == 2
        assert "GET /gateway/bot" in sb.server.endpoints()
        assert [s.shard for s in sb.server.gateway.sessions.values()] == [(0, 1)]
        sb.server.gateway.world.guilds.update({n: sb.guild for n in range(1000)})
        assert sb.server.gateway.recommended_shards() == 2  # 1,002 guilds


@pytest.mark.parametrize(
    ("ids", "count", "code", "kind"),
    [
        ([2], 2, INVALID_SHARD, "invalid_shard"),
        ([0], 1, SHARDING_REQUIRED, "sharding_required"),
    ],
)
async def test_a_shard_discord_cannot_serve_is_closed_with_its_code(
    ids: list[int], count: int, code: int, kind: str
) -> None:
    async with Sandbox(guilds=two_shards()) as sb:
        sb.server.gateway.max_guilds_per_shard = 1  # two guilds on one shard: too many
        with pytest.raises(discord.ConnectionClosed) as closed:
            async with running(ShardedDemo(ids, count)):
                pass
        assert closed.value.code == code
        assert [f.kind for f in sb.failures] == [kind]
        assert not sb.server.gateway.live


@pytest.mark.parametrize("field", [[1], [0, 0], [-1, 2], [0, "2"], "0/2", [True, 2]])
def test_malformed_shard_fields_are_invalid(field: object) -> None:
    with pytest.raises(ShardRefused) as refused:
        read_shard(field)
    assert refused.value.code == INVALID_SHARD


def test_sessions_route_guilds_by_discords_formula_and_direct_messages_to_shard_0() -> None:
    ids = Snowflakes()
    guilds = [ids.next_on_shard(shard, 3) for shard in (2, 0, 1, 2)]
    assert [(g >> 22) % 3 for g in guilds] == [2, 0, 1, 2] and guilds == sorted(guilds)
    sessions = [GatewaySession(str(n), "t", 0, shard=(n, 3)) for n in range(3)]
    for guild in guilds:
        assert [s.serves(guild) for s in sessions].count(True) == 1
    assert [s.serves(None) for s in sessions] == [True, False, False]
    assert GatewaySession("all", "t", 0).serves(guilds[0])
