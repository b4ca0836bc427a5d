"""Ratings kept in the store: each counted game rated once, in the order a server's
games finished; a backfill rebuilds exactly what game-by-game updates keep."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.records.games import GameChange, GameResults, PlayerResult
from bot.records.ratings import GameToRate
from bot.service.games import GameService
from bot.service.rated import RatingService, computers_of
from bot.service.ratings import NEW, Rating, match_of, rate, replay
from bot.service.stats import StatsService
from bot.store import Store
from bot.store.ratings import RatedLine, RatingConflict, StoredRating
from tests.fakes import FakeClock

from .helpers import play_randomly

LIVE, REBUILT, CHANNEL = 1, 2, 100
PEOPLE = (11, 22, 33, 44, 55)


@pytest.fixture
def clock() -> FakeClock:
    """A second on at each reading: each game finishes at a time of its own."""
    return FakeClock(1_770_000_000.0, step=1.0)


def lines(
    scores: dict[int, int], stand_in: frozenset[int] = frozenset()
) -> tuple[PlayerResult, ...]:
    totals = list(scores.values())
    return tuple(
        PlayerResult(
            p,
            seat,
            s,
            1 + sum(1 for o in totals if o > s),
            all(o <= s for o in totals),
            p in stand_in,
        )
        for seat, (p, s) in enumerate(scores.items())
    )


async def finish(
    store: Store,
    guild: int,
    scores: dict[int, int],
    *,
    variant: str = "classic",
    stand_in: frozenset[int] = frozenset(),
    counted: bool = True,
) -> int:
    players = list(scores)
    game = await store.games.create(guild, CHANNEL + guild, players[0], variant, {}, 1)
    game = await store.games.set_players(game.id, game.version, players)
    game = await store.games.start(game.id, game.version, {})
    change = GameChange(
        [(players[0], {}, "player")],
        {},
        "finished",
        GameResults(8, lines(scores, stand_in), counted=counted),
    )
    await store.games.change(game, change)
    return game.id


def random_games(seed: int, count: int) -> list[tuple[dict[int, int], str, frozenset[int]]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        seated = rng.sample(PEOPLE, rng.randint(2, 4))
        scores = {p: rng.choice((10, 20, 30, 40, 40)) for p in seated}
        stand_in = frozenset(p for p in seated if rng.random() < 0.1)
        games.append((scores, rng.choice(("classic", "qwinto")), stand_in))
    return games


async def test_a_game_is_rated_once_with_each_persons_change(store: Store) -> None:
    ratings = RatingService(store)
    game_id = await finish(store, LIVE, {11: 50, 22: 30})
    record = await store.games.get(game_id)
    assert record is not None
    changes = {c.player: c for c in await ratings.settle(record)}
    assert changes[11].delta > 0 > changes[22].delta
    assert changes[11].before == NEW and changes[11].after.games == 1
    again = {c.player: c for c in await ratings.settle(record)}
    assert again == changes  # read back, not rated twice
    stored = await store.ratings.of_variant(LIVE, "classic")
    assert {p: r.games for p, r in stored.items()} == {11: 1, 22: 1}
    assert await ratings.backfill() == 0


async def test_uncounted_games_and_stand_ins_are_not_rated(store: Store) -> None:
    ratings = RatingService(store)
    uncounted = await store.games.get(await finish(store, LIVE, {11: 50, 22: 30}, counted=False))
    assert uncounted is not None and await ratings.settle(uncounted) == []
    stood = await store.games.get(
        await finish(store, LIVE, {11: 50, 22: 30, 33: 10}, stand_in=frozenset({22}))
    )
    assert stood is not None
    assert sorted(c.player for c in await ratings.settle(stood)) == [11, 33]
    assert sorted(await store.ratings.of_variant(LIVE, "classic")) == [11, 33]


async def test_ratings_rebuilt_from_results_equal_those_kept_game_by_game(store: Store) -> None:
    """One server's games rated as each ends (some out of order, as channels may post
    late), another's same games only recorded and then backfilled, as at the first
    start with ratings: the same ratings, to the last bit, and those of the pure model."""
    ratings = RatingService(store)
    games = random_games(5, 40)
    live: list[int] = []
    for scores, variant, stand_in in games:
        live.append(await finish(store, LIVE, scores, variant=variant, stand_in=stand_in))
        if len(live) % 3 != 1:  # every third game is left to the next one's settle
            for game_id in live[-2:]:
                record = await store.games.get(game_id)
                assert record is not None
                await ratings.settle(record)
    for scores, variant, stand_in in games:
        await finish(store, REBUILT, scores, variant=variant, stand_in=stand_in)
    # the other server's 40, and this one's last game, left to a next one that never came
    assert await ratings.backfill() == 40 + 1
    for variant in ("classic", "qwinto"):
        kept = await store.ratings.of_variant(LIVE, variant)
        rebuilt = await store.ratings.of_variant(REBUILT, variant)
        assert kept == rebuilt and kept
        expected = replay(
            match_of(
                (
                    (p, r.rank, not r.stand_in)
                    for p, r in zip(scores, lines(scores, stand_in), strict=True)
                ),
                [],
            )
            for scores, v, stand_in in games
            if v == variant
        )
        assert {p: Rating(r.mu, r.sigma, r.games) for p, r in kept.items()} == expected


async def test_the_start_up_backfill_rates_earlier_games(store: Store) -> None:
    for scores, variant, stand_in in random_games(9, 12):
        await finish(store, LIVE, scores, variant=variant, stand_in=stand_in)
    await StatsService(store).backfill()
    assert await store.ratings.unrated() == []
    assert await RatingService(store).backfill() == 0


async def test_computer_seats_rank_at_their_level_and_are_never_rated(store: Store) -> None:
    service = GameService(store, seeds=lambda: 77)
    lobby = await service.lobby.open(LIVE, CHANNEL, 11, "classic")
    await service.lobby.join(lobby.id, 22)
    await service.lobby.add_computer(lobby.id, 11, "hard")
    await service.lobby.start(lobby.id, 11)
    await play_randomly(service, lobby.id, random.Random(3))
    record = await store.games.get(lobby.id)
    assert record is not None and record.status == "finished"
    computers = computers_of(record)
    assert [level for level, _ in computers] == ["hard"]
    people = [(r.player_id, r.rank, True) for r in (await store.stats.history(LIVE))[0].lines]
    expected = {c.player: c for c in rate(match_of(people, computers), {})}
    changes = {c.player: c for c in await RatingService(store).settle(record)}
    assert changes == expected and sorted(changes) == [11, 22]
    assert sorted(await store.ratings.of_variant(LIVE, "classic")) == [11, 22]


async def test_a_rating_changed_meanwhile_is_not_overwritten(store: Store) -> None:
    """What a second process sees when another rated the same person between its read
    and its write: its transaction writes nothing, and rating again uses the new row."""
    ratings = RatingService(store)
    first = await store.games.get(await finish(store, LIVE, {11: 50, 22: 30}))
    assert first is not None
    await ratings.settle(first)
    kept = await store.ratings.of_variant(LIVE, "classic")
    await finish(store, LIVE, {11: 40, 33: 30})
    [game] = await store.ratings.unrated()

    def stale(match: object, current: dict[int, StoredRating]) -> list[RatedLine]:
        # as if 11's row had been read before the first game was rated
        return [
            RatedLine(p, StoredRating(25.0, 25 / 3, 0), StoredRating(30.0, 8.0, 1))
            for p in (11, 33)
        ]

    with pytest.raises(RatingConflict):
        await store.ratings.rate([(game, None)], stale)
    assert await store.ratings.of_variant(LIVE, "classic") == kept  # nothing written, 33 neither
    assert not await store.ratings.is_rated(game.game_id)
    assert await ratings.backfill() == 1
    assert (await store.ratings.of_variant(LIVE, "classic"))[11].games == 2


async def test_a_game_rated_by_a_later_games_settle_meanwhile_still_shows_its_changes(
    store: Store,
) -> None:
    """Two games end at once: the first's settle reads it unrated, then the second's
    settle rates both (it takes the earlier one along) before the first's rating
    transaction runs. The first's final message still gets its people's changes, as
    stored, rather than none."""
    ratings = RatingService(store)
    earlier = await store.games.get(await finish(store, LIVE, {11: 50, 22: 30}))
    later = await store.games.get(await finish(store, LIVE, {33: 50, 44: 30}))
    assert earlier is not None and later is not None
    read = store.ratings.unrated_up_to

    async def read_then_the_later_settles(*args: Any) -> list[GameToRate]:
        found = await read(*args)
        if args[2] == earlier.id:
            assert [g.game_id for g in found] == [earlier.id]
            await ratings.settle(later)
            assert await store.ratings.is_rated(earlier.id)  # taken along
        return found

    store.ratings.unrated_up_to = read_then_the_later_settles  # type: ignore[method-assign]
    changes = await ratings.settle(earlier)
    assert sorted(c.player for c in changes) == [11, 22]
    assert changes == await ratings.changes(earlier.id)
