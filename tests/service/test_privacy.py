"""``/qwixx forget-me`` and a departed server's data, through the service, on every
backend: after a member is forgotten no row of any table holds their id or name, the
others' statistics and ratings are unchanged, every game still replays to its stored
state, and the member's next game starts afresh."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import pytest

from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.privacy import DAY, PrivacyService, is_anonymous
from bot.service.rated import RatingService
from bot.store import Store
from tests.fakes import FakeClock
from tests.store.helpers import every_row

from .helpers import play_randomly

GUILD, GUILD2 = 800_000_000_000_000_001, 800_000_000_000_000_002
ANA, BEN, CEM = 600_000_000_000_000_011, 600_000_000_000_000_022, 600_000_000_000_000_033
NAMES = {ANA: "Anastazja Ü", BEN: "Benedikt", CEM: "Cem"}


@pytest.fixture
def seeds() -> Callable[[], int]:
    """A seed of its own for each game (1000 on), so that no two games are dealt the same dice."""
    return iter(range(1000, 2000)).__next__


@pytest.fixture
def privacy(store: Store, clock: FakeClock) -> PrivacyService:
    return PrivacyService(store, clock, forget_after=30 * DAY)


def traces(rows: dict[str, list[tuple[Any, ...]]], *needles: object) -> list[str]:
    """Every ``table.column`` value in which one of ``needles`` appears."""
    return [
        f"{table}: {row}"
        for table, table_rows in rows.items()
        for row in table_rows
        if any(str(needle) in str(value) for value in row for needle in needles)
    ]


async def finished(
    service: GameService, guild: int, channel: int, *people: int, computers: int = 1, seed: int = 1
) -> int:
    record = await service.lobby.open(guild, channel, people[0], "classic")
    for person in people[1:]:
        await service.lobby.join(record.id, person)
    for _ in range(computers):
        await service.lobby.add_computer(record.id, people[0])
    await service.lobby.start(record.id, people[0])
    await play_randomly(service, record.id, random.Random(seed))
    return record.id


async def test_forget_me_leaves_no_trace_and_every_game_whole(
    store: Store, service: GameService, privacy: PrivacyService, clock: FakeClock
) -> None:
    for guild in (GUILD, GUILD2):
        for person in (ANA, BEN, CEM):
            await service.names.remember(guild, person, NAMES[person])
    played = [await finished(service, GUILD, 10 + i, ANA, BEN, seed=i) for i in range(3)]
    played.append(await finished(service, GUILD, 20, BEN, ANA, CEM, computers=0, seed=7))
    played.append(await finished(service, GUILD2, 30, ANA, CEM, seed=8))
    played.append(await finished(service, GUILD2, 31, BEN, CEM, seed=9))  # without Ana
    # A running game Ana left (her seat is away); Ben and Cem play on.
    running = await service.lobby.open(GUILD2, 40, BEN, "classic")
    await service.lobby.join(running.id, ANA)
    await service.lobby.join(running.id, CEM)
    await service.lobby.start(running.id, BEN)
    await service.turns.leave_game(40, ANA)
    await RatingService(store).backfill()

    boards = {g: await store.stats.leaderboard(g) for g in (GUILD, GUILD2)}
    ratings = {g: await store.ratings.of_variant(g, "classic") for g in (GUILD, GUILD2)}
    states = {g: (await service.keeper.read(g)).record.state for g in [*played, running.id]}
    report = await privacy.report(ANA)
    assert [(s.guild_id, s.name, s.games, s.results) for s in report] == [
        (GUILD, NAMES[ANA], 4, 4),
        (GUILD2, NAMES[ANA], 2, 1),
    ]

    done = await privacy.forget(ANA)
    anonymous = done.anonymous_id
    assert is_anonymous(anonymous) and done.games == 6

    rows = await every_row(store)
    assert traces(rows, ANA, NAMES[ANA]) == []
    assert traces(rows, BEN) and traces(rows, NAMES[BEN])
    for guild in (GUILD, GUILD2):  # the others' sums as they were; Ana's under her new id
        old = {t.player_id: t for t in boards[guild]}
        new = {t.player_id: t for t in await store.stats.leaderboard(guild)}
        assert {p: t for p, t in new.items() if p != anonymous} == {
            p: t for p, t in old.items() if p != ANA
        }
        assert (new[anonymous].games, new[anonymous].score_sum) == (
            old[ANA].games,
            old[ANA].score_sum,
        )
        now = await store.ratings.of_variant(guild, "classic")
        assert {p: r for p, r in now.items() if p != anonymous} == {
            p: r for p, r in ratings[guild].items() if p != ANA
        }
        assert now[anonymous] == ratings[guild][ANA]
    for game_id in [*played, running.id]:  # each game replays to its stored state
        record = (await service.keeper.read(game_id)).record
        assert record.state is not None and ANA not in record.players
        assert (await service.keeper.replay(game_id)).to_json() == record.state
        assert str(record.state).count(str(anonymous)) == str(states[game_id]).count(str(ANA))
    assert await privacy.report(ANA) == []

    # The running game goes on for the others, to its end.
    await play_randomly(service, running.id, random.Random(3))
    assert (await service.keeper.read(running.id)).record.status == "finished"
    assert traces(await every_row(store), ANA) == []

    # Ana's next game starts afresh: no name, no totals, no rating, a seat of her own.
    await service.names.remember(GUILD, ANA, NAMES[ANA])
    fresh = await finished(service, GUILD, 50, ANA, BEN, seed=11)
    assert (await store.stats.player_totals(GUILD, ANA))["classic"].games == 1
    assert [(s.guild_id, s.games, s.results) for s in await privacy.report(ANA)] == [(GUILD, 1, 1)]
    assert await store.names.of(GUILD, [ANA]) == {ANA: NAMES[ANA]}
    # A rematch of a game with the forgotten seat leaves it out.
    _, lobby = await service.lobby.rematch(played[0], BEN)
    assert lobby.players == [BEN, -1] and lobby.host_id == BEN
    assert fresh not in played


async def test_forget_me_is_refused_while_playing(
    store: Store, service: GameService, privacy: PrivacyService
) -> None:
    await finished(service, GUILD, 10, ANA, BEN)
    record = await service.lobby.open(GUILD, 11, BEN, "classic")
    await service.lobby.join(record.id, ANA)
    await service.lobby.start(record.id, BEN)
    lobby = await service.lobby.open(GUILD2, 12, ANA, "classic")
    before = await every_row(store)
    with pytest.raises(ServiceError) as refused:
        await privacy.forget(ANA)
    assert refused.value.key == "error.forget_playing"
    assert refused.value.values["games"] == "<#11>, <#12>"
    assert await every_row(store) == before
    await service.turns.leave_game(11, ANA)  # away from the running game; the lobby closed
    await service.lobby.cancel(lobby.id, ANA)
    await privacy.forget(ANA)
    assert traces(await every_row(store), ANA) == []


async def test_a_departed_server_is_deleted_after_the_grace_period(
    store: Store, service: GameService, privacy: PrivacyService, clock: FakeClock
) -> None:
    await service.names.remember(GUILD, ANA, NAMES[ANA])
    await finished(service, GUILD, 10, ANA, BEN)
    await finished(service, GUILD2, 20, ANA, BEN)
    await RatingService(store).backfill()
    await privacy.guild_left(GUILD)
    clock.now += 29 * DAY
    assert await privacy.forget_departed() == []
    assert await privacy.guild_back(GUILD) is True  # back within the grace: all kept
    clock.now += 5 * DAY
    assert await privacy.forget_departed() == []
    assert [s.guild_id for s in await privacy.report(ANA)] == [GUILD, GUILD2]
    await privacy.guild_left(GUILD)
    clock.now += 30 * DAY + 1
    assert await privacy.forget_departed() == [GUILD]
    assert await privacy.forget_departed() == []
    rows = await every_row(store)
    assert traces(rows, GUILD) == []
    assert [s.guild_id for s in await privacy.report(ANA)] == [GUILD2]
    assert rows["moves"] and rows["ratings"]  # the other server's rows stayed


class Channels:
    """The publisher as the timers use it when nothing is due."""

    async def catch_up(self, shards: object) -> None:
        return None

    async def publish(self, outcome: object) -> None:
        raise AssertionError("nothing is due")


async def test_the_timer_loop_deletes_a_departed_server_when_due(
    store: Store, service: GameService, privacy: PrivacyService, clock: FakeClock
) -> None:
    from bot.timers import Timers

    await finished(service, GUILD, 10, ANA, BEN)
    timers = Timers(service, cast(Any, Channels()), privacy=privacy)
    await privacy.guild_left(GUILD)
    clock.now += 30 * DAY
    await timers.tick()
    assert len(await privacy.report(ANA)) == 1
    clock.now += 1
    await timers.tick()
    assert await privacy.report(ANA) == []
    assert traces(await every_row(store), GUILD) == []
