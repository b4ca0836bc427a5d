"""Qwixx On Board (RULES.md §3): action 3 on the track, the penalty over three actions,
the final round and the board bonus."""

from __future__ import annotations

import json
import math

import pytest

from bot.rules import PASS, VARIANTS, Event, Move, RuleError, game_from_json, new_game
from bot.rules.boards import Board, parse_board
from bot.rules.onboard import OnBoardGame
from tests.positions import position as build_position
from tests.positions import reposition

from .helpers import cross, first, kinds, play, set_row, with_dice

TIM, LINUS, ADA, BO = 1, 2, 3, 4
ROWS = ("red", "yellow", "green", "blue")


def board(fields: dict[int, tuple[str, int]] | None = None, name: str = "T") -> Board:
    """A valid test track: ``fields`` at the given positions, a mixed filler elsewhere."""
    track = []
    for position in range(1, 41):
        colour, number = (fields or {}).get(position, (ROWS[position % 4], 2 + (position * 3) % 11))
        track.append({"colour": colour, "number": number, "bonus": math.ceil(position / 2)})
    return parse_board({"name": name, "fields": track}, "test board")


def onboard(
    players: tuple[int, ...] = (TIM, LINUS),
    seed: int = 3,
    fields: dict[int, tuple[str, int]] | None = None,
    pawns: dict[int, int] | None = None,
    phase: str = "action3",
    active_crossed: bool = False,
    dice: dict[str, int] | None = None,
    closed: tuple[str, ...] = (),
) -> OnBoardGame:
    """A game on a test track, in ``phase`` of turn 1 (TIM active), pawns where given;
    the dice white 1 + 2 and every colour 1 unless ``dice`` says otherwise (a closed
    row's die is not on the table)."""
    game = build_position(
        "onboard",
        players,
        seed=seed,
        options={"board": board(fields)},
        pawns=pawns or {},
        closed=list(closed),
    )
    assert isinstance(game, OnBoardGame)
    values = {
        "white1": 1,
        "white2": 2,
        "red": 1,
        "yellow": 1,
        "green": 1,
        "blue": 1,
        **(dice or {}),
    }
    game = with_dice(game, **values, phase=phase, active_crossed=active_crossed)
    assert isinstance(game, OnBoardGame)
    return game


def pawn(row: str, steps: int) -> Move:
    return Move("pawn", row, steps)


def pawn_moves(game: OnBoardGame, player: int) -> list[Move]:
    return [m for m in game.legal_moves(player) if m.kind == "pawn"]


def end_turn(game: OnBoardGame) -> tuple[OnBoardGame, list[Event]]:
    """Everyone passes until the current turn is over (or the game)."""
    turn, events = game.turn, []
    while not game.finished and game.turn == turn:
        game, new = play(game, *((p, PASS) for p in sorted(game.decision().waiting)))
        events += new
    return game, events


# --- registration and options ----------------------------------------------


def test_onboard_is_registered_for_two_to_four_players() -> None:
    assert VARIANTS["onboard"] is OnBoardGame
    assert (OnBoardGame.min_players, OnBoardGame.max_players) == (2, 4)
    assert OnBoardGame.title == "Qwixx On Board"
    with pytest.raises(RuleError):
        new_game("onboard", [1, 2, 3, 4, 5], 1)
    with pytest.raises(RuleError):
        new_game("onboard", [1], 1)


def test_the_board_option_defaults_to_a_and_may_name_b() -> None:
    game = new_game("onboard", [1, 2], 1)
    assert isinstance(game, OnBoardGame)
    assert game.board.name == "A" and game.options == {"board": "A"}
    game_b = new_game("onboard", [1, 2], 1, {"board": "B"})
    assert isinstance(game_b, OnBoardGame)
    assert game_b.board.name == "B" and game_b.board.fields != game.board.fields
    assert all(p == 0 for p in game.pawns.values())


def test_an_unknown_board_is_refused_by_name() -> None:
    with pytest.raises(RuleError, match=r"unknown board 'Z'.*A, B"):
        new_game("onboard", [1, 2], 1, {"board": "Z"})


def test_a_board_passed_directly_is_kept_by_name_in_the_options() -> None:
    game = onboard()
    assert game.board.name == "T" and game.options["board"] == "T"
    assert json.dumps(game.to_json())  # the options stay JSON


# --- the rulebook examples -------------------------------------------------


