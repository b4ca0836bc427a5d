"""The Qwixx family core: classic Qwixx, with the knobs Longo and On Board turn.

A turn runs through phases. ``action1``: every player may cross the white sum,
chosen simultaneously and applied together. ``action2``: the active player may
cross a white die plus a coloured die. The end is checked after each action.
Variants may add further active-only actions after action 2 (``active_phases``);
the turn, and with it the penalty check, ends after the last of them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
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
from .dice import DICE_V1, DICE_V4, FACE_TABLES, hashed_faces

ROWS = ("red", "yellow", "green", "blue")
ASCENDING = ("red", "yellow")
WHITE = ("white1", "white2")
CROSS = "cross"
ALL_DICE = (*WHITE, *ROWS)
ROW_INDEX = {r: i for i, r in enumerate(ROWS)}
RowTable = tuple[str, int, tuple[Move, ...]]
"""A row, its place in :data:`ROWS`, and the cross of each dice sum (see ``tables``)."""


TABLES = (
    "row_numbers",
    "row_length",
    "index",
    "short",
    "cross_moves",
    "tables",
    "_open",
    "locking",
    "spread",
    "row_masks",
    "others",
    "after",
    "open_bits",
    "row_bits",
    "white_moves",
    "white_options",
    "fresh",
)
"""The tables of :class:`QwixxRules`, in the order they are built."""


@dataclass(frozen=True)
class QwixxRules:
    """What distinguishes one member of the family from another."""

    faces: int = 6
    lock_span: int = 1  # how many of a row's last numbers may lock it
    lock_threshold: int = 5  # crosses needed in a row before locking it
    penalty_limit: int = 4
    rows_to_end: int = 2  # locked rows that end the game

    # Tables the rules look things up in on every move, built once per rule set as plain
    # attributes (read twice as fast as a cached_property), each by its ``_make_`` method.
    row_numbers: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    row_length: int = field(init=False, repr=False, compare=False)
    index: dict[str, dict[int, int]] = field(init=False, repr=False, compare=False)
    short: int = field(init=False, repr=False, compare=False)
    cross_moves: dict[str, dict[int, Move]] = field(init=False, repr=False, compare=False)
    tables: tuple[RowTable, ...] = field(init=False, repr=False, compare=False)
    _open: dict[tuple[str, ...], tuple[RowTable, ...]] = field(
        init=False, repr=False, compare=False
    )
    locking: dict[str, frozenset[int]] = field(init=False, repr=False, compare=False)
    spread: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    row_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    others: tuple[int, ...] = field(init=False, repr=False, compare=False)
    after: dict[str, dict[int, tuple[int, int, int, bool, int]]] = field(
        init=False, repr=False, compare=False
    )
    open_bits: dict[tuple[str, ...], int] = field(init=False, repr=False, compare=False)
    row_bits: dict[tuple[str, ...], int] = field(init=False, repr=False, compare=False)
    white_moves: tuple[tuple[tuple[Move, ...], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    white_options: tuple[tuple[tuple[Move, ...], ...], ...] = field(
        init=False, repr=False, compare=False
    )
    fresh: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in TABLES:  # in order: a table may use those before it
            object.__setattr__(self, name, getattr(self, "_make_" + name.lstrip("_"))())

    def numbers(self, row: str) -> list[int]:
        """The numbers of ``row`` left to right."""
        return list(self.row_numbers[row])

    def _make_row_numbers(self) -> dict[str, tuple[int, ...]]:
        ascending = tuple(range(2, 2 * self.faces + 1))
        return {r: ascending if r in ASCENDING else ascending[::-1] for r in ROWS}

    def _make_row_length(self) -> int:
        return 2 * self.faces - 1

    def _make_index(self) -> dict[str, dict[int, int]]:
        """Row -> number -> its position in the row."""
        return {r: {n: i for i, n in enumerate(ns)} for r, ns in self.row_numbers.items()}

    def _make_short(self) -> int:
        """The positions ``0 <= i < short`` may be crossed without enough crosses to lock."""
        return self.row_length - self.lock_span

    def _make_tables(self) -> tuple[RowTable, ...]:
        """Per row: the row, its number in :data:`ROWS` (its mask's place in
        :attr:`Sheet.allow`), and indexed by any dice sum 0..2*faces the move crossing it
        (PASS where the row has no such number; never offered, the mask lacking it)."""
        sums = range(2 * self.faces + 1)
        return tuple(
            (r, i, tuple(self.cross_moves[r].get(n, PASS) for n in sums))
            for i, r in enumerate(ROWS)
        )

    def open_tables(self, closed: list[str]) -> tuple[RowTable, ...]:
        """:attr:`tables` without the ``closed`` rows (one tuple per set of closed rows)."""
        key = tuple(closed)
        found = self._open.get(key)
        if found is None:
            found = self._open[key] = tuple(t for t in self.tables if t[0] not in closed)
        return found

    def _make_open(self) -> dict[tuple[str, ...], tuple[RowTable, ...]]:
        return {}

    def _make_locking(self) -> dict[str, frozenset[int]]:
        """Row -> the numbers that lock it."""
        return {r: frozenset(ns[-self.lock_span :]) for r, ns in self.row_numbers.items()}

    # The compact sheet (:attr:`Sheet.allow`): one integer, bit ``4 * n + i`` set when
    # row ``i`` (in ROWS order) lets the sheet cross number ``n`` now, closed rows aside.
    # ``allow >> 4 * n & 15`` is then the rows where ``n`` may be crossed.
    def _make_spread(self) -> tuple[tuple[int, ...], ...]:
        """Per row ``i``, indexed by its state ``start + enough * (row_length + 1)``
        (``start`` the first position right of the row's last cross, ``enough`` whether
        it has crosses enough to lock): the row's part of :attr:`Sheet.allow` —
        :meth:`QwixxGame._span`'s rule as a table."""
        length = self.row_length
        return tuple(
            tuple(
                sum(1 << 4 * numbers[p] + i for p in range(start, length if enough else self.short))
                for enough in (False, True)
                for start in range(length + 1)
            )
            for i, numbers in enumerate(self.row_numbers[r] for r in ROWS)
        )

    def _make_row_masks(self) -> tuple[int, ...]:
        """Per row ``i``: its bits of :attr:`Sheet.allow`."""
        every = (1 << 4 * (2 * self.faces + 1)) - 1
        return tuple(every // 15 << i for i in range(len(ROWS)))

    def _make_others(self) -> tuple[int, ...]:
        """Per row ``i``: the bits of :attr:`Sheet.allow` that belong to the other rows."""
        return tuple(sum(self.row_masks) ^ mask for mask in self.row_masks)

    def _make_after(self) -> dict[str, dict[int, tuple[int, int, int, bool, int]]]:
        """Row -> number -> what crossing it does to :attr:`Sheet.allow`: the bits of the
        other rows (kept), the row's part without and with crosses enough to lock, and
        whether the number locks the row; and its bit in :attr:`Sheet.marks`."""
        length = self.row_length
        return {
            r: {
                n: (
                    self.others[i],
                    self.spread[i][p + 1],
                    self.spread[i][p + 2 + length],
                    n in self.locking[r],
                    1 << 4 * n + i,
                )
                for n, p in self.index[r].items()
            }
            for i, r in enumerate(ROWS)
        }

    def state(self, row: str, crossed: list[int], crosses: int) -> int:
        """The index into :attr:`spread` of ``row`` with ``crossed`` numbers and
        ``crosses`` (lock included). (A number not of the row, which only a position the
        checks refuse holds, leaves nothing to cross.)"""
        start = self.index[row].get(crossed[-1], self.row_length - 1) + 1 if crossed else 0
        return start + (crosses >= self.lock_threshold) * (self.row_length + 1)

    def marks(self, sheet: Sheet) -> int:
        """``sheet``'s :attr:`Sheet.marks`, worked out from its crosses."""
        return sum(1 << 4 * n + i for i, r in enumerate(ROWS) for n in set(sheet.crossed[r]))

    def allow(self, sheet: Sheet) -> int:
        """``sheet``'s :attr:`Sheet.allow`, worked out from its crosses."""
        return sum(
            self.spread[i][self.state(r, sheet.crossed[r], sheet.crosses(r))]
            for i, r in enumerate(ROWS)
        )

    def _make_row_bits(self) -> dict[tuple[str, ...], int]:
        """Closed rows, in any order -> every bit of :attr:`Sheet.allow` that belongs to
        an open row (a sheet with ``allow & row_bits[closed]`` may cross something)."""
        return {
            closed: sum(m for m, r in zip(self.row_masks, ROWS, strict=True) if r not in closed)
            for closed in self.open_bits
        }

    def _make_fresh(self) -> int:
        """An empty sheet's :attr:`Sheet.allow`."""
        return self.allow(Sheet())

    def _make_white_moves(self) -> tuple[tuple[tuple[Move, ...], ...], ...]:
        """Indexed by a dice sum, then by a set of rows (4 bits, as in :attr:`Sheet.allow`):
        the crosses of that sum in those rows, top row first."""
        return tuple(
            tuple(
                tuple(
                    self.cross_moves[r][total]
                    for i, r in enumerate(ROWS)
                    if rows >> i & 1 and total in self.cross_moves[r]
                )
                for rows in range(16)
            )
            for total in range(2 * self.faces + 1)
        )

    def _make_white_options(self) -> tuple[tuple[tuple[Move, ...], ...], ...]:
        """:attr:`white_moves` with the pass after them: action 1's legal moves."""
        return tuple(tuple((*moves, PASS) for moves in by_rows) for by_rows in self.white_moves)

    def _make_open_bits(self) -> dict[tuple[str, ...], int]:
        """Closed rows, in any order -> the 4 bits of the rows still open."""
        return {
            closed: sum(1 << i for i, r in enumerate(ROWS) if r not in closed)
            for size in range(len(ROWS) + 1)
            for closed in itertools.permutations(ROWS, size)
        }

    def _make_cross_moves(self) -> dict[str, dict[int, Move]]:
        """Row -> number -> the move crossing it (shared: moves are immutable)."""
        return {r: {n: Move(CROSS, r, n) for n in ns} for r, ns in self.row_numbers.items()}


def triangle(crosses: int) -> int:
    """Points for a row with ``crosses`` crosses: 1, 3, 6, 10, ..."""
    return crosses * (crosses + 1) // 2


@dataclass(slots=True)
class Sheet:
    """One player's score sheet.

    The rules replace its lists rather than append to them, so a copy may share them.
    ``allow`` is the sheet's compact state, kept up to date by the rules: one integer
    that says which numbers each row lets the sheet cross now, closed rows aside
    (:attr:`QwixxRules.spread`); every legality question is a bit test on it. (0, nothing
    allowed, until a game works it out: a game makes and loads its sheets.) ``marks``,
    kept the same way, has the same bit set for each number crossed.
    """

    crossed: dict[str, list[int]] = field(default_factory=lambda: {r: [] for r in ROWS})
    locks: list[str] = field(default_factory=list)  # rows whose lock symbol this player crossed
    penalties: int = 0
    allow: int = field(default=0, compare=False, repr=False)
    marks: int = field(default=0, compare=False, repr=False)

    def crosses(self, row: str) -> int:
        return len(self.crossed[row]) + (row in self.locks)

    def copy(self) -> Sheet:
        twin = object.__new__(Sheet)  # skips __init__'s defaults: a copy is made per cross
        twin.crossed, twin.locks, twin.penalties = dict(self.crossed), self.locks, self.penalties
        twin.allow, twin.marks = self.allow, self.marks
        return twin

    def to_json(self) -> dict[str, Any]:
        return {"crossed": self.crossed, "locks": self.locks, "penalties": self.penalties}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sheet:
        return cls(
            {r: list(data["crossed"][r]) for r in ROWS}, list(data["locks"]), data["penalties"]
        )


class QwixxGame(Game):
    """Classic Qwixx; subclasses change ``rules`` and add small pieces."""

    __slots__ = ("_options", "active_crossed", "chosen", "closed", "dice", "phase", "sheets")
    variant = "classic"
    title = "Qwixx"
    min_players = 2
    max_players = 5
    rules = QwixxRules()
    simultaneous_phases: ClassVar[tuple[str, ...]] = ("action1",)
    # The actions only the active player takes after action 1, in order.
    active_phases: ClassVar[tuple[str, ...]] = ("action2",)
    # Whether the variant has a reason of its own to end the game as a turn ends.
    ends_after_a_turn: ClassVar[bool] = False

    def __init__(
        self,
        players: list[int],
        seed: int,
        options: dict[str, Any],
        dice_version: int = DICE_VERSION,
    ) -> None:
        super().__init__(players, seed, options, dice_version)
        self.sheets: dict[int, Sheet] = {p: self._new_sheet() for p in self.players}
        self.closed: list[str] = []  # rows locked for everyone, in the order they closed
        self.phase = "action1"
        self.dice: dict[str, int] = {}
        self.chosen: dict[int, Move] = {}  # action-1 choices not yet applied
        self.active_crossed = False
        self._options: tuple[int, str, tuple[Move, ...]] | None = None
        self._start_turn([])

    # --- the public API --------------------------------------------------
    def legal_moves(self, player: int) -> list[Move]:
        if self.end_reason is not None or player not in self.players:
            return []
        # The move lists below are made afresh on every call: a caller may change them.
        if self.phase == "action1":  # _white_crossings, inline, and the pass with them
            rules, dice, closed = self.rules, self.dice, self.closed
            total = dice["white1"] + dice["white2"]
            moves = list(
                rules.white_options[total][
                    self.sheets[player].allow >> 4 * total
                    & (rules.open_bits[tuple(closed)] if closed else 15)
                ]
            )
            if self.has_lucky_numbers:  # before the pass
                moves[-1:-1] = self._lucky_moves(player, total)
            return moves
        if player == self.players[(self.turn - 1) % len(self.players)]:  # the active
            return [*self._active_options(player), PASS]
        return []

    def scores(self) -> dict[int, Score]:
        return {p: self._score(p, sheet) for p, sheet in self.sheets.items()}

    def foresee(self, player: int, moves: Sequence[Move]) -> QwixxGame | None:
        """See :meth:`Game.foresee`: from action 1, the active player's white-sum choice,
        then their coloured-die cross (and On Board's pawn). The others' choices stay out
        of it: they are secret until applied, and can only take options away (a row they
        lock closes with its die) or end the game."""
        if self.end_reason is not None or self.phase != "action1" or player != self.active:
            return None
        if not moves or not self._allows(player, moves[0]):
            return None
        game = self._copy()
        game.chosen = {**dict.fromkeys(self.players, PASS), player: moves[0]}
        game._resolve_action1([])
        for move in moves[1:]:
            if game.turn != self.turn or game.end_reason is not None:
                return None
            if not game._allows(player, move):
                return None
            game, _ = game.apply(player, move)
        return game

    # --- questions the interface asks ------------------------------------
    @property
    def white_sum(self) -> int:
        return self.dice["white1"] + self.dice["white2"]

    def dice_in_play(self) -> list[str]:
        return [*WHITE, *(r for r in ROWS if r not in self.closed)]

    def dice_on_table(self) -> dict[str, int]:
        return dict(self.dice)

    def dice_total(self) -> int | None:
        return self.white_sum

    def closed_rows(self) -> tuple[str, ...]:
        return tuple(self.closed)

    def passing_costs_penalty(self, player: int) -> bool:
        return (
            self.end_reason is None
            and player == self.active
            and self.phase == self.active_phases[-1]
            and not self.active_crossed
        )

    def colour_dice(self, move: Move) -> tuple[int, int]:
        """The white and coloured die values that make an action-2 cross."""
        if move.row is None:
            raise RuleError(f"{move} crosses no row")
        colour = self.dice[move.row]
        white = next(self.dice[w] for w in WHITE if self.dice[w] + colour == move.number)
        return white, colour

    def skipped_by(self, player: int, move: Move) -> list[int]:
        """Numbers that ``move`` would leave behind for good."""
        if move.kind == PASS.kind or move.row is None or move.number is None:
            return []
        numbers = self.rules.numbers(move.row)
        start = self._next_index(self.sheets[player], move.row)
        return numbers[start : self.rules.index[move.row][move.number]]

    def lock_numbers(self, row: str) -> list[int]:
        return self.rules.numbers(row)[-self.rules.lock_span :]

    # --- legality --------------------------------------------------------
    # ``first``: the caller only asks whether there is a move; stop at the first found.
    # The hot path of every turn: bit tests on the sheet's compact state
    # (:attr:`Sheet.allow`); a test holds them to :meth:`_span`'s rule.
    def _white_crossings(self, player: int, first: bool = False) -> list[Move]:
        """The crosses of the white sum ``player`` may make, top row first."""
        rules, dice, closed = self.rules, self.dice, self.closed
        total = dice["white1"] + dice["white2"]
        rows = self.sheets[player].allow >> 4 * total & (
            rules.open_bits[tuple(closed)] if closed else 15
        )
        moves = rules.white_moves[total][rows]
        return [moves[0]] if first and moves else list(moves)

    def _colour_crossings(self, player: int, first: bool = False) -> list[Move]:
        """The crosses of a white die plus a row's coloured die ``player`` may make, the
        lower sum first."""
        rules, dice, closed = self.rules, self.dice, self.closed
        allow = self.sheets[player].allow
        white1, white2 = dice["white1"], dice["white2"]
        if white1 > white2:
            white1, white2 = white2, white1
        found: list[Move] = []
        low, high = 4 * white1, 4 * white2
        pair = 1 << low | 1 << high  # the two sums' bits of a row whose die shows 0
        for row, i, moves in rules.open_tables(closed) if closed else rules.tables:
            colour = dice[row]
            found_here = allow >> 4 * colour + i & pair
            if found_here:  # most rows allow neither sum
                if found_here >> low & 1:
                    found.append(moves[white1 + colour])
                    if first:
                        break
                if white2 != white1 and found_here >> high & 1:
                    found.append(moves[white2 + colour])
                    if first:
                        break
        return found

    def _active_options(self, player: int) -> tuple[Move, ...]:
        """The active ``player``'s moves in this active phase (but the pass), worked out
        once: the phase's first question keeps them, with the turn and phase they hold
        for (a move there always moves the game on; a copy shares what it does not
        change, so a game made by a later move finds them stale and works them out)."""
        turn, phase, found = self.turn, self.phase, self._options
        if found is None or found[0] != turn or found[1] != phase:
            found = self._options = (
                turn,
                phase,
                tuple(
                    self._colour_crossings(player)
                    if phase == "action2"
                    else self._later_moves(player)
                ),
            )
        return found[2]

    # The variants' hooks (the core calls them only where the variant has the feature).
    def _later_moves(self, player: int) -> list[Move]:
        """The active player's options in an active phase after action 2 (On Board's
        action 3)."""
        return []

    def _lucky_moves(self, player: int, total: int) -> list[Move]:
        """``player``'s lucky moves in action 1, the white sum ``total`` (Longo)."""
        return []

    def _crossings(self, player: int, coloured: bool, first: bool = False) -> list[Move]:
        """The crosses ``player`` may make with the dice: the white sum in any row, or
        (``coloured``) a white die plus the row's coloured die, the lower sum first."""
        if coloured:
            return self._colour_crossings(player, first)
        return self._white_crossings(player, first)

    def _allows(self, player: int, move: Move) -> bool:
        """``move in self.legal_moves(player)``, without listing every move: a pass, a
        cross of the white sum (one look-up), and in an active phase the active player's
        options (worked out once a phase)."""
        phase = self.phase
        if phase == "action1":
            if move is PASS:
                return True
            if move.kind == CROSS:  # _white_crossings, inline
                rules, dice, closed = self.rules, self.dice, self.closed
                total = dice["white1"] + dice["white2"]
                rows = self.sheets[player].allow >> 4 * total & (
                    rules.open_bits[tuple(closed)] if closed else 15
                )
                return offered(move, rules.white_moves[total][rows])
            return super()._allows(player, move)
        players = self.players
        if player != players[(self.turn - 1) % len(players)]:  # self.active, inline
            return False
        if move is PASS:
            return True
        if move.kind == PASS.kind:
            return move == PASS
        return offered(move, self._active_options(player))

    def _next_index(self, sheet: Sheet, row: str) -> int:
        """Index of the first number still crossable in ``row``."""
        crossed = sheet.crossed[row]
        return self.rules.index[row][crossed[-1]] + 1 if crossed else 0

    def _can_cross(
        self, sheet: Sheet, row: str, number: int, spans: dict[str, tuple[int, int]] | None = None
    ) -> bool:
        """Whether ``sheet`` may cross ``number`` in ``row`` now (``spans``: the sheet's
        :meth:`_spans`, when the caller has them already)."""
        start, end = self._span(sheet, row) if spans is None else spans.get(row, (0, 0))
        return start <= self.rules.index[row].get(number, -1) < end

    def _span(self, sheet: Sheet, row: str) -> tuple[int, int]:
        """The positions ``start <= i < end`` of ``row`` that ``sheet`` may cross now: right
        of the row's last cross, in an open row, and the lock number(s) only after enough
        crosses (``start >= end``: none)."""
        if row in self.closed:
            return 0, 0
        rules, done = self.rules, sheet.crossed[row]
        start = rules.index[row][done[-1]] + 1 if done else 0
        enough = len(done) + (row in sheet.locks) >= rules.lock_threshold
        return start, rules.row_length if enough else rules.short

    def _spans(self, sheet: Sheet, rows: tuple[str, ...] = ROWS) -> dict[str, tuple[int, int]]:
        """Row -> :meth:`_span`, for the ``rows`` where ``sheet`` may cross something."""
        spans = {row: self._span(sheet, row) for row in rows}
        return {row: (start, end) for row, (start, end) in spans.items() if start < end}

    # --- applying --------------------------------------------------------
    # The per-turn path: every method below runs once or twice a turn, so each writes
    # to ``events`` in place and calls the next step only when there is one to take.
    def _apply(self, player: int, move: Move) -> list[Event]:
        if self.phase == "action1":
            chosen = self.chosen = {**self.chosen, player: move}
            return self._resolve_action1() if len(chosen) == len(self.players) else []
        if self.has_board and move.kind == "pawn":  # (legal in On Board's action 3 only)
            return self._move_pawn(player, move)
        events: list[Event] = []
        if self._cross(player, move, events):
            self._close_locked_rows(events)
        self._after_action(events)
        return events

    def _move_pawn(self, player: int, move: Move) -> list[Event]:
        """A pawn move (On Board's, the variant with a board, defines it)."""
        raise RuleError(f"unknown move {move}")

    def _resolve_action1(self, events: list[Event] | None = None) -> list[Event]:
        """Apply every action-1 choice together, as the rules' simultaneity asks."""
        if events is None:
            events = []
        chosen, cross, locked = self.chosen, self._cross, False
        for player in self.players:
            move = chosen[player]
            if move is PASS:  # _cross's own case, inline (most players pass)
                events.append(make_event(("passed", player, {"phase": "action1"})))
            elif cross(player, move, events):
                locked = True
        self.chosen = {}
        if locked:
            self._close_locked_rows(events)
        # _check_end, inline: mid-turn only locked rows end the game
        if len(self.closed) >= self.rules.rows_to_end and self._check_end(events):
            return events
        self.phase = self.active_phases[0]
        players = self.players  # an active-only action with nothing to choose is a pass
        if not self._active_options(players[(self.turn - 1) % len(players)]):  # the active
            self._after_action(events)
        return events

    def _cross(
        self,
        player: int,
        move: Move,
        events: list[Event],
        row: str | None = None,
        number: int | None = None,
    ) -> bool:
        """Cross ``move`` on ``player``'s sheet, telling ``events``; whether the cross
        locked its row (which closes only once every cross of the action is made).
        ``row`` and ``number``: what ``move`` crosses, when the caller knows it already."""
        if row is None or number is None:
            if move is PASS or move.kind == PASS.kind:
                events.append(make_event(("passed", player, {"phase": self.phase})))
                return False
            row, number = move.row, move.number
            if move.kind != CROSS or row is None or number is None:  # _target's case, inline
                row, number = self._target(player, move)
        own, rules = self._own, self.rules  # self._sheet(player), inline
        if own is None:
            self.sheets = self.sheets.copy()
            own = self._own = set()
        if player in own:
            sheet = self.sheets[player]
        else:  # Sheet.copy, inline
            sheet, old = object.__new__(Sheet), self.sheets[player]
            sheet.crossed, sheet.locks, sheet.penalties, sheet.allow, sheet.marks = (
                old.crossed.copy(),
                old.locks,
                old.penalties,
                old.allow,
                old.marks,
            )
            self.sheets[player] = sheet
            own.add(player)
        crossed = sheet.crossed[row] = [*sheet.crossed[row], number]
        players = self.players
        if player == players[(self.turn - 1) % len(players)]:  # self.active, inline
            self.active_crossed = True
        events.append(
            make_event(
                (
                    "crossed",
                    player,
                    {"row": row, "number": number, "phase": self.phase, "via": move.kind},
                )
            )
        )
        others, short, enough, locks, mark = rules.after[row][number]
        sheet.marks |= mark
        if locks:
            sheet.locks = [*sheet.locks, row]
            events.append(make_event(("locked", player, {"row": row})))
        crosses = len(crossed) + (row in sheet.locks)
        sheet.allow = sheet.allow & others | (enough if crosses >= rules.lock_threshold else short)
        return locks

    def _target(self, player: int, move: Move) -> tuple[str, int]:
        """The row and number a crossing move writes (variants add other kinds)."""
        if move.kind != CROSS or move.row is None or move.number is None:
            raise RuleError(f"unknown move {move}")
        return move.row, move.number

    def _close_locked_rows(self, events: list[Event]) -> None:
        for row in [e.data["row"] for e in events if e.kind == "locked"]:
            if row not in self.closed:
                self.closed = [*self.closed, row]
                # The die leaves the game at once, not next turn.
                self.dice = {die: value for die, value in self.dice.items() if die != row}
                events.append(make_event(("die_removed", None, {"row": row})))

    def _after_action(self, events: list[Event]) -> None:
        """After an active-only action: the next one (if the game goes on), or the end of
        the active player's turn: penalty, end check, next roll."""
        phases, phase = self.active_phases, self.phase
        if phase != phases[-1]:  # mid-turn only locked rows end the game (_check_end)
            if len(self.closed) < self.rules.rows_to_end or not self._check_end(events):
                self.phase = phases[phases.index(phase) + 1]
                players = self.players  # and with nothing to choose, a pass
                if not self._active_options(players[(self.turn - 1) % len(players)]):
                    self._after_action(events)
            return
        if not self.active_crossed:
            players = self.players
            active = players[(self.turn - 1) % len(players)]  # self.active, inline
            sheet = self._sheet(active)
            sheet.penalties += 1
            events.append(
                make_event(
                    (
                        "penalty",
                        active,
                        {"count": sheet.penalties, "limit": self.rules.penalty_limit},
                    )
                )
            )
        if not self._check_end(events, turn_over=True):
            self.turn += 1
            self._start_turn(events)

    def _check_end(self, events: list[Event], turn_over: bool = False) -> bool:
        """End the game if it is over; ``turn_over`` says the active player's turn just ended."""
        rules = self.rules
        if len(self.closed) >= rules.rows_to_end:
            reason: str | None = "rows_locked"
        elif not turn_over:  # penalties are given only as a turn ends
            return False
        else:
            limit = rules.penalty_limit
            for sheet in self.sheets.values():
                if sheet.penalties >= limit:
                    reason = "penalties"
                    break
            else:
                reason = self._turn_end_reason() if self.ends_after_a_turn else None
                if reason is None:
                    return False
        self.end_reason = reason
        self.phase = "finished"
        events.append(make_event(("game_over", None, {"reason": reason})))
        return True

    def _turn_end_reason(self) -> str | None:
        """A variant's own reason to end the game when a turn ends (none in classic)."""
        return None

    def _start_turn(self, events: list[Event]) -> None:
        in_play = self.dice_in_play() if self.closed else ALL_DICE
        turn, faces = self.turn, self.rules.faces
        version = self.dice_version
        if version != DICE_V1 and faces in FACE_TABLES:  # throw(), inline
            key = f"{self.seed}:turn:{turn}"  # dice_key(seed, "turn", turn)
            found = blake2b(key.encode()).digest().translate(FACE_TABLES[faces])
            found = found.replace(b"\0", b"")
            if len(found) < 6:  # a face for every die (a prefix of the same stream)
                found = hashed_faces(key, 6, faces)
            if in_play is ALL_DICE or version == DICE_V4:  # a display: cheaper than zip
                white1, white2, red, yellow, green, blue = found[:6]
                dice = {
                    "white1": white1,
                    "white2": white2,
                    "red": red,
                    "yellow": yellow,
                    "green": green,
                    "blue": blue,
                }
                if in_play is not ALL_DICE:  # each die in play keeps its own face
                    dice = {die: face for die, face in dice.items() if die in in_play}
            else:
                dice = dict(zip(in_play, found))  # noqa: B905 (found holds enough faces)
        else:
            dice = self._throw(in_play, faces, "turn", turn, among=ALL_DICE)
        self.dice = dice
        self.phase = "action1"
        self.active_crossed = False
        players = self.players
        active = players[(turn - 1) % len(players)]  # self.active, inline
        events.append(make_event(("turn", active, {"turn": turn, "dice": dict(dice)})))
        chosen = self.chosen = self._without_white_choice(dice["white1"] + dice["white2"])
        if len(chosen) == len(players):
            self._resolve_action1(events)

    def _without_white_choice(self, total: int) -> dict[int, Move]:
        """Player -> PASS for the players with no move in action 1 (the white sum
        ``total``): their sheets' rows allow no cross of it (:meth:`_white_crossings`)."""
        shift = 4 * total
        open_rows = self.rules.open_bits[tuple(self.closed)] if self.closed else 15
        sheets = self.sheets
        passing: dict[int, Move] = {}  # a loop: cheaper than a comprehension's own frame
        for player in self.players:
            if not sheets[player].allow >> shift & open_rows:
                passing[player] = PASS
        return passing

    # --- scoring ---------------------------------------------------------
    def _score(self, player: int, sheet: Sheet) -> Score:
        return score_of(player, {r: triangle(sheet.crosses(r)) for r in ROWS}, sheet.penalties)

    # --- serialisation ---------------------------------------------------
    def _state_json(self) -> dict[str, Any]:
        return {
            "sheets": {str(p): s.to_json() for p, s in self.sheets.items()},
            "closed": self.closed,
            "phase": self.phase,
            "dice": self.dice,
            "chosen": {str(p): m.to_json() for p, m in self.chosen.items()},
            "active_crossed": self.active_crossed,
        }

    def _new_sheet(self) -> Sheet:
        return Sheet(allow=self.rules.fresh)

    def _load_state(self, data: dict[str, Any]) -> None:
        self.sheets = {int(p): Sheet.from_json(s) for p, s in data["sheets"].items()}
        for sheet in self.sheets.values():
            sheet.allow, sheet.marks = self.rules.allow(sheet), self.rules.marks(sheet)
        self.closed = list(data["closed"])
        self.phase = data["phase"]
        self.dice = dict(data["dice"])
        self.chosen = {int(p): Move.from_json(m) for p, m in data["chosen"].items()}
        self.active_crossed = data["active_crossed"]
        self._options = None
