"""The fast paths of the rules core agree with the plain definitions they replace.

``apply`` copies only what a move changes, validates with ``_allows`` instead of listing
every legal move, and the dice come from ``roll``; each must behave exactly like the
obvious version: a deep copy, ``move in legal_moves``, ``randint``.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from bot.rules import PASS, VARIANTS, Game, Move, new_game
from bot.rules.base import dice_rng, roll
from bot.rules.qwinto import COLUMNS, ROW_COLUMNS, ROWS, QwintoSheet

PLAYERS = {"classic": (1, 2, 3), "longo": (1, 2), "onboard": (1, 2, 3), "qwinto": (1, 2, 3)}


def snapshot(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def random_games(variant: str, count: int) -> list[list[Game]]:
    """``count`` complete games with random legal moves, every position kept."""
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        game = new_game(variant, PLAYERS[variant], seed)
        positions = [game]
        while not game.finished:
            player = rng.choice(sorted(game.decision().waiting))
            game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
            positions.append(game)
        games.append(positions)
    return games


def candidate_moves(game: Game) -> list[Move]:
    """Every move anyone may make now, and near misses of them."""
    moves = {m for p in game.players for m in game.legal_moves(p)} | {PASS}
    near = {Move(m.kind, m.row, (m.number or 0) + d, m.dice) for m in moves for d in (-1, 1)}
    near |= {Move("cross", row, n) for row in ("red", "blue", "purple") for n in (2, 7, 12)}
    return sorted(moves | near, key=repr)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_apply_never_mutates_any_position_of_a_random_game(variant: str) -> None:
    for positions in random_games(variant, 6):
        before = [snapshot(g) for g in positions]
        for game in positions:  # every position applied again, the other way too
            for player in sorted(game.decision().waiting):
                for move in game.legal_moves(player):
                    game.apply(player, move)
        assert [snapshot(g) for g in positions] == before


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_allows_agrees_with_legal_moves(variant: str) -> None:
    for positions in random_games(variant, 4):
        for game in positions:
            if game.finished:
                continue
            for player in game.players:
                legal = game.legal_moves(player)
                for move in candidate_moves(game):
                    assert game._allows(player, move) == (move in legal), (player, move)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_new_game_equals_its_json_round_trip_at_every_position(variant: str) -> None:
    for positions in random_games(variant, 3):
        for game in positions:
            again = type(game).from_json(json.loads(json.dumps(game.to_json())))
            assert snapshot(again) == snapshot(game)
            for player in game.players:
                assert again.legal_moves(player) == game.legal_moves(player)


def test_a_new_game_shares_exactly_the_sheets_its_move_left_alone() -> None:
    for positions in random_games("classic", 3):
        for game, after in itertools.pairwise(positions):
            for player, sheet in after.sheets.items():
                same = sheet.to_json() == game.sheets[player].to_json()
                assert (sheet is game.sheets[player]) == same


@pytest.mark.parametrize("faces", [6, 8])
def test_roll_draws_what_randint_draws(faces: int) -> None:
    dice = ("white1", "white2", "red", "yellow", "green", "blue")
    for turn in range(50):
        expected = dice_rng(9, "turn", turn)
        assert roll(dice_rng(9, "turn", turn), dice, faces) == {
            d: expected.randint(1, faces) for d in dice}


def test_free_fields_agree_with_can_write() -> None:
    rng = random.Random(5)
    for _ in range(300):
        sheet = QwintoSheet()
        for _ in range(rng.randint(0, 14)):
            row, column, number = rng.choice(ROWS), rng.choice(COLUMNS), rng.randint(1, 18)
            if sheet.can_write(row, column, number):
                sheet.fields[row][column] = number
        for row in ROWS:
            for number in range(1, 19):
                assert sheet.free_fields(row, number) == [
                    c for c in ROW_COLUMNS[row] if sheet.can_write(row, c, number)]