def test_rulebook_tim_moves_five_free_fields_from_start_to_green_10_and_crosses_it() -> None:
    game = onboard(fields={5: ("green", 10)})
    assert game.pawn_target(TIM, 5) == (5, game.board.field(5), True)
    assert pawn("green", 5) in game.legal_moves(TIM)
    game, events = game.apply(TIM, pawn("green", 5))
    assert game.pawns[TIM] == 5
    assert game.sheets[TIM].crossed["green"] == [10]
    moved = next(e for e in events if e.kind == "pawn_moved")
    assert moved.player == TIM
    assert moved.data == {
        "from": 0,
        "to": 5,
        "steps": 5,
        "row": "green",
        "number": 10,
        "bonus": 3,
        "crosses": True,
    }
    crossed = next(e for e in events if e.kind == "crossed")
    assert crossed.data == {"row": "green", "number": 10, "phase": "action3", "via": "pawn"}
    assert "penalty" not in kinds(events)
    assert game.turn == 2


def test_rulebook_linus_moves_four_fields_onto_green_7_he_has_already_crossed() -> None:
    game = onboard(fields={14: ("green", 7)}, pawns={TIM: 10})
    game = set_row(game, TIM, "green", [12, 10, 7])
    assert game.pawn_target(TIM, 4) == (14, game.board.field(14), False)
    assert pawn("green", 4) in game.legal_moves(TIM)
    game, events = game.apply(TIM, pawn("green", 4))
    assert game.pawns[TIM] == 14
    assert game.sheets[TIM].crossed["green"] == [12, 10, 7]
    assert "crossed" not in kinds(events)
    assert next(e for e in events if e.kind == "pawn_moved").data["crosses"] is False


# --- moving ----------------------------------------------------------------


def test_occupied_fields_are_skipped_and_not_counted() -> None:
    game = onboard(players=(TIM, LINUS, ADA), pawns={LINUS: 2, ADA: 3})
    assert [game.landing(TIM, s) for s in range(1, 6)] == [1, 4, 5, 6, 7]
    assert [m.number for m in pawn_moves(game, TIM)] == [1, 2, 3, 4, 5]
    game, _ = game.apply(TIM, pawn_moves(game, TIM)[1])
    assert game.pawns == {TIM: 4, LINUS: 2, ADA: 3}


def test_a_pawn_never_moves_past_the_last_field() -> None:
    game = onboard(pawns={TIM: 37, LINUS: 39}, fields={38: ("red", 5), 40: ("blue", 9)})
    assert [game.landing(TIM, s) for s in range(1, 6)] == [38, 40, None, None, None]
    assert game.pawn_target(TIM, 3) is None
    assert [m.number for m in pawn_moves(game, TIM)] == [1, 2]
    game = reposition(game, pawns={TIM: 40})
    assert pawn_moves(game, TIM) == []


def test_the_start_field_holds_every_pawn() -> None:
    game = onboard(players=(TIM, LINUS, ADA, BO))
    assert set(game.pawns.values()) == {0}
    assert game.landing(TIM, 1) == 1  # pawns on the start field block nothing
    game, _ = game.apply(TIM, pawn_moves(game, TIM)[0])
    game, _ = end_turn(game)
    assert game.pawns == {TIM: 1, LINUS: 0, ADA: 0, BO: 0}


def test_only_fields_crossable_now_or_already_crossed_are_offered() -> None:
    fields = {1: ("red", 4), 2: ("red", 9), 3: ("yellow", 12), 4: ("blue", 5), 5: ("green", 11)}
    game = onboard(fields=fields)
    game = set_row(game, TIM, "red", [5])  # red 4 is left behind: not offered
    game = set_row(game, TIM, "yellow", [2, 3, 4])  # yellow 12 needs five crosses: not offered
    game = set_row(game, TIM, "green", [12, 11])  # green 11 already crossed: offered
    game = reposition(game, closed=["blue"])  # blue 5 lies in a closed row: not offered
    assert pawn_moves(game, TIM) == [pawn("red", 2), pawn("green", 5)]
    for steps, row in ((1, "red"), (3, "yellow"), (4, "blue")):
        with pytest.raises(RuleError):
            game.apply(TIM, pawn(row, steps))
    # a number already crossed in a row closed since stays a legal landing field
    game = set_row(game, TIM, "blue", [12, 5])
    assert pawn("blue", 4) in pawn_moves(game, TIM)


def test_only_the_active_player_moves_and_only_in_action3() -> None:
    game = onboard()
    assert game.decision().waiting == {TIM}
    assert game.legal_moves(LINUS) == []
    with pytest.raises(RuleError):
        game.apply(LINUS, pawn(game.board.fields[0].colour, 1))
    action1 = onboard(phase="action1")
    assert not any(m.kind == "pawn" for p in (TIM, LINUS) for m in action1.legal_moves(p))


