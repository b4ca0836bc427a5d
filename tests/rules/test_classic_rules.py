"""Classic Qwixx, RULES.md §1, rule by rule (and every Decision line of §1)."""

from __future__ import annotations

import pytest

from bot.rules import PASS, Move, RuleError
from bot.rules.qwixx import QwixxGame
from tests.positions import reposition

from .helpers import (
    TRIANGLE,
    cross,
    everyone_passes_action1,
    first,
    kinds,
    make_game,
    numbers,
    play,
    roll,
    seed_with_white_sum,
    set_row,
    with_dice,
)

# ---------------------------------------------------------------------------
# Material and scoring
# ---------------------------------------------------------------------------


def test_sheet_rows_and_their_order() -> None:
    game = make_game()
    assert game.rules.numbers("red") == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert game.rules.numbers("yellow") == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert game.rules.numbers("green") == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    assert game.rules.numbers("blue") == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    assert [game.lock_numbers(r) for r in ("red", "yellow", "green", "blue")] == [
        [12],
        [12],
        [2],
        [2],
    ]


def test_rulebook_example_scores_70() -> None:
    game = make_game((1, 2))
    game = set_row(game, 1, "red", first("red", 4))
    game = set_row(game, 1, "yellow", first("yellow", 3))
    game = set_row(game, 1, "green", first("green", 7))
    game = set_row(game, 1, "blue", first("blue", 8))
    game = reposition(game, sheets={1: "penalties: 2"})
    score = game.scores()[1]
    assert score.rows == {"red": 10, "yellow": 6, "green": 28, "blue": 36}
    assert score.penalties == 2
    assert score.penalty_points == -10
    assert score.bonus == 0
    assert score.total == 70
    assert game.scores()[2].total == 0


@pytest.mark.parametrize("crosses", range(13))
def test_row_scores_follow_the_triangle_table(crosses: int) -> None:
    # 11 crosses = 3..12 + lock; 12 crosses = all 11 numbers + the lock symbol.
    row = first("yellow", crosses) if crosses <= 10 else numbers("yellow")[12 - crosses :]
    locked = ["yellow"] if crosses > 10 else []  # a locked row is closed for everyone
    game = reposition(make_game((1, 2)), sheets={1: {"yellow": row}}, closed=locked)
    assert game.sheets[1].crosses("yellow") == crosses
    assert game.scores()[1].rows["yellow"] == TRIANGLE[crosses]
    assert TRIANGLE[crosses] == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78][crosses]


def test_each_penalty_costs_five_points() -> None:
    game = make_game((1, 2))
    game = set_row(game, 1, "blue", first("blue", 3))
    for penalties, total in [(0, 6), (1, 1), (3, -9)]:
        game = reposition(game, sheets={1: {"penalties": penalties}})
        assert game.scores()[1].total == total
        assert game.scores()[1].penalty_points == -5 * penalties


def test_lock_symbol_counts_as_a_cross_in_the_score() -> None:
    game = with_dice(make_game((1, 2)), white1=6, white2=6)
    game = set_row(game, 1, "red", first("red", 5))
    assert game.scores()[1].rows["red"] == 15
    game, _ = play(game, (1, cross("red", 12)), (2, PASS))
    assert game.sheets[1].crossed["red"] == [2, 3, 4, 5, 6, 12]
    assert game.sheets[1].locks == ["red"]
    assert game.sheets[1].crosses("red") == 7  # 6 numbers + lock
    assert game.scores()[1].rows["red"] == 28


# ---------------------------------------------------------------------------
# Crossing: left to right, skipping
# ---------------------------------------------------------------------------


def test_action1_offers_the_white_sum_in_every_row() -> None:
    game = with_dice(make_game(), white1=3, white2=4, red=1, yellow=2, green=5, blue=6)
    expected = [cross("red", 7), cross("yellow", 7), cross("green", 7), cross("blue", 7), PASS]
    for player in (1, 2, 3):
        assert game.legal_moves(player) == expected


