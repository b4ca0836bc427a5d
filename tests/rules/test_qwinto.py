"""Qwinto (RULES.md §4): geometry, writing rules, the turn, failed throws, the end, scoring."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from bot.rules import PASS, VARIANTS, Event, Move, RuleError, game_from_json, new_game, replay
from bot.rules.qwinto import (
    BLANK,
    COLUMNS,
    GEOMETRY,
    PENTAGONS,
    ROW_COLUMNS,
    ROW_SPAN,
    ROWS,
    TRIPLE_COLUMNS,
    QwintoGame,
    QwintoSheet,
    column_fields,
    pentagon_row,
    roll_choices,
)
from tests.positions import reposition

from .helpers import derived

# The table of RULES.md §4, written out independently of the module under test.
SPEC = {
    "orange": (list(range(2, 12)), 5, (3, 7)),
    "yellow": (list(range(1, 11)), 6, (8,)),
    "purple": (list(range(0, 10)), 4, (2, 9)),
}
COLOURS = ("orange", "yellow", "purple")
ALL_ROLLS = [
    ("orange",),
    ("yellow",),
    ("purple",),
    ("orange", "yellow"),
    ("orange", "purple"),
    ("yellow", "purple"),
    ("orange", "yellow", "purple"),
]


def spec_fields(row: str) -> list[int]:
    span, blank, _ = SPEC[row]
    return [c for c in span if c != blank]


def make(players: Sequence[int] = (1, 2, 3), seed: int = 1) -> QwintoGame:
    game = new_game("qwinto", players, seed)
    assert isinstance(game, QwintoGame)
    return game


def at_place(game: QwintoGame, **dice: int) -> QwintoGame:
    """``game`` in the place phase with exactly these dice; nobody pre-passed (a new
    game)."""
    built = reposition(game, phase="place", dice=dice, attempt=0, chosen={})
    assert isinstance(built, QwintoGame)
    assert built.rolled == tuple(c for c in COLOURS if c in dice)
    return built


def fill(
    game: QwintoGame, player: int, row: str, numbers: dict[int, int], **state: Any
) -> QwintoGame:
    """``game`` with ``player``'s ``row`` written exactly so, and ``state`` as
    :func:`~tests.positions.reposition` takes it (a new game)."""
    built = reposition(game, sheets={player: {row: dict(numbers)}}, **state)
    assert isinstance(built, QwintoGame)
    assert_valid(built.sheets[player])
    return built


def assert_valid(sheet: QwintoSheet) -> None:
    """Both writing rules, checked against SPEC, not against the module's tables."""
    for row in COLOURS:
        written = sheet.fields[row]
        assert set(written) <= set(spec_fields(row)), "only number fields, never the blank"
        values = [written[c] for c in sorted(written)]
        assert values == sorted(set(values)), f"{row} must strictly increase: {written}"
    for column in range(12):
        values = [sheet.fields[r][column] for r in COLOURS if column in sheet.fields[r]]
        assert len(values) == len(set(values)), f"column {column} repeats a number"


def play(game: QwintoGame, *steps: tuple[int, Move]) -> tuple[QwintoGame, list[Event]]:
    events: list[Event] = []
    for player, move in steps:
        game, new = game.apply(player, move)
        events += new
    return game, events


def place(row: str, column: int) -> Move:
    return Move("place", row, column)


def roll(*colours: str) -> Move:
    return Move("roll", dice=tuple(colours))


def expected(seed: int, turn: int, attempt: int, colours: Iterable[str]) -> dict[str, int]:
    """The throw the module is documented to make (a new game's): one die per colour,
    each with its own face of the three."""
    return derived(
        tuple(colours),
        6,
        seed,
        "turn",
        turn,
        attempt,
        version=4,
        among=("orange", "yellow", "purple"),
    )


def seed_where(turn: int, colours: tuple[str, ...], ok) -> int:
    for seed in range(20_000):
        if ok(expected(seed, turn, 0, colours), expected(seed, turn, 1, colours)):
            return seed
    raise AssertionError("no such seed")


