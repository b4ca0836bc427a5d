"""Practice against the computers anywhere: one game per member in no channel and no
server, the computers deciding right after each of the member's moves, a new game ending
the one before, never counted; and the daily challenge of no server: the day's
standing of everyone, no server's ranking."""

from __future__ import annotations

import random

import pytest

from bot.players import choose, is_computer
from bot.records.games import NO_SERVER
from bot.rules import Game, Move
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.hidden import in_no_channel, is_practice, practice_channel
from bot.service.privacy import PrivacyService
from bot.service.where import Where
from tests.fakes import FakeClock

from .helpers import play

ANA, BEN = 101, 202
NOON = 2_000_000_000.0 - 2_000_000_000.0 % 86400 + 43200
DAY = "2033-05-18"


async def test_a_practice_game_is_the_members_in_no_channel_and_no_server(
    service: GameService,
) -> None:
    begun = await service.practice.begin(ANA, "classic", computers=2, level="hard")
    record, game = begun.record, begun.game
    assert record.guild_id == NO_SERVER and record.channel_id == practice_channel(ANA) < 0
    assert in_no_channel(record) and is_practice(record) and record.status == "running"
    assert record.players == [ANA, -1, -2] and record.options["levels"] == {
        "-1": "hard",
        "-2": "hard",
    }
    assert game is not None and game.decision().waiting == {ANA}  # the computers decided
    assert (await service.practice.current(ANA)) is not None
    assert (await service.practice.current(BEN)) is None
    assert practice_channel(ANA) != practice_channel(BEN)


async def test_only_its_member_clicks_it_wherever_they_are(service: GameService) -> None:
    record = (await service.practice.begin(ANA, "qwinto", computers=1)).record
    Where(None, 5).check(record, ANA, 0)  # a direct message
    Where(77, 6).check(record, ANA, 0)  # any server
    with pytest.raises(ServiceError) as refused:
        Where(None, 5).check(record, BEN, 0)
    assert refused.value.key == "error.practice_not_yours"


async def test_each_move_is_answered_by_the_computers_until_the_end_and_nothing_counts(
    service: GameService,
) -> None:
    begun = await service.practice.begin(ANA, "classic", computers=2, level="normal")
    rng = random.Random(3)
    game_id = begun.record.id

    def member(game: Game, player: int) -> Move:
        assert not is_computer(player)  # the computers never wait for anyone
        return choose(game, player, rng, "easy")

    await play(service, game_id, member)
    ended = await service.keeper.read(game_id)
    assert ended.record.status == "finished"
    assert await service.store.stats.player_totals(NO_SERVER, ANA) == {}
    [line] = await service.store.stats.uncounted_bests(NO_SERVER, ANA)
    assert line.variant == "classic" and line.games == 1


async def test_a_new_game_ends_the_one_before(service: GameService) -> None:
    first = await service.practice.begin(ANA, "classic", computers=1)
    second = await service.practice.begin(ANA, "longo", computers=3, level="easy")
    old = await service.keeper.read(first.record.id)
    assert old.record.status == "abandoned"
    current = await service.practice.current(ANA)
    assert current is not None and current.record.id == second.record.id
    assert current.record.variant == "longo" and len(current.record.players) == 4


async def test_no_computer_is_the_one_person_form(service: GameService) -> None:
    begun = await service.practice.begin(ANA, "qwinto", computers=0, hints=True)
    assert begun.record.players == [ANA]
    assert begun.record.options == {"rules": {}, "practice": True, "solo": True, "hints": True}


@pytest.mark.parametrize(
    ("variant", "computers", "level", "key"),
    [
        ("classic", 5, "easy", "error.practice_computers"),  # Qwixx seats five in all
        ("onboard", 4, "easy", "error.practice_computers"),
        ("classic", -1, "easy", "error.practice_computers"),
        ("chess", 1, "easy", "error.unknown_variant"),
        ("classic", 1, "genius", "error.unknown_level"),
    ],
)
async def test_a_game_that_cannot_be_is_refused_before_anything_is_stored(
    service: GameService, variant: str, computers: int, level: str, key: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        await service.practice.begin(ANA, variant, computers, level)
    assert refused.value.key == key
    assert await service.practice.current(ANA) is None
    qwinto = await service.practice.begin(ANA, "qwinto", computers=5)  # Qwinto seats six
    assert len(qwinto.record.players) == 6


async def test_a_daily_attempt_of_no_server_counts_for_everyone_and_no_ranking(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = NOON
    daily = service.daily
    mine, _ = await daily.begin(NO_SERVER, 5, ANA, "classic")
    theirs, _ = await daily.begin(11, 6, BEN, "classic")
    await daily.store.daily.finish_attempt(mine.game_id, 30, NOON)
    await daily.store.daily.finish_attempt(theirs.game_id, 20, NOON)
    assert mine.day == DAY and await daily.owed() == [(11, DAY, "classic", 6)]
    standing = await daily.store.daily.standing(DAY, "classic", 20)
    assert (standing.players, standing.above) == (2, 1)  # Ana's counts for everyone
    stored = await daily.store.daily.attempt(DAY, "classic", ANA)
    assert stored is not None
    game = (await service.keeper.read(mine.game_id)).game
    assert game is not None
    result = await daily.finish(stored, game)
    assert result.ranking == [] and result.standing.players == 2
    record = await daily.record(ANA)
    assert [(b.variant, b.days, b.best) for b in record.bests] == [("classic", 1, 30)]
    assert record.streak == 1


async def test_forget_me_is_not_held_back_by_a_game_of_ones_own(
    service: GameService, clock: FakeClock
) -> None:
    """A practice game or a daily attempt cannot be left (it is in no channel): it is
    forgotten with its member, their seat anonymous, instead of refusing forget-me."""
    clock.now = NOON
    practice = await service.practice.begin(ANA, "classic", computers=1)
    attempt, _ = await service.daily.begin(NO_SERVER, 5, ANA, "qwinto")
    done = await PrivacyService(service.store).forget(ANA)
    assert done.games == 2
    for game_id in (practice.record.id, attempt.game_id):
        record = (await service.keeper.read(game_id)).record
        assert ANA not in record.players and done.anonymous_id in record.players
