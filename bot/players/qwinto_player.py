"""``normal`` and ``hard`` computer players for Qwinto.

A sheet is rated by an estimate of its final score (:func:`sheet_value`): numbers so
far, plus, for each row, the chance it still gets completed (how much room every run of
empty fields has between its neighbours, and how many fields are left) times what
completing it adds; plus each triple column's pentagon weighted by how full it is (an
empty pentagon counts as a typical number for its place, for ``hard`` in games of two
or more a tenth more); minus the failed throws; for ``hard`` in games of two or more,
minus a price on the chance that one's next throw fits nowhere (a sheet with few sums
left to take fails throws and ends the game for everyone). Every decision is the one
with the best expected rating:

* placing: the field that raises the rating most, or passing if none does (the active
  player's pass costs a failed throw; in games of two or more ``hard`` writes on
  another's throw only for a clear gain, and hopes less for empty fields and full
  columns the more failed throws the fullest box holds and the more rows another has
  completed);
* keeping or re-rolling: the kept sum's best placement against the expectation of a
  new throw of the same dice;
* rolling (``hard``): the dice whose throw, re-roll included, rates best on average.
  ``normal`` rolls the dice that most often give a sum it can write, and keeps the
  first throw whenever it can write it; it gives the triple columns no weight.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from bot.rules import PASS, Game, Move
from bot.rules.qwinto import (
    FAILED_LIMIT,
    KEEP_MOVE,
    PENTAGONS,
    REROLL_MOVE,
    ROW_COLUMNS,
    ROWS,
    TRIPLE_COLUMNS,
    QwintoGame,
    QwintoSheet,
)

HIGHEST = 18  # three dice
DICE_CHOICES = tuple(c for n in (1, 2, 3) for c in itertools.combinations(range(3), n))
FAIL = 5
Slots = tuple[int | None, ...]


@dataclass(frozen=True)
class Params:
    """The rating's knobs: room exponent, chance per empty field, column weight, and
    how the dice are chosen."""

    room: float = 1.0
    per_field: float = 0.97
    column: float = 0.55
    roll_for_value: bool = True  # roll for the best expected rating, not the surest sum
    other_min: float = 0.0  # the least gain for which a player not rolling writes (a
    # field filled on another's throw is one fewer for one's own throws)
    pace: float = 0.0  # how much each failed throw on the fullest box hastens the end
    flex: float = 0.0  # points per unit of chance that one's own next turn (best dice,
    # re-roll included) gives a sum that fits nowhere: a failed throw
    column_pace: float = 0.0  # like ``pace``, for the triple columns' weight
    others_pace: float = 0.0  # a complete row on another sheet counts as this many
    # failed throws in the pace (it brings the end as near)
    own_pace: float = 0.0  # a complete row on the player's own sheet, likewise
    guess: float = 1.0  # an empty pentagon counts as this times its :func:`ladder` number


PARAMS = Params()
# ``hard`` in games of two or more: it counts on less room between written numbers
# (a gap's chance of being filled is raised to a lower power), hopes for empty fields
# less and less as failed throws bring the end nearer, and writes on another's throw
# only for a clear gain (2-player self-play over 400 games: 50.4 -> 58.5); it keeps
# sums to write for its next throw and weighs the bonus columns a little more (same
# seeds, 600 games: 57.3 -> 58.0 -> 59.0; flex 8 did best of 3-25, column 0.62 over 0.55).
# It paces the columns too, and counts a complete row on another's sheet like two failed
# throws (1,000 paired games: +0.77 ± 0.52; pacing rows by others' complete rows alone
# +0.24 ± 0.16, the columns alone +0.36 ± 0.50; others 1-3 and column 1-3 did no
# better): in self-play a column one field short is completed 79% of the time with no
# failed throw on any sheet, 17% with three. Its own complete rows count like four failed
# throws (paired 2,000 games on two seed sets: +0.17 ± 0.13 and +0.08 ± 0.13). It expects
# an empty pentagon to get a little more than its ladder number, which makes it wait
# for a higher one (paired games on three seed sets: +0.46 ± 0.73 and +0.72 ± 0.74 over
# 2,000, +0.48 ± 1.00 over 1,000; 0.9 and 1.3 lost some 3 points, 1.15 gained 0.28).
VERSUS = Params(
    room=0.7,
    per_field=0.99,
    column=0.62,
    other_min=1.0,
    pace=25.0,
    flex=8.0,
    column_pace=2.0,
    others_pace=2.0,
    own_pace=4.0,
    guess=1.1,
)
# ``normal`` does not plan for the triple columns' bonuses (with them it would be almost
# as strong as ``hard``, which then beat it little more than half the time).
NORMAL = Params(column=0.0)


def params_for(level: str, players: int) -> Params:
    if level != "hard":
        return NORMAL
    return VERSUS if players > 1 else PARAMS


def paced(params: Params, game: QwintoGame, player: int | None = None) -> Params:
    """``params`` with less hope for empty fields and columns the nearer four failed
    throws or complete rows on any sheet bring the end."""
    if not params.pace:
        return params
    near: float = max(s.failed for s in game.sheets.values())
    if params.others_pace:
        near += params.others_pace * max(
            (len(s.complete_rows()) for p, s in game.sheets.items() if p != player), default=0
        )
    if params.own_pace and player is not None:
        near += params.own_pace * len(game.sheets[player].complete_rows())
    return replace(
        params,
        per_field=params.per_field ** (1 + params.pace * near),
        column=params.column ** (1 + params.column_pace * near),
    )


@lru_cache(maxsize=8)
def sum_odds(dice: int) -> tuple[tuple[int, float], ...]:
    """The chance of each sum of ``dice`` six-sided dice."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    total = 6**dice
    return tuple((s, c / total) for s, c in sorted(counts.items()))