def three_dice(total: int) -> dict[str, int]:
    """Three dice showing ``total`` (3-18)."""
    values = [1, 1, 1]
    extra = total - 3
    for index in range(3):
        values[index] += min(5, extra)
        extra -= min(5, extra)
    assert extra == 0
    return dict(zip(COLOURS, values, strict=True))


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def snapshot(game: QwintoGame) -> dict:
    return json.loads(json.dumps(game.to_json()))


# ---------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------


def test_geometry_reproduces_the_rules_table() -> None:
    for row in COLOURS:
        span, blank, pentagons = SPEC[row]
        assert ROW_SPAN[row] == span
        assert BLANK[row] == blank
        assert PENTAGONS[row] == pentagons
        assert ROW_COLUMNS[row] == spec_fields(row)
        assert len(ROW_COLUMNS[row]) == 9, "9 number fields"
        assert len(ROW_SPAN[row]) == 10, "plus one blank"
        assert GEOMETRY[row].first == span[0] and GEOMETRY[row].last == span[-1]
    assert ROWS == COLOURS
    assert list(COLUMNS) == list(range(12))


def test_triple_double_and_single_columns_are_as_the_rules_state() -> None:
    sizes = {c: len(column_fields(c)) for c in range(12)}
    assert [c for c, n in sizes.items() if n == 3] == [2, 3, 7, 8, 9]
    assert [c for c, n in sizes.items() if n == 2] == [1, 4, 5, 6, 10]
    assert [c for c, n in sizes.items() if n == 1] == [0, 11]
    assert TRIPLE_COLUMNS == (2, 3, 7, 8, 9)
    assert column_fields(4) == ["orange", "yellow"], "purple's blank is not a field"
    assert column_fields(5) == ["yellow", "purple"], "orange's blank is not a field"
    assert column_fields(6) == ["orange", "purple"], "yellow's blank is not a field"
    assert column_fields(0) == ["purple"] and column_fields(11) == ["orange"]


def test_each_triple_column_holds_exactly_one_pentagon() -> None:
    for column in TRIPLE_COLUMNS:
        holders = [r for r in COLOURS if column in PENTAGONS[r]]
        assert len(holders) == 1
        assert pentagon_row(column) == holders[0]
    all_pentagons = sorted(c for r in COLOURS for c in PENTAGONS[r])
    assert all_pentagons == [2, 3, 7, 8, 9], "no pentagon outside the triple columns"
    assert pentagon_row(1) is None and pentagon_row(10) is None


# ---------------------------------------------------------------------------
# the rulebook example
# ---------------------------------------------------------------------------

IGA = {
    "orange": {2: 6, 3: 10, 7: 12, 11: 17},
    "yellow": {1: 2, 2: 3, 3: 4, 4: 7, 5: 8, 7: 11, 8: 13, 9: 14, 10: 16},
    "purple": {0: 1, 1: 3, 2: 5, 3: 6, 7: 9, 8: 10},
}
# An order of writing that uses gaps: right ends first, then the middle, then the left.
IGA_ORDER = [
    ("yellow", 10),
    ("orange", 11),
    ("purple", 8),
    ("yellow", 5),
    ("orange", 7),
    ("purple", 2),
    ("yellow", 1),
    ("orange", 2),
    ("purple", 7),
    ("yellow", 8),
    ("orange", 3),
    ("purple", 0),
    ("yellow", 9),
    ("yellow", 3),
    ("purple", 3),
    ("yellow", 7),
    ("yellow", 2),
    ("purple", 1),
    ("yellow", 4),
]


def test_rulebook_example_iga_scores_43() -> None:
    assert sorted(IGA_ORDER) == sorted((r, c) for r, cols in IGA.items() for c in cols)
    written: dict[str, dict[int, int]] = {r: {} for r in COLOURS}
    for row, column in IGA_ORDER:  # the sheet at each step allows the next number
        number = IGA[row][column]
        sheet = QwintoSheet({r: dict(f) for r, f in written.items()})
        assert sheet.can_write(row, column, number), (row, column, number)
        written[row][column] = number
    game = reposition(make((1, 2)), sheets={1: {**written, "failed": 2}})
    sheet = game.sheets[1]
    assert sheet.fields == IGA
    assert_valid(sheet)
    score = game.scores()[1]
    assert score.rows == {"orange": 4, "yellow": 16, "purple": 6}
    assert sheet.complete_triples() == [2, 3, 7]
    assert score.bonus == 5 + 10 + 12
    assert score.penalties == 2
    assert score.penalty_points == -10
    assert score.total == 43
    assert game.scores()[2].total == 0