def test_ascending_rows_cross_only_to_the_right() -> None:
    game = with_dice(make_game(), white1=2, white2=2)  # white sum 4
    game = set_row(game, 1, "red", [2, 5])
    assert cross("red", 4) not in game.legal_moves(1)
    assert cross("yellow", 4) in game.legal_moves(1)
    with pytest.raises(RuleError):
        game.apply(1, cross("red", 4))
    game = with_dice(game, white1=2, white2=3)  # the same number again
    assert cross("red", 5) not in game.legal_moves(1)
    game = with_dice(game, white1=3, white2=3)
    assert cross("red", 6) in game.legal_moves(1)


def test_descending_rows_cross_only_to_the_right() -> None:
    game = with_dice(make_game(), white1=5, white2=6)  # 11
    game = set_row(game, 1, "green", [10])
    game = set_row(game, 1, "blue", [10])
    moves = game.legal_moves(1)
    assert cross("green", 11) not in moves
    assert cross("blue", 11) not in moves
    assert cross("red", 11) in moves
    game = with_dice(game, white1=6, white2=6)  # 12: left of 10 in green/blue
    assert cross("green", 12) not in game.legal_moves(1)
    assert cross("blue", 12) not in game.legal_moves(1)
    game = with_dice(game, white1=4, white2=5)  # 9: right of 10 in green/blue
    assert cross("green", 9) in game.legal_moves(1)
    assert cross("blue", 9) in game.legal_moves(1)


def test_skipping_several_numbers_leaves_them_for_good() -> None:
    game = with_dice(make_game(), white1=4, white2=5)  # 9
    assert game.skipped_by(1, cross("red", 9)) == [2, 3, 4, 5, 6, 7, 8]
    assert game.skipped_by(1, cross("green", 9)) == [12, 11, 10]
    game, _ = play(game, (1, cross("red", 9)), (2, cross("green", 9)), (3, PASS))
    assert game.sheets[1].crossed["red"] == [9]
    assert game.sheets[2].crossed["green"] == [9]
    for total in range(2, 10):
        white1, white2 = (1, total - 1) if total <= 7 else (total - 6, 6)
        game = with_dice(game, white1=white1, white2=white2)
        assert cross("red", total) not in game.legal_moves(1)
    for total in range(9, 13):
        white1, white2 = total - 6, 6
        game = with_dice(game, white1=white1, white2=white2)
        assert cross("green", total) not in game.legal_moves(2)
    game = with_dice(game, white1=4, white2=6)
    assert cross("red", 10) in game.legal_moves(1)
    game = with_dice(game, white1=4, white2=4)
    assert cross("green", 8) in game.legal_moves(2)


# ---------------------------------------------------------------------------
# Action 1: white sum, everyone, one row, optional, simultaneous
# ---------------------------------------------------------------------------


def test_action1_is_only_the_white_sum_not_colour_sums() -> None:
    game = with_dice(make_game(), white1=1, white2=2, red=6, yellow=6, green=6, blue=6)
    assert {m.number for m in game.legal_moves(2) if m != PASS} == {3}


def test_every_player_including_the_active_one_may_cross_in_action1() -> None:
    game = with_dice(make_game(), white1=3, white2=4)
    assert game.decision().waiting == {1, 2, 3}
    game, events = play(game, (1, cross("red", 7)), (2, cross("yellow", 7)), (3, cross("blue", 7)))
    assert game.sheets[1].crossed == {"red": [7], "yellow": [], "green": [], "blue": []}
    assert game.sheets[2].crossed == {"red": [], "yellow": [7], "green": [], "blue": []}
    assert game.sheets[3].crossed == {"red": [], "yellow": [], "green": [], "blue": [7]}
    crossed = [(e.player, e.data["row"], e.data["phase"]) for e in events if e.kind == "crossed"]
    assert crossed == [(1, "red", "action1"), (2, "yellow", "action1"), (3, "blue", "action1")]