def slots(sheet: QwintoSheet, row: str) -> Slots:
    written = sheet.fields[row]
    return tuple(written.get(c) for c in ROW_COLUMNS[row])


@lru_cache(maxsize=65536)
def row_value(values: Slots, params: Params) -> float:
    """Numbers written plus the chance of completing the row times what that adds."""
    count = sum(v is not None for v in values)
    if count == len(values):
        return float(values[-1] or 0)  # full: every value is a number
    chance, low, empty = 1.0, 0, 0
    for value in (*values, HIGHEST + 1):
        if value is None:
            empty += 1
            continue
        room = value - low - 1
        if empty > room:
            return float(count)
        if empty:
            chance *= ((room - empty + 1) / (room + 1)) ** params.room
        low, empty = value, 0
    # An unwritten last number counts as the highest: rows completed in 2-player
    # self-play end on 15-16 on average, but rating them so plays worse (1,000 games
    # on the same seeds: 2.6 points less).
    last = HIGHEST if values[-1] is None else values[-1]
    chance *= params.per_field ** (len(values) - count)
    return count + chance * max(0.0, last - count)


def ladder(slot: int) -> float:
    """A typical number for a row's ``slot`` (0-8) when nothing is written there yet."""
    return 1 + slot * (HIGHEST - 1) / 8


def column_value(
    sheet: QwintoSheet,
    column: int,
    extra: tuple[str, int] | None = None,
    params: Params | None = None,
) -> float:
    """A triple column's pentagon if complete, else weighted by how many fields are full;
    ``extra`` is a (row, number) to count as written in this column."""
    rows = [r for r in ROWS if column in ROW_COLUMNS[r]]
    written = {r: sheet.fields[r][column] for r in rows if column in sheet.fields[r]}
    if extra is not None:
        written[extra[0]] = extra[1]
    owner = next(r for r in rows if column in PENTAGONS[r])
    pentagon = written.get(owner)
    if len(written) == len(rows):
        return float(pentagon or 0)
    params = params or PARAMS
    worth = (
        pentagon
        if pentagon is not None
        else params.guess * ladder(ROW_COLUMNS[owner].index(column))
    )
    return params.column ** (len(rows) - len(written)) * worth


