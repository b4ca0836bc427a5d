"""Qwinto's ``hard`` in games of two or more: pacing and writing on another's throw."""

from __future__ import annotations

from bot.players.qwinto_player import NORMAL, VERSUS, Planner, paced, row_value, slots
from bot.rules import new_game
from bot.rules.qwinto import QwintoGame


def two_player_game() -> QwintoGame:
    game = new_game("qwinto", [-1, -2], 7)
    assert isinstance(game, QwintoGame)
    return game


def test_hard_hopes_less_for_empty_fields_as_failed_throws_near_the_end() -> None:
    game = two_player_game()
    sheet = game.sheets[-1]
    sheet.fields["orange"].update({2: 2, 3: 4, 4: 6})
    early = paced(VERSUS, game)
    game.sheets[-2].failed = 3  # the other sheet's failed throws end the game too
    late = paced(VERSUS, game)
    assert late.per_field < early.per_field
    row = slots(sheet, "orange")
    assert row_value(row, late) < row_value(row, early)
    assert paced(NORMAL, game) is NORMAL  # normal does not pace itself


def test_hard_writes_on_another_throw_only_for_a_clear_gain() -> None:
    game = two_player_game()
    plan = Planner(game, -2, VERSUS)  # seat -1 is active on the first turn
    assert game.active == -1
    assert plan.pass_value(False) == plan.now + VERSUS.other_min > plan.now
    assert plan.pass_value(True) < plan.now  # the active player's pass is a failed throw