def test_action3_follows_action2_and_staying_is_a_pass() -> None:
    game = onboard(phase="action1", dice={"red": 2})  # action 2 can cross red 3 or red 4
    game, _ = play(game, (TIM, PASS), (LINUS, PASS))
    assert game.phase == "action2"
    game, _ = game.apply(TIM, cross("red", 4))
    assert game.phase == "action3" and game.decision().waiting == {TIM}
    assert game.legal_moves(TIM)[-1] == PASS
    game, events = game.apply(TIM, PASS)
    assert kinds(events)[:1] == ["passed"] and events[0].data["phase"] == "action3"
    assert game.turn == 2 and game.pawns[TIM] == 0
    assert "penalty" not in kinds(events)


def test_action3_is_skipped_when_staying_is_the_only_move() -> None:
    # every field ahead is red 2 .. blocked: red row crossed beyond them
    game = onboard(phase="action2", fields={k: ("red", 2) for k in range(1, 6)})
    game = set_row(game, TIM, "red", [3])
    assert game.legal_moves(TIM) != [PASS]  # action 2 has a choice
    game, events = game.apply(TIM, PASS)
    assert game.turn == 2, "action 3 had nothing to offer and was skipped"
    assert "penalty" in kinds(events)


# --- locking through action 3 ----------------------------------------------


def test_landing_on_a_last_number_locks_the_row_for_everyone() -> None:
    game = onboard(fields={3: ("red", 12)})
    game = set_row(game, TIM, "red", first("red", 5))
    assert game.pawn_target(TIM, 3) == (3, game.board.field(3), True)
    game, events = game.apply(TIM, pawn("red", 3))
    assert game.sheets[TIM].crossed["red"][-1] == 12
    assert game.sheets[TIM].locks == ["red"] and game.closed == ["red"]
    assert kinds(events)[:4] == ["pawn_moved", "crossed", "locked", "die_removed"]
    assert "red" not in game.dice and "red" not in game.dice_in_play()


def test_a_last_number_needs_five_crosses_to_land_on() -> None:
    game = onboard(fields={3: ("red", 12)})
    game = set_row(game, TIM, "red", first("red", 4))
    assert pawn("red", 3) not in game.legal_moves(TIM)


def test_a_second_lock_in_action3_ends_the_game_at_once() -> None:
    game = onboard(fields={1: ("green", 2)}, closed=("yellow",))
    game = set_row(game, TIM, "green", first("green", 6))
    game, events = game.apply(TIM, pawn("green", 1))
    assert game.finished and game.end_reason == "rows_locked"
    assert kinds(events)[-1] == "game_over"
    assert "penalty" not in kinds(events)


def test_a_second_lock_in_action2_ends_the_game_before_action3() -> None:
    game = onboard(phase="action2", dice={"white1": 6, "white2": 5, "red": 6}, closed=("blue",))
    game = set_row(game, TIM, "red", first("red", 5))
    game, events = game.apply(TIM, cross("red", 12))
    assert game.finished and game.end_reason == "rows_locked"
    assert game.pawns[TIM] == 0 and "pawn_moved" not in kinds(events)


# --- the penalty over three actions ------------------------------------------


def test_crossing_only_in_action3_avoids_the_penalty() -> None:
    game = onboard(phase="action1", fields={2: ("blue", 9)})
    game, _ = play(game, (TIM, PASS), (LINUS, PASS), (TIM, PASS))
    assert game.phase == "action3"
    game, events = game.apply(TIM, pawn("blue", 2))
    assert game.sheets[TIM].penalties == 0 and "penalty" not in kinds(events)
    assert game.sheets[TIM].crossed["blue"] == [9]


def test_landing_on_an_already_crossed_field_is_no_cross() -> None:
    game = onboard(phase="action1", fields={2: ("blue", 9)})
    game = set_row(game, TIM, "blue", [12, 9])
    game, _ = play(game, (TIM, PASS), (LINUS, PASS), (TIM, PASS))
    game, events = game.apply(TIM, pawn("blue", 2))
    assert game.pawns[TIM] == 2
    assert game.sheets[TIM].penalties == 1
    assert [e.data for e in events if e.kind == "penalty"] == [{"count": 1, "limit": 4}]


def test_crossing_in_action1_alone_avoids_the_penalty_even_when_staying() -> None:
    game = onboard(phase="action1")
    game, _ = play(game, (TIM, cross("red", 3)), (LINUS, PASS), (TIM, PASS), (TIM, PASS))
    assert game.turn == 2 and game.sheets[TIM].penalties == 0


