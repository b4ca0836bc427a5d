"""Qwixx On Board tracks, as data files in ``assets/boards/`` (RULES.md §3).

The printed tracks are not published, so the project ships boards of its own design.
A board file is JSON::

    {"name": "A", "description": "...", "start": {"bonus": 0},
     "fields": [{"colour": "blue", "number": 12, "bonus": 1}, ... 40 fields ...]}

Positions on the track: 0 is the start field (any number of pawns, bonus 0), 1-40 the
fields in order (``fields[position - 1]``). The last :data:`FINISH_FIELDS` fields are
the finish area. Every board must show each colour and each number 2-12, and its
bonus values rise (never fall) from 1 to 20 on the last field.

This is the only module of :mod:`bot.rules` that reads files. The rules themselves stay
pure: a game gets its :class:`Board` as data. Board files are static data shipped with
the code, so reading one (once, cached) is no more I/O than importing a module.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Self

from bot import ASSETS

BOARD_DIR = ASSETS / "boards"
COLOURS = ("red", "yellow", "green", "blue")
NUMBERS = range(2, 13)
TRACK_LENGTH = 40
FINISH_FIELDS = 5
FIRST_BONUS = 1
LAST_BONUS = 20
DEFAULT_BOARD = "A"


class BoardError(ValueError):
    """A board file or board data that breaks the rules of a board."""


@dataclass(frozen=True)
class Field:
    """One field of the track: a number in a colour, and the bonus printed under it."""

    colour: str
    number: int
    bonus: int

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "number": self.number, "bonus": self.bonus}


@dataclass(frozen=True)
class Board:
    """A track: ``fields[position - 1]`` for positions 1..len(fields); 0 is the start."""

    name: str
    fields: tuple[Field, ...]
    finish_from: int  # the first position of the finish area
    description: str = ""
    # Per field in order: its colour, its number, and the bit of a Qwixx sheet's compact
    # state (:attr:`bot.rules.qwixx.Sheet.allow`) that says it may be crossed. A plain
    # attribute, as the rules read it on every pawn move.
    track: tuple[tuple[str, int, int], ...] = dataclasses.field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "track",
            tuple(
                (f.colour, f.number, 4 * f.number + COLOURS.index(f.colour)) for f in self.fields
            ),
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self  # immutable: games share it

    @property
    def last(self) -> int:
        """The last position of the track."""
        return len(self.fields)

    def field(self, position: int) -> Field | None:
        """The field at ``position`` (None for the start field)."""
        return self.fields[position - 1] if position > 0 else None

    def bonus(self, position: int) -> int:
        """The bonus printed under ``position`` (the start field scores 0)."""
        found = self.field(position)
        return found.bonus if found else 0

    def in_finish(self, position: int) -> bool:
        return position >= self.finish_from

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "start": {"bonus": 0},
            "fields": [f.to_json() for f in self.fields],
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "board data") -> Board:
        """A board from its JSON form; ``BoardError`` names ``source`` and the problem.
        The JSON of a shipped board gives that board itself: the games saved on it share
        one (boards are immutable) rather than each holding forty fields of its own."""
        if isinstance(data, dict) and data.get("name") in BOARDS:
            shipped = load_board(data["name"])
            if shipped_json(shipped) == data:
                return shipped
        return parse_board(data, source)


def parse_board(data: Any, source: str, name: str | None = None) -> Board:
    """Check ``data`` (a board file's JSON) and build its :class:`Board`.

    Every problem raises :class:`BoardError` with a message naming ``source`` first.
    """

    def fail(problem: str) -> BoardError:
        return BoardError(f"{source}: {problem}")

    if not isinstance(data, dict):
        raise fail("a board must be a JSON object with a list of fields")
    board_name = data.get("name", name)
    if not isinstance(board_name, str) or not board_name:
        raise fail("the board needs a name")
    if name is not None and board_name != name:
        raise fail(f"the board is named {board_name!r} but its file says {name!r}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise fail("the description must be text")
    start = data.get("start", {"bonus": 0})
    if not isinstance(start, dict) or start.get("bonus", 0) != 0:
        raise fail("the start field's bonus must be 0")
    raw = data.get("fields")
    if not isinstance(raw, list):
        raise fail("'fields' must be a list of fields")
    if len(raw) != TRACK_LENGTH:
        raise fail(
            f"a track has {TRACK_LENGTH} fields after the start field, this one has {len(raw)}"
        )
    fields = tuple(parse_field(item, k, fail) for k, item in enumerate(raw, start=1))
    check_track(fields, fail)
    return Board(board_name, fields, TRACK_LENGTH - FINISH_FIELDS + 1, description)


def parse_field(item: Any, position: int, fail: Callable[[str], BoardError]) -> Field:
    where = f"field {position}"
    if not isinstance(item, dict) or set(item) != {"colour", "number", "bonus"}:
        raise fail(f"{where} must be an object with exactly colour, number and bonus")
    colour, number, bonus = item["colour"], item["number"], item["bonus"]
    if colour not in COLOURS:
        raise fail(f"{where} has colour {colour!r}; colours are {', '.join(COLOURS)}")
    if not is_int(number) or number not in NUMBERS:
        raise fail(f"{where} has number {number!r}; numbers run 2-12")
    if not is_int(bonus):
        raise fail(f"{where} has bonus {bonus!r}; a bonus is a whole number")
    return Field(colour, number, bonus)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_track(fields: tuple[Field, ...], fail: Callable[[str], BoardError]) -> None:
    """The rules for a whole track: bonus 1 rising to 20, every colour and number shown."""
    if fields[0].bonus != FIRST_BONUS:
        raise fail(f"the first field's bonus must be {FIRST_BONUS}, not {fields[0].bonus}")
    for position, (a, b) in enumerate(itertools.pairwise(fields), start=2):
        if b.bonus < a.bonus:
            raise fail(
                f"the bonus must not fall along the track: field {position} has "
                f"{b.bonus} after {a.bonus}"
            )
    if fields[-1].bonus != LAST_BONUS:
        raise fail(f"the last field's bonus must be {LAST_BONUS}, not {fields[-1].bonus}")
    missing_colours = [c for c in COLOURS if c not in {f.colour for f in fields}]
    if missing_colours:
        raise fail(f"colour missing from the track: {', '.join(missing_colours)}")
    missing_numbers = [str(n) for n in NUMBERS if n not in {f.number for f in fields}]
    if missing_numbers:
        raise fail(f"number missing from the track: {', '.join(missing_numbers)}")


def load_board_file(path: Path) -> Board:
    """Read and check one board file (not cached); its name is the file's stem."""
    source = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BoardError(f"{source}: cannot be read ({error.strerror or error})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BoardError(f"{source}: not JSON ({error.msg}, line {error.lineno})") from None
    return parse_board(data, source, path.stem)


def board_names(folder: Path = BOARD_DIR) -> tuple[str, ...]:
    """The boards in ``folder``: one per ``*.json`` file, by file stem, sorted."""
    return tuple(sorted(p.stem for p in folder.glob("*.json")))


BOARDS: tuple[str, ...] = board_names()


@lru_cache(maxsize=16)
def shipped_json(board: Board) -> dict[str, Any]:
    """A shipped board's JSON, made once (compared with each saved game's board)."""
    return board.to_json()


@lru_cache(maxsize=16)
def load_board(name: str) -> Board:
    """The shipped board ``name`` (e.g. "A"), read once and cached."""
    if name not in board_names():
        known = ", ".join(board_names())
        raise BoardError(f"unknown board {name!r}; boards: {known}")
    return load_board_file(BOARD_DIR / f"{name}.json")
