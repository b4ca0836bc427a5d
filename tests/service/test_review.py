"""The review of a finished game: each person's decisions against ``hard``'s."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from bot.players import hint
from bot.records.options import Options
from bot.rules import PASS, Game, Move
from bot.service.daily import over_everywhere
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.review import ReviewKeeper, ReviewService
from bot.service.stats import StatsService
from tests.fakes import FakeClock
from tests.service.helpers import play

GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22


@pytest.fixture
def seeds() -> Callable[[], int]:
    """A seed of its own for each game (700 on), so that no two games are dealt the same dice."""
    return iter(range(700, 10_000)).__next__


@pytest.fixture
def reviews(service: GameService, clock: FakeClock) -> ReviewService:
    return ReviewService(service.keeper, StatsService(service.store, clock=clock))


def hards(game: Game, player: int) -> Move:
    return hint(game, player).move


async def refused(key: str, call: object) -> None:
    with pytest.raises(ServiceError) as error:
        await call  # type: ignore[misc]
    assert error.value.key == key


async def test_a_pass_into_a_penalty_is_the_costliest_decision(
    service: GameService, reviews: ReviewService
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic", play=Options(solo=True))
    await service.lobby.start(lobby.id, ANA)
    blunder: list[int] = []

    def choose(game: Game, player: int) -> Move:
        """Hard's moves, but on the first turn where hard passes the white sum and the
        coloured dice offer a cross, a pass there too: a penalty though a cross was free."""
        phase, best = game.decision().phase, hards(game, player)
        if (
            phase == "action1"
            and not blunder
            and best == PASS
            and len(game.apply(player, PASS)[0].legal_moves(player)) > 1
        ):
            blunder.append(game.turn)
        if blunder and game.turn == blunder[0] and phase == "action2":
            assert len(game.legal_moves(player)) > 1  # a cross was free
            return PASS
        return best

    await play(service, lobby.id, choose)
    final = (await service.keeper.read(lobby.id)).game
    assert final is not None and final.scores()[ANA].penalties >= 1
    review = await reviews.review(GUILD, CHANNEL, lobby.id)
    assert review.people == [ANA]
    worst = review.costliest(ANA)
    assert worst and worst[0].turn == blunder[0] and worst[0].move == PASS
    assert worst[0].before.decision().phase == "action2"
    assert worst[0].loss > 3  # a penalty costs 5 points, less what a cross gives up
    assert worst[0].hint.move != PASS
    assert len(worst) == 1  # the one move hard would not have made
    accuracy = review.accuracy(ANA)
    assert accuracy is not None and 0 <= accuracy < 1


async def test_hards_own_moves_are_100_percent_accurate(
    service: GameService, reviews: ReviewService
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(lobby.id, BEN)
    await service.lobby.add_computer(lobby.id, ANA, "hard")
    await service.lobby.start(lobby.id, ANA)
    await play(service, lobby.id, hards)
    review = await reviews.review(GUILD, CHANNEL, lobby.id)
    assert review.people == [ANA, BEN]
    for person in (ANA, BEN):
        assert review.decisions(person)
        assert review.accuracy(person) == 1.0
        assert review.costliest(person) == []
    assert review.decisions(-1) == []  # computers are not reviewed


async def test_qwinto_and_solo_games_are_reviewed(
    service: GameService, reviews: ReviewService
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "qwinto", play=Options(solo=True))
    await service.lobby.start(lobby.id, ANA)
    await play(service, lobby.id, hards)
    review = await reviews.review(GUILD, CHANNEL, lobby.id)
    assert review.decisions(ANA) and review.accuracy(ANA) == 1.0


async def test_refusals(service: GameService, reviews: ReviewService) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await refused("error.not_started", reviews.review(GUILD, CHANNEL, lobby.id))
    await service.lobby.join(lobby.id, BEN)
    await service.lobby.start(lobby.id, ANA)
    await refused("review.running", reviews.review(GUILD, CHANNEL, lobby.id))
    assert await reviews.numbered(GUILD, CHANNEL, None) == lobby.id  # the running one
    await refused("review.unknown", reviews.numbered(GUILD, CHANNEL, 1))
    await refused("error.game_gone", reviews.review(GUILD, CHANNEL, lobby.id + 99))
    await play(service, lobby.id, hards)
    await refused("review.other_server", reviews.review(GUILD + 1, CHANNEL, lobby.id))
    with pytest.raises(ServiceError) as error:
        await reviews.review(GUILD, CHANNEL + 1, lobby.id)
    assert error.value.key == "review.other_channel"
    assert error.value.values == {"channel": f"<#{CHANNEL}>"}
    assert await reviews.numbered(GUILD, CHANNEL, 1) == lobby.id
    assert await reviews.numbered(GUILD, CHANNEL, None) == lobby.id  # the newest finished
    await refused("review.unknown", reviews.numbered(GUILD, CHANNEL, 2))
    await refused("review.unknown", reviews.numbered(GUILD, CHANNEL, 0))
    await refused("review.unknown", reviews.numbered(GUILD + 1, CHANNEL + 1, 1))
    abandoned = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(abandoned.id, BEN)
    await service.lobby.start(abandoned.id, ANA)
    await service.turns.abandon(CHANNEL, ANA, True)
    await refused("review.abandoned", reviews.review(GUILD, CHANNEL, abandoned.id))


async def test_a_finished_games_accuracies_are_kept_once(
    service: GameService, clock: FakeClock
) -> None:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(lobby.id, BEN)
    await service.lobby.add_computer(lobby.id, ANA, "hard")
    await service.lobby.start(lobby.id, ANA)
    keeper = ReviewKeeper(service.store, clock)
    assert await keeper.keep((await service.keeper.read(lobby.id)).record) is None  # still running
    await play(service, lobby.id, hards)
    record = (await service.keeper.read(lobby.id)).record
    assert await keeper.keep(record) == {ANA: 1.0, BEN: 1.0}  # people only
    assert await service.store.reviews.of(lobby.id) == {ANA: 1.0, BEN: 1.0}
    assert await keeper.keep(record) == {ANA: 1.0, BEN: 1.0}  # read back, not again
    assert await keeper.backfill(rest=0.0) == 0


async def test_the_backfill_reviews_earlier_games_newest_first(
    service: GameService, clock: FakeClock
) -> None:
    ids = []
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
        lobby = await service.lobby.open(GUILD, channel, ANA, "classic", play=Options(solo=True))
        await service.lobby.start(lobby.id, ANA)
        await play(service, lobby.id, hards)
        ids.append(lobby.id)
    pruned = (await service.keeper.read(ids[0])).record  # its move log gone: kept, without accuracy
    await service.store.engine.transact(  # what pruning does to old logs
        lambda tx: tx.execute("DELETE FROM moves WHERE game_id = ?", (pruned.id,))
    )
    shown: list[int] = []

    async def show(game_id: int) -> None:
        shown.append(game_id)

    keeper = ReviewKeeper(service.store, clock)
    assert await keeper.backfill(rest=0.0, shown=show) == 3
    assert shown == ids[::-1]  # none of these channels shows its end yet: newest first
    assert await service.store.reviews.of(ids[2]) == {ANA: 1.0}
    assert await service.store.reviews.of(ids[0]) == {}
    assert await service.store.reviews.unreviewed() == []


async def test_a_daily_challenge_is_reviewed_once_its_day_is_over_everywhere(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = datetime(2026, 11, 27, 12, tzinfo=UTC).timestamp()
    daily = service.daily
    attempt, outcome = await daily.begin(GUILD, CHANNEL, ANA, "classic")
    game = outcome.game
    while game is not None and not game.finished:
        game = (
            await service.turns.move(
                attempt.game_id, ANA, game.turn, game.decision().phase, hards(game, ANA)
            )
        ).game
    record = (await service.keeper.read(attempt.game_id)).record
    assert record.status == "finished"
    keeper = ReviewKeeper(service.store, clock)
    assert await keeper.keep(record) is None  # the day goes on somewhere: nothing yet
    assert await keeper.backfill(rest=0.0) == 0
    assert await service.store.reviews.of(record.id) is None
    clock.now = over_everywhere(attempt.day)
    assert await keeper.backfill(rest=0.0) == 1
    assert await service.store.reviews.of(record.id) == {ANA: 1.0}  # its dice replayed
