"""A sharded process fires the deadlines of its own guilds' games only."""

from __future__ import annotations

from bot.service.deadlines import DUE_BATCH
from bot.service.games import GameService
from bot.shards import ShardPlan, shard_of
from tests.fakes import FakeClock

ANA, BEN = 11, 22
DAY = 86400.0
BASE_GUILD = 200_000_000_000 << 22  # a snowflake of 2021, on shard 0 of 2


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """The ``n``-th test guild whose events go to ``shard`` of ``count``."""
    guild = BASE_GUILD + ((n * count + shard) << 22)
    assert shard_of(guild, count) == shard
    return guild


async def started(service: GameService, guild: int, channel: int) -> int:
    record = await service.lobby.open(guild, channel, ANA, "classic", turn_time=int(DAY))
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    return record.id


async def test_each_shard_fires_its_own_games_and_together_they_fire_all(
    service: GameService, clock: FakeClock
) -> None:
    games = {
        shard: [await started(service, guild_on(shard, 2, n), 100 * shard + n) for n in range(3)]
        for shard in (0, 1)
    }
    clock.now += DAY
    first, second = ShardPlan((0,), 2), ShardPlan((1,), 2)
    assert await service.deadlines.due(first) == games[0]
    assert await service.deadlines.due(second) == games[1]
    assert sorted(await service.deadlines.due()) == sorted(games[0] + games[1])
    assert await service.deadlines.due(ShardPlan((0, 1), 2)) == await service.deadlines.due()


async def test_the_overdue_games_of_a_process_that_is_down_do_not_hide_ones_own(
    service: GameService, clock: FakeClock
) -> None:
    """Shard 1's games fell due first and nobody fired them; shard 0 still sees its own."""
    for n in range(DUE_BATCH + 5):
        await started(service, guild_on(1, 2, n), 10_000 + n)
    clock.now += 60
    own = await started(service, guild_on(0, 2), 1)
    clock.now += DAY
    assert (
        own not in (await service.deadlines.due())[:DUE_BATCH]
    )  # unsharded, it is beyond one batch
    assert await service.deadlines.due(ShardPlan((0,), 2)) == [own]


async def test_each_shard_catches_up_only_its_own_channels(service: GameService) -> None:
    """No channel has shown these games yet: each process sees only its guilds' games."""
    games = {
        shard: [
            await started(service, guild_on(shard, 2, n), 300 + 100 * shard + n) for n in range(2)
        ]
        for shard in (0, 1)
    }
    assert await service.keeper.lagging(ShardPlan((0,), 2)) == games[0]
    assert await service.keeper.lagging(ShardPlan((1,), 2)) == games[1]
    assert await service.keeper.lagging() == games[0] + games[1]