def test_action1_crosses_in_one_row_only_and_the_last_choice_counts() -> None:
    game = with_dice(make_game(), white1=3, white2=4)
    game, events = play(game, (2, cross("red", 7)))
    assert events == []
    assert game.decision().waiting == {1, 3}
    # Changing one's mind before the last player chooses replaces the choice.
    game, events = play(game, (2, cross("green", 7)))
    assert events == []
    assert game.decision().waiting == {1, 3}
    game, _ = play(game, (1, PASS), (3, PASS))
    assert game.sheets[2].crossed == {"red": [], "yellow": [], "green": [7], "blue": []}


def test_action1_can_change_a_cross_into_a_pass() -> None:
    game = with_dice(make_game(), white1=3, white2=4)
    game, _ = play(game, (2, cross("red", 7)), (2, PASS), (1, PASS), (3, PASS))
    assert game.sheets[2].crossed["red"] == []


def test_action1_is_optional_and_passing_costs_non_active_players_nothing() -> None:
    game = with_dice(make_game(), white1=3, white2=4, red=1)  # action 2 possible: red 4/5
    game, events = play(game, (1, cross("red", 7)), (2, PASS), (3, PASS))
    assert game.phase == "action2"
    assert ("passed", 2) in [(e.kind, e.player) for e in events]
    game, _ = play(game, (1, PASS))
    assert game.turn == 2
    assert [game.sheets[p].penalties for p in (1, 2, 3)] == [0, 0, 0]
    assert game.sheets[2].crossed["red"] == []


def test_action1_choices_are_applied_together_when_the_last_player_chooses() -> None:
    game = with_dice(make_game(), white1=3, white2=4)
    before = game.legal_moves(3)
    game, events = play(game, (1, cross("red", 7)), (2, cross("red", 7)))
    assert events == []
    assert game.phase == "action1"
    # Nothing is on any sheet yet, and others still see the start-of-action-1 state.
    assert all(game.sheets[p].crossed["red"] == [] for p in (1, 2, 3))
    assert game.legal_moves(3) == before
    assert game.legal_moves(1) == before  # player 1 may still change their choice
    game, events = play(game, (3, cross("red", 7)))
    assert all(game.sheets[p].crossed["red"] == [7] for p in (1, 2, 3))
    assert kinds(events).count("crossed") == 3
    assert game.phase == "action2"


def test_action1_choices_cannot_change_after_resolution() -> None:
    game = with_dice(make_game(), white1=3, white2=4, red=1)
    game, _ = play(game, (1, PASS), (2, cross("red", 7)), (3, PASS))
    assert game.phase == "action2"
    with pytest.raises(RuleError):
        game.apply(2, cross("yellow", 7))
    assert game.legal_moves(2) == []


def test_a_player_whose_only_move_is_pass_is_not_waited_for_in_action1() -> None:
    game = with_dice(
        make_game(seed=seed_with_white_sum(2, 7)),
        white1=3,
        white2=4,
        red=1,
        phase="action2",
        active_crossed=True,
    )
    for row in ("red", "yellow", "green", "blue"):
        game = set_row(game, 3, row, [7])  # 7 can no longer be crossed anywhere
    game, _ = play(game, (1, PASS))
    assert game.turn == 2
    assert game.phase == "action1"
    assert game.white_sum == 7
    assert game.legal_moves(3) == [PASS]
    assert game.decision().waiting == {1, 2}
    assert game.chosen == {3: PASS}
    game, _ = play(game, (1, PASS), (2, cross("red", 7)))
    assert game.sheets[2].crossed["red"] == [7]
    assert game.phase == "action2"


# ---------------------------------------------------------------------------
# Action 2: white + colour, active player only, after action 1
# ---------------------------------------------------------------------------


def test_action2_is_for_the_active_player_only() -> None:
    game = with_dice(make_game(), white1=2, white2=5, red=3, yellow=4, green=6, blue=1)
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    decision = game.decision()
    assert (decision.phase, decision.active, decision.waiting) == ("action2", 1, {1})
    assert game.legal_moves(2) == []
    assert game.legal_moves(3) == []
    with pytest.raises(RuleError):
        game.apply(2, cross("red", 5))
    with pytest.raises(RuleError):
        game.apply(3, PASS)


