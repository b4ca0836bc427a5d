"""The computer player: legal, reproducible, and clearly better than chance."""

from __future__ import annotations

import random

import pytest

from bot.players import choose, computer_name, computer_seat, is_computer
from bot.rules import new_game


def play(variant: str, seed: int, smart: bool) -> int:
    """The best total of a three-seat game where every seat plays alike."""
    game = new_game(variant, [-1, -2, -3], seed)
    rng = random.Random(seed)
    while not game.finished:
        player = min(game.decision().waiting)
        legal = game.legal_moves(player)
        move = choose(game, player, rng) if smart else rng.choice(legal)
        assert move in legal
        game, _ = game.apply(player, move)
    return max(s.total for s in game.scores().values())


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_computers_play_legal_games_far_better_than_chance(variant: str) -> None:
    smart = sum(play(variant, seed, True) for seed in range(8))
    chance = sum(play(variant, seed, False) for seed in range(8))
    assert smart > chance + 8 * 10


def test_choices_are_reproducible() -> None:
    game = new_game("classic", [-1, -2], seed=5)
    moves = {choose(game, -1, random.Random(3)) for _ in range(5)}
    assert len(moves) == 1


def test_computer_seats_have_negative_ids_and_names() -> None:
    assert computer_seat(2) == -2 and is_computer(-2) and not is_computer(2)
    assert computer_name(-2) == "Computer 2"