def test_passing_all_three_actions_costs_one_penalty_at_the_end_of_the_turn() -> None:
    game = onboard(phase="action1")
    game, events = play(game, (TIM, PASS), (LINUS, PASS), (TIM, PASS))
    assert game.phase == "action3" and game.sheets[TIM].penalties == 0
    game, events = game.apply(TIM, PASS)
    assert game.sheets[TIM].penalties == 1 and game.sheets[LINUS].penalties == 0
    assert kinds(events)[:3] == ["passed", "penalty", "turn"]


def test_a_fourth_penalty_ends_the_game() -> None:
    game = reposition(onboard(), sheets={TIM: "penalties: 3"})
    game, _ = game.apply(TIM, PASS)
    assert game.finished and game.end_reason == "penalties"


# --- the end: the finish area and the final round ----------------------------


def reach_finish(players: tuple[int, ...]) -> tuple[OnBoardGame, list[Event]]:
    """TIM (active on turn 1) moves from field 35 into the finish area (field 36)."""
    game = onboard(players=players, pawns={TIM: 35})
    target = game.pawn_target(TIM, 1)
    assert target is not None and target[0] == 36 == game.board.finish_from
    return game.apply(TIM, pawn_moves(game, TIM)[0])


@pytest.mark.parametrize("players", [(TIM, LINUS), (TIM, LINUS, ADA), (TIM, LINUS, ADA, BO)])
def test_after_the_finish_every_other_player_has_exactly_one_more_turn(
    players: tuple[int, ...],
) -> None:
    game, events = reach_finish(players)
    finish = [e for e in events if e.kind == "finish_reached"]
    assert finish == [Event("finish_reached", TIM, {"position": 36, "last_turn": len(players)})]
    assert game.final_round and game.finish_by == TIM
    actives = []
    while not game.finished:
        actives.append(game.active)
        game, events = end_turn(game)
    assert actives == list(players[1:])
    assert game.end_reason == "board_finish"
    assert game.turn == len(players)
    assert kinds(events)[-1] == "game_over"
    assert events[-1].data == {"reason": "board_finish"}


def test_a_second_pawn_in_the_finish_does_not_extend_the_final_round() -> None:
    game, _ = reach_finish((TIM, LINUS, ADA))
    # LINUS (turn 2) also reaches the finish; ADA still plays turn 3, then it is over.
    game = with_dice(reposition(game, pawns={LINUS: 37}), phase="action3")
    game, events = game.apply(LINUS, pawn_moves(game, LINUS)[0])
    assert "finish_reached" not in kinds(events)
    assert game.turn == 3 and game.active == ADA and not game.finished
    game, events = end_turn(game)
    assert game.finished and game.end_reason == "board_finish"


def test_the_usual_ends_still_end_the_final_round_at_once() -> None:
    game, _ = reach_finish((TIM, LINUS, ADA))
    assert game.turn == 2 and game.active == LINUS
    game = reposition(game, sheets={LINUS: "penalties: 3"})
    game, _ = end_turn(game)
    assert game.finished and game.end_reason == "penalties" and game.turn == 2


def test_the_final_round_state_round_trips_through_json() -> None:
    game, _ = reach_finish((TIM, LINUS, ADA))
    data = json.loads(json.dumps(game.to_json()))
    assert data["pawns"] == {str(TIM): 36, str(LINUS): 0, str(ADA): 0}
    assert data["final_turn"] == 3 and data["finish_by"] == TIM
    restored = game_from_json(data)
    assert isinstance(restored, OnBoardGame)
    assert restored.to_json() == game.to_json()
    assert restored.board == game.board and restored.final_round
    a, _ = end_turn(game)
    b, _ = end_turn(restored)
    assert a.to_json() == b.to_json()


# --- scoring ---------------------------------------------------------------


def test_the_bonus_under_each_pawn_is_added_to_the_score() -> None:
    game = onboard(players=(TIM, LINUS, ADA), pawns={TIM: 40, LINUS: 13})
    game = reposition(
        game,
        sheets={
            TIM: {
                "red": [2, 3, 4, 5],
                "yellow": [2, 3, 4],
                "green": list(range(12, 5, -1)),
                "blue": list(range(12, 4, -1)),
                "penalties": 2,
            }
        },
    )
    scores = game.scores()
    assert scores[TIM].bonus == 20
    assert scores[TIM].total == 70 + 20  # the rulebook's 70 plus the last field's bonus
    assert scores[LINUS].bonus == 7 and scores[LINUS].total == 7
    assert scores[ADA].bonus == 0  # the start field scores nothing