def sheet_value(sheet: QwintoSheet, params: Params | None = None) -> float:
    """The estimated final score of ``sheet`` (exact once failed throws end the game)."""
    params = params or PARAMS
    if sheet.failed >= FAILED_LIMIT:
        return float(exact_score(sheet))
    rows = tuple(slots(sheet, r) for r in ROWS)
    return (
        sum(row_value(values, params) for values in rows)
        + sum(column_value(sheet, c, params=params) for c in TRIPLE_COLUMNS)
        - FAIL * sheet.failed
        - params.flex * miss_chance(tuple(map(fits, rows)))
    )


@lru_cache(maxsize=65536)
def fits(values: Slots) -> int:
    """The numbers 1-18 that could be written somewhere in the row, as a bit mask."""
    mask, low, empty = 0, 0, False
    for value in (*values, HIGHEST + 1):
        if value is None:
            empty = True
            continue
        if empty:
            mask |= ((1 << value) - 1) & ~((1 << (low + 1)) - 1)
        low, empty = value, False
    return mask


@lru_cache(maxsize=65536)
def miss_chance(masks: tuple[int, ...]) -> float:
    """The least chance, over the dice one may roll (re-roll included), that the sum
    fits no row of a rolled colour (``masks``: each row's :func:`fits`)."""
    best = 1.0
    for dice in DICE_CHOICES:
        mask = 0
        for index in dice:
            mask |= masks[index]
        best = min(best, (1 - hit_chance(mask, len(dice))) ** 2)
    return best


def hit_chance(mask: int, dice: int) -> float:
    """The chance that the sum of ``dice`` dice is in ``mask`` (bits 0-18)."""
    low, mid, high = BYTE_ODDS[dice]
    return low[mask & 255] + mid[mask >> 8 & 255] + high[mask >> 16 & 255]


def byte_odds(dice: int) -> tuple[tuple[float, ...], ...]:
    """For each byte of a sum mask, the chance of every byte value's sums."""
    odds = dict(sum_odds(dice))
    return tuple(
        tuple(
            sum(odds.get(8 * part + bit, 0.0) for bit in range(8) if value >> bit & 1)
            for value in range(256)
        )
        for part in range(3)
    )


BYTE_ODDS = {dice: byte_odds(dice) for dice in (1, 2, 3)}


def exact_score(sheet: QwintoSheet) -> int:
    return sum(sheet.row_points(r) for r in ROWS) + sheet.bonus() - FAIL * sheet.failed


@dataclass(frozen=True)
class Before:
    """What :func:`placement_gain` compares a placement with: the sheet's rows, the
    chance its next throw fits nowhere, its triple columns' values (worked out once
    per decision, not once per placement)."""

    rows: dict[str, Slots]
    miss: float
    columns: dict[int, float]

    @classmethod
    def of(cls, sheet: QwintoSheet, params: Params) -> Before:
        rows = {r: slots(sheet, r) for r in ROWS}
        miss = miss_chance(tuple(fits(rows[r]) for r in ROWS)) if params.flex else 0.0
        return cls(rows, miss, {c: column_value(sheet, c, params=params) for c in TRIPLE_COLUMNS})


def placement_gain(
    sheet: QwintoSheet,
    row: str,
    column: int,
    number: int,
    params: Params = PARAMS,
    before: Before | None = None,
) -> float:
    """How much writing ``number`` at ``row``/``column`` changes the rating (the sheet,
    which other games may share, is not touched; ``before``: the sheet's figures, if
    known)."""
    known = before or Before.of(sheet, params)
    was = known.rows[row]
    slot = ROW_COLUMNS[row].index(column)
    after = (*was[:slot], number, *was[slot + 1 :])
    gain = row_value(after, params) - row_value(was, params)
    if params.flex and fits(after) != fits(was):
        masks = tuple(fits(after if r == row else known.rows[r]) for r in ROWS)
        gain -= params.flex * (miss_chance(masks) - known.miss)
    if column in TRIPLE_COLUMNS:
        gain += column_value(sheet, column, (row, number), params) - known.columns[column]
    return gain


