"""Leaderboards, personal stats and history: ranking rules, periods, isolation, the hook."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from bot.records.games import GameChange, GameResults, PlayerResult
from bot.records.stats import Totals
from bot.rules import PASS, Standing
from bot.service.games import GameService
from bot.service.results import game_results
from bot.service.stats import Leaderboard, StatsService, period_start, rank_players
from bot.store import Store
from bot.store.engine import Tx
from tests.fakes import FakeClock

from .helpers import play_randomly

GUILD, OTHER, CHANNEL = 1, 2, 100
ANA, BEN, CEM, DAN = 11, 22, 33, 44


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


@pytest.fixture
def clock() -> FakeClock:
    """A Wednesday afternoon, for the periods (the week, the month, the year) to start at."""
    return FakeClock(utc(2026, 1, 14, 15, 30).timestamp())


@pytest.fixture
def stats(store: Store, clock: FakeClock) -> StatsService:
    return StatsService(store, clock=clock)


def ranked(scores: dict[int, int]) -> tuple[PlayerResult, ...]:
    totals = list(scores.values())
    return tuple(
        PlayerResult(p, seat, s, 1 + sum(1 for o in totals if o > s), all(o <= s for o in totals))
        for seat, (p, s) in enumerate(scores.items())
    )


async def finish(
    store: Store,
    scores: dict[int, int],
    *,
    guild: int = GUILD,
    variant: str = "classic",
    channel: int = CHANNEL,
) -> int:
    """A game of ``scores`` finished now (the store's clock), straight through the store."""
    players = list(scores)
    game = await store.games.create(guild, channel, players[0], variant, {}, 1)
    game = await store.games.set_players(game.id, game.version, players)
    game = await store.games.start(game.id, game.version, {})
    change = GameChange(
        [(players[0], {}, "player")], {}, "finished", GameResults(8, ranked(scores))
    )
    await store.games.change(game, change)
    return game.id


# --- pure rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "period", "start"),
    [
        (utc(2026, 1, 14, 15, 30), "week", utc(2026, 1, 12)),
        (utc(2026, 1, 14, 15, 30), "month", utc(2026, 1, 1)),
        (utc(2026, 1, 12, 0, 0), "week", utc(2026, 1, 12)),  # Monday midnight opens a week
        (utc(2026, 1, 11, 23, 59, 59), "week", utc(2026, 1, 5)),  # Sunday night still the old one
        (utc(2026, 3, 1, 0, 0), "month", utc(2026, 3, 1)),
        (utc(2026, 2, 28, 23, 59, 59), "month", utc(2026, 2, 1)),
        (utc(2026, 1, 1, 8, 0), "week", utc(2025, 12, 29)),  # a week across the new year
    ],
)
def test_periods_start_in_utc(now: datetime, period: str, start: datetime) -> None:
    assert period_start(period, now.timestamp()) == start.timestamp()


def test_all_time_has_no_bound_and_unknown_periods_are_refused() -> None:
    assert period_start("all", 1e9) is None
    with pytest.raises(ValueError):
        period_start("decade", 1e9)


def totals(player: int, games: int, wins: int, score_sum: int = 0, best: int = 0) -> Totals:
    return Totals(player, games, wins, score_sum, best)


def test_ties_share_a_rank() -> None:
    lines = [totals(1, 9, 5), totals(2, 4, 3), totals(3, 8, 3), totals(4, 2, 1), totals(5, 7, 0)]
    ranking, unranked = rank_players(lines, "wins")
    assert [(rank, t.player_id) for rank, t in ranking] == [(1, 1), (2, 2), (2, 3), (4, 4), (5, 5)]
    assert unranked == []  # wins and best rank everyone


def test_best_ranks_everyone_by_top_score() -> None:
    lines = [totals(1, 1, 0, 50, 50), totals(2, 5, 1, 300, 90), totals(3, 2, 1, 150, 90)]
    ranking, _ = rank_players(lines, "best")
    assert [(rank, t.player_id) for rank, t in ranking] == [(1, 3), (1, 2), (3, 1)]