# ---------------------------------------------------------------------------
# writing rules
# ---------------------------------------------------------------------------


def fields_for(game: QwintoGame, player: int) -> list[tuple[str, int]]:
    return [(m.row or "", m.number or 0) for m in game.legal_moves(player) if m != PASS]


def test_empty_sheet_offers_every_field_of_the_rolled_rows_but_no_blank() -> None:
    game = at_place(make(), orange=3, yellow=4, purple=3)
    offered = fields_for(game, 1)
    assert offered == [(r, c) for r in COLOURS for c in spec_fields(r)]
    assert len(offered) == 27
    for row in COLOURS:
        assert (row, SPEC[row][1]) not in offered
        with pytest.raises(RuleError):
            game.apply(1, place(row, SPEC[row][1]))
    with pytest.raises(RuleError):
        game.apply(1, place("orange", 0))  # outside the row
    with pytest.raises(RuleError):
        game.apply(1, place("red", 3))


def test_only_the_rolled_colours_may_be_written() -> None:
    game = at_place(make(), yellow=4, purple=1)
    offered = fields_for(game, 2)
    assert {r for r, _ in offered} == {"yellow", "purple"}
    with pytest.raises(RuleError):
        game.apply(2, place("orange", 2))
    game = at_place(make(), orange=5)
    assert {r for r, _ in fields_for(game, 2)} == {"orange"}


def test_numbers_strictly_increase_left_to_right() -> None:
    game = fill(make(), 1, "yellow", {5: 7})
    game = at_place(game, yellow=3, purple=4)  # 7
    assert [c for r, c in fields_for(game, 1) if r == "yellow"] == [], "no repeat in a row"
    game = at_place(game, yellow=3, purple=3)  # 6: only left of column 5
    assert [c for r, c in fields_for(game, 1) if r == "yellow"] == [1, 2, 3, 4]
    game = at_place(game, yellow=4, purple=4)  # 8: only right of column 5
    assert [c for r, c in fields_for(game, 1) if r == "yellow"] == [7, 8, 9, 10]
    with pytest.raises(RuleError):
        game.apply(1, place("yellow", 4))


def test_gaps_may_be_filled_later_only_with_fitting_numbers() -> None:
    game = fill(make(), 1, "orange", {2: 3, 8: 9})
    game = at_place(game, orange=3, yellow=3)  # 6 fits between 3 and 9
    assert [c for r, c in fields_for(game, 1) if r == "orange"] == [3, 4, 6, 7]
    game = at_place(game, orange=1, yellow=1)  # 2 is below the leftmost 3: nowhere in orange
    assert [c for r, c in fields_for(game, 1) if r == "orange"] == []
    game = at_place(game, orange=6, yellow=5)  # 11 only right of 9
    assert [c for r, c in fields_for(game, 1) if r == "orange"] == [9, 10, 11]
    # The rulebook's Tomasz: 6 and 7 with one field between leaves that field empty for good.
    game = fill(game, 2, "purple", {5: 6, 7: 7})
    for total in range(3, 19):
        game = at_place(game, **three_dice(total))
        assert game.total == total
        assert ("purple", 6) not in fields_for(game, 2)


def test_yellow_far_left_only_takes_one_below_a_two() -> None:
    game = fill(make(), 1, "yellow", {2: 2})
    game = at_place(game, yellow=1)
    assert fields_for(game, 1) == [("yellow", 1)]
    game = at_place(game, yellow=2)
    assert fields_for(game, 1) == [], "2 is already in the row"
    game = at_place(game, yellow=3)
    assert fields_for(game, 1) == [("yellow", c) for c in (3, 4, 5, 7, 8, 9, 10)]


