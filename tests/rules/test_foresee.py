"""Decisions taken ahead: ``Game.foresee`` and Qwinto's ``could_write``.

What the active player may choose ahead must be exactly what the rules would offer at
that moment, should nobody else do anything: each case is checked against the same turn
played out move by move through ``apply``, never against foresee's own working.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import PASS, Game, Move, new_game
from bot.rules import VARIANTS as VARIANTS_CLASSES
from tests.positions import position

VARIANTS = ("classic", "longo", "onboard")


def played_out(game: Game, player: int, moves: list[Move]) -> Game | None:
    """The turn played through ``apply``: ``player``'s first move, everyone else passing
    action 1, then ``player``'s later moves while the turn lasts (None once one is not
    legal, or the turn or game is over before it)."""
    turn = game.turn
    game, _ = game.apply(player, moves[0])
    for other in game.players:
        if other != player and other in game.decision().waiting:
            game, _ = game.apply(other, PASS)
    for move in moves[1:]:
        if game.finished or game.turn != turn or move not in game.legal_moves(player):
            return None
        game, _ = game.apply(player, move)
    return game


def random_turn_start(variant: str, players: int, seed: int, moves: int) -> Game:
    """A game of ``variant`` played at random for about ``moves`` moves, then on to the
    start of a turn (action 1, nobody has chosen yet) that is not over."""
    rng = random.Random(seed)
    players = min(players, VARIANTS_CLASSES[variant].max_players)
    game = new_game(variant, list(range(1, players + 1)), seed)
    for _ in range(moves):
        if game.finished:
            break
        player = min(game.decision().waiting)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    for _ in range(200):  # to the start of a turn
        if game.finished or (game.decision().phase == "action1" and not game_chosen(game)):
            break
        player = min(game.decision().waiting)
        game, _ = game.apply(
            player, PASS if PASS in game.legal_moves(player) else game.legal_moves(player)[0]
        )
    return game


def game_chosen(game: Game) -> bool:
    return any(game.chosen_move(p) is not None for p in game.players)


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 120),
)
def test_foreseen_options_are_those_the_turn_would_offer(variant, players, seed, moves):
    game = random_turn_start(variant, players, seed, moves)
    if game.finished:
        return
    active = game.active
    rng = random.Random(seed)
    for first in game.legal_moves(active):
        foreseen = game.foresee(active, [first])
        actual = played_out(game, active, [first])
        assert foreseen is not None and actual is not None
        assert foreseen.to_json() == actual.to_json()
        # a second decision ahead (and On Board's third), each from the game foreseen
        later = [first]
        while foreseen.turn == game.turn and not foreseen.finished:
            options = foreseen.legal_moves(active)
            if not options:
                break
            later.append(rng.choice(options))
            foreseen = game.foresee(active, later)
            actual = played_out(game, active, later)
            assert foreseen is not None and actual is not None
            assert foreseen.to_json() == actual.to_json()


def test_others_secret_choices_stay_out_of_it():
    """Player 2 chose to cross red 12 and so lock red; the active player's coloured
    options foreseen still hold red (the choice is secret until applied), while the
    turn played out for real closes the row."""
    game = position(
        "classic",
        [1, 2],
        dice=dict(white1=6, white2=6, red=1, yellow=1, green=1, blue=1),
        sheets={1: "red: 2 3", 2: "red: 2 3 4 5 6"},
        chosen={2: Move("cross", "red", 12)},
    )
    foreseen = game.foresee(1, [PASS])
    assert foreseen is not None
    assert Move("cross", "red", 7) in foreseen.legal_moves(1)  # white 6 + red 1
    real, _ = game.apply(1, PASS)
    assert "red" in real.closed_rows()
    assert Move("cross", "red", 7) not in real.legal_moves(1)


def test_the_first_choice_narrows_what_follows():
    """Crossing red 12 with the white sum leaves no red cross for the coloured die."""
    game = position(
        "classic",
        [1, 2],
        dice=dict(white1=6, white2=6, red=5, yellow=1, green=1, blue=1),
        sheets={1: "red: 2 3 4 5 6"},
    )
    before = game.foresee(1, [PASS])
    after = game.foresee(1, [Move("cross", "red", 12)])
    assert before is not None and after is not None
    assert Move("cross", "red", 11) in before.legal_moves(1)
    assert not any(m.row == "red" for m in after.legal_moves(1))


def test_nothing_to_foresee():
    game = new_game("classic", [1, 2], 7)
    first = game.legal_moves(1)[0]
    assert game.foresee(2, [first]) is None, "not the active player"
    assert game.foresee(1, []) is None, "nothing chosen"
    assert game.foresee(1, [Move("cross", "red", 99)]) is None, "not a legal move"
    moved, _ = game.apply(1, PASS)
    moved, _ = moved.apply(2, PASS)
    if moved.decision().phase == "action2":
        assert moved.foresee(1, [PASS]) is None, "action 1 is over"
    qwinto = new_game("qwinto", [1, 2], 7)
    assert qwinto.foresee(1, [qwinto.legal_moves(1)[0]]) is None, "Qwinto decides no such way"


def test_a_move_after_the_turn_is_over_is_refused():
    """The active player with nothing to cross with a coloured die: their turn ends with
    action 1, so nothing can be chosen for action 2."""
    game = position(
        "classic",
        [1, 2],
        dice=dict(white1=1, white2=1, red=1, yellow=1, green=6, blue=6),
        sheets={
            1: "red: 2 3 4 5 6 7 8 9 10 | yellow: 2 3 4 5 6 7 8 9 10 | "
            "green: 12 11 10 9 8 7 6 5 4 | blue: 12 11 10 9 8 7 6 5 4"
        },
    )
    foreseen = game.foresee(1, [PASS])
    assert foreseen is not None
    options = foreseen.legal_moves(1)
    if foreseen.turn == game.turn:
        assert options, "still the active player's turn: they have options"
    else:
        assert game.foresee(1, [PASS, PASS]) is None


@pytest.mark.parametrize("orange, writable", [("2=2 3=3 4=4 6=5 7=6", False), ("2=2", True)])
def test_could_write(orange, writable):
    """Orange alone thrown, a 6: player 1 cannot write it once every column left of the
    free ones holds up to 6, and can while they hold 2; ``could_write`` answers as the
    place phase would after keeping the throw."""
    game = position(
        "qwinto", [1, 2], phase="reroll", dice={"orange": 6}, sheets={1: f"orange: {orange}"}
    )
    kept, _ = game.apply(1, Move("keep"))
    assert game.could_write(1) == writable
    assert game.could_write(1) == (kept.legal_moves(1) != [PASS])
    assert game.could_write(2), "an empty sheet takes any number"
    assert not kept.could_write(1), "only while the re-throw is still to be decided"