def test_rates_only_rank_players_with_enough_games() -> None:
    lines = [
        totals(1, 2, 2, 200),
        totals(2, 3, 2, 90),
        totals(3, 6, 4, 180),
        totals(4, 4, 1, 120),
        totals(5, 1, 0, 10),
    ]
    ranking, unranked = rank_players(lines, "rate", min_games=3)
    # 2/3 and 4/6 are the same rate: a shared rank, more games shown first
    assert [(rank, t.player_id) for rank, t in ranking] == [(1, 3), (1, 2), (3, 4)]
    assert [t.player_id for t in unranked] == [1, 5]
    ranking, unranked = rank_players(lines, "average", min_games=3)
    assert [(rank, t.player_id) for rank, t in ranking] == [(1, 3), (1, 2), (1, 4)]
    assert rank_players(lines, "average", min_games=1)[0][0][1].player_id == 1


@dataclass
class FakeGame:
    players: tuple[int, ...]
    standings: list[Standing]
    turn: int = 12
    finished: bool = True

    def ranking(self) -> list[Standing]:
        return self.standings


def test_game_results_keep_seats_ranks_and_shared_wins() -> None:
    game = FakeGame(
        (ANA, BEN, CEM), [Standing(1, BEN, 40), Standing(1, CEM, 40), Standing(3, ANA, 12)]
    )
    results = game_results(game)  # type: ignore[arg-type]
    assert results.counted and results.turns == 12
    assert [(r.player_id, r.seat, r.score, r.rank, r.won) for r in results.players] == [
        (BEN, 1, 40, 1, True),
        (CEM, 2, 40, 1, True),
        (ANA, 0, 12, 3, False),
    ]


def test_a_game_without_a_full_ranking_is_not_counted() -> None:
    unranked = game_results(FakeGame((ANA, BEN), []))  # type: ignore[arg-type]
    assert not unranked.counted and unranked.players == ()
    alone = game_results(FakeGame((ANA,), [Standing(1, ANA, 5)]))  # type: ignore[arg-type]
    assert not alone.counted


# --- the leaderboard -------------------------------------------------------------


async def test_top_ten_and_the_callers_own_line(store: Store, stats: StatsService) -> None:
    players = list(range(101, 113))  # 12 players; player 101 + k wins k games
    for k, player in enumerate(players):
        for _ in range(k):
            await finish(store, {player: 50, DAN: 10})
    await store.names.remember(GUILD, 111, "Kai")
    board = await stats.leaderboard(GUILD, caller=101)
    assert [(line.rank, line.player_id) for line in board.lines] == [
        (1, 112),
        (2, 111),
        (3, 110),
        (4, 109),
        (5, 108),
        (6, 107),
        (7, 106),
        (8, 105),
        (9, 104),
        (10, 103),
    ]
    assert board.lines[1].name == "Kai" and board.lines[0].name == ""
    assert board.own is None  # 101 never finished a game
    board = await stats.leaderboard(GUILD, caller=102)
    assert board.own is not None and (board.own.rank, board.own.wins) == (11, 1)
    assert board.ranked == 12 and board.unranked == 0  # DAN: 66 games, 0 wins, rank 12 too
    assert (await stats.leaderboard(GUILD, caller=DAN)).own.rank == 12  # type: ignore[union-attr]
    assert (await stats.leaderboard(GUILD, caller=112)).own is None  # already shown


async def test_rate_sorts_leave_out_and_show_players_under_the_minimum(
    store: Store, stats: StatsService
) -> None:
    for _ in range(3):
        await finish(store, {ANA: 60, BEN: 40})
    await finish(store, {CEM: 99, BEN: 1})
    board = await stats.leaderboard(GUILD, caller=CEM, sort="rate")
    assert [(line.rank, line.player_id) for line in board.lines] == [(1, ANA), (2, BEN)]
    assert board.own is not None and board.own.rank is None and board.own.player_id == CEM
    assert board.unranked == 1 and board.min_games == 3
    wins = await stats.leaderboard(GUILD, caller=CEM, sort="wins")
    assert [(line.rank, line.player_id) for line in wins.lines] == [(1, ANA), (2, CEM), (3, BEN)]
    strict = StatsService(store, min_games=5)
    assert (await strict.leaderboard(GUILD, caller=ANA, sort="average")).lines == ()
    with pytest.raises(ValueError):
        await stats.leaderboard(GUILD, caller=ANA, sort="luck")


