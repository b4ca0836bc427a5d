"""Each round's message says what its seating orders by, and the seating holds to it:
round 1 by the rating the leaderboard shows (not the model's cautious estimate, which
puts a strong newcomer below a steady average player), later rounds by the standings,
checked against ratings and places recounted apart from the code that seated them."""

from __future__ import annotations

import pytest

from bot.channel.tournament_texts import round_card
from bot.i18n import using
from bot.service.games import GameService
from bot.service.rated import RatingService
from bot.tournament import TournamentSettings, standings
from tests.service.test_rated import finish

from .claims import check_later_round, check_round_one, met_at
from .test_tournament_service import CHANNEL, GUILD, HOST
from .test_tournament_texts import tournament

STEADY, EVEN, STAR, SECOND, THIRD, LAST = 1, 2, 3, 4, 5, 6
NEW = (7, 8)


async def rated_games(service: GameService) -> None:
    """STEADY and EVEN share ten games; STAR beats three newcomers in the one game each
    plays. The leaderboard reads STAR and SECOND above STEADY and EVEN (a higher
    estimate), whom ten games make surer: the cautious estimate, mu - 3 sigma, orders
    them the other way round."""
    for k in range(10):
        first, second = (STEADY, EVEN) if k % 5 < 3 else (EVEN, STEADY)
        await finish(service.store, GUILD, {first: 50, second: 30})
    await finish(service.store, GUILD, {STAR: 60, SECOND: 40, THIRD: 20, LAST: 0})
    await RatingService(service.store).backfill()


async def test_round_one_seats_by_the_rating_the_leaderboard_shows(service: GameService) -> None:
    await rated_games(service)
    board = await RatingService(service.store).leaderboard(GUILD, HOST, "classic")
    shown = {line.player_id: line.rating.points for line in board.lines}
    stored = await service.store.ratings.of_variant(GUILD, "classic")
    cautious = sorted(stored, key=lambda p: -(stored[p].mu - 3 * stored[p].sigma))
    assert sorted(shown, key=lambda p: -shown[p])[:2] == [STAR, SECOND]
    assert cautious[:2] == [STEADY, EVEN]  # the two orders part: the test can tell them

    tournaments = service.tournaments
    settings = TournamentSettings("Cup", table_size=3, smallest_table=2)
    record = await tournaments.create(GUILD, CHANNEL, HOST, settings)
    for player in (*NEW, LAST, STEADY, THIRD, EVEN, SECOND, STAR):
        await tournaments.join(record.id, player)
    await tournaments.start(record.id, HOST, can_manage=False)
    t = await tournaments.settle(record.id)
    with using("en-US"):
        text = round_card(t, 1).text
    check_round_one(text, shown)
    assert "Seated by Qwixx rating on this server" in text
    assert [len(table.players) for table in t.seated[0].tables] == [3, 3, 2]


@pytest.mark.parametrize("avoid_repeats", [True, False])
@pytest.mark.parametrize("seed", range(12))
def test_a_later_round_seats_by_the_standings_as_its_message_says(
    seed: int, avoid_repeats: bool
) -> None:
    """Random results of tournaments of 7 to 18 players; rounds 2 and 3 checked against
    the standings recounted from the results before them and the tables before them."""
    count = 7 + seed
    t = tournament(count, 3, seed=seed, table_size=4, avoid_repeats=avoid_repeats)
    for number in (2, 3):
        before = [r for r in t.results if r.round < number]
        lines = standings(t.settings, t.players, t.seated[: number - 1], before)
        places = {s.player: s.place for s in lines}
        met = met_at([table.players for r in t.seated[: number - 1] for table in r.tables])
        with using("en-US"):
            check_later_round(round_card(t, number).text, places, met)
