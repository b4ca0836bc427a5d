"""The skill rating's pure functions (bot.service.ratings)."""

from __future__ import annotations

import math
import random

from bot.service.ratings import (
    COMPUTER,
    MU,
    NEW,
    POINTS,
    PROVISIONAL,
    SIGMA,
    START,
    RankedSeat,
    Rating,
    match_of,
    rate,
    read,
    replay,
    standings,
    told,
)

ANA, BEN, CAI = 1, 2, 3


def duel(winner: int, loser: int) -> tuple[RankedSeat, ...]:
    return match_of([(winner, 1, True), (loser, 2, True)], [])


def test_winner_rises_loser_falls() -> None:
    changes = {c.player: c for c in rate(duel(ANA, BEN), {})}
    assert changes[ANA].after.mu > MU > changes[BEN].after.mu
    assert changes[ANA].delta > 0 > changes[BEN].delta
    assert changes[ANA].after.games == changes[BEN].after.games == 1
    assert changes[ANA].after.sigma < SIGMA  # one game tells the model something


def test_beating_hard_counts_more_than_beating_easy() -> None:
    def gain(level: str) -> float:
        match = match_of([(ANA, 1, True), (BEN, 3, True)], [(level, 2)])
        return {c.player: c for c in rate(match, {})}[ANA].after.mu - MU

    assert gain("hard") > gain("normal") > gain("easy") > 0
    assert COMPUTER["easy"][0] < COMPUTER["normal"][0] < COMPUTER["hard"][0]


def test_losing_to_easy_costs_more_than_losing_to_hard() -> None:
    def loss(level: str) -> float:
        match = match_of([(ANA, 2, True), (BEN, 2, True)], [(level, 1)])
        return MU - {c.player: c for c in rate(match, {})}[ANA].after.mu

    assert loss("easy") > loss("hard") > 0


def test_ties_move_less() -> None:
    tied = {c.player: c for c in rate(match_of([(ANA, 1, True), (BEN, 1, True)], []), {})}
    won = {c.player: c for c in rate(duel(ANA, BEN), {})}
    assert abs(tied[ANA].after.mu - MU) < abs(won[ANA].after.mu - MU)
    assert abs(tied[BEN].after.mu - MU) < abs(won[BEN].after.mu - MU)
    assert math.isclose(tied[ANA].after.mu, tied[BEN].after.mu)  # equal before, equal after


def test_computers_and_stand_ins_are_not_rated() -> None:
    match = match_of([(ANA, 1, True), (BEN, 2, False)], [("hard", 3)])
    assert [s.player for s in match] == [ANA, None]  # the stand-in seat is left out
    changes = rate(match, {})
    assert [c.player for c in changes] == [ANA]


def test_nothing_to_rate_alone() -> None:
    assert rate(match_of([(ANA, 1, True), (BEN, 2, False)], []), {}) == []
    assert rate(match_of([], [("easy", 1), ("hard", 2)]), {}) == []


def test_a_newcomer_reads_1500_and_provisional_until_the_fifth_game() -> None:
    assert (START, PROVISIONAL) == (1500, 5)
    assert NEW.points == 1500 and read(NEW) == "1500?"
    assert [read(Rating(MU, 3.0, games)) for games in (1, 4, 5, 40)] == [
        "1500?",
        "1500?",
        "1500",
        "1500",
    ]


def test_a_first_game_moves_the_number_by_its_result_alone() -> None:
    """A first game read −264 (−264) for the loser and 238 (+238) for the winner: the
    newcomer's cautious estimate, which rose or fell with its uncertainty, on no known
    scale. Now the loser falls below 1500 and the winner rises above it by as much."""
    changes = told(rate(duel(ANA, BEN), {}))
    assert changes[ANA][0].endswith("?") and changes[BEN][0].endswith("?")
    won, lost = changes[ANA][1], changes[BEN][1]
    assert 0 < won < 200 and won == -lost
    assert changes[ANA][0] == f"{1500 + won}?" and changes[BEN][0] == f"{1500 + lost}?"
    assert Rating(MU, SIGMA, 1).points == Rating(MU, 1.0, 30).points == 1500  # not sigma


def test_the_scale_reads_as_elo() -> None:
    """A 400-point lead is a win 10 times in 11 for the model, as in Elo: its update
    gives the winner of a duel a share of the gain that is the chance it gave the loser,
    so a favourite by 400 gains 1/11 where an even duel's winner gains 1/2."""
    favourite = 400 / POINTS

    def gain(lead: float) -> float:
        ahead = {ANA: Rating(MU + lead, 0.01, 9), BEN: Rating(MU, 0.01, 9)}
        return {c.player: c for c in rate(duel(ANA, BEN), ahead)}[ANA].after.mu - MU - lead

    assert math.isclose(gain(favourite) / gain(0), (1 / 11) / (1 / 2), rel_tol=1e-3)
    assert Rating(MU + favourite, 1.0, 9).points == 1900
    levels = {level: read(Rating(mu, sigma, 9)) for level, (mu, sigma) in COMPUTER.items()}
    assert levels == {"easy": "1302", "normal": "1500", "hard": "1698"}  # as documented


def test_a_rating_below_zero_reads_with_a_minus() -> None:
    assert read(Rating(MU - 1600 / POINTS, 2.0, 9)) == "−100"


def test_standings_rank_by_the_number_read_and_share_equal_ones() -> None:
    ratings = {
        ANA: Rating(30, 2, 9),
        BEN: Rating(20, 3, 4),
        CAI: Rating(30, 2, 5),
        4: Rating(30, 8, 2),  # as high, however unsure: listed after more games
    }
    assert [(r, p) for r, p, _ in standings(ratings)] == [(1, ANA), (1, CAI), (1, 4), (4, BEN)]


def test_rebuilt_in_order_equals_game_by_game() -> None:
    rng = random.Random(7)
    everyone = list(range(1, 9))
    matches = []
    for _ in range(200):
        seated = rng.sample(everyone, rng.randint(2, 5))
        ranks = sorted(rng.randint(1, 4) for _ in seated)
        computers = [
            (rng.choice(list(COMPUTER)), rng.randint(1, 4)) for _ in range(rng.randint(0, 2))
        ]
        people = [(p, r, rng.random() > 0.1) for p, r in zip(seated, ranks, strict=True)]
        matches.append(match_of(people, computers))
    live: dict[int, Rating] = {}
    for match in matches:
        for change in rate(match, live):
            assert change.before == live.get(change.player, NEW)
            live[change.player] = change.after
    assert replay(matches) == live
    assert replay(matches[100:], replay(matches[:100])) == live
