"""The tournament service on both backends: settings and limits refused politely, sign-up
by compare-and-set whatever clicks at once, the start at a deadline with its check-in,
rounds seated once by whoever settles (another process, a restart), tables played as
ordinary games to their end, withdrawals and decisions that ran out told in results
that equal a recount from the stored games."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.i18n import ENGLISH, LOCALES, using
from bot.i18n.words import text
from bot.players import is_computer
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.retry import ATTEMPTS, BUSY
from bot.service.tournaments import MOST_ENTERED, MOST_OPEN, table_result
from bot.store import Store
from bot.tournament import TournamentSettings, next_round
from bot.tournament.records import TableRecord, Tournament, TournamentRecord
from bot.tournament.settings import DAY, HOUR, MOST_PLAYERS
from tests.fakes import FakeClock

from .tables import open_round, pass_to_end, recount

GUILD = 3 << 22
CHANNEL = 500
HOST = 1


async def created(service: GameService, players: int, **settings: object) -> Tournament:
    """A tournament with ``players`` people (101, 102, ...) signed up."""
    tournaments = service.tournaments
    record = await tournaments.create(GUILD, CHANNEL, HOST, TournamentSettings("Cup", **settings))  # type: ignore[arg-type]
    for player in range(101, 101 + players):
        await tournaments.join(record.id, player)
    return await tournaments.read(record.id)


def refusal(error: pytest.ExceptionInfo[ServiceError]) -> str:
    return error.value.key


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        (TournamentSettings(""), "tournament.error.name"),
        (TournamentSettings("x", variant="chess"), "tournament.error.variant"),
        (TournamentSettings("x", rounds=11), "tournament.error.rounds"),
        (TournamentSettings("x", table_size=6), "tournament.error.table_size"),
        (TournamentSettings("x", points=(1, 2, 3, 4)), "tournament.error.points_order"),
        (TournamentSettings("x", check_in=HOUR), "tournament.error.check_in_manual"),
    ],
)
async def test_settings_that_cannot_be_are_refused_with_the_cores_reason(
    service: GameService, settings: TournamentSettings, key: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        await service.tournaments.create(GUILD, CHANNEL, HOST, settings)
    assert refusal(refused) == key
    assert await service.tournaments.of_guild(GUILD) == []


async def test_a_server_holds_a_few_open_tournaments_one_a_channel(service: GameService) -> None:
    tournaments = service.tournaments
    for k in range(MOST_OPEN):
        await tournaments.create(GUILD, CHANNEL + k, HOST, TournamentSettings(f"Cup {k}"))
    with pytest.raises(ServiceError) as busy:
        await tournaments.create(GUILD + 1, CHANNEL, HOST, TournamentSettings("Again"))
    assert refusal(busy) == "tournament.error.channel_busy"
    with pytest.raises(ServiceError) as limit:
        await tournaments.create(GUILD, CHANNEL + 99, HOST, TournamentSettings("One more"))
    assert refusal(limit) == "tournament.error.limit_server" and limit.value.values["most"] == 3
    other = await tournaments.create(GUILD + 1, CHANNEL + 99, HOST, TournamentSettings("Elsewhere"))
    assert other.status == "signup"


async def test_a_member_signs_up_for_a_few_tournaments_at_once(service: GameService) -> None:
    tournaments = service.tournaments
    records = [
        await tournaments.create(GUILD, CHANNEL + k, HOST, TournamentSettings(f"Cup {k}"))
        for k in range(MOST_OPEN)
    ]
    other = await tournaments.create(GUILD + 1, CHANNEL + 9, HOST, TournamentSettings("Elsewhere"))
    for record in records[:MOST_ENTERED]:
        await tournaments.join(record.id, 7)
    await tournaments.join(other.id, 7)  # another server counts apart
    assert MOST_ENTERED == MOST_OPEN  # so the member's limit is what refuses here:
    await tournaments.leave(records[0].id, 7)
    await tournaments.join(records[0].id, 7)
    with pytest.raises(ServiceError) as again:
        await tournaments.join(records[0].id, 7)
    assert refusal(again) == "tournament.error.already"


async def test_a_tournament_takes_256_players_and_refuses_the_next(service: GameService) -> None:
    assert MOST_PLAYERS >= 256
    t = await created(service, MOST_PLAYERS, table_size=5)
    assert len(t.entrants) == MOST_PLAYERS
    with pytest.raises(ServiceError) as full:
        await service.tournaments.join(t.record.id, 99_999)
    assert refusal(full) == "tournament.error.full"


async def test_sign_ups_at_the_same_moment_all_count(service: GameService) -> None:
    t = await created(service, 0)
    await asyncio.gather(*(service.tournaments.join(t.record.id, p) for p in range(1, 31)))
    after = await service.tournaments.read(t.record.id)
    assert sorted(e.player for e in after.entrants) == list(range(1, 31))
    assert after.record.version == t.record.version + 30


async def test_the_deadline_starts_it_dropping_who_did_not_check_in(
    service: GameService, clock: FakeClock
) -> None:
    deadline = int(clock.now) + DAY
    t = await created(service, 5, deadline=deadline, check_in=HOUR)
    tournaments = service.tournaments
    with pytest.raises(ServiceError) as early:
        await tournaments.check_in(t.record.id, 101)
    assert refusal(early) == "tournament.error.check_in_closed"
    assert await tournaments.due() == []
    clock.now = deadline - HOUR
    assert await tournaments.due() == [t.record.id]  # the window opens: the message is owed
    for player in (101, 102, 104):
        await tournaments.check_in(t.record.id, player)
    settled = await tournaments.settle(t.record.id)
    assert settled.record.status == "signup"
    await tournaments.settled(settled)
    assert (await tournaments.read(t.record.id)).record.next_due == deadline
    clock.now = deadline
    started = await tournaments.settle(t.record.id)
    assert started.record.status == "running" and started.record.rounds == 1
    assert [e.player for e in started.entrants] == [101, 102, 104]
    assert started.record.shown["dropped"] == [103, 105]


async def test_too_few_at_the_deadline_calls_it_off(service: GameService, clock: FakeClock) -> None:
    t = await created(service, 2, deadline=int(clock.now) + HOUR)
    with pytest.raises(ServiceError) as manual:
        await service.tournaments.start(t.record.id, HOST, can_manage=False)
    assert refusal(manual) == "tournament.error.too_few"
    clock.now += HOUR
    ended = await service.tournaments.settle(t.record.id)
    assert ended.record.status == "cancelled" and ended.seated == ()


async def test_only_the_organiser_or_a_manager_starts_it(service: GameService) -> None:
    t = await created(service, 4)
    with pytest.raises(ServiceError) as refused:
        await service.tournaments.start(t.record.id, 101, can_manage=False)
    assert refusal(refused) == "tournament.error.organiser_only"
    started = await service.tournaments.start(t.record.id, 101, can_manage=True)
    assert started.record.status == "running"
    with pytest.raises(ServiceError) as late:
        await service.tournaments.join(t.record.id, 200)
    assert refusal(late) == "tournament.error.closed"


async def test_a_whole_tournament_played_out(service: GameService, clock: FakeClock) -> None:
    """Seven at tables of three (smallest three): two tables and a bye each round; one
    withdraws while round 1 plays, one lets a decision run out; every table is a
    finished game and the stored results are the recount of the replayed games."""
    t = await created(service, 7, rounds=2, table_size=3, smallest_table=3)
    tournaments = service.tournaments
    await tournaments.start(t.record.id, HOST, can_manage=False)
    t = await open_round(service, t.record.id)
    first = t.seated[0]
    assert [len(x.players) for x in first.tables] == [3, 3] and len(first.byes) == 1
    leaver = first.tables[0].players[0]
    late = first.tables[1].players[0]
    t, left = await tournaments.withdraw(GUILD, leaver)
    assert left is not None and leaver in left.record.presence["away"]
    for table in t.tables_of(1):
        assert table.game_id is not None
        await pass_to_end(service, table.game_id, clock, late=[late])
    t = await open_round(service, t.record.id)
    assert t.record.rounds == 2
    assert leaver not in t.seated[1].players  # withdrawn after round 1: seated no more
    by_table = {r.table: r for r in t.results if r.round == 1}
    assert {s.player for s in by_table[1].seats if s.away} >= {leaver}
    assert [s.timeouts for s in by_table[2].seats if s.player == late] == [1]
    for table in t.tables_of(2):
        assert table.game_id is not None
        await pass_to_end(service, table.game_id, clock)
    t = await tournaments.settle(t.record.id)
    assert t.record.status == "finished" and len(t.results) == 4
    assert await tournaments.due() == [t.record.id]  # its podium is owed, after a crash too
    await tournaments.settled(t)
    assert await tournaments.due() == []
    assert tournaments.standings(t) == await recount(service.store, t)
    games = [await service.keeper.read(table.game_id or 0) for table in t.tables]
    assert all(g.record.status == "finished" for g in games)
    assert all(g.record.options["tournament"]["id"] == t.record.id for g in games)


async def test_a_round_is_seated_once_by_services_that_settle_at_once(
    database: str | Path, clock: FakeClock
) -> None:
    """Two processes (and a restart) settle a tournament whose round 1 just ended."""
    async with Store(database, clock=clock) as store, Store(database, clock=clock) as other:
        service = GameService(store, seeds=lambda: 77, clock=clock)
        t = await created(service, 6, rounds=3)
        await service.tournaments.start(t.record.id, HOST, can_manage=False)
        t = await open_round(service, t.record.id)
        for table in t.tables_of(1):
            await pass_to_end(service, table.game_id or 0, clock)
        services = [service, GameService(other, clock=clock), GameService(store, clock=clock)]
        settled = await asyncio.gather(*(s.tournaments.settle(t.record.id) for s in services))
        assert {s.record.rounds for s in settled} == {2}
        after = await service.tournaments.read(t.record.id)
        assert len(after.seated) == 2 and len(after.tables_of(2)) == len(after.seated[1].tables)
        expected = next_round(
            after.settings, after.players, after.seated[:1], after.results, after.record.seed
        )
        assert after.seated[1] == expected  # as the core seats it from what is stored


async def test_a_tables_game_is_opened_once_and_holds_its_seats(service: GameService) -> None:
    t = await created(service, 5, table_size=4, computers=True)
    await service.tournaments.start(t.record.id, HOST, can_manage=False)
    t = await open_round(service, t.record.id)
    again = await service.tournaments.open_table(t, t.tables[0])  # a second try: nothing
    assert again == []
    for table in t.tables:
        game = await service.keeper.read(table.game_id or 0)
        people = [p for p in game.record.players if not is_computer(p)]
        computers = [p for p in game.record.players if is_computer(p)]
        assert sorted(people) == sorted(table.players) and len(computers) == table.computers
        assert game.record.status == "running"
        assert game.record.options["fill_away"] is True
        assert game.record.channel_id == table.thread_id
        assert set(game.record.options.get("levels", {}).values()) <= {"hard"}
    assert [x.computers for x in t.tables] == [1, 2]  # 3 + 2 people, each table filled to 4


def test_an_abandoned_table_is_a_draw_among_its_seats() -> None:
    from bot.store import GameRecord

    record = GameRecord(1, GUILD, 9, None, HOST, "classic", {}, 5, [3, 4, -1], None,
                        "abandoned", 7, 0.0, 0.0, 1.0)  # fmt: skip
    table = TableRecord(2, 1, (3, 4), 1, 9, 1)
    result = table_result(table, record, None, set(), {4: 1})
    assert [(s.player, s.rank, s.computer, s.timeouts) for s in result.seats] == [
        (3, 1, False, 0),
        (4, 1, False, 1),
        (-1, 1, True, 0),
    ]


async def test_who_withdraws_before_their_table_opens_is_away_from_its_start(
    service: GameService, clock: FakeClock
) -> None:
    t = await created(service, 6, table_size=3)
    tournaments = service.tournaments
    await tournaments.start(t.record.id, HOST, can_manage=False)
    t = await tournaments.settle(t.record.id)  # seated; no table opened yet
    gone = t.tables[1].players[0]
    await tournaments.withdraw(GUILD, gone)
    t = await open_round(service, t.record.id)
    game = await service.keeper.read(t.tables[1].game_id or 0)
    assert gone in game.record.presence["away"] and game.record.status == "running"
    assert (await tournaments.read(t.record.id)).entrant(gone).withdrawn_after == 1  # type: ignore[union-attr]


async def test_a_round_seated_while_a_tournament_is_read_is_not_in_that_read(
    database: str | Path, clock: FakeClock
) -> None:
    """Another process seats round 2 between the read of the tournament's row and the
    reads of its rounds (the interleaving behind a seating once worked out as round 3):
    the read is the tournament as its row stood, round 1 only, and settling from it
    seats nothing more."""
    async with Store(database, clock=clock) as store, Store(database, clock=clock) as other:
        service, elsewhere = (
            GameService(store, seeds=lambda: 77, clock=clock),
            GameService(other, clock=clock),
        )
        t = await created(service, 6, rounds=3)
        await service.tournaments.start(t.record.id, HOST, can_manage=False)
        t = await open_round(service, t.record.id)
        for table in t.tables_of(1):
            await pass_to_end(service, table.game_id or 0, clock)
        repository = store.tournaments
        fetch = repository.engine.fetch
        reads: list[str] = []

        async def interleaved(sql: str, params: object = ()) -> list[tuple[object, ...]]:
            rows = await fetch(sql, params)  # type: ignore[arg-type]
            reads.append(sql)
            if len(reads) == 1 and "FROM tournaments WHERE id" in sql:
                await elsewhere.tournaments.settle(t.record.id)  # round 2, meanwhile
            return rows

        repository.engine.fetch = interleaved  # type: ignore[method-assign]
        try:
            read = await repository.get(t.record.id)
        finally:
            del repository.engine.fetch
        assert read is not None and read.record.rounds == 1
        assert len(read.seated) == 1 and {table.round for table in read.tables} == {1}
        settled = await service.tournaments.settle(t.record.id)
        assert settled.record.rounds == 2 and len(settled.seated) == 2


@pytest.mark.parametrize("action", ["join", "check_in"])
async def test_a_click_beaten_by_another_process_every_time_is_told_so_by_name(
    database: str | Path, clock: FakeClock, action: str
) -> None:
    """Another process signs someone up (or checks someone in) between each read and
    write of this one's change, every try: this change does nothing, theirs all count,
    and the refusal names the tournament and says the click did nothing."""
    async with Store(database, clock=clock) as store, Store(database, clock=clock) as other:
        here, elsewhere = GameService(store, clock=clock), GameService(other, clock=clock)
        deadline = int(clock.now) + DAY
        t = await created(here, 6, deadline=deadline, check_in=HOUR)
        clock.now = deadline - HOUR
        real = getattr(store.tournaments, action)
        beaten: list[int] = []

        async def overtaken(record: TournamentRecord, user: int, now: float) -> None:
            player = 102 + len(beaten)  # meanwhile, in the other process
            beaten.append(player)
            if action == "join":
                await elsewhere.tournaments.join(t.record.id, player + 100)
            else:
                await elsewhere.tournaments.check_in(t.record.id, player)
            await real(record, user, now)

        setattr(store.tournaments, action, overtaken)
        with pytest.raises(ServiceError) as busy:
            await getattr(here.tournaments, action)(t.record.id, 999 if action == "join" else 101)
        after = await here.tournaments.read(t.record.id)
        assert len(beaten) == ATTEMPTS and after.record.version == t.record.version + ATTEMPTS
        if action == "join":
            assert after.entrant(999) is None
            assert all(after.entrant(p + 100) is not None for p in beaten)
        else:
            assert [e.player for e in after.entrants if e.checked_in] == beaten
        assert refusal(busy) == "tournament.error.busy" and busy.value.values == {"name": '"Cup"'}
        with using(ENGLISH):
            told = busy.value.text()
        assert told == (
            '"Cup" changed several times at the same moment as your request, so your request '
            "did nothing. Please try again."
        )
        for locale in LOCALES:
            with using(locale):
                assert '"Cup"' in busy.value.text() and busy.value.text() != text(BUSY, locale)