def test_no_number_twice_in_a_triple_column() -> None:
    game = fill(make(), 1, "orange", {3: 8})
    game = at_place(game, orange=1, yellow=4, purple=4)  # 9
    assert ("yellow", 3) in fields_for(game, 1) and ("purple", 3) in fields_for(game, 1)
    game = at_place(game, yellow=4, purple=4)  # 8
    offered = fields_for(game, 1)
    assert ("yellow", 3) not in offered and ("purple", 3) not in offered
    assert ("yellow", 2) in offered and ("purple", 2) in offered
    game = fill(game, 1, "purple", {3: 7})
    game = at_place(game, yellow=3, purple=4)  # 7: blocked in yellow col 3 by purple's 7
    assert ("yellow", 3) not in fields_for(game, 1)
    assert ("yellow", 2) in fields_for(game, 1)


def test_no_number_twice_in_a_double_column_but_staggered_neighbours_are_free() -> None:
    game = fill(make(), 1, "yellow", {5: 8})  # column 5: yellow and purple
    game = at_place(game, orange=4, purple=4)  # 8
    offered = fields_for(game, 1)
    assert ("purple", 5) not in offered
    assert ("purple", 6) in offered and ("purple", 3) in offered
    assert ("orange", 4) in offered and ("orange", 6) in offered, "other columns are free"
    game = fill(game, 1, "orange", {10: 12})  # column 10: orange and yellow
    game = at_place(game, yellow=6, purple=6)
    assert ("yellow", 10) not in fields_for(game, 1)
    assert ("yellow", 9) in fields_for(game, 1)
    game = fill(game, 1, "orange", {4: 5})  # column 4: orange and yellow (purple's blank)
    game = at_place(game, yellow=2, purple=3)  # 5
    assert ("yellow", 4) not in fields_for(game, 1)


def test_each_player_writes_exactly_one_field_per_throw() -> None:
    game = at_place(make((1, 2)), orange=2, yellow=3)
    game, events = play(game, (1, place("orange", 4)), (2, place("yellow", 9)))
    assert game.sheets[1].fields == {"orange": {4: 5}, "yellow": {}, "purple": {}}
    assert game.sheets[2].fields == {"orange": {}, "yellow": {9: 5}, "purple": {}}
    assert [e.data for e in events if e.kind == "placed"] == [
        {"row": "orange", "column": 4, "number": 5},
        {"row": "yellow", "column": 9, "number": 5},
    ]
    assert game.phase == "roll"
    with pytest.raises(RuleError):
        game.apply(1, place("orange", 6))


# ---------------------------------------------------------------------------
# the turn: roll, re-roll, place
# ---------------------------------------------------------------------------


def test_a_new_game_waits_for_the_first_player_to_choose_dice() -> None:
    game = make((5, 6, 7), seed=3)
    decision = game.decision()
    assert (decision.phase, decision.turn, decision.active) == ("roll", 1, 5)
    assert decision.waiting == {5}
    assert game.dice == {} and game.rolled == () and game.total == 0
    assert not game.can_reroll


def test_the_active_player_has_seven_dice_choices_in_canonical_order() -> None:
    game = make()
    assert roll_choices() == ALL_ROLLS
    assert game.legal_moves(1) == [roll(*c) for c in ALL_ROLLS]
    assert game.legal_moves(2) == [] and game.legal_moves(3) == []
    for bad in [
        roll(),
        roll("yellow", "orange"),
        roll("orange", "orange"),
        roll("red"),
        Move("keep"),
        Move("reroll"),
        PASS,
        place("orange", 2),
    ]:
        with pytest.raises(RuleError):
            game.apply(1, bad)
    with pytest.raises(RuleError):
        game.apply(2, roll("orange"))