@dataclass
class Planner:
    """One player's view of a Qwinto throw: best placements per row and sum, cached."""

    game: QwintoGame
    player: int
    params: Params = PARAMS

    def __post_init__(self) -> None:
        self.sheet = self.game.sheets[self.player]
        self.now = sheet_value(self.sheet, self.params)
        self.before = Before.of(self.sheet, self.params)
        self._best: dict[tuple[str, int], tuple[float, Move | None]] = {}

    def best_in_row(self, row: str, number: int) -> tuple[float, Move | None]:
        """The best field for ``number`` in ``row``: its gain and the move."""
        key = (row, number)
        if key not in self._best:
            options = [
                (
                    placement_gain(self.sheet, row, c, number, self.params, self.before),
                    Move("place", row, c),
                )
                for c in self.sheet.free_fields(row, number)
            ]
            self._best[key] = max(options, key=lambda o: o[0], default=(float("-inf"), None))
        return self._best[key]

    def pass_value(self, active: bool) -> float:
        """The rating after writing nothing."""
        if not active:
            return self.now + self.params.other_min
        if self.sheet.failed + 1 >= FAILED_LIMIT:
            return float(exact_score(self.sheet) - FAIL)
        return self.now - FAIL

    def throw_value(self, colours: Sequence[str], number: int) -> float:
        """The rating after the active player's best use of ``number``."""
        gain = max(self.best_in_row(r, number)[0] for r in colours)
        return max(self.now + gain, self.pass_value(True))

    def writable(self, colours: Sequence[str], number: int) -> bool:
        if any(self._best.get((r, number), (0, None))[1] is not None for r in colours):
            return True
        return any(self.sheet.free_fields(r, number) for r in colours)

    def expected(self, colours: Sequence[str]) -> float:
        """The rating a throw of ``colours`` leads to when it is kept."""
        return sum(p * self.throw_value(colours, s) for s, p in sum_odds(len(colours)))

    def with_reroll(self, colours: Sequence[str]) -> float:
        """The rating a throw of ``colours`` leads to, re-rolling when that is better."""
        again = self.expected(colours)
        return sum(p * max(self.throw_value(colours, s), again) for s, p in sum_odds(len(colours)))

    def fail_chance(self, colours: Sequence[str], reroll: bool) -> float:
        miss = sum(p for s, p in sum_odds(len(colours)) if not self.writable(colours, s))
        return miss * miss if reroll else miss


def rate_moves(game: Game, player: int, level: str) -> list[tuple[Move, float, float]]:
    """Every legal move with its expected rating and its chance of a failed throw,
    best first (ties keep the rules' order)."""
    assert isinstance(game, QwintoGame)
    plan = Planner(game, player, paced(params_for(level, len(game.players)), game, player))
    rated = [(m, *rate(plan, m, level)) for m in game.legal_moves(player)]
    return sorted(rated, key=lambda r: -r[1])


def rate(plan: Planner, move: Move, level: str) -> tuple[float, float]:
    game, active = plan.game, plan.player == plan.game.active
    if move.kind == "roll":
        if level == "hard" and plan.params.roll_for_value:
            return plan.with_reroll(move.dice), plan.fail_chance(move.dice, True)
        miss = plan.fail_chance(move.dice, False)
        return plan.now - FAIL * miss, miss
    if move in (KEEP_MOVE, REROLL_MOVE):
        return rate_keep(plan, move, level)
    if move == PASS:
        return plan.pass_value(active), float(active)
    gain = placement_gain(
        plan.sheet,
        move.row or "",
        move.number or 0,
        game.dice_total() or 0,
        plan.params,
        plan.before,
    )
    return plan.now + gain, 0.0


def rate_keep(plan: Planner, move: Move, level: str) -> tuple[float, float]:
    thrown = plan.game.dice_on_table()  # the colours rolled, in the rules' order
    colours, total = tuple(thrown), plan.game.dice_total() or 0
    if move == KEEP_MOVE:
        fails = not plan.writable(colours, total)
        value = plan.throw_value(colours, total)
        if level == "normal" and not fails:
            value = float("inf")
        return value, float(fails)
    return plan.expected(colours), plan.fail_chance(colours, False)