def test_action2_offers_either_white_die_plus_each_colour_in_that_colour() -> None:
    game = with_dice(make_game(), white1=2, white2=5, red=3, yellow=4, green=6, blue=1)
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert set(game.legal_moves(1)) == {
        cross("red", 5),
        cross("red", 8),
        cross("yellow", 6),
        cross("yellow", 9),
        cross("green", 8),
        cross("green", 11),
        cross("blue", 3),
        cross("blue", 6),
        PASS,
    }
    assert cross("red", 7) not in game.legal_moves(1)  # the white sum is not an action-2 sum
    game, events = play(game, (1, cross("green", 11)))
    assert game.sheets[1].crossed["green"] == [11]
    assert (events[0].kind, events[0].data["phase"]) == ("crossed", "action2")
    assert game.sheets[1].penalties == 0
    assert game.turn == 2


def test_action2_uses_the_second_white_die_too() -> None:
    game = with_dice(make_game(), white1=1, white2=6, red=6, yellow=1, green=1, blue=1)
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert game.colour_dice(cross("red", 12)) == (6, 6)
    assert game.colour_dice(cross("red", 7)) == (1, 6)
    game = set_row(game, 1, "red", [2, 3, 4, 5, 6])
    game, _ = play(game, (1, cross("red", 12)))
    assert game.sheets[1].locks == ["red"]


def test_action2_sums_are_deduplicated() -> None:
    game = with_dice(make_game(), white1=3, white2=3, red=4, yellow=4, green=4, blue=4)
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    moves = game.legal_moves(1)
    assert moves == [cross("red", 7), cross("yellow", 7), cross("green", 7), cross("blue", 7), PASS]


def test_action2_is_applied_after_action1_and_must_lie_to_its_right() -> None:
    game = with_dice(make_game(), white1=3, white2=5, red=2, yellow=1, green=1, blue=1)
    game, _ = play(game, (1, cross("red", 8)), (2, PASS), (3, PASS))
    assert game.sheets[1].crossed["red"] == [8]
    moves = game.legal_moves(1)
    assert cross("red", 5) not in moves  # 3 + 2, left of 8
    assert cross("red", 7) not in moves  # 5 + 2, left of 8
    game = with_dice(make_game(), white1=3, white2=5, red=6, yellow=1, green=1, blue=1)
    game, _ = play(game, (1, cross("red", 8)), (2, PASS), (3, PASS))
    assert {m for m in game.legal_moves(1) if m.row == "red"} == {cross("red", 9), cross("red", 11)}
    game, _ = play(game, (1, cross("red", 9)))
    assert game.sheets[1].crossed["red"] == [8, 9]
    assert game.sheets[1].penalties == 0


def test_action2_cannot_cross_the_action1_number_again() -> None:
    game = with_dice(make_game(), white1=3, white2=4, red=4)  # red: 7 and 8
    game, _ = play(game, (1, cross("red", 7)), (2, PASS), (3, PASS))
    red = [m for m in game.legal_moves(1) if m.row == "red"]
    assert red == [cross("red", 8)]


def test_action2_without_legal_cross_ends_the_turn_without_penalty_after_a_cross() -> None:
    game = with_dice(make_game(), white1=1, white2=1, red=1, yellow=1, green=1, blue=1)
    game = set_row(game, 1, "yellow", [2])
    game, events = play(game, (1, cross("red", 2)), (2, PASS), (3, PASS))
    # Action 2 sums are all 2: red 2 and yellow 2 are taken, green/blue 2 need 5 crosses.
    assert game.turn == 2
    assert game.active == 2
    assert game.phase == "action1"
    assert game.sheets[1].penalties == 0
    assert "penalty" not in kinds(events)


def test_action2_without_legal_cross_ends_the_turn_with_penalty_after_nothing() -> None:
    game = with_dice(make_game(), white1=1, white2=1, red=1, yellow=1, green=1, blue=1)
    game = set_row(game, 1, "red", [2])
    game = set_row(game, 1, "yellow", [2])
    assert game.legal_moves(1) == [PASS]
    game, events = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert game.turn == 2
    assert game.sheets[1].penalties == 1
    assert [(e.kind, e.player, e.data) for e in events if e.kind == "penalty"] == [
        ("penalty", 1, {"count": 1, "limit": 4})
    ]


