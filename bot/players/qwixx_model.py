"""A compact model of one Qwixx sheet, and the value table that scores it.

Rows are seen in *index space*: position 0 is a row's first number, whatever its
colour, so ascending and descending rows share one table (a sum ``s`` and ``2·faces+2-s``
are equally likely). A row is ``(next, crosses, closed)``: the first index still
crossable, the crosses counted for scoring (the lock included) and whether the row is
closed for everyone.

The value table estimates the final score of a sheet before the next roll:
``bias[penalties][closed rows] + Σ open rows table[penalties][closed rows][next][crosses]
+ Σ closed rows triangle(crosses)``. It is learned offline by
:mod:`bot.players.build_tables` and shipped under ``assets/players/``: one table for the
solo game, two for games of two or more (before one's own roll, before another's).

In games of two or more, ``hard`` aims to win rather than to score: :class:`Versus`
rates the *margin* over the best opponent with a pair of tables per role (one for one's
own sheet, one for a rival's), learned by :mod:`bot.players.learn_versus` against a mix
of opponents, so the pace of the game (rows locked, penalties on either side) is priced.
In classic, :class:`Lookahead` rates a sheet one roll deeper on top of those tables,
and a game that ends is rated by its sure win or loss (:class:`Settle`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bot import ASSETS

TABLE_DIR = ASSETS / "players"
Row = tuple[int, int, bool]
PENALTY = 5
ASCENDING = (True, True, False, False)  # red, yellow ascending; green, blue descending
FORBIDDEN = float("-inf")  # the gain of a cross the rules do not allow


@dataclass(frozen=True)
class RowRules:
    """The dice and lock rules a table was learned for."""

    faces: int = 6
    lock_span: int = 1
    lock_threshold: int = 5
    penalty_limit: int = 4
    rows_to_end: int = 2

    @property
    def length(self) -> int:
        """Numbers in a row: every sum of two dice."""
        return 2 * self.faces - 1

    def index(self, ascending: bool, number: int) -> int:
        return number - 2 if ascending else 2 * self.faces - number

    def cross(self, row: Row, index: int) -> Row | None:
        """The row after crossing ``index``, or None if the rules forbid it."""
        start, crosses, closed = row
        if closed or index < start or index >= self.length:
            return None
        if index >= self.length - self.lock_span:
            if crosses < self.lock_threshold:
                return None
            return index + 1, crosses + 2, True
        return index + 1, crosses + 1, False


Crossings = tuple[tuple[int, Row], ...]  # (dice total, the row after crossing it)


@lru_cache(maxsize=4)
def crossing_table(rules: RowRules) -> tuple[list[list[Crossings]], ...]:
    """For a descending and an ascending open row, ``[start][crosses]``: every dice total
    the rules let it cross and the row after it (precomputed: the lookahead asks for
    them thousands of times a decision)."""

    def crossings(ascending: bool, start: int, crosses: int) -> Crossings:
        return tuple(
            (total, after)
            for total in range(2, 2 * rules.faces + 1)
            if (after := rules.cross((start, crosses, False), rules.index(ascending, total)))
            is not None
        )

    return tuple(
        [
            [crossings(ascending, start, crosses) for crosses in range(rules.length + 2)]
            for start in range(rules.length + 1)
        ]
        for ascending in (False, True)
    )


def triangle(crosses: int) -> int:
    return crosses * (crosses + 1) // 2


@dataclass
class ValueTable:
    """Expected final score of a sheet before a roll (see the module docstring)."""

    rules: RowRules
    bias: list[list[float]]  # [penalties][closed rows]
    rows: list[list[list[list[float]]]]  # [penalties][closed rows][next][crosses]
    games: int = 0

    @classmethod
    def initial(cls, rules: RowRules) -> ValueTable:
        """A starting point for learning: points so far plus a little per open number."""
        n = rules.length
        rows = [
            [
                [[triangle(c) + 0.8 * (n - s) for c in range(n + 2)] for s in range(n + 1)]
                for _ in range(rules.rows_to_end)
            ]
            for _ in range(rules.penalty_limit)
        ]
        bias = [
            [float(-PENALTY * p) for _ in range(rules.rows_to_end)]
            for p in range(rules.penalty_limit)
        ]
        return cls(rules, bias, rows)

    def closed_count(self, rows: Sequence[Row]) -> int:
        return sum(1 for r in rows if r[2])

    def terminal(self, rows: Sequence[Row], penalties: int) -> bool:
        return (
            penalties >= self.rules.penalty_limit
            or self.closed_count(rows) >= self.rules.rows_to_end
        )

    def score(self, rows: Sequence[Row], penalties: int) -> int:
        return sum(triangle(r[1]) for r in rows) - PENALTY * penalties

    def value(self, rows: Sequence[Row], penalties: int) -> float:
        """The estimated final score; the exact score once the game is over."""
        closed = self.closed_count(rows)
        if penalties >= self.rules.penalty_limit or closed >= self.rules.rows_to_end:
            return self.score(rows, penalties)
        table = self.rows[penalties][closed]
        total = self.bias[penalties][closed]
        for start, crosses, is_closed in rows:
            total += triangle(crosses) if is_closed else table[start][crosses]
        return total

    def to_json(self) -> dict[str, Any]:
        r = self.rules
        return {
            "faces": r.faces,
            "lock_span": r.lock_span,
            "lock_threshold": r.lock_threshold,
            "penalty_limit": r.penalty_limit,
            "rows_to_end": r.rows_to_end,
            "games": self.games,
            "bias": [[round(v, 2) for v in b] for b in self.bias],
            "rows": [[[[round(v, 2) for v in c] for c in s] for s in b] for b in self.rows],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueTable:
        rules = RowRules(
            data["faces"],
            data["lock_span"],
            data["lock_threshold"],
            data["penalty_limit"],
            data["rows_to_end"],
        )
        return cls(rules, data["bias"], data["rows"], data.get("games", 0))


@dataclass
class RuleOfThumb:
    """``normal``'s rating: each number still open in an open row counts as ``share``
    of a cross (the learned tables' rows, penalties and ends, without the learning)."""

    rules: RowRules
    share: float = 0.55

    def terminal(self, rows: Sequence[Row], penalties: int) -> bool:
        return (
            penalties >= self.rules.penalty_limit
            or sum(r[2] for r in rows) >= self.rules.rows_to_end
        )

    def value(self, rows: Sequence[Row], penalties: int) -> float:
        if self.terminal(rows, penalties):
            return sum(triangle(r[1]) for r in rows) - PENALTY * penalties
        total: float = -PENALTY * penalties
        for start, crosses, closed in rows:
            hoped = 0.0 if closed else self.share * (self.rules.length - start)
            total += (crosses + hoped) * (crosses + hoped + 1) / 2
        return total


# The rule of thumb's share in games of two or more (shorter for each sheet: it hopes
# less), by table: the opponent :mod:`bot.players.learn_versus` learns against.
DUEL_SHARE = {"classic": 0.4, "longo": 0.3}


def table_path(name: str) -> Path:
    return TABLE_DIR / f"qwixx-{name}.json"


ROLES = ("solo", "active", "passive")
SIDES = ("own", "rival")


@lru_cache(maxsize=8)
def load_table(name: str, role: str = "solo") -> ValueTable:
    """The shipped table ``name`` ("classic" or "longo") for ``role``: "solo", or in a
    game of two or more, before a roll one throws oneself ("active") or not ("passive")."""
    return ValueTable.from_json(load_tables(name)[role])


@lru_cache(maxsize=4)
def load_tables(name: str) -> dict[str, Any]:
    return dict(json.loads(table_path(name).read_text(encoding="utf-8")))


@lru_cache(maxsize=8)
def load_versus(name: str, role: str) -> tuple[ValueTable, ValueTable]:
    """The shipped pair of margin tables (own sheet, rival's sheet) for ``role``
    ("active": before a roll one throws oneself, "passive": before another's)."""
    pair = load_tables(name)["versus"][role]
    return ValueTable.from_json(pair["own"]), ValueTable.from_json(pair["rival"])


Sheet = tuple[tuple[Row, ...], int]  # a sheet's rows and penalties


@dataclass(frozen=True)
class Settle:
    """What a final margin is worth next to the tables' estimates of games that go on.

    Those estimates run high, the more so as the game goes on (``high`` plus
    ``high_per_cross`` for each cross on all sheets), and are unsure (the final margin
    strays from them by ``spread`` less ``narrowing`` per cross, at least ``least``);
    a final margin is exact and its win or loss sure, worth ``sure`` spreads up or down.
    The figures were measured on classic games of ``hard`` against ``easy`` and
    ``normal``: without them, ``hard`` too often plays on when ending the game would win.
    """

    high: float = 2.0
    high_per_cross: float = 0.17
    spread: float = 27.0
    narrowing: float = 0.3
    least: float = 8.0
    sure: float = 3.0

    def worth(self, margin: int, crosses: int) -> float:
        """The estimate of a game going on that is as good as ending with ``margin``."""
        spread = max(self.least, self.spread - self.narrowing * crosses)
        won = (margin > 0) - (margin < 0)
        return margin + self.high + self.high_per_cross * crosses + self.sure * won * spread


SETTLE = {"classic": Settle()}  # where ``hard`` rates a final margin so (with Lookahead)


def close_rows(rows: Sequence[Row], closed: frozenset[int]) -> tuple[Row, ...]:
    return tuple((s, c, x or r in closed) for r, (s, c, x) in enumerate(rows))


def closed_rows(rows: Sequence[Row]) -> frozenset[int]:
    return frozenset(r for r, row in enumerate(rows) if row[2])


Cells = list[list[float]]  # a value table's cells for one pace and closed count


class SheetRating:
    """A rating of a sheet whose open rows each add one cell of a value table, so a
    cross that does not lock changes one cell (:meth:`gains`)."""

    rules: RowRules
    _crossings: tuple[list[list[Crossings]], ...]

    def value(self, rows: Sequence[Row], penalties: int) -> float:
        raise NotImplementedError

    def terminal(self, rows: Sequence[Row], penalties: int) -> bool:
        raise NotImplementedError

    def cells(self, rows: Sequence[Row], penalties: int) -> tuple[frozenset[int], Cells]:
        """The rows closed for the sheet, and the cells its open rows are rated by."""
        raise NotImplementedError

    def gains(self, rows: Sequence[Row], penalties: int, r: int) -> list[float]:
        """By dice total: how much crossing it in row ``r`` adds to :meth:`value`
        (:data:`FORBIDDEN` where the rules do not allow it). A cross that does not lock
        changes one cell; a lock changes the closed rows, so it is rated in full. Call
        it only on a sheet whose game goes on."""
        found = [FORBIDDEN] * (2 * self.rules.faces + 1)
        closed, cells = self.cells(rows, penalties)
        if r in closed:
            return found
        start, crosses, _ = rows[r]
        here = cells[start][crosses]
        now: float | None = None
        for total, after in self._crossings[ASCENDING[r]][start][crosses]:
            if after[2]:
                if now is None:
                    now = self.value(rows, penalties)
                found[total] = self.value((*rows[:r], after, *rows[r + 1 :]), penalties) - now
            else:
                found[total] = cells[after[0]][after[1]] - here
        return found


class Alone(SheetRating):
    """The solo table as a :class:`SheetRating`, for :class:`Lookahead`."""

    def __init__(self, table: ValueTable) -> None:
        self.table, self.rules = table, table.rules
        self._crossings = crossing_table(table.rules)

    def value(self, rows: Sequence[Row], penalties: int) -> float:
        return self.table.value(rows, penalties)

    def terminal(self, rows: Sequence[Row], penalties: int) -> bool:
        return self.table.terminal(rows, penalties)

    def cells(self, rows: Sequence[Row], penalties: int) -> tuple[frozenset[int], Cells]:
        closed = closed_rows(rows)
        return closed, self.table.rows[penalties][len(closed)]


@dataclass
class Versus(SheetRating):
    """The expected final margin of one sheet over the best of the others (held fixed):
    a row locked on the sheet closes it for everyone, and the exact margin once the
    game is over. The tables are indexed by the game's pace (the most penalties on any
    sheet, as the fourth ends the game for all) and price penalties exactly."""

    own: ValueTable
    rival: ValueTable
    others: tuple[Sheet, ...]
    settle: Settle | None = None  # how a final margin compares with the tables' estimates

    def __post_init__(self) -> None:
        self.rules = self.own.rules
        self.shut = frozenset().union(*(closed_rows(rows) for rows, _ in self.others))
        self.most = max(p for _, p in self.others)
        self._rival: dict[tuple[frozenset[int], int], float] = {}
        self._crossings = crossing_table(self.rules)

    def pace(self, penalties: int) -> int:
        return max(penalties, self.most)

    def terminal(self, rows: Sequence[Row], penalties: int) -> bool:
        return (
            self.pace(penalties) >= self.rules.penalty_limit
            or len(self.shut | closed_rows(rows)) >= self.rules.rows_to_end
        )

    def value(self, rows: Sequence[Row], penalties: int) -> float:
        closed = self.shut | closed_rows(rows)
        mine = close_rows(rows, closed)
        if self.terminal(rows, penalties):
            margin = self.own.score(mine, penalties) - max(
                self.own.score(close_rows(o, closed), p) for o, p in self.others
            )
            if self.settle is None:
                return margin
            crosses = sum(r[1] for r in rows) + sum(r[1] for o, _ in self.others for r in o)
            return self.settle.worth(margin, crosses)
        pace = self.pace(penalties)
        if (closed, pace) not in self._rival:
            self._rival[closed, pace] = max(
                self.rival.value(close_rows(o, closed), pace) - PENALTY * p for o, p in self.others
            )
        return self.own.value(mine, pace) - PENALTY * penalties - self._rival[closed, pace]

    def cells(self, rows: Sequence[Row], penalties: int) -> tuple[frozenset[int], Cells]:
        closed = self.shut | closed_rows(rows)
        return closed, self.own.rows[self.pace(penalties)][len(closed)]


@dataclass
class Lookahead:
    """A sheet at the end of a turn rated one roll deeper than :class:`Versus`: the
    expected margin after the best answer to the next roll, rated by ``after`` (the
    tables for the roll after that; the others' sheets held as they are). The answer to
    another's roll is a cross of the white sum or none; to one's own, a cross of the
    white sum, then one of a white and a coloured die, a penalty if neither (averaged
    exactly over all the dice). A learned table prices a sheet's chances on average;
    this sees which numbers the next roll can really bring, and a lock or penalty that
    ends the game then."""

    after: SheetRating
    own_roll: bool  # the next roll is this player's
    # Rate a sheet a roll deeper only if ``after`` rates it within this of the best
    # sheet it rated so far; else by ``after`` alone (None: every sheet a roll deeper).
    prune: float | None = None

    def __post_init__(self) -> None:
        self.rules = self.after.rules
        faces = self.rules.faces
        self.sums = [(s, (faces - abs(s - faces - 1)) / faces**2) for s in range(2, 2 * faces + 1)]
        self.pairs = [
            (low, high, (1 if low == high else 2) / faces**2)
            for low in range(1, faces + 1)
            for high in range(low, faces + 1)
        ]
        self._known: dict[Sheet, float] = {}
        self._flat_best = float("-inf")  # the best sheet by ``after`` so far (``prune``)

    def value(self, rows: Sequence[Row], penalties: int) -> float:
        key = (tuple(rows), penalties)  # a tuple already: the same tuple
        if key not in self._known:
            if self.prune is not None:
                flat = self.after.value(rows, penalties)
                if flat < self._flat_best - self.prune:
                    return flat
                self._flat_best = max(self._flat_best, flat)
            self._known[key] = self._rate(key[0], penalties)
        return self._known[key]

    def _rate(self, rows: tuple[Row, ...], penalties: int) -> float:
        after = self.after
        base = after.value(rows, penalties)
        if after.terminal(rows, penalties):
            return base
        gains = [after.gains(rows, penalties, r) for r in range(len(rows))]
        if not self.own_roll:
            return base + sum(p * max(0.0, *(g[s] for g in gains)) for s, p in self.sums)
        penalty = after.value(rows, penalties + 1) - base
        whites: dict[int, tuple[float, list[list[float] | None]]] = {}
        total = 0.0
        for low, high, p in self.pairs:
            if low + high not in whites:  # pairs of the same sum share the white-sum crosses
                whites[low + high] = self._white(rows, penalties, gains, penalty, low + high)
            floor, best = whites[low + high]
            total += p * self._coloured(best, low, high, floor)
        return base + total

    def _white(
        self,
        rows: tuple[Row, ...],
        penalties: int,
        gains: list[list[float]],
        penalty: float,
        total: int,
    ) -> tuple[float, list[list[float] | None]]:
        """One's own throw with this white sum: the best turn without a coloured cross
        (the white sum in some row, or a penalty), and by row and dice total, the best
        gain of a white-sum cross (or none) followed by a cross of that total in that row
        (None: no total in the row). The coloured cross's total depends on one white die
        and the row's coloured die, so :meth:`_coloured` takes the best over those."""
        firsts = [(0.0, gains)]  # (gain of the white-sum cross, the gains after it)
        floor = penalty
        for r, gain in enumerate(gains):
            if gain[total] == FORBIDDEN:
                continue
            floor = max(floor, gain[total])
            crossed = self._cross(rows, r, total)
            if not self.after.terminal(crossed, penalties):
                firsts.append(
                    (
                        gain[total],
                        [
                            self.after.gains(crossed, penalties, q)
                            if q == r or crossed[r][2] or rows[q][1] >= self.rules.lock_threshold
                            else g
                            for q, g in enumerate(gains)
                        ],
                    )
                )  # additive but for the locks
        return floor, [self._best_by_total(firsts, r) for r in range(len(gains))]

    @staticmethod
    def _best_by_total(firsts: list[tuple[float, list[list[float]]]], r: int) -> list[float] | None:
        """By dice total, the best of the ``firsts`` followed by a cross of it in row
        ``r``. Most ways share row ``r``'s gains (a cross elsewhere leaves them be): of
        those, only the largest first gain counts."""
        lead: dict[int, tuple[float, list[float]]] = {}
        for first, after in firsts:
            known = lead.get(id(after[r]))
            if known is None or first > known[0]:
                lead[id(after[r])] = (first, after[r])
        best: list[float] | None = None
        for first, gains in lead.values():
            shifted = [first + g for g in gains]
            best = (
                shifted
                if best is None
                else [a if a > b else b for a, b in zip(best, shifted, strict=True)]
            )
        return best if best is not None and max(best) > FORBIDDEN else None

    def _cross(self, rows: tuple[Row, ...], r: int, total: int) -> tuple[Row, ...]:
        crossed = self.rules.cross(rows[r], self.rules.index(ASCENDING[r], total))
        assert crossed is not None
        return (*rows[:r], crossed, *rows[r + 1 :])

    def _coloured(self, best: list[list[float] | None], low: int, high: int, floor: float) -> float:
        """The expected best of ``floor`` and the white-sum cross (or none) followed by a
        cross of a white die (``low`` or ``high``) plus a row's coloured die."""
        faces = self.rules.faces
        outcomes = []
        for r, by_total in enumerate(best):
            if by_total is None:
                continue
            for die in range(1, faces + 1):
                a, b = by_total[low + die], by_total[high + die]
                value = a if a > b else b
                if value > floor:
                    outcomes.append((value, r))
        return expected_best(floor, outcomes, faces)


def expected_best(floor: float, outcomes: list[tuple[float, int]], faces: int) -> float:
    """E[max(floor, X_1, X_2, …)] for independent fair dice: each ``(value, r)`` is what
    one face of die ``r`` gives; its other faces give ``floor`` or less."""
    outcomes.sort(reverse=True)
    counts: dict[int, int] = {}
    result = floor
    for i, (value, r) in enumerate(outcomes):
        counts[r] = counts.get(r, 0) + 1
        following = outcomes[i + 1][0] if i + 1 < len(outcomes) else floor
        if following < value:  # P(max >= value) for the stretch down to the next value
            none = 1.0
            for n in counts.values():
                none *= 1 - n / faces
            result += (value - following) * (1 - none)
    return result
