"""The standing choice "cross only what skips nothing, else pass"."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.players.standing import skips_nothing
from bot.rules import PASS, Move, new_game
from tests.positions import position


def test_crosses_the_next_number_of_the_row_nearest_its_lock():
    """White 3 + 4: 7 is next in yellow (2-6 crossed) and in green (12-8 crossed), each
    with five crosses, while blue (one cross) would skip 11-8 and red 2-6: the rules'
    first of the two rows nearest their lock, yellow. With red's 2-6 crossed too, red
    holds as many and comes first."""
    game = position(
        "classic",
        [1, 2],
        dice=dict(white1=3, white2=4, red=1, yellow=1, green=1, blue=1),
        sheets={1: "yellow: 2 3 4 5 6 | green: 12 11 10 9 8 | blue: 12"},
    )
    assert skips_nothing(game, 1) == Move("cross", "yellow", 7)
    more = position(
        "classic",
        [1, 2],
        dice=dict(white1=3, white2=4, red=1, yellow=1, green=1, blue=1),
        sheets={1: "yellow: 2 3 4 5 6 | green: 12 11 10 9 8 | red: 2 3 4 5 6"},
    )
    assert skips_nothing(more, 1) == Move("cross", "red", 7), "red has as many: first"


def test_passes_rather_than_skip():
    game = position(
        "classic",
        [1, 2],
        dice=dict(white1=5, white2=6, red=1, yellow=1, green=1, blue=1),
        sheets={1: "red: 2 3 | yellow: 2 | green: 12 11 | blue: 12 11"},
    )
    assert Move("cross", "red", 11) in game.legal_moves(1)
    assert skips_nothing(game, 1) == PASS


@settings(max_examples=80, deadline=None)
@given(variant=st.sampled_from(["classic", "longo", "onboard"]), seed=st.integers(0, 10**6))
def test_always_legal_and_never_skips(variant, seed):
    """Along random games, each player's standing choice in action 1 is a legal move that
    skips nothing, and it passes only when no such cross exists."""
    rng = random.Random(seed)
    game = new_game(variant, [1, 2, 3], seed)
    for _ in range(300):
        if game.finished:
            break
        player = min(game.decision().waiting)
        if game.decision().phase == "action1":
            for seat in game.decision().waiting:
                choice = skips_nothing(game, seat)
                legal = game.legal_moves(seat)
                assert choice in legal
                assert not game.skipped_by(seat, choice)
                free = [m for m in legal if m != PASS and not game.skipped_by(seat, m)]
                assert (choice == PASS) == (not free)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
