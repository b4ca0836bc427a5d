"""Each round's message says what its seating orders by, and the seating holds to it:
round 1 by the rating the leaderboard shows (not the model's cautious estimate, which
puts a strong newcomer below a steady average player), or at random when nobody in it
has one; later rounds by the standings, with no seating having fewer repeats, or, when
the seating search stopped at its work limit, the fewest it found. Checked against
ratings, places and repeats recounted apart from the code that seated them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.channel.tournament_texts import round_card
from bot.i18n import using
from bot.service.games import GameService
from bot.service.rated import RatingService
from bot.tournament import TournamentSettings, next_round, standings
from bot.tournament.records import Tournament, round_data, round_of
from bot.tournament.seating import SEARCH_WORK
from tests.service.test_rated import finish

from .claims import APART_LIMITED, AT_RANDOM, check_later_round, check_round_one, met_at
from .helpers import fewest_repeats
from .test_tournament_service import CHANNEL, GUILD, HOST
from .test_tournament_texts import tournament

FEW_ENOUGH = 12
"""Players of a round whose every seating the test tries (34,650 at tables of four)."""

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


async def test_round_one_where_nobody_has_a_rating_says_it_is_seated_at_random(
    service: GameService,
) -> None:
    """The server has a leaderboard, but none of those who play is on it."""
    await rated_games(service)
    board = await RatingService(service.store).leaderboard(GUILD, HOST, "classic")
    shown = {line.player_id: line.rating.points for line in board.lines}
    tournaments = service.tournaments
    settings = TournamentSettings("Cup", table_size=3, smallest_table=2)
    record = await tournaments.create(GUILD, CHANNEL, HOST, settings)
    newcomers = range(40, 47)
    for player in newcomers:
        await tournaments.join(record.id, player)
    await tournaments.start(record.id, HOST, can_manage=False)
    t = await tournaments.settle(record.id)
    with using("en-US"):
        text = round_card(t, 1).text
    assert shown and not set(shown) & set(newcomers)
    assert AT_RANDOM.search(text), text
    check_round_one(text, shown)
    with pytest.raises(AssertionError, match="seated at random, but rated"):
        check_round_one(text, {**shown, 40: 1500})  # the check holds the sentence to it


def test_a_round_stored_before_it_kept_how_it_was_seated_reads_as_it_did() -> None:
    """A round with no record of its order or its search reads as by rating and as
    found by a search that finished, as its message said when it was posted."""
    t = tournament(8, 1, table_size=4)
    stored = {
        k: v for k, v in round_data(t.seated[0]).items() if k in ("tables", "byes", "repeats")
    }
    old = round_of(1, stored)
    assert (old.at_random, old.exhaustive) == (False, True)
    with using("en-US"):
        assert (
            "Seated by Qwixx rating on this server" in round_card(replace(t, seated=(old,)), 1).text
        )


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
        check_round(t, number, SEARCH_WORK)


def check_round(t: Tournament, number: int, work: int, stopped: bool | None = None) -> str:
    """Round ``number``'s message against the standings recounted from the results
    before it, whom each met at the tables before it, the fewest repeats of any seating
    (for a round of at most :data:`FEW_ENOUGH`), and whether seating it again from all
    that, each search given ``work``, stops at that limit (unless ``stopped`` says);
    the message."""
    before = [r for r in t.results if r.round < number]
    lines = standings(t.settings, t.players, t.seated[: number - 1], before)
    places = {s.player: s.place for s in lines}
    met = met_at([table.players for r in t.seated[: number - 1] for table in r.tables])
    round_ = t.seated[number - 1]
    sizes = [len(table.players) for table in round_.tables]
    playing = [p for table in round_.tables for p in table.players]
    fewest = fewest_repeats(playing, sizes, met) if len(playing) <= FEW_ENOUGH else None
    again = next_round(t.settings, t.players, t.seated[: number - 1], before, t.record.seed,
                       work=work)  # fmt: skip
    with using("en-US"):
        text = round_card(t, number).text
    check_later_round(
        text, places, met, fewest, not again.exhaustive if stopped is None else stopped
    )
    return text


@pytest.mark.parametrize("seed", range(6))
def test_a_search_stopped_at_its_limit_claims_only_the_fewest_it_found(seed: int) -> None:
    """Twelve players, each search given 400 tables and players to look at: rounds 2
    to 4 stop at the limit, and their messages say so: the repeats are the fewest found,
    and where the swaps seated the round after the searches, players may sit lower than
    they need to. Without the limit, round 3 of the first tournament has fewer repeats:
    "no seating avoids it" would have been false."""
    t = tournament(12, 4, seed=seed, table_size=4, rounds=4, work=400)
    for number in (2, 3, 4):
        round_ = t.seated[number - 1]
        text = check_round(t, number, 400)
        assert round_.repeats and not round_.exhaustive
        assert "the fewest the search found; a seating with fewer may exist." in text
        assert (APART_LIMITED in text) is not round_.grouped
        with pytest.raises(AssertionError, match="did not"):  # the sentence is held to it
            check_round(t, number, 400, stopped=False)
    if seed == 0:
        unlimited = tournament(12, 4, seed=seed, table_size=4, rounds=4)
        assert unlimited.seated[2].repeats < t.seated[2].repeats


def test_a_search_that_finished_says_no_seating_avoids_the_repeats() -> None:
    """The same twelve with the search's whole allowance: rounds 2 to 4 repeat pairs
    no seating avoids, counted against every seating."""
    t = tournament(12, 4, seed=0, table_size=4, rounds=4)
    for number in (2, 3, 4):
        assert t.seated[number - 1].repeats
        assert "no seating of these players avoids it." in check_round(t, number, SEARCH_WORK)