# ---------------------------------------------------------------------------
# Penalties
# ---------------------------------------------------------------------------


def test_active_player_crossing_nothing_in_both_actions_takes_a_penalty() -> None:
    game = with_dice(make_game(), white1=2, white2=5, red=3)
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS), (1, PASS))
    assert [game.sheets[p].penalties for p in (1, 2, 3)] == [1, 0, 0]
    assert game.scores()[1].total == -5
    assert game.turn == 2


def test_no_penalty_when_the_active_player_crossed_in_action1_only() -> None:
    game = with_dice(make_game(), white1=2, white2=5, red=3)
    game, events = play(game, (1, cross("yellow", 7)), (2, PASS), (3, PASS), (1, PASS))
    assert game.sheets[1].penalties == 0
    assert "penalty" not in kinds(events)


def test_no_penalty_when_the_active_player_crossed_in_action2_only() -> None:
    game = with_dice(make_game(), white1=2, white2=5, red=3)
    game, events = play(game, (1, PASS), (2, PASS), (3, PASS), (1, cross("red", 5)))
    assert game.sheets[1].penalties == 0
    assert "penalty" not in kinds(events)


def test_a_cross_by_another_player_does_not_spare_the_active_player() -> None:
    game = with_dice(make_game(), white1=2, white2=5, red=3)
    game, _ = play(game, (1, PASS), (2, cross("red", 7)), (3, cross("blue", 7)), (1, PASS))
    assert [game.sheets[p].penalties for p in (1, 2, 3)] == [1, 0, 0]


def test_non_active_players_never_take_penalties() -> None:
    game = make_game()
    for _ in range(6):  # two rounds in which everybody always passes
        game, _ = everyone_passes_action1(game)
        if game.phase == "action2":
            game, _ = play(game, (game.active, PASS))
    assert [game.sheets[p].penalties for p in (1, 2, 3)] == [2, 2, 2]
    assert game.turn == 7


def test_third_penalty_does_not_end_the_game() -> None:
    game = with_dice(make_game((1, 2)), white1=2, white2=5, red=3)
    game = reposition(game, sheets={1: "penalties: 2"})
    game, _ = play(game, (1, PASS), (2, PASS), (1, PASS))
    assert game.sheets[1].penalties == 3
    assert not game.finished


def test_fourth_penalty_ends_the_game_at_once() -> None:
    game = with_dice(make_game((1, 2)), white1=2, white2=5, red=3)
    game = reposition(game, sheets={1: "penalties: 3"})
    game, events = play(game, (1, PASS), (2, PASS), (1, PASS))
    assert game.sheets[1].penalties == 4
    assert game.finished
    assert game.end_reason == "penalties"
    assert game.turn == 1
    assert kinds(events)[-2:] == ["penalty", "game_over"]
    assert events[-1].data == {"reason": "penalties"}
    assert game.decision().phase == "finished"
    assert game.decision().waiting == frozenset()
    assert game.scores()[1].total == -20
    with pytest.raises(RuleError, match="over"):
        game.apply(2, PASS)


# ---------------------------------------------------------------------------
# Locking
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "white1", "white2"), [("red", 6, 6), ("yellow", 6, 6), ("green", 1, 1), ("blue", 1, 1)]
)
def test_four_crosses_are_not_enough_to_cross_the_last_number(
    row: str, white1: int, white2: int
) -> None:
    game = with_dice(make_game(), white1=white1, white2=white2)
    game = set_row(game, 1, row, first(row, 4))
    assert cross(row, numbers(row)[-1]) not in game.legal_moves(1)
    with pytest.raises(RuleError):
        game.apply(1, cross(row, numbers(row)[-1]))