@pytest.mark.parametrize("colours", ALL_ROLLS)
def test_a_roll_throws_exactly_the_chosen_dice(colours: tuple[str, ...]) -> None:
    game, events = play(make(seed=11), (1, roll(*colours)))
    assert game.rolled == colours
    assert game.dice == expected(11, 1, 0, colours)
    assert list(game.dice) == list(colours)
    assert game.total == sum(game.dice.values())
    assert events == [Event("rolled", 1, {"dice": game.dice, "total": game.total, "attempt": 0})]
    assert game.phase == "reroll" and game.can_reroll
    assert game.decision().waiting == {1}
    assert game.legal_moves(1) == [Move("keep"), Move("reroll")]
    assert game.legal_moves(2) == []


def test_reroll_throws_the_same_dice_once_and_goes_to_placing() -> None:
    colours = ("orange", "purple")
    seed = seed_where(1, colours, lambda a, b: a != b and sum(b.values()) != sum(a.values()))
    game, _ = play(make(seed=seed), (1, roll(*colours)))
    first = dict(game.dice)
    game, events = play(game, (1, Move("reroll")))
    second = expected(seed, 1, 1, colours)
    assert game.dice == second != first
    assert game.rolled == colours
    assert events[0] == Event(
        "rolled", 1, {"dice": second, "total": sum(second.values()), "attempt": 1}
    )
    assert game.phase == "place" and not game.can_reroll
    assert Move("reroll") not in game.legal_moves(1)
    with pytest.raises(RuleError):
        game.apply(1, Move("reroll"))
    with pytest.raises(RuleError):
        game.apply(1, Move("keep"))


def test_keep_leaves_the_throw_and_everyone_may_write_the_sum() -> None:
    game, _ = play(make(seed=4), (1, roll("yellow")))
    first = dict(game.dice)
    game, events = play(game, (1, Move("keep")))
    assert game.dice == first and game.attempt == 0
    assert game.phase == "place" and not game.can_reroll
    assert game.decision().waiting == {1, 2, 3}
    assert events == []
    for player in (1, 2, 3):
        assert game.legal_moves(player)[-1] == PASS
        assert all(m.row == "yellow" for m in game.legal_moves(player)[:-1])
        assert len(game.legal_moves(player)) == 10


def test_choices_are_applied_together_and_may_change_until_the_last_one() -> None:
    game = at_place(make(), orange=3, yellow=3)
    game, events = play(game, (2, place("orange", 2)), (1, place("yellow", 1)))
    assert events == []
    assert all(not any(s.fields.values()) for s in game.sheets.values()), "nothing yet"
    assert game.decision().waiting == {3}
    game, _ = play(game, (2, place("yellow", 10)))  # player 2 changes their mind
    assert game.decision().waiting == {3}
    game, events = play(game, (3, PASS))
    assert kinds(events) == ["placed", "placed", "passed", "turn"]
    assert game.sheets[1].fields["yellow"] == {1: 6}
    assert game.sheets[2].fields == {"orange": {}, "yellow": {10: 6}, "purple": {}}
    assert game.sheets[3].failed == 0 and game.sheets[1].failed == 0
    assert (game.turn, game.active, game.phase) == (2, 2, "roll")


def test_players_without_a_legal_field_are_passed_automatically() -> None:
    colours = ("purple",)
    seed = seed_where(1, colours, lambda a, b: a["purple"] == 6)
    game = make(seed=seed)
    game = fill(game, 2, "purple", {0: 1, 1: 3, 2: 5, 3: 7, 5: 9, 6: 11, 7: 13, 8: 15})
    # 6 fits nowhere in player 2's purple row (between 5 and 7 there is no field).
    game, _ = play(game, (1, roll(*colours)), (1, Move("keep")))
    assert game.total == 6
    assert game.chosen == {2: PASS}
    assert game.decision().waiting == {1, 3}
    assert game.legal_moves(2) == [PASS]
    game, events = play(game, (1, place("purple", 0)), (3, PASS))
    assert [(e.kind, e.player) for e in events][:3] == [("placed", 1), ("passed", 2), ("passed", 3)]


