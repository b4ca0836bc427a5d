"""The daily challenge's service: the day's dice, days and time zones, one
attempt per member across servers, results, streaks and par; on every backend."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, available_timezones

import pytest

from bot.players import choose
from bot.rules import DICE_VERSION, new_game, replay
from bot.rules.dice import DICE_V2, DICE_V4
from bot.service.daily import (
    DailyService,
    better_than,
    daily_dice,
    daily_seed,
    day_of,
    hidden_channel,
    out_somewhere,
    over_everywhere,
    par_score,
    streak,
    turns_at,
)
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.store.daily import Attempt, DailySettings, DailyStanding
from tests.fakes import FakeClock

NOON = datetime(2026, 11, 27, 12, tzinfo=UTC).timestamp()
ANA, BEN, CEM = 101, 202, 303
ALPHA, BETA = 11, 22


def test_the_days_dice_come_from_the_secret_the_day_and_the_variant() -> None:
    seed = daily_seed("s3cret", "2026-11-27", "classic")
    assert seed == daily_seed("s3cret", "2026-11-27", "classic")
    others = {
        daily_seed("other", "2026-11-27", "classic"),
        daily_seed("s3cret", "2026-11-28", "classic"),
        daily_seed("s3cret", "2026-11-27", "qwinto"),
    }
    assert seed not in others and len(others) == 3
    assert all(0 <= s < 2**62 for s in (seed, *others))


def test_an_attempt_lives_in_no_channel_of_its_own_per_member_day_and_variant() -> None:
    ids = {
        hidden_channel(day, variant, user)
        for day in ("2026-11-27", "2026-11-28")
        for variant in ("classic", "qwinto")
        for user in (ANA, BEN)
    }
    assert len(ids) == 8 and all(i < 0 for i in ids)


@pytest.mark.parametrize(
    ("zone", "hour", "when", "day"),
    [
        ("UTC", 0, "2026-11-27T23:59", "2026-11-27"),
        ("UTC", 0, "2026-11-28T00:00", "2026-11-28"),
        ("UTC", 6, "2026-11-28T05:59", "2026-11-27"),
        ("Asia/Tokyo", 0, "2026-11-27T15:00", "2026-11-28"),  # midnight in Tokyo
        ("America/New_York", 0, "2026-11-28T04:59", "2026-11-27"),  # 23:59 EST
        ("Europe/Berlin", 3, "2026-03-29T01:30", "2026-03-29"),  # 03:30 CEST, after the change
        ("Pacific/Kiritimati", 0, "2026-11-27T10:00", "2026-11-28"),
    ],
)
def test_a_servers_day_turns_at_its_hour_in_its_time_zone(
    zone: str, hour: int, when: str, day: str
) -> None:
    now = datetime.fromisoformat(when).replace(tzinfo=UTC).timestamp()
    assert day_of(now, DailySettings(None, hour, zone)) == day


def test_every_servers_day_lies_within_the_days_dice_being_out() -> None:
    """Whatever zone and hour a server chose, its day ``D`` begins no sooner than
    :func:`out_somewhere` and ends no later than :func:`over_everywhere`."""
    day = "2026-11-27"
    for zone in sorted(available_timezones()):
        if zone.startswith(("posix/", "right/")) or zone in ("Factory", "localtime"):
            continue
        for hour in (0, 12, 23):
            settings = DailySettings(None, hour, zone)
            begins = datetime.combine(
                datetime.fromisoformat(day).date(), datetime.min.time(), ZoneInfo(zone)
            ) + timedelta(hours=hour)
            assert out_somewhere(day) <= begins.timestamp(), (zone, hour)
            assert turns_at(day, settings) <= over_everywhere(day), (zone, hour)
            assert day_of(begins.timestamp(), settings) == day
            assert day_of(turns_at(day, settings), settings) == "2026-11-28"


def test_a_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    assert streak([], "2026-11-27") == 0
    assert streak(["2026-11-27", "2026-11-26", "2026-11-25", "2026-11-23"], "2026-11-27") == 3
    assert streak(["2026-11-26", "2026-11-25"], "2026-11-27") == 2  # today still to play
    assert streak(["2026-11-25"], "2026-11-27") == 0


def test_a_standing_gives_the_place_and_the_share_beaten_never_more() -> None:
    assert (
        DailyStanding(above=0, below=0, players=1).place,
        better_than(DailyStanding(above=0, below=0, players=1)),
    ) == (1, 0)
    assert better_than(DailyStanding(above=0, below=1, players=2)) == 50
    assert DailyStanding(above=1, below=0, players=2).place == 2
    assert better_than(DailyStanding(above=1, below=0, players=2)) == 0
    assert better_than(DailyStanding(above=0, below=2, players=3)) == 66  # 66.7%: rounded down
    assert better_than(DailyStanding(above=1, below=0, players=3)) == 0  # two share the top
    assert better_than(DailyStanding(above=9, below=990, players=1000)) == 99
    assert better_than(DailyStanding(above=998, below=1, players=1000)) == 0  # 0.1%


@pytest.mark.parametrize(("day", "version"), [("2026-11-30", DICE_V2), ("2026-12-01", DICE_V4)])
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_par_is_hards_game_on_the_days_dice(variant: str, day: str, version: int) -> None:
    seed = daily_seed("s", day, variant)
    rng, moves = random.Random(seed), []
    game = replay(variant, [1], seed, {}, [], solo=True, dice_version=version)
    while not game.finished:
        move = choose(game, 1, rng, "hard")
        moves.append((1, move))
        game, _ = game.apply(1, move)
    assert par_score(variant, seed, day) == game.scores()[1].total
    assert replay(variant, [1], seed, {}, moves, solo=True, dice_version=version).scores()[
        1
    ].total == par_score(variant, seed, day)


@pytest.fixture
def daily(service: GameService) -> DailyService:
    return service.daily


async def test_members_of_two_servers_get_the_same_dice_and_one_attempt_each(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    ana, ana_game = await daily.begin(ALPHA, 1, ANA, "classic")
    ben, ben_game = await daily.begin(BETA, 2, BEN, "classic")
    assert ana.day == ben.day == "2026-11-27" and ana.guild_id == ALPHA
    assert ana_game.game is not None and ben_game.game is not None
    assert ana_game.game.dice_on_table() == ben_game.game.dice_on_table()
    assert ana_game.record.seed == ben_game.record.seed != 4321  # not the service's seeds
    assert ana_game.record.channel_id < 0 and ana_game.record.status == "running"
    again, same = await daily.begin(BETA, 3, ANA, "classic")  # from another server too
    assert again == ana and same.record.id == ana_game.record.id
    other, _ = await daily.begin(ALPHA, 1, ANA, "qwinto")  # each variant has its own
    assert other.game_id != ana.game_id


async def test_two_begins_at_once_make_one_attempt_of_one_running_game(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    (first, one), (second, other) = await asyncio.gather(
        daily.begin(ALPHA, 1, ANA, "classic"), daily.begin(ALPHA, 1, ANA, "classic")
    )
    assert first == second and one.record == other.record
    assert one.record.status == "running" and one.record.version == 2  # started once


async def test_a_game_left_by_a_begin_cut_short_is_the_next_begins(
    daily: DailyService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A begin that stopped between opening the attempt's game and recording the attempt
    left the game behind in the attempt's hidden channel: the next begin plays it."""
    clock.now = NOON
    record = daily.store.daily.add_attempt

    async def cut_short(attempt: Attempt) -> Attempt:
        monkeypatch.setattr(daily.store.daily, "add_attempt", record)
        raise ConnectionError("the database went away")

    monkeypatch.setattr(daily.store.daily, "add_attempt", cut_short)
    with pytest.raises(ConnectionError):
        await daily.begin(ALPHA, 1, ANA, "classic")
    left = await daily.store.games.in_channel(hidden_channel("2026-11-27", "classic", ANA))
    assert left is not None and left.status == "lobby"
    attempt, found = await daily.begin(ALPHA, 1, ANA, "classic")
    assert attempt.game_id == left.id and found.record.status == "running"