@pytest.mark.parametrize(
    ("row", "white1", "white2"), [("red", 6, 6), ("yellow", 6, 6), ("green", 1, 1), ("blue", 1, 1)]
)
def test_five_crosses_allow_locking_a_row(row: str, white1: int, white2: int) -> None:
    game = with_dice(make_game(), white1=white1, white2=white2)
    game = set_row(game, 1, row, first(row, 5))
    last = numbers(row)[-1]
    assert cross(row, last) in game.legal_moves(1)
    game, events = play(game, (1, cross(row, last)), (2, PASS), (3, PASS))
    assert game.sheets[1].crossed[row] == [*first(row, 5), last]
    assert game.sheets[1].locks == [row]
    assert game.closed == [row]
    assert game.scores()[1].rows[row] == 28  # 5 + last number + lock = 7 crosses
    assert ("locked", 1, {"row": row}) in [(e.kind, e.player, e.data) for e in events]
    assert ("die_removed", None, {"row": row}) in [(e.kind, e.player, e.data) for e in events]
    assert not game.finished


def test_a_locked_row_is_closed_for_everyone() -> None:
    game = with_dice(make_game(), white1=6, white2=6, red=1)
    game = set_row(game, 1, "red", first("red", 5))
    game = set_row(game, 2, "red", [2, 3])
    game, _ = play(game, (1, cross("red", 12)), (2, PASS), (3, PASS))
    game = with_dice(game, white1=3, white2=4)
    for player in (1, 2, 3):
        assert all(m.row != "red" for m in game.legal_moves(player))
        assert cross("yellow", 7) in game.legal_moves(player)
    with pytest.raises(RuleError):
        game.apply(2, cross("red", 7))


def test_a_row_locked_in_action1_loses_its_die_for_action2_of_the_same_turn() -> None:
    # red die 6 + white 6 = 12 would otherwise be an action-2 move; yellow stays usable.
    game = with_dice(make_game(), white1=6, white2=6, red=6, yellow=1, green=1, blue=1)
    game = set_row(game, 2, "red", first("red", 5))
    game = set_row(game, 1, "red", first("red", 4))
    game, events = play(game, (1, PASS), (2, cross("red", 12)), (3, PASS))
    assert game.phase == "action2"
    assert game.closed == ["red"]
    assert "red" not in game.dice_in_play()
    assert game.dice == {"white1": 6, "white2": 6, "yellow": 1, "green": 1, "blue": 1}
    assert all(m.row != "red" for m in game.legal_moves(1))
    assert cross("yellow", 7) in game.legal_moves(1)
    assert [(e.kind, e.data) for e in events if e.kind == "die_removed"] == [
        ("die_removed", {"row": "red"})
    ]


def test_a_removed_die_is_not_rolled_in_later_turns() -> None:
    game = with_dice(make_game(), white1=6, white2=6, red=6, yellow=1, green=1, blue=1)
    game = set_row(game, 1, "red", first("red", 5))
    game, _ = play(game, (1, cross("red", 12)), (2, PASS), (3, PASS))
    game, events = play(game, (1, PASS))
    assert game.turn == 2
    assert set(game.dice) == {"white1", "white2", "yellow", "green", "blue"}
    assert game.dice == roll(game.seed, 2, ("white1", "white2", "yellow", "green", "blue"))
    turn = next(e for e in events if e.kind == "turn")
    assert set(turn.data["dice"]) == {"white1", "white2", "yellow", "green", "blue"}


def test_locking_in_action2_closes_the_row_and_removes_its_die() -> None:
    game = with_dice(make_game(), white1=1, white2=1, red=1, yellow=1, green=1, blue=6)
    game = set_row(game, 1, "blue", first("blue", 5))
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert cross("blue", 2) not in game.legal_moves(1)  # white 1 + blue 6 = 7
    game = with_dice(make_game(), white1=1, white2=6, red=1, yellow=1, green=1, blue=1)
    game = set_row(game, 1, "blue", first("blue", 5))
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    game, events = play(game, (1, cross("blue", 2)))
    assert ("die_removed", {"row": "blue"}) in [(e.kind, e.data) for e in events]
    assert game.sheets[1].locks == ["blue"]
    assert game.closed == ["blue"]
    assert game.turn == 2
    assert "blue" not in game.dice
    assert game.sheets[1].penalties == 0


