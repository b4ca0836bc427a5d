"""tests.positions: positions built through the public API, and refused when the rules
could never reach them; and the questions every Game answers."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import PASS, Move, RuleError, game_from_json, new_game
from bot.rules.longo import LongoGame
from bot.rules.onboard import OnBoardGame
from bot.rules.qwinto import QwintoGame
from bot.rules.qwixx import QwixxGame
from tests.positions import position, reposition

CLASSIC_DICE = {"white1": 3, "white2": 4, "red": 2, "yellow": 1, "green": 5, "blue": 6}


def test_a_classic_position_from_a_described_sheet() -> None:
    game = position(
        "classic", [1, 2], dice=CLASSIC_DICE, sheets={1: "red: 2 3 5 | green: 12 11 | penalties: 1"}
    )
    assert isinstance(game, QwixxGame)
    assert game.sheets[1].crossed == {"red": [2, 3, 5], "yellow": [], "green": [12, 11], "blue": []}
    assert game.sheets[1].penalties == 1 and game.sheets[2].crossed["red"] == []
    assert game.dice == CLASSIC_DICE and game.phase == "action1" and game.chosen == {}
    assert game.decision().waiting == {1, 2}
    assert game_from_json(game.to_json()).to_json() == game.to_json()  # a real game
    after, _ = game.apply(1, Move("cross", "red", 7))
    assert after.chosen == {1: Move("cross", "red", 7)}


def test_a_sheet_as_a_dict_is_the_same_sheet() -> None:
    described = position("classic", sheets={1: "red: 2 3 | penalties: 2"})
    as_dict = position("classic", sheets={1: {"red": [2, 3], "penalties": 2}})
    assert described.to_json() == as_dict.to_json()


def test_reposition_changes_only_what_it_names_and_leaves_the_game_alone() -> None:
    game = position("classic", [1, 2, 3], dice=CLASSIC_DICE, sheets={1: "red: 2 3"})
    before = game.to_json()
    later = reposition(
        game, turn=2, closed=["red"], sheets={2: "red: 2 3 4 5 6 12"}, chosen={3: PASS}
    )
    assert game.to_json() == before
    assert isinstance(later, QwixxGame)
    assert later.sheets[1].crossed["red"] == [2, 3]  # kept
    assert later.sheets[2].locks == ["red"]  # the lock number brings its lock
    assert later.dice == {d: v for d, v in CLASSIC_DICE.items() if d != "red"}
    assert later.decision() == ("action1", 2, 2, frozenset({1, 2}))
    assert later.chosen_move(3) == PASS and later.chosen_move(1) is None


def test_a_finished_position_needs_its_reason() -> None:
    with pytest.raises(RuleError, match="would be over"):
        position("classic", sheets={1: "penalties: 4"})
    game = position("classic", sheets={1: "penalties: 4"}, end_reason="penalties")
    assert game.finished and game.phase == "finished" and game.legal_moves(1) == []
    with pytest.raises(RuleError, match="cannot have ended"):
        position("classic", end_reason="rows_locked")


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"sheets": {1: "red: 3 2"}}, "left to right"),
        ({"sheets": {1: "red: 2 2"}}, "left to right"),
        ({"sheets": {1: "green: 2 3"}}, "left to right"),
        ({"sheets": {1: "red: 13"}}, "not a number of the row"),
        ({"sheets": {1: "red: 2 3 4 5 12"}}, "needs 5 crosses"),
        ({"sheets": {1: "red: 2 3 4 5 6 12"}}, "so red is closed"),
        ({"sheets": {1: "purple: 2"}}, "no row 'purple'"),
        ({"sheets": {1: "red 2 3"}}, "name: values"),
        ({"sheets": {1: "penalties: -1"}}, "negative"),
        ({"sheets": {9: "red: 2"}}, "no sheet"),
        ({"dice": {"white1": 1, "white2": 2}}, "dice on the table"),
        ({"dice": {**CLASSIC_DICE, "red": 7}}, "faces are 1-6"),
        ({"closed": ["red"], "dice": CLASSIC_DICE}, "dice on the table"),
        ({"closed": ["red", "red"]}, "once"),
        ({"phase": "action3"}, "phases"),
        ({"phase": "finished"}, "end_reason"),
        ({"turn": 0}, "count from 1"),
        ({"active_crossed": True}, "action 1"),
        ({"chosen": {1: PASS, 2: PASS}}, "every player has chosen"),
        ({"chosen": {1: Move("cross", "red", 12)}}, "cannot choose"),
        ({"phase": "action2", "chosen": {1: PASS}}, "choices wait only"),
        ({"pawns": {1: 3}}, "no pawns"),
        ({"lucky": {1: (5, 6)}}, "no lucky numbers"),
        ({"attempt": 1}, "no attempt"),
    ],
)
def test_positions_the_rules_could_never_reach_are_refused(
    state: dict[str, Any], message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        position("classic", [1, 2], **state)


def test_longo_lucky_numbers_and_its_lock_span() -> None:
    game = position(
        "longo", [1, 2], lucky={1: (6, 11)}, sheets={1: "red: 2 3 4 5 6 7 15"}, closed=["red"]
    )
    assert isinstance(game, LongoGame)
    assert game.lucky[1] == (6, 11) and game.lucky_numbers(1) == (6, 11)
    assert game.sheets[1].locks == ["red"] and game.has_lucky_numbers
    for lucky, message in (((6, 6), "two different"), ((4, 6), "5-13"), (game.lucky[2], "share")):
        with pytest.raises(RuleError, match=message):
            reposition(game, lucky={1: lucky})
    with pytest.raises(RuleError, match="nothing is crossed after"):
        position("longo", sheets={1: "red: 2 3 4 5 6 7 15 16"}, closed=["red"])


def test_on_board_pawns_and_the_final_round() -> None:
    game = position("onboard", [1, 2, 3], turn=2, pawns={1: 37, 2: 12}, final_turn=3, finish_by=1)
    assert isinstance(game, OnBoardGame)
    assert game.pawns == {1: 37, 2: 12, 3: 0} and game.final_round
    assert game.pawn_positions() == game.pawns and game.last_turn() == 3 and game.has_board
    for state, message in (
        ({"pawns": {2: 37}}, "start field"),
        ({"pawns": {2: 41}}, "positions are 0-40"),
        ({"final_turn": None}, "both"),
        ({"finish_by": 2}, "finish area"),
        ({"turn": 4}, "last turn 3"),
    ):
        with pytest.raises(RuleError, match=message):
            reposition(game, **state)
    over = reposition(game, turn=3, phase="action3", end_reason="board_finish")
    assert over.finished


def test_qwinto_fields_dice_and_failed_throws() -> None:
    game = position(
        "qwinto",
        [1, 2, 3],
        phase="place",
        dice={"yellow": 5, "orange": 4},
        sheets={1: "orange: 2=2 3=4 4=6 | failed: 1", 2: {"purple": {0: 1}}},
    )
    assert isinstance(game, QwintoGame)
    assert game.rolled == ("orange", "yellow") and game.total == 9
    assert game.sheets[1].fields["orange"] == {2: 2, 3: 4, 4: 6} and game.sheets[1].failed == 1
    assert game.sheets[2].fields["purple"] == {0: 1}
    assert Move("place", "orange", 6) in game.legal_moves(1)
    for state, message in (
        ({"sheets": {1: "orange: 2=5 3=4"}}, "rise"),
        ({"sheets": {1: "orange: 5=4"}}, "no field in column 5"),
        ({"sheets": {1: "yellow: 3=4"}}, "holds 4 twice"),
        ({"sheets": {1: "orange: 2"}}, "column=number"),
        ({"sheets": {1: "failed: 4"}}, "would be over"),
        ({"phase": "roll"}, "no dice"),
        ({"phase": "reroll", "attempt": 1}, "attempt"),
        ({"dice": {"red": 3}}, "no die 'red'"),
        ({"closed": ["orange"]}, "no closed"),
    ):
        with pytest.raises(RuleError, match=message):
            reposition(game, **state)


# --- the questions every Game answers ------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_every_game_answers_the_interface_s_questions(variant: str) -> None:
    game = new_game(variant, [1, 2], 4)
    assert game.dice_on_table() == getattr(game, "dice", {})
    assert game.dice_on_table() is not getattr(game, "dice", None)  # a copy
    assert game.chosen_move(1) is None
    assert game.closed_rows() == tuple(getattr(game, "closed", ()))
    assert game.lucky_numbers(1) == tuple(getattr(game, "lucky", {}).get(1, ()))
    assert game.has_lucky_numbers == hasattr(game, "lucky")
    assert game.has_board == hasattr(game, "board")
    assert game.pawn_positions() == getattr(game, "pawns", {})
    assert game.last_turn() is None
    assert game.skipped_by(1, PASS) == []
    if variant == "qwinto":
        assert game.dice_total() is None
        game, _ = game.apply(1, Move("roll", dice=("orange", "yellow")))
        assert game.dice_total() == sum(game.dice_on_table().values()) > 0
    else:
        dice = game.dice_on_table()
        assert game.dice_total() == dice["white1"] + dice["white2"]


def test_a_pass_costs_a_penalty_only_at_the_active_player_s_last_chance() -> None:
    classic = position("classic", [1, 2], dice=CLASSIC_DICE)
    assert not classic.passing_costs_penalty(1)  # action 1: action 2 is still to come
    action2 = reposition(classic, phase="action2")
    assert action2.passing_costs_penalty(1) and not action2.passing_costs_penalty(2)
    assert not reposition(action2, active_crossed=True).passing_costs_penalty(1)
    onboard = position("onboard", [1, 2], phase="action2")
    assert not onboard.passing_costs_penalty(1)  # action 3 is still to come
    assert reposition(onboard, phase="action3").passing_costs_penalty(1)
    qwinto = position("qwinto", [1, 2], phase="place", dice={"orange": 3})
    assert qwinto.passing_costs_penalty(1) and not qwinto.passing_costs_penalty(2)
    assert not position("qwinto", [1, 2]).passing_costs_penalty(1)  # the roll comes first


def test_the_module_s_examples_run() -> None:
    """The examples in tests.positions' docstring build what they say."""
    import textwrap

    from tests import positions

    doc = positions.__doc__ or ""
    code = textwrap.dedent(doc.split("Examples::", 1)[1].split("\nThe state,", 1)[0])
    names: dict[str, Any] = {"PASS": PASS}
    exec(compile(code, "positions.__doc__", "exec"), names)
    assert names["game"].variant == "onboard" and names["game"].final_round