def test_when_nobody_can_write_the_throw_resolves_at_once() -> None:
    colours = ("yellow",)
    seed = seed_where(1, colours, lambda a, b: a["yellow"] == 1)
    game = make((1, 2), seed=seed)
    for player in (1, 2):
        game = fill(game, player, "yellow", {1: 4 + player})  # nothing left of column 1
    game, events = play(game, (1, roll(*colours)), (1, Move("keep")))
    assert kinds(events) == ["rolled", "passed", "passed", "failed_throw", "turn"]
    assert events[3] == Event("failed_throw", 1, {"count": 1, "limit": 4})
    assert (game.turn, game.active, game.phase) == (2, 2, "roll")


# ---------------------------------------------------------------------------
# failed throws
# ---------------------------------------------------------------------------


def test_active_player_passing_voluntarily_crosses_a_failed_throw() -> None:
    game = at_place(make(), orange=2)
    game, events = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert game.sheets[1].failed == 1
    assert game.sheets[2].failed == 0 and game.sheets[3].failed == 0
    assert [e for e in events if e.kind == "failed_throw"] == [
        Event("failed_throw", 1, {"count": 1, "limit": 4})
    ]
    assert game.scores()[1].total == -5


def test_active_player_who_writes_crosses_nothing_and_others_never_do() -> None:
    game = at_place(make(), orange=2)
    game, events = play(game, (1, place("orange", 2)), (2, PASS), (3, PASS))
    assert "failed_throw" not in kinds(events)
    assert all(s.failed == 0 for s in game.sheets.values())
    game = at_place(game, yellow=5)  # turn 2: player 2 active
    game, events = play(game, (1, PASS), (2, place("yellow", 4)), (3, PASS))
    assert "failed_throw" not in kinds(events)
    game = at_place(game, yellow=5)  # turn 3: player 3 active
    game, events = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert [(e.kind, e.player) for e in events if e.kind == "failed_throw"] == [("failed_throw", 3)]


def test_the_fourth_failed_throw_ends_the_game_after_the_throw() -> None:
    game = at_place(make(), orange=2)
    game = reposition(game, sheets={1: {"failed": 3}})
    game, events = play(game, (1, PASS), (2, place("orange", 2)), (3, place("orange", 6)))
    assert kinds(events) == ["passed", "placed", "placed", "failed_throw", "game_over"]
    assert events[3].data == {"count": 4, "limit": 4}
    assert events[-1] == Event("game_over", None, {"reason": "failed_throws"})
    assert game.finished and game.end_reason == "failed_throws"
    assert game.phase == "finished"
    assert game.sheets[2].fields["orange"] == {2: 2}, "others still wrote in that throw"
    assert game.decision().phase == "finished" and game.decision().waiting == frozenset()
    assert game.legal_moves(1) == [] and game.legal_moves(2) == []
    with pytest.raises(RuleError, match="over"):
        game.apply(2, PASS)


def test_three_failed_throws_do_not_end_the_game() -> None:
    game = at_place(make(), orange=2)
    game = reposition(game, sheets={1: {"failed": 2}})
    game, _ = play(game, (1, PASS), (2, PASS), (3, PASS))
    assert game.sheets[1].failed == 3 and not game.finished


# ---------------------------------------------------------------------------
# the end by two complete rows
# ---------------------------------------------------------------------------

ORANGE_FULL = dict(zip(spec_fields("orange"), range(10, 19), strict=True))
YELLOW_BUT_LAST = dict(zip(spec_fields("yellow")[:-1], [1, 2, 3, 4, 5, 7, 8, 9], strict=True))


def test_a_second_complete_row_ends_the_game_after_the_whole_throw() -> None:
    game = make()
    game = fill(game, 2, "orange", ORANGE_FULL)
    game = fill(game, 2, "yellow", YELLOW_BUT_LAST)
    game = at_place(game, orange=6, yellow=6)  # 12 completes player 2's yellow at column 10
    assert fields_for(game, 2) == [("yellow", 10)]
    game, events = play(game, (2, place("yellow", 10)), (3, place("yellow", 5)))
    assert not game.finished, "the end waits for the whole throw"
    game, events = play(game, (1, place("orange", 6)))
    assert kinds(events) == ["placed", "placed", "placed", "game_over"]
    assert game.end_reason == "two_rows" and game.finished
    assert game.sheets[1].fields["orange"] == {6: 12}, "the active player still wrote"
    assert game.sheets[3].fields["yellow"] == {5: 12}
    assert game.sheets[2].complete_rows() == ["orange", "yellow"]
    score = game.scores()[2]
    assert score.rows == {"orange": 18, "yellow": 12, "purple": 0}
    assert "turn" not in kinds(events)