@pytest.mark.parametrize("lockers", [(1, 2), (2, 3), (1, 3), (1, 2, 3)])
def test_several_players_may_lock_the_same_row_in_the_same_action1(
    lockers: tuple[int, ...],
) -> None:
    game = with_dice(make_game(), white1=1, white2=1)
    for player in lockers:
        game = set_row(game, player, "green", first("green", 5))
    steps = [(p, cross("green", 2) if p in lockers else PASS) for p in (1, 2, 3)]
    game, events = play(game, *steps)
    for player in lockers:
        assert game.sheets[player].locks == ["green"]
        assert game.sheets[player].crossed["green"][-1] == 2
        assert game.scores()[player].rows["green"] == 28
    assert game.closed == ["green"]
    assert kinds(events).count("locked") == len(lockers)
    assert kinds(events).count("die_removed") == 1


def test_a_player_with_four_crosses_cannot_join_a_lock_in_the_same_action1() -> None:
    game = with_dice(make_game(), white1=6, white2=6)
    game = set_row(game, 1, "red", first("red", 5))
    game = set_row(game, 2, "red", first("red", 4))
    game, _ = play(game, (1, cross("red", 12)))
    assert cross("red", 12) not in game.legal_moves(2)
    with pytest.raises(RuleError):
        game.apply(2, cross("red", 12))
    game, _ = play(game, (2, PASS), (3, PASS))
    assert game.sheets[2].crossed["red"] == [2, 3, 4, 5]
    assert game.sheets[2].locks == []


def test_without_five_crosses_the_last_number_never_becomes_crossable() -> None:
    game = with_dice(make_game(), white1=6, white2=6)
    game = set_row(game, 1, "red", first("red", 5))
    game = set_row(game, 2, "red", first("red", 4))
    game, _ = play(game, (1, cross("red", 12)), (2, PASS), (3, PASS))
    game = with_dice(game, white1=6, white2=6, red=6)
    assert cross("red", 12) not in game.legal_moves(2)
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert cross("red", 12) not in game.legal_moves(1)


def test_simultaneous_action1_crosses_survive_a_lock_whatever_the_seat_order() -> None:
    # The lock is resolved before later seats' choices are written: they still count.
    game = with_dice(make_game(), white1=6, white2=6, red=6, yellow=6, green=6, blue=6)
    game = set_row(game, 1, "yellow", first("yellow", 5))
    game = set_row(game, 3, "yellow", first("yellow", 5))
    game, events = play(
        game, (3, cross("yellow", 12)), (2, cross("green", 12)), (1, cross("yellow", 12))
    )
    assert game.sheets[1].locks == ["yellow"]
    assert game.sheets[3].locks == ["yellow"]
    assert game.sheets[2].crossed["green"] == [12]
    assert game.closed == ["yellow"]
    assert [e.player for e in events if e.kind == "crossed"] == [1, 2, 3]


# ---------------------------------------------------------------------------
# End of the game
# ---------------------------------------------------------------------------


def test_a_first_locked_row_does_not_end_the_game() -> None:
    game = with_dice(make_game(), white1=6, white2=6, red=1)
    game = set_row(game, 2, "red", first("red", 5))
    game, _ = play(game, (1, PASS), (2, cross("red", 12)), (3, PASS))
    assert not game.finished
    assert game.phase == "action2"


def test_a_second_locked_row_in_action1_ends_the_game_at_once() -> None:
    game = with_dice(make_game(), white1=1, white2=1, red=1, yellow=1, green=1, blue=6)
    game = reposition(game, closed=["red"], sheets={2: {"red": [*first("red", 5), 12]}})
    game = set_row(game, 3, "blue", first("blue", 5))
    # Active player 1 passes in action 1; without the end they would have action 2
    # (e.g. white 1 + blue 6 = blue 7) and a penalty if they crossed nothing.
    game, events = play(game, (1, PASS), (2, PASS), (3, cross("blue", 2)))
    assert game.finished
    assert game.end_reason == "rows_locked"
    assert game.closed == ["red", "blue"]
    assert game.phase == "finished"
    assert game.turn == 1
    assert game.sheets[1].penalties == 0
    assert "penalty" not in kinds(events)
    assert events[-1].kind == "game_over"
    assert events[-1].data == {"reason": "rows_locked"}
    assert game.decision().phase == "finished"
    assert game.decision().waiting == frozenset()
    assert all(game.legal_moves(p) == [] for p in (1, 2, 3))
    with pytest.raises(RuleError, match="over"):
        game.apply(1, cross("blue", 7))


