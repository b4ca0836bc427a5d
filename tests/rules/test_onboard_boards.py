"""Qwixx On Board tracks as data files: the shipped boards and the checks on board files."""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.rules import game_from_json, new_game
from bot.rules.boards import (
    BOARD_DIR,
    BOARDS,
    Board,
    BoardError,
    Field,
    board_names,
    load_board,
    load_board_file,
)
from bot.rules.onboard import OnBoardGame

ROWS = ("red", "yellow", "green", "blue")


def good_data(name: str = "X") -> dict[str, Any]:
    fields = [
        {"colour": ROWS[k % 4], "number": 2 + k % 11, "bonus": math.ceil(k / 2)}
        for k in range(1, 41)
    ]
    return {"name": name, "description": "a test track", "start": {"bonus": 0}, "fields": fields}


def write(tmp_path: Path, data: Any, name: str = "X") -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


# --- the shipped boards ----------------------------------------------------


def test_two_board_sides_are_shipped() -> None:
    assert {"A", "B"} <= set(BOARDS)
    assert board_names(BOARD_DIR) == BOARDS


@pytest.mark.parametrize("name", BOARDS)
def test_each_shipped_board_follows_the_rules(name: str) -> None:
    board = load_board(name)
    assert isinstance(board, Board) and board.name == name
    assert len(board.fields) == 40 and board.last == 40
    assert board.finish_from == 36  # the last five fields
    assert [board.in_finish(p) for p in (35, 36, 40)] == [False, True, True]
    bonuses = [f.bonus for f in board.fields]
    assert bonuses[0] == 1 and bonuses[-1] == 20 and bonuses == sorted(bonuses)
    assert {f.colour for f in board.fields} == set(ROWS)
    assert {f.number for f in board.fields} == set(range(2, 13))
    assert board.bonus(0) == 0 and board.field(0) is None
    assert "own design" in board.description


@pytest.mark.parametrize("name", BOARDS)
def test_shipped_boards_are_designed_to_play_well(name: str) -> None:
    fields = load_board(name).fields
    counts = Counter(f.number for f in fields)
    assert min(counts[n] for n in (6, 7, 8)) > max(counts[n] for n in (2, 3, 12))
    assert all(8 <= c <= 12 for c in Counter(f.colour for f in fields).values())
    colours = [f.colour for f in fields]
    assert all(len({*colours[k : k + 3]}) > 1 for k in range(38)), "no colour thrice in a row"


def test_the_sides_differ_and_loading_is_cached() -> None:
    assert load_board("A").fields != load_board("B").fields
    assert load_board("A") is load_board("A")


def test_an_unknown_board_names_the_known_ones() -> None:
    with pytest.raises(BoardError, match=r"unknown board 'C'; boards: A, B"):
        load_board("C")


def test_a_board_round_trips_through_json() -> None:
    board = load_board("B")
    assert Board.from_json(json.loads(json.dumps(board.to_json()))) == board


def test_games_saved_on_a_shipped_board_share_it_and_others_keep_their_own() -> None:
    shipped = load_board("A")
    games = [
        game_from_json(
            json.loads(json.dumps(new_game("onboard", [1, 2], seed, {"board": "A"}).to_json()))
        )
        for seed in (1, 2)
    ]
    assert all(isinstance(g, OnBoardGame) and g.board is shipped for g in games)
    # A board named like a shipped one but not the same (an older edition, say) is its own.
    edited = {**shipped.to_json(), "description": "an older edition"}
    own = Board.from_json(json.loads(json.dumps(edited)))
    assert own is not shipped and own.description == "an older edition"
    assert own.fields == shipped.fields and load_board("A").description != own.description
    assert Board.from_json(good_data("X")) is not Board.from_json(good_data("X"))


# --- malformed files -------------------------------------------------------


def test_a_good_file_loads(tmp_path: Path) -> None:
    board = load_board_file(write(tmp_path, good_data()))
    assert board.name == "X" and board.fields[3] == Field("red", 6, 2)


def test_a_file_that_is_not_json_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match=r"^X\.json: not JSON"):
        load_board_file(write(tmp_path, "{'fields': [}"))


def test_a_missing_file_is_rejected_by_name(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match=r"^Nope\.json: cannot be read"):
        load_board_file(tmp_path / "Nope.json")


def broken(change: str) -> dict[str, Any]:
    data = good_data()
    fields = data["fields"]
    if change == "not an object":
        return [1, 2]  # type: ignore[return-value]
    if change == "39 fields":
        del fields[-1]
        fields[-1]["bonus"] = 20
    elif change == "41 fields":
        fields.append(dict(fields[-1]))
    elif change == "no fields":
        del data["fields"]
    elif change == "bad colour":
        fields[6]["colour"] = "purple"
    elif change == "number 13":
        fields[9]["number"] = 13
    elif change == "number 1":
        fields[9]["number"] = 1
    elif change == "number as text":
        fields[9]["number"] = "7"
    elif change == "extra key":
        fields[2]["shape"] = "star"
    elif change == "bonus falls":
        fields[20]["bonus"] = 3
    elif change == "bonus not whole":
        fields[20]["bonus"] = 10.5
    elif change == "last bonus 19":
        for f in fields[-2:]:
            f["bonus"] = 19
    elif change == "first bonus 2":
        for f in fields[:2]:
            f["bonus"] = 2
    elif change == "colour missing":
        for f in fields:
            f["colour"] = "red" if f["colour"] == "blue" else f["colour"]
    elif change == "number missing":
        for f in fields:
            f["number"] = 8 if f["number"] == 7 else f["number"]
    elif change == "start bonus":
        data["start"] = {"bonus": 3}
    elif change == "wrong name":
        data["name"] = "Y"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("not an object", r"must be a JSON object"),
        ("39 fields", r"40 fields after the start field, this one has 39"),
        ("41 fields", r"this one has 41"),
        ("no fields", r"'fields' must be a list"),
        ("bad colour", r"field 7 has colour 'purple'"),
        ("number 13", r"field 10 has number 13; numbers run 2-12"),
        ("number 1", r"field 10 has number 1;"),
        ("number as text", r"field 10 has number '7'"),
        ("extra key", r"field 3 must be an object with exactly colour, number and bonus"),
        ("bonus falls", r"bonus must not fall.*field 21 has 3 after 10"),
        ("bonus not whole", r"field 21 has bonus 10\.5"),
        ("last bonus 19", r"last field's bonus must be 20, not 19"),
        ("first bonus 2", r"first field's bonus must be 1, not 2"),
        ("colour missing", r"colour missing from the track: blue"),
        ("number missing", r"number missing from the track: 7"),
        ("start bonus", r"start field's bonus must be 0"),
        ("wrong name", r"named 'Y' but its file says 'X'"),
    ],
)
def test_each_malformed_file_names_the_file_and_the_problem(
    tmp_path: Path, change: str, message: str
) -> None:
    data = broken(change)
    assert data != good_data() or change == "not an object"
    with pytest.raises(BoardError, match=r"^X\.json: .*" + message):
        load_board_file(write(tmp_path, copy.deepcopy(data)))