async def test_periods_follow_the_injected_clock(
    store: Store, stats: StatsService, clock: FakeClock
) -> None:
    clock.set(utc(2025, 12, 31, 22, 0))  # last year, last month
    await finish(store, {ANA: 80, BEN: 10})
    clock.set(utc(2026, 1, 9, 12, 0))  # this month, last week
    await finish(store, {BEN: 70, ANA: 20})
    clock.set(utc(2026, 1, 12, 0, 0))  # Monday midnight: this week
    await finish(store, {CEM: 50, ANA: 30}, variant="longo")
    clock.set(utc(2026, 1, 14, 15, 30))

    def wins(board: object) -> dict[int, int]:
        return {line.player_id: line.wins for line in board.lines}  # type: ignore[attr-defined]

    assert wins(await stats.leaderboard(GUILD, ANA)) == {ANA: 1, BEN: 1, CEM: 1}
    assert wins(await stats.leaderboard(GUILD, ANA, period="month")) == {BEN: 1, CEM: 1, ANA: 0}
    week = await stats.leaderboard(GUILD, ANA, period="week")
    assert wins(week) == {CEM: 1, ANA: 0}
    assert week.since == utc(2026, 1, 12).timestamp()
    classic_month = await stats.leaderboard(GUILD, ANA, variant="classic", period="month")
    assert wins(classic_month) == {BEN: 1, ANA: 0}
    assert (await stats.leaderboard(GUILD, ANA, variant="qwinto")).empty


async def test_guilds_are_isolated(store: Store, stats: StatsService) -> None:
    first = await finish(store, {ANA: 10, BEN: 5})
    second = await finish(store, {ANA: 1, CEM: 90}, guild=OTHER, channel=CHANNEL + 1)
    assert [line.player_id for line in (await stats.leaderboard(GUILD, ANA)).lines] == [ANA, BEN]
    assert [line.player_id for line in (await stats.leaderboard(OTHER, ANA)).lines] == [CEM, ANA]
    assert (await stats.player(GUILD, CEM)).overall is None
    mine = await stats.player(GUILD, ANA)
    assert mine.overall is not None and (mine.overall.games, mine.overall.best) == (1, 10)
    assert [g.game_id for g in await stats.history(GUILD)] == [first]
    assert [g.game_id for g in await stats.history(OTHER, ANA)] == [second]
    assert await stats.final_game(OTHER, first) is None  # not even the sheets


# --- personal stats --------------------------------------------------------------


async def test_stats_per_variant_and_overall(
    store: Store, stats: StatsService, clock: FakeClock
) -> None:
    scores = [
        (30, "classic"),
        (70, "classic"),
        (-5, "longo"),
        (44, "classic"),
        (90, "longo"),
        (12, "classic"),
        (61, "classic"),
        (8, "classic"),
    ]
    for score, variant in scores:
        clock.now += 60
        await finish(store, {ANA: score, BEN: 40}, variant=variant)
    result = await stats.player(GUILD, ANA)
    overall = result.overall
    assert overall is not None
    assert (overall.games, overall.wins, overall.score_sum, overall.best) == (8, 4, 310, 90)
    assert overall.last == (8, 61, 12, 90, 44)  # newest first
    assert overall.win_rate == 0.5 and overall.average == 310 / 8
    classic, longo = result.variants  # most played first
    assert (classic.variant, classic.games, classic.wins, classic.best) == ("classic", 6, 3, 70)
    assert classic.last == (8, 61, 12, 44, 70)
    assert (longo.variant, longo.games, longo.wins, longo.last) == ("longo", 2, 1, (90, -5))
    assert (await stats.player(GUILD, DAN)).variants == ()


# --- through the game service ----------------------------------------------------


async def test_a_finished_game_is_recorded_by_the_move_that_ends_it(
    store: Store, stats: StatsService
) -> None:
    service = GameService(store, seeds=lambda: 4321)
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    await service.lobby.join(record.id, CEM)
    await service.lobby.start(record.id, ANA)
    assert await stats.history(GUILD) == []
    await play_randomly(service, record.id, random.Random(3))
    game = (await service.keeper.read(record.id)).game
    assert game is not None and game.finished
    ranking = game.ranking()

    [entry] = await stats.history(GUILD)
    assert entry.game_id == record.id and entry.turns == game.turn and entry.counted
    assert [(line.player_id, line.score, line.rank, line.won) for line in entry.lines] == [
        (s.player, s.total, s.rank, s.rank == 1) for s in ranking
    ]
    board = await stats.leaderboard(GUILD, ANA, sort="best")
    assert {(line.player_id, line.best) for line in board.lines} == {
        (s.player, s.total) for s in ranking
    }
    assert sum(line.wins for line in board.lines) == sum(1 for s in ranking if s.rank == 1)
    final = await stats.final_game(GUILD, record.id)
    assert final is not None and final.game.to_json() == game.to_json()
    assert set(final.names) == {ANA, BEN, CEM}