def test_a_third_row_can_be_locked_together_with_the_second() -> None:
    game = reposition(with_dice(make_game(), white1=6, white2=6), closed=["green"])
    game = set_row(game, 1, "red", first("red", 5))
    game = set_row(game, 2, "yellow", first("yellow", 5))
    game = set_row(game, 3, "red", first("red", 5))
    game, events = play(
        game, (1, cross("red", 12)), (2, cross("yellow", 12)), (3, cross("red", 12))
    )
    assert game.finished
    assert game.end_reason == "rows_locked"
    assert game.closed == ["green", "red", "yellow"]
    assert game.sheets[1].locks == ["red"]
    assert game.sheets[2].locks == ["yellow"]
    assert game.sheets[3].locks == ["red"]
    assert kinds(events).count("die_removed") == 2
    assert kinds(events).count("game_over") == 1
    assert game.scores()[2].rows["yellow"] == 28


def test_a_second_locked_row_in_action2_ends_the_game() -> None:
    game = with_dice(make_game((1, 2)), white1=6, white2=1, yellow=6, green=1, blue=1)
    game = reposition(game, closed=["red"])
    game = set_row(game, 1, "yellow", first("yellow", 5))
    game, _ = play(game, (1, PASS), (2, PASS))
    assert game.phase == "action2"
    game, events = play(game, (1, cross("yellow", 12)))
    assert game.finished
    assert game.end_reason == "rows_locked"
    assert game.closed == ["red", "yellow"]
    assert game.sheets[1].penalties == 0
    assert game.turn == 1
    assert kinds(events)[-1] == "game_over"


def test_the_game_ending_in_action1_means_no_penalty_even_for_a_fourth_penalty() -> None:
    game = with_dice(make_game((1, 2)), white1=6, white2=6)
    game = reposition(game, closed=["green"], sheets={1: "penalties: 3"})
    game = set_row(game, 2, "red", first("red", 5))
    game, _ = play(game, (1, PASS), (2, cross("red", 12)))
    assert game.end_reason == "rows_locked"
    assert game.sheets[1].penalties == 3


# ---------------------------------------------------------------------------
# Turn order and the roll
# ---------------------------------------------------------------------------


def test_decision_at_the_start_waits_for_everyone() -> None:
    game = make_game((10, 20, 30, 40))
    decision = game.decision()
    assert decision.phase == "action1"
    assert decision.turn == 1
    assert decision.active == 10
    assert decision.waiting == {10, 20, 30, 40}


def test_active_player_rotates_in_seat_order() -> None:
    game = make_game((10, 20, 30))
    actives = []
    for _ in range(7):
        actives.append((game.turn, game.decision().active))
        game, _ = everyone_passes_action1(game)
        if game.phase == "action2":
            assert game.decision().waiting == {game.active}
            game, _ = play(game, (game.active, PASS))
    assert actives == [(1, 10), (2, 20), (3, 30), (4, 10), (5, 20), (6, 30), (7, 10)]


def test_each_turn_rolls_from_the_seed_and_the_turn_number() -> None:
    game = make_game(seed=1234)
    assert game.dice == roll(1234, 1)
    game, events = everyone_passes_action1(game)
    if game.phase == "action2":
        game, events = play(game, (1, PASS))
    assert game.turn == 2
    assert game.dice == roll(1234, 2)
    assert [e.data["dice"] for e in events if e.kind == "turn"] == [roll(1234, 2)]


def test_game_is_a_qwixx_game() -> None:
    game = make_game()
    assert isinstance(game, QwixxGame)
    assert (game.variant, game.min_players, game.max_players) == ("classic", 2, 5)
    assert Move("cross", "red", 7) == cross("red", 7)