async def test_a_game_opened_after_another_begin_recorded_its_attempt_ends_unplayed(
    daily: DailyService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two begins at once in two processes: the attempt recorded first stands, and the
    game the other opened for it ends without being played."""
    clock.now = NOON
    attempt, first = await daily.begin(ALPHA, 1, ANA, "classic")
    store = daily.store
    await store.games.abandon(first.record.id, first.record.version)  # its channel free
    look = store.daily.attempt

    async def not_yet(day: str, variant: str, user: int) -> Attempt | None:
        monkeypatch.setattr(store.daily, "attempt", look)
        return None  # as read by the other process before this one recorded it

    monkeypatch.setattr(store.daily, "attempt", not_yet)
    again, found = await daily.begin(ALPHA, 1, ANA, "classic")
    assert again == attempt and found.record.id == first.record.id
    opened = await store.games.of_channel(first.record.channel_id)
    assert [(g.id == first.record.id, g.status) for g in opened] == [
        (False, "abandoned"),
        (True, "abandoned"),
    ]


def test_the_days_dice_derivation_turns_on_a_day_not_in_the_middle_of_one() -> None:
    assert [
        daily_dice(day)
        for day in ("2026-11-27", "2026-11-30", "2026-12-01", "2026-12-02", "2033-05-18")
    ] == [DICE_V2, DICE_V2, DICE_V4, DICE_V4, DICE_V4]
    assert DICE_VERSION == DICE_V4  # the days from then on throw what new games throw


@pytest.mark.parametrize(("day", "version"), [("2026-11-30", DICE_V2), ("2026-12-01", DICE_V4)])
async def test_every_game_of_a_day_keeps_that_days_dice_derivation(
    daily: DailyService, clock: FakeClock, day: str, version: int
) -> None:
    # A release that brings a new derivation must not split a day: the attempts begun
    # after it, and par, deal what those begun before dealt (Longo's lucky numbers too).
    clock.now = datetime.fromisoformat(f"{day}T12:00").replace(tzinfo=UTC).timestamp()
    _, begun = await daily.begin(ALPHA, 1, ANA, "longo")
    assert begun.game is not None and begun.game.dice_version == version
    assert begun.game.to_json()["dice_version"] == version  # as stored
    seed = begun.record.seed
    par_game = new_game("longo", [1], seed, {}, solo=True, dice_version=version)
    assert begun.game.lucky_numbers(ANA) == par_game.lucky_numbers(1)
    assert begun.game.dice_on_table() == par_game.dice_on_table()
    other = DICE_V4 if version == DICE_V2 else DICE_V2
    assert any(
        new_game("longo", [1], s, {}, solo=True, dice_version=other).lucky_numbers(1)
        != new_game("longo", [1], s, {}, solo=True, dice_version=version).lucky_numbers(1)
        for s in range(20)
    )  # the other derivation deals others


async def test_a_server_still_on_the_last_day_of_version_2_plays_it_on_version_2(
    daily: DailyService, clock: FakeClock
) -> None:
    """At 04:00 UTC on the first day of version 4, New York's day is still the one
    before: its members play that day's dice, with that day's derivation."""
    clock.now = datetime(2026, 12, 1, 4, tzinfo=UTC).timestamp()  # 23:00 there
    await daily.set_settings(BETA, timezone="America/New_York")
    ana, early = await daily.begin(ALPHA, 1, ANA, "classic")
    ben, late = await daily.begin(BETA, 2, BEN, "classic")
    assert (ana.day, ben.day) == ("2026-12-01", "2026-11-30")
    assert early.game is not None and early.game.dice_version == DICE_V4
    assert late.game is not None and late.game.dice_version == DICE_V2


async def test_a_finished_attempt_is_ranked_everywhere_and_in_its_server(
    service: GameService, daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    results, games = {}, {}
    for user, guild in ((ANA, ALPHA), (BEN, BETA), (CEM, ALPHA)):
        attempt, outcome = await daily.begin(guild, 1, user, "classic")
        game, rng = outcome.game, random.Random(user)
        assert game is not None
        while not game.finished:
            outcome = await service.turns.move(
                attempt.game_id,
                user,
                game.turn,
                game.decision().phase,
                choose(game, user, rng, "easy"),
            )
            assert outcome.game is not None
            game = outcome.game
        results[user], games[user] = await daily.finish(attempt, game), game
    last = results[CEM]
    assert last.standing.players == 3
    assert last.standing.above == sum(r.score > last.score for r in results.values())
    assert sorted(last.ranking, key=lambda line: -line[1]) == last.ranking  # best first
    assert sorted(last.ranking) == sorted((u, results[u].score) for u in (ANA, CEM))
    assert last.par == await daily.par("2026-11-27", "classic")
    assert last.streak == 1 and last.next == NOON + 12 * 3600
    again = await daily.finish(results[ANA].attempt, games[ANA])  # once: the score stays
    assert again.score == results[ANA].score


async def test_an_attempt_closes_when_its_day_is_over_everywhere(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    _, outcome = await daily.begin(ALPHA, 1, ANA, "longo")
    daily.check_open(outcome.record)
    assert await daily.reviewable(outcome.record) == over_everywhere("2026-11-27")
    clock.now = over_everywhere("2026-11-27")
    with pytest.raises(ServiceError) as refused:
        daily.check_open(outcome.record)
    assert refused.value.key == "error.daily_over"
    assert await daily.reviewable(outcome.record) is None


async def test_settings_are_checked_before_they_are_kept(daily: DailyService) -> None:
    with pytest.raises(ServiceError) as wrong:
        await daily.set_settings(ALPHA, timezone="Mars/Olympus_Mons")
    assert wrong.value.key == "error.daily_timezone"
    with pytest.raises(ServiceError):
        await daily.set_settings(ALPHA, hour=24)
    assert await daily.settings(ALPHA) == DailySettings()
    kept = await daily.set_settings(ALPHA, channel_id=5, hour=6, timezone="Europe/Berlin")
    assert kept == DailySettings(5, 6, "Europe/Berlin") == await daily.settings(ALPHA)
    assert await daily.set_settings(ALPHA, hour=7) == DailySettings(5, 7, "Europe/Berlin")


async def test_forgetting_a_member_makes_their_attempts_anonymous(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    attempt, _ = await daily.begin(ALPHA, 1, ANA, "classic")
    store = daily.store
    record = await store.games.get(attempt.game_id)
    assert record is not None
    await store.games.abandon(record.id, record.version)  # forget-me waits for games to end
    forgotten = await store.privacy.forget(ANA)
    assert forgotten is not None
    assert await store.daily.attempt(attempt.day, "classic", ANA) is None
    rows = await store.engine.fetch("SELECT user_id FROM daily_attempts")
    assert len(rows) == 1 and rows[0][0] != ANA


async def test_a_finish_leaves_its_ranking_owed_until_a_write_shows_it(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    attempt, _ = await daily.begin(ALPHA, 7, ANA, "classic")
    await daily.store.daily.finish_attempt(attempt.game_id, 30, NOON)
    await daily.store.daily.finish_attempt(attempt.game_id, 30, NOON)  # once: owed once
    assert await daily.owed() == [(ALPHA, "2026-11-27", "classic", 7)]
    post = await daily.post(ALPHA, "2026-11-27", "classic")
    assert post is not None and (post.message_id, post.owed) == (None, 1)
    other, _ = await daily.begin(ALPHA, 8, BEN, "classic")
    await daily.store.daily.finish_attempt(other.game_id, 40, NOON)  # while the first is written
    await daily.posted(ALPHA, "2026-11-27", "classic", 7, 99, shown=post.owed)
    assert await daily.owed() == [(ALPHA, "2026-11-27", "classic", 7)]  # still owes Ben
    again = await daily.post(ALPHA, "2026-11-27", "classic")
    assert again is not None and (again.message_id, again.owed) == (99, 2)
    await daily.posted(ALPHA, "2026-11-27", "classic", 7, 99, shown=again.owed)
    assert await daily.owed() == []


async def test_a_standing_counts_who_scored_more_and_less_ties_apart(
    daily: DailyService, clock: FakeClock
) -> None:
    clock.now = NOON
    for user, score in ((ANA, 30), (BEN, 30), (CEM, 12), (404, 45)):
        attempt, _ = await daily.begin(ALPHA, 1, user, "classic")
        await daily.store.daily.finish_attempt(attempt.game_id, score, NOON)
    standing = await daily.store.daily.standing("2026-11-27", "classic", 30)
    assert standing == DailyStanding(above=1, below=1, players=4) and standing.place == 2


async def test_a_new_ranking_goes_where_the_servers_first_attempt_of_the_day_began(
    daily: DailyService, clock: FakeClock
) -> None:
    """Begun in channel 7 first, finished last: the ranking is in channel 7 all the same
    (the README: "else where the first member of the day played")."""
    clock.now = NOON
    first, _ = await daily.begin(ALPHA, 7, ANA, "classic")
    second, _ = await daily.begin(ALPHA, 8, BEN, "classic")
    elsewhere, _ = await daily.begin(BETA, 9, CEM, "classic")  # another server's own
    await daily.store.daily.finish_attempt(second.game_id, 20, NOON)
    await daily.store.daily.finish_attempt(elsewhere.game_id, 20, NOON)
    post = await daily.post(ALPHA, "2026-11-27", "classic")
    assert post is not None and post.channel_id == 7
    await daily.store.daily.finish_attempt(first.game_id, 10, NOON)
    post = await daily.post(ALPHA, "2026-11-27", "classic")
    assert post is not None and (post.channel_id, post.owed) == (7, 2)
    other = await daily.post(BETA, "2026-11-27", "classic")
    assert other is not None and other.channel_id == 9