def test_one_complete_row_each_does_not_end_the_game() -> None:
    game = make()
    game = fill(game, 2, "orange", ORANGE_FULL)
    game = fill(game, 3, "yellow", YELLOW_BUT_LAST)
    game = at_place(game, orange=6, yellow=6)
    game, _ = play(game, (1, PASS), (2, PASS), (3, place("yellow", 10)))
    assert game.sheets[3].complete_rows() == ["yellow"]
    assert not game.finished and game.phase == "roll" and game.turn == 2


def test_two_rows_wins_over_failed_throws_when_both_happen() -> None:
    game = make()
    game = fill(game, 2, "orange", ORANGE_FULL)
    game = fill(game, 2, "yellow", YELLOW_BUT_LAST)
    game = reposition(game, sheets={1: {"failed": 3}})
    game = at_place(game, orange=6, yellow=6)
    game, events = play(game, (1, PASS), (2, place("yellow", 10)), (3, PASS))
    assert game.end_reason == "two_rows"
    assert game.sheets[1].failed == 4
    assert kinds(events).count("game_over") == 1


# ---------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------


def test_incomplete_rows_score_one_point_per_number() -> None:
    game = make((1, 2))
    game = fill(game, 1, "orange", {2: 1, 4: 5, 11: 18})
    game = fill(game, 1, "purple", dict(zip(spec_fields("purple")[:8], range(2, 10), strict=True)))
    score = game.scores()[1]
    assert score.rows == {"orange": 3, "yellow": 0, "purple": 8}
    assert score.bonus == 0 and score.total == 11


def test_a_complete_row_scores_its_rightmost_number() -> None:
    game = make((1, 2))
    game = fill(game, 1, "purple", dict(zip(spec_fields("purple"), range(3, 12), strict=True)))
    assert game.scores()[1].rows["purple"] == 11
    game = fill(game, 1, "orange", ORANGE_FULL, end_reason="two_rows")  # the second
    assert game.scores()[1].rows["orange"] == 18


def test_pentagon_bonus_only_for_completely_filled_triple_columns() -> None:
    game = make((1, 2))
    game = fill(game, 1, "orange", {8: 9})
    game = fill(game, 1, "yellow", {8: 10})  # pentagon of column 8
    assert game.scores()[1].bonus == 0, "two of three fields are not enough"
    game = fill(game, 1, "purple", {8: 11})
    assert game.scores()[1].bonus == 10
    game = fill(game, 1, "yellow", {5: 4, 8: 10, 10: 17})  # complete double columns give nothing
    game = fill(game, 1, "purple", {5: 3, 8: 11})
    game = fill(game, 1, "orange", {8: 9, 10: 12})
    assert game.sheets[1].complete_triples() == [8]
    assert game.scores()[1].bonus == 10
    game = fill(game, 1, "orange", {8: 9, 9: 11, 10: 12})
    game = fill(game, 1, "yellow", {5: 4, 8: 10, 9: 12, 10: 17})
    game = fill(game, 1, "purple", {5: 3, 8: 11, 9: 13})  # pentagon of column 9 is purple: 13
    score = game.scores()[1]
    assert score.bonus == 10 + 13
    assert score.total == 3 + 4 + 3 + 23


def test_ranking_orders_by_total() -> None:
    game = make((1, 2, 3))
    game = fill(game, 2, "orange", {2: 1, 3: 2})
    game = reposition(game, sheets={3: {"failed": 1}})
    assert [(s.rank, s.player, s.total) for s in game.ranking()] == [
        (1, 2, 2),
        (2, 1, 0),
        (3, 3, -5),
    ]


# ---------------------------------------------------------------------------
# errors, players, registration, JSON
# ---------------------------------------------------------------------------