async def test_abandoned_and_running_games_do_not_count(store: Store, stats: StatsService) -> None:
    service = GameService(store, seeds=lambda: 99)
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    await service.turns.move(record.id, ANA, 1, "action1", PASS)
    assert await stats.final_game(GUILD, record.id) is None  # still running
    await service.turns.abandon(CHANNEL, ANA, can_manage=False)
    assert await stats.history(GUILD) == []
    assert (await stats.leaderboard(GUILD, ANA)).empty
    assert (await stats.player(GUILD, ANA)).overall is None
    assert await stats.final_game(GUILD, record.id) is None


async def test_games_finished_before_results_were_kept_are_backfilled(
    store: Store, stats: StatsService
) -> None:
    service = GameService(store, seeds=lambda: 4321)
    record = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(record.id, BEN)
    await service.lobby.start(record.id, ANA)
    await play_randomly(service, record.id, random.Random(5))
    broken = await finish(store, {CEM: 1, DAN: 2}, channel=CHANNEL + 1)
    before = await stats.leaderboard(GUILD, ANA)

    async def forget(tx: Tx) -> None:  # every result, as a database from before schema 3
        for table in ("results", "matches", "player_totals"):
            await tx.execute(f"DELETE FROM {table}")
        await tx.execute("UPDATE games SET state = ? WHERE id = ?", ('{"variant": "gone"}', broken))

    await store.engine.transact(forget)
    assert (await stats.leaderboard(GUILD, ANA)).empty
    assert await stats.backfill() == 2
    assert await stats.backfill() == 0  # once only

    def figures(board: Leaderboard) -> set[tuple[int, int, int, int, int]]:
        return {(x.player_id, x.games, x.wins, x.score_sum, x.best) for x in board.lines}

    after = await stats.leaderboard(GUILD, ANA)
    assert figures(after) == {f for f in figures(before) if f[0] in (ANA, BEN)}
    assert len(after.lines) == 2
    history = await stats.history(GUILD)
    assert [(g.game_id, g.counted) for g in history] == [(broken, False), (record.id, True)]


# --- accuracy and rating in /qwixx stats -------------------------------------------


async def test_stats_average_the_stored_accuracies_per_variant_and_overall(
    store: Store, stats: StatsService
) -> None:
    reviews = [("classic", 0.9), ("classic", 0.6), ("classic", 0.3), ("qwinto", 0.5)]
    for k, (variant, accuracy) in enumerate(reviews):
        game_id = await finish(store, {ANA: 10 + k, BEN: 5}, variant=variant, channel=CHANNEL + k)
        record = await store.games.get(game_id)
        assert record is not None
        await store.reviews.add(record, [(ANA, accuracy, 10), (BEN, 1.0, 10)], False, 0.0)
    hinted = await finish(store, {ANA: 1, BEN: 0}, channel=CHANNEL + 9)
    record = await store.games.get(hinted)
    assert record is not None
    await store.reviews.add(record, [(ANA, 0.0, 10)], True, 0.0)  # hints: left out
    mine = await stats.player(GUILD, ANA)
    classic = mine.accuracy("classic")
    assert classic is not None and classic.games == 3
    assert classic.accuracy == pytest.approx(0.6)
    overall = mine.accuracy(None)  # every game weighs the same: (0.9+0.6+0.3+0.5)/4
    assert overall is not None and overall.games == 4
    assert overall.accuracy == pytest.approx(0.575)
    assert mine.accuracy("longo") is None
    assert (await stats.player(OTHER, ANA)).accuracy(None) is None


async def test_stats_carry_each_variants_rating(store: Store, stats: StatsService) -> None:
    for k in range(3):
        await finish(store, {ANA: 50, BEN: 10}, channel=CHANNEL + k)
    await StatsService(store).backfill()  # rates the counted games
    ana, ben = await stats.player(GUILD, ANA), await stats.player(GUILD, BEN)
    assert set(ana.ratings) == {"classic"}
    assert ana.ratings["classic"].games == 3 and ana.ratings["classic"].provisional
    assert ana.ratings["classic"].points > 1500 > ben.ratings["classic"].points
