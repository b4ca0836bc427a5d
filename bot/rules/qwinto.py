"""Qwinto: three coloured dice, three staggered rows, free order of filling (RULES.md §4).

A turn runs through phases. ``roll``: the active player picks which dice to roll (any
non-empty subset of the three colours). ``reroll``: they keep that throw or roll the
very same dice once more. ``place``: every player may write the sum into exactly one
legal field of a rolled colour's row, chosen simultaneously and applied together. If
the active player wrote nothing they cross a failed-throw box. The end is checked
after the whole throw.

The sheet geometry is data (``GEOMETRY`` and the tables derived from it), shared by the
rules and the renderer.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .base import (
    DICE_VERSION,
    PASS,
    Event,
    Game,
    Move,
    RuleError,
    Score,
    make_event,
    offered,
    score_of,
)

ROWS = ("orange", "yellow", "purple")  # top to bottom; also the canonical dice order
COLUMNS = tuple(range(12))  # the grid's columns, left to right
FACES = 6
FAILED_LIMIT = 4  # the failed throw that ends the game
ROWS_TO_END = 2  # complete rows of one player that end the game

ROLL = "roll"
KEEP = "keep"
REROLL = "reroll"
PLACE = "place"


@dataclass(frozen=True)
class RowGeometry:
    """Where a row sits in the 12-column grid: ``first``-``last`` inclusive (10 fields)."""

    first: int
    last: int
    blank: int  # the field that never holds a number
    pentagons: tuple[int, ...]  # bonus fields (columns)

    @property
    def span(self) -> list[int]:
        """Every column the row occupies, the blank one included."""
        return list(range(self.first, self.last + 1))

    @property
    def columns(self) -> list[int]:
        """The columns of the row's 9 number fields."""
        return [c for c in self.span if c != self.blank]


GEOMETRY: dict[str, RowGeometry] = {
    "orange": RowGeometry(first=2, last=11, blank=5, pentagons=(3, 7)),
    "yellow": RowGeometry(first=1, last=10, blank=6, pentagons=(8,)),
    "purple": RowGeometry(first=0, last=9, blank=4, pentagons=(2, 9)),
}
ROW_SPAN: dict[str, list[int]] = {r: g.span for r, g in GEOMETRY.items()}
ROW_COLUMNS: dict[str, list[int]] = {r: g.columns for r, g in GEOMETRY.items()}
BLANK: dict[str, int] = {r: g.blank for r, g in GEOMETRY.items()}
PENTAGONS: dict[str, tuple[int, ...]] = {r: g.pentagons for r, g in GEOMETRY.items()}
OTHER_ROWS: dict[str, tuple[str, ...]] = {r: tuple(o for o in GEOMETRY if o != r) for r in GEOMETRY}


def column_fields(column: int) -> list[str]:
    """The rows with a number field (not the blank) in ``column``, top to bottom."""
    return [r for r in ROWS if column in ROW_COLUMNS[r]]


ROW_LENGTH = 9  # number fields in every row
assert all(len(c) == ROW_LENGTH for c in ROW_COLUMNS.values())
COLUMN_FIELDS: dict[int, tuple[str, ...]] = {c: tuple(column_fields(c)) for c in COLUMNS}
TRIPLE_COLUMNS: tuple[int, ...] = tuple(c for c in COLUMNS if len(column_fields(c)) == 3)


def pentagon_row(column: int) -> str | None:
    """The row whose pentagon (bonus) field lies in ``column``, if any."""
    return next((r for r in ROWS if column in PENTAGONS[r]), None)


def roll_choices() -> list[tuple[str, ...]]:
    """The 7 dice choices: every non-empty subset of the colours, in canonical order."""
    return [combo for size in (1, 2, 3) for combo in itertools.combinations(ROWS, size)]


ROLL_MOVES: tuple[Move, ...] = tuple(Move(ROLL, dice=combo) for combo in roll_choices())
ROLL_MOVE_SET = frozenset(ROLL_MOVES)
KEEP_MOVE, REROLL_MOVE = Move(KEEP), Move(REROLL)
PLACE_MOVES: dict[str, dict[int, Move]] = {
    r: {c: Move(PLACE, r, c) for c in ROW_COLUMNS[r]} for r in ROWS
}  # shared: immutable