def test_moves_out_of_turn_or_phase_raise() -> None:
    game = make()
    with pytest.raises(RuleError):
        game.apply(1, PASS)
    with pytest.raises(RuleError):
        game.apply(9, roll("orange"))
    game, _ = play(game, (1, roll("orange")))
    for player, move in [
        (2, Move("keep")),
        (1, roll("orange")),
        (1, place("orange", 2)),
        (2, place("orange", 2)),
        (1, PASS),
    ]:
        with pytest.raises(RuleError):
            game.apply(player, move)
    game, _ = play(game, (1, Move("keep")))
    for player, move in [
        (1, Move("keep")),
        (1, roll("orange")),
        (2, place("yellow", 1)),
        (2, Move("place", "orange")),
        (2, Move("place", None, 2)),
    ]:
        with pytest.raises(RuleError):
            game.apply(player, move)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_new_game_accepts_two_to_six_players(count: int) -> None:
    players = tuple(range(10, 10 + count))
    game = new_game("qwinto", players, seed=2)
    assert isinstance(game, QwintoGame)
    assert game.players == players and set(game.sheets) == set(players)
    assert game.active == 10 and not game.finished


@pytest.mark.parametrize("count", [0, 1, 7])
def test_new_game_rejects_other_player_counts(count: int) -> None:
    with pytest.raises(RuleError, match="2-6 players"):
        new_game("qwinto", list(range(1, count + 1)), seed=2)


def test_registered_as_qwinto() -> None:
    assert VARIANTS["qwinto"] is QwintoGame
    assert (QwintoGame.title, QwintoGame.min_players, QwintoGame.max_players) == ("Qwinto", 2, 6)


def test_the_turn_rotates_and_announces_the_next_player() -> None:
    game = at_place(make((4, 5)), purple=1)
    game, events = play(game, (4, place("purple", 0)), (5, PASS))
    assert events[-1] == Event("turn", 5, {"turn": 2})
    assert (game.turn, game.active, game.phase, game.dice, game.rolled) == (2, 5, "roll", {}, ())
    game = at_place(game, purple=1)
    game, events = play(game, (4, PASS), (5, PASS))
    assert events[-1] == Event("turn", 4, {"turn": 3})
    assert game.sheets[5].failed == 1 and game.sheets[4].failed == 0


@pytest.mark.parametrize("steps", [0, 1, 2, 3])
def test_json_round_trip_in_every_phase(steps: int) -> None:
    game = make(seed=21)
    game = fill(game, 2, "orange", {2: 1, 11: 18})
    game = reposition(game, sheets={3: {"failed": 2}})
    moves = [(1, roll("orange", "yellow")), (1, Move("reroll")), (2, PASS)][:steps]
    game, _ = play(game, *moves)
    data = snapshot(game)
    assert data["sheets"]["2"]["fields"]["orange"] == {"2": 1, "11": 18}
    restored = game_from_json(data)
    assert isinstance(restored, QwintoGame)
    assert restored.to_json() == game.to_json()
    assert restored.sheets == game.sheets
    assert (restored.phase, restored.rolled, restored.dice, restored.chosen) == (
        game.phase,
        game.rolled,
        game.dice,
        game.chosen,
    )
    for player in game.players:
        assert restored.legal_moves(player) == game.legal_moves(player)


def test_replay_of_the_move_log_gives_the_same_game() -> None:
    log = [(1, roll("orange", "purple")), (1, Move("keep"))]
    game, _ = play(make(seed=8), *log)
    more = [(p, game.legal_moves(p)[0]) for p in sorted(game.decision().waiting)]
    game, _ = play(game, *more)
    again = replay("qwinto", (1, 2, 3), 8, None, [*log, *more])
    assert again.to_json() == game.to_json()
    assert game.turn == 2


def test_apply_never_mutates_the_original() -> None:
    game = at_place(make(), orange=2, yellow=2)
    before = snapshot(game)
    after, _ = play(game, (1, place("orange", 2)), (2, PASS), (3, place("yellow", 1)))
    assert snapshot(game) == before
    assert after.sheets[1].fields["orange"] == {2: 4}
    assert game.sheets[1].fields["orange"] == {}
