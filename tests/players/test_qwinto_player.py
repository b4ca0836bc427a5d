"""Qwinto's ``hard`` in games of two or more: pacing, writing on another's throw and
the chance of a failed throw."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from bot.players.qwinto_player import (
    NORMAL,
    PARAMS,
    VERSUS,
    Params,
    Planner,
    column_value,
    fits,
    ladder,
    miss_chance,
    paced,
    placement_gain,
    row_value,
    slots,
)
from bot.rules.qwinto import ROW_COLUMNS, QwintoGame
from tests.positions import position, reposition


def two_player_game(**state: Any) -> QwintoGame:
    """A game of seats -1 and -2 in the position ``state`` describes (the keywords of
    :func:`tests.positions.reposition`)."""
    game = position("qwinto", [-1, -2], seed=7, **state)
    assert isinstance(game, QwintoGame)
    return game


def complete(row: str, numbers: Iterable[int] = range(1, 10)) -> dict[int, int]:
    """``row`` written full: ``numbers`` (nine, rising) left to right."""
    return dict(zip(ROW_COLUMNS[row], numbers, strict=True))


def test_hard_hopes_less_for_empty_fields_as_failed_throws_near_the_end() -> None:
    game = two_player_game(sheets={-1: "orange: 2=2 3=4 4=6"})
    sheet = game.sheets[-1]
    early = paced(VERSUS, game, -1)
    # the other sheet's failed throws end the game too
    game = reposition(game, sheets={-2: "failed: 3"})
    late = paced(VERSUS, game, -1)
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


def test_fits_lists_the_numbers_an_empty_field_can_still_take() -> None:
    row = (None, 3, None, None, 10, 11, 12, 13, 14)
    mask = fits(row)
    assert [n for n in range(19) if mask >> n & 1] == [1, 2, 4, 5, 6, 7, 8, 9]
    assert fits((1, 2, 3, 4, 5, 6, 7, 8, 9)) == 0  # a full row takes nothing


def test_the_chance_of_a_failed_throw_counts_the_best_dice_and_the_reroll() -> None:
    open_row = fits((None,) * 9)
    assert miss_chance((open_row, 0, 0)) < 1e-9  # every sum of any dice fits
    only_six = 1 << 6
    assert miss_chance((only_six, 0, 0)) == pytest.approx((5 / 6) ** 2)  # one die, twice
    assert miss_chance((0, 0, 0)) == 1.0


def test_hard_rates_down_a_field_that_leaves_few_sums_to_write() -> None:
    # Full rows (which end the game): only purple takes numbers. Yellow skips 5, which
    # purple holds in the same column (5).
    game = two_player_game(
        sheets={
            -1: {
                "orange": complete("orange"),
                "yellow": complete("yellow", [1, 2, 3, 4, 6, 7, 8, 9, 10]),
                "purple": {0: 1, 1: 2, 2: 3, 3: 4, 5: 5, 6: 6},
            }
        },
        end_reason="two_rows",
    )
    sheet = game.sheets[-1]
    blind = replace(VERSUS, flex=0.0)
    closing = placement_gain(sheet, "purple", 7, 12, VERSUS)  # 13-17 is all that is left
    assert VERSUS.flex > 0
    assert closing < placement_gain(sheet, "purple", 7, 12, blind)


def test_pacing_lowers_the_columns_weight_and_counts_another_s_complete_rows() -> None:
    # Column 3: one field left, the pentagon 9.
    game = two_player_game(sheets={-1: "orange: 3=9 | yellow: 3=4"})
    sheet = game.sheets[-1]
    paces = Params(pace=1.0, column=0.6, column_pace=1.0, others_pace=1.0)
    calm = paced(paces, game, -1)
    assert calm.column == pytest.approx(0.6)
    game = reposition(game, sheets={-2: {"purple": complete("purple")}})  # a complete row
    near = paced(paces, game, -1)
    assert near.column == pytest.approx(0.6**2) and near.per_field < calm.per_field
    assert paced(paces, game, -2).column == pytest.approx(0.6)  # one's own row: no pace
    assert column_value(sheet, 3, params=near) < column_value(sheet, 3, params=calm)


def test_hard_counts_its_own_complete_rows_in_the_pace_too() -> None:
    game = two_player_game(sheets={-2: {"purple": complete("purple")}})  # -2's is complete
    paces = Params(pace=1.0, column=0.6, column_pace=1.0, others_pace=2.0, own_pace=3.0)
    assert paced(paces, game, -2).column == pytest.approx(0.6**4)  # own row: 3 throws
    assert paced(paces, game, -1).column == pytest.approx(0.6**3)  # another's: 2
    assert paced(replace(paces, own_pace=0.0), game, -2).column == pytest.approx(0.6)
    assert VERSUS.own_pace > 0  # hard in games of two paces itself so


def test_an_unwritten_last_number_counts_as_the_highest() -> None:
    row = (*range(1, 9), None)  # one field left: 9-18
    room = 10 / 11  # (r - e + 1) / (r + 1): 1 empty field, r = 10 numbers (9-18)
    assert row_value(row, PARAMS) == pytest.approx(8 + room * 0.97 * (18 - 8))


def test_hard_fills_a_column_early_but_not_once_another_has_completed_a_row() -> None:
    game = two_player_game(sheets={-1: "orange: 2=4 3=5 7=9 8=11 9=12 | yellow: 8=15 9=16"})
    sheet = game.sheets[-1]

    def best(params: Params) -> tuple[str, int]:
        options = [(r, c) for r in ROW_COLUMNS for c in sheet.free_fields(r, 11)]
        return max(options, key=lambda o: placement_gain(sheet, *o, 11, params))

    assert best(paced(VERSUS, game, -1)) == ("yellow", 7)  # column 7: two of three
    game = reposition(game, sheets={-2: {"purple": complete("purple")}})
    assert best(paced(VERSUS, game, -1)) == ("purple", 9)


def test_hard_expects_a_little_more_than_the_ladder_number_of_an_empty_pentagon() -> None:
    sheet = two_player_game().sheets[-1]
    slot = ROW_COLUMNS["yellow"].index(8)  # column 8: the yellow pentagon, all empty
    plain = replace(VERSUS, guess=1.0)
    assert column_value(sheet, 8, params=plain) == pytest.approx(0.62**3 * ladder(slot))
    assert column_value(sheet, 8, params=VERSUS) == pytest.approx(0.62**3 * 1.1 * ladder(slot))
    sheet = two_player_game(sheets={-1: "yellow: 8=12"}).sheets[-1]  # a written pentagon
    assert (
        column_value(sheet, 8, params=VERSUS)
        == column_value(sheet, 8, params=plain)
        == pytest.approx(0.62**2 * 12)
    )