@dataclass
class QwintoSheet:
    """One player's sheet: per row, column -> number written; and failed throws."""

    fields: dict[str, dict[int, int]] = field(default_factory=lambda: {r: {} for r in ROWS})
    failed: int = 0
    # The sheet's place moves by the colours thrown and their sum, worked out the first
    # time they are asked for (a copy, which the rules make before writing, starts empty).
    options: dict[tuple[tuple[str, ...], int], tuple[Move, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def place_options(self, rolled: tuple[str, ...], total: int) -> tuple[Move, ...]:
        """The moves writing ``total`` in a free field of a ``rolled`` colour's row, row by
        row (:meth:`free_fields`)."""
        found = self.options.get((rolled, total))
        if found is None:
            found = self.options[rolled, total] = tuple(
                PLACE_MOVES[row][column]
                for row in rolled
                for column in self.free_fields(row, total)
            )
        return found

    def can_write(self, row: str, column: int, number: int) -> bool:
        """Whether ``number`` may go into ``row`` at ``column`` under both writing rules."""
        if row not in GEOMETRY or column not in ROW_COLUMNS[row]:
            return False
        written = self.fields[row]
        if column in written:
            return False
        for other, value in written.items():
            if (other < column and value >= number) or (other > column and value <= number):
                return False
        return all(self.fields[r].get(column) != number for r in COLUMN_FIELDS[column])

    def free_fields(self, row: str, number: int) -> list[int]:
        """The columns of ``row`` where ``number`` may be written (as :meth:`can_write`
        says, worked out for the whole row at once: strictly right of every smaller or
        equal number, strictly left of every greater or equal one, and where neither other
        row holds ``number`` in the same column)."""
        after, before = -1, len(COLUMNS)
        for column, value in self.fields[row].items():  # every written column is outside
            if value <= number and column > after:
                after = column
            if value >= number and column < before:
                before = column
        columns = ROW_COLUMNS[row]
        candidates = columns[bisect_right(columns, after) : bisect_left(columns, before)]
        one, two = OTHER_ROWS[row]
        first, second = self.fields[one], self.fields[two]
        return [c for c in candidates if first.get(c) != number and second.get(c) != number]

    def copy(self) -> QwintoSheet:
        return QwintoSheet({r: dict(f) for r, f in self.fields.items()}, self.failed)

    def complete(self, row: str) -> bool:
        return len(self.fields[row]) == len(ROW_COLUMNS[row])

    def complete_rows(self) -> list[str]:
        return [r for r in ROWS if self.complete(r)]

    def row_points(self, row: str) -> int:
        """Numbers written if the row is incomplete; its rightmost number if complete."""
        if self.complete(row):
            return self.fields[row][ROW_COLUMNS[row][-1]]
        return len(self.fields[row])

    def complete_triples(self) -> list[int]:
        """The triple columns with all three fields filled."""
        return [c for c in TRIPLE_COLUMNS if all(c in self.fields[r] for r in column_fields(c))]

    def bonus(self) -> int:
        """The pentagon numbers of every completely filled triple column."""
        total = 0
        for column in self.complete_triples():
            row = pentagon_row(column)
            assert row is not None, "every triple column holds a pentagon"
            total += self.fields[row][column]
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "fields": {r: {str(c): n for c, n in sorted(self.fields[r].items())} for r in ROWS},
            "failed": self.failed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QwintoSheet:
        fields = {r: {int(c): n for c, n in data["fields"][r].items()} for r in ROWS}
        return cls(fields, data["failed"])


class QwintoGame(Game):
    __slots__ = ("attempt", "chosen", "dice", "phase", "rolled", "sheets")
    variant = "qwinto"
    title = "Qwinto"
    min_players = 2
    max_players = 6
    simultaneous_phases: ClassVar[tuple[str, ...]] = (PLACE,)

    def __init__(
        self,
        players: list[int],
        seed: int,
        options: dict[str, Any],
        dice_version: int = DICE_VERSION,
    ) -> None:
        super().__init__(players, seed, options, dice_version)
        self.sheets: dict[int, QwintoSheet] = {p: QwintoSheet() for p in self.players}
        self.phase = ROLL
        self.rolled: tuple[str, ...] = ()  # colours of the current throw, canonical order
        self.dice: dict[str, int] = {}  # colour -> value of the current throw
        self.attempt = 0  # 0 for the first roll of the turn, 1 after the re-roll
        self.chosen: dict[int, Move] = {}  # place choices not yet applied
        self._start_turn([])

    # --- the public API --------------------------------------------------
    def legal_moves(self, player: int) -> list[Move]:
        if self.end_reason is not None or player not in self.players:
            return []
        if self.phase == PLACE:
            return [*self.sheets[player].place_options(self.rolled, sum(self.dice.values())), PASS]
        if player != self.active:
            return []
        if self.phase == ROLL:
            return list(ROLL_MOVES)
        if self.phase == REROLL:
            return [KEEP_MOVE, REROLL_MOVE]
        return []

    def scores(self) -> dict[int, Score]:
        return {p: self._score(p, sheet) for p, sheet in self.sheets.items()}

    def _allows(self, player: int, move: Move) -> bool:
        """``move in self.legal_moves(player)``, without listing every move."""
        if self.phase == PLACE:
            if move.kind == PLACE:
                return offered(
                    move, self.sheets[player].place_options(self.rolled, sum(self.dice.values()))
                )
            return move == PASS
        if player != self._active():
            return False
        if self.phase == ROLL:
            return move in ROLL_MOVE_SET
        return self.phase == REROLL and move in (KEEP_MOVE, REROLL_MOVE)

    # --- questions the interface asks ------------------------------------
    @property
    def total(self) -> int:
        """The sum of the current throw (0 before the active player rolled)."""
        return sum(self.dice.values())

    def dice_on_table(self) -> dict[str, int]:
        return dict(self.dice)

    def dice_total(self) -> int | None:
        return self.total if self.dice else None

    def passing_costs_penalty(self, player: int) -> bool:
        return self.end_reason is None and self.phase == PLACE and player == self.active

    @property
    def can_reroll(self) -> bool:
        """Whether the active player may still roll the same dice again this turn."""
        return not self.finished and self.phase == REROLL and self.attempt == 0

    def could_write(self, player: int) -> bool:
        """Whether ``player`` could write the sum on the table, should the active player
        keep this throw (the question behind "throw again if I cannot write it")."""
        return self.phase == REROLL and bool(
            self.sheets[player].place_options(self.rolled, sum(self.dice.values()))
        )

    def fallback_move(self, player: int) -> Move:
        """Not deciding: the active player throws all dice and keeps them, then (like
        everyone) writes nothing — a failed throw for the active player."""
        if self.phase == ROLL and player == self.active:
            return Move(ROLL, dice=ROWS)
        if self.phase == REROLL and player == self.active:
            return Move(KEEP)
        return super().fallback_move(player)

    def place_moves(self, player: int) -> list[Move]:
        """Every field where ``player`` may write the current sum, row by row."""
        if self.phase != PLACE:
            return []
        return list(self.sheets[player].place_options(self.rolled, sum(self.dice.values())))

    # --- applying --------------------------------------------------------
    def _apply(self, player: int, move: Move) -> list[Event]:
        if move.kind == ROLL:
            self.rolled = move.dice
            events = self._roll(0)
            self.phase = REROLL
            return events
        if move.kind == KEEP:
            return self._start_placing()
        if move.kind == REROLL:
            return self._roll(1) + self._start_placing()
        if self.phase == PLACE:
            self.chosen = {**self.chosen, player: move}
            return self._resolve() if len(self.chosen) == len(self.players) else []
        raise RuleError(f"unknown move {move}")

    def _roll(self, attempt: int) -> list[Event]:
        self.attempt = attempt
        # The documented throw: one die per rolled colour, each with its own face.
        dice = self.dice = self._throw(self.rolled, FACES, "turn", self.turn, attempt, among=ROWS)
        return [
            make_event(
                (
                    "rolled",
                    self._active(),
                    {"dice": dict(dice), "total": sum(dice.values()), "attempt": attempt},
                )
            )
        ]

    def _active(self) -> int:
        players = self.players
        return players[(self.turn - 1) % len(players)]

    def _start_placing(self) -> list[Event]:
        """The sum is final: everyone may write it; players without a field pass at once."""
        self.phase = PLACE
        rolled, total, sheets = self.rolled, sum(self.dice.values()), self.sheets
        chosen: dict[int, Move] = {}
        for player in self.players:
            if not sheets[player].place_options(rolled, total):
                chosen[player] = PASS
        self.chosen = chosen
        if len(chosen) == len(self.players):
            return self._resolve()
        return []

    def _resolve(self) -> list[Event]:
        """Apply every choice together, then the failed throw, the end check, the next turn."""
        events: list[Event] = []
        chosen, total, active = self.chosen, sum(self.dice.values()), self._active()
        placed = False
        for player in self.players:
            if self._write(player, chosen[player], total, events) and player == active:
                placed = True
        self.chosen = {}
        if not placed:
            sheet = self._sheet(active)
            sheet.failed += 1
            events.append(
                make_event(("failed_throw", active, {"count": sheet.failed, "limit": FAILED_LIMIT}))
            )
        if self._check_end(events):
            return events
        self.turn += 1
        self._start_turn(events)
        return events

    def _write(self, player: int, move: Move, total: int, events: list[Event]) -> bool:
        """Write ``move`` (the sum ``total``) on ``player``'s sheet, telling ``events``;
        whether it wrote a number."""
        if move.kind == PASS.kind:
            events.append(make_event(("passed", player, {"phase": PLACE, "total": total})))
            return False
        if move.kind != PLACE or move.row is None or move.number is None:
            raise RuleError(f"unknown move {move}")
        sheet = self._sheet(player)
        sheet.fields[move.row][move.number] = total
        sheet.options = {}  # what it allowed before this number is written
        events.append(
            make_event(
                ("placed", player, {"row": move.row, "column": move.number, "number": total})
            )
        )
        return True

    def _check_end(self, events: list[Event]) -> bool:
        sheets = self.sheets.values()
        for sheet in sheets:  # complete_rows, inline
            complete = 0
            for written in sheet.fields.values():
                if len(written) == ROW_LENGTH:
                    complete += 1
            if complete >= ROWS_TO_END:
                self.end_reason = "two_rows"
                break
        else:
            for sheet in sheets:
                if sheet.failed >= FAILED_LIMIT:
                    self.end_reason = "failed_throws"
                    break
            else:
                return False
        self.phase = "finished"
        events.append(make_event(("game_over", None, {"reason": self.end_reason})))
        return True

    def _start_turn(self, events: list[Event]) -> None:
        self.phase = ROLL
        self.rolled = ()
        self.dice = {}
        self.attempt = 0
        self.chosen = {}
        events.append(make_event(("turn", self._active(), {"turn": self.turn})))

    # --- scoring ---------------------------------------------------------
    def _score(self, player: int, sheet: QwintoSheet) -> Score:
        return score_of(
            player, {r: sheet.row_points(r) for r in ROWS}, sheet.failed, bonus=sheet.bonus()
        )

    # --- serialisation ---------------------------------------------------
    def _state_json(self) -> dict[str, Any]:
        return {
            "sheets": {str(p): s.to_json() for p, s in self.sheets.items()},
            "phase": self.phase,
            "rolled": list(self.rolled),
            "dice": dict(self.dice),
            "attempt": self.attempt,
            "chosen": {str(p): m.to_json() for p, m in self.chosen.items()},
        }

    def _load_state(self, data: dict[str, Any]) -> None:
        self.sheets = {int(p): QwintoSheet.from_json(s) for p, s in data["sheets"].items()}
        self.phase = data["phase"]
        self.rolled = tuple(data["rolled"])
        self.dice = dict(data["dice"])
        self.attempt = data["attempt"]
        self.chosen = {int(p): Move.from_json(m) for p, m in data["chosen"].items()}
