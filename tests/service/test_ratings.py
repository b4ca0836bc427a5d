"""The skill rating's pure functions (bot.service.ratings)."""

from __future__ import annotations

import math
import random

from bot.service.ratings import (
    COMPUTER,
    MU,
    NEW,
    PROVISIONAL,
    SIGMA,
    Rating,
    Seat,
    match_of,
    rate,
    replay,
    standings,
)

ANA, BEN, CAI = 1, 2, 3


def duel(winner: int, loser: int) -> tuple[Seat, ...]:
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


def test_conservative_value_and_provisional() -> None:
    assert NEW.shown == 0 and NEW.provisional
    rating = Rating(30.0, 2.0, PROVISIONAL)
    assert rating.shown == 2400 and not rating.provisional
    assert Rating(30.0, 2.0, PROVISIONAL - 1).provisional


def test_standings_share_ranks_on_equal_values() -> None:
    ratings = {ANA: Rating(30, 2, 9), BEN: Rating(20, 3, 4), CAI: Rating(30, 2, 5)}
    assert [(r, p) for r, p, _ in standings(ratings)] == [(1, ANA), (1, CAI), (3, BEN)]


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
