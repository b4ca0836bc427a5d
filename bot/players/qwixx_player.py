"""``normal`` and ``hard`` computer players for the Qwixx family (classic, longo, onboard).

Both rate every legal move by the best sheet it can lead to by the end of the turn
(the active player plans action 1 together with action 2, and on the On Board track
action 3, knowing all the dice) and pick the highest. They differ in how they rate a
sheet: alone, ``normal`` by a simple rule of thumb (each number still open counts as part
of a cross) and ``hard`` by the learned solo table (:mod:`bot.players.qwixx_model`); in
games of two or more, ``normal`` plays for points with the score tables learned over
two-player games and ``hard`` for its margin over the best opponent with the margin
tables. ``hard`` rates the sheet one roll deeper
(:class:`~bot.players.qwixx_model.Lookahead`) alone and in classic and Longo games of two
or more (in On Board's it won no more duels), and in classic weighs ending the game by
its sure win or loss (:class:`~bot.players.qwixx_model.Settle`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.players.qwixx_model import (
    PENALTY,
    SETTLE,
    Alone,
    Lookahead,
    Row,
    RowRules,
    RuleOfThumb,
    Versus,
    load_table,
    load_versus,
    triangle,
)
from bot.rules import PASS, Game, Move
from bot.rules.onboard import OnBoardGame
from bot.rules.qwixx import ROWS, QwixxGame

ASCENDING = {"red": True, "yellow": True, "green": False, "blue": False}
TABLE_FOR = {"classic": "classic", "onboard": "classic", "longo": "longo"}
LOOKAHEAD = {"classic", "longo"}  # where ``hard`` looks a roll deeper in games of two or more
# Alone (where ``hard`` always looks a roll deeper), it rates a sheet so deep only if the
# table rates it within this many points of the best so far: the rest cannot win. Mean
# solo scores over the same seeds, flat / a roll deeper: classic 110.2 / 111.6 (1,000
# games), Longo 167.3 / 169.4 (300), On Board 158.8 / 160.2 (700); a decision's p99 3, 5
# and 6 ms of CPU (unpruned: 12, 20 and more).
SOLO_PRUNE = 1.5


class Evaluator(Protocol):
    rules: RowRules

    def value(self, rows: Sequence[Row], penalties: int) -> float: ...


def evaluator(game: QwixxGame, player: int, level: str, settled: bool = True) -> Evaluator:
    """How ``level`` rates ``player``'s sheet as it will be before the next roll
    (``settled=False``: a final margin as it is, not as ``hard`` weighs it, see
    :class:`~bot.players.qwixx_model.Settle`)."""
    name = TABLE_FOR[game.variant]
    if len(game.players) == 1:
        if level != "hard":
            return RuleOfThumb(load_table(name).rules, 0.55)
        return Lookahead(Alone(load_table(name, "solo")), True, SOLO_PRUNE)
    following = game.players[game.turn % len(game.players)]  # throws next (turns count from 1)
    role = "active" if following == player else "passive"
    if level != "hard":
        return load_table(name, role)
    if game.variant in LOOKAHEAD:
        return lookahead(game, player, settled)
    own, rival = load_versus(name, role)
    others = tuple(sheet_of(game, own.rules, p) for p in game.players if p != player)
    return Versus(own, rival, others)


def lookahead(game: QwixxGame, player: int, settled: bool = True) -> Lookahead:
    """``hard``'s rating one roll deeper: by the tables for the roll after the next."""
    seats = game.players
    own_roll = seats[game.turn % len(seats)] == player  # turns count from 1
    then = "active" if seats[(game.turn + 1) % len(seats)] == player else "passive"
    own, rival = load_versus(TABLE_FOR[game.variant], then)
    others = tuple(sheet_of(game, own.rules, p) for p in game.players if p != player)
    settle = SETTLE.get(game.variant) if settled else None
    return Lookahead(Versus(own, rival, others, settle), own_roll)


def sheet_of(game: QwixxGame, rules: RowRules, player: int) -> tuple[tuple[Row, ...], int]:
    """``player``'s sheet in the model's terms: its rows and penalties."""
    sheet = game.sheets[player]
    rows = tuple(row_of(game, rules, sheet.crossed[r], sheet.crosses(r), r) for r in ROWS)
    return rows, sheet.penalties


@dataclass(frozen=True)
class RatedMove:
    """A legal move and what it leads to by the end of the turn."""

    move: Move
    value: float  # the estimated final score with the best follow-up this turn
    penalty: bool  # that follow-up ends the turn with a penalty


@dataclass
class Turn:
    """One player's view of the current turn, in the model's terms."""

    game: QwixxGame
    player: int
    judge: Evaluator
    rows: tuple[Row, ...]
    penalties: int
    active: bool

    @classmethod
    def of(cls, game: QwixxGame, player: int, judge: Evaluator) -> Turn:
        rows, penalties = sheet_of(game, judge.rules, player)
        return cls(game, player, judge, rows, penalties, player == game.active)

    def rate_all(self) -> list[RatedMove]:
        """Every legal move, rated; the best first (ties keep the rules' order)."""
        phase = self.game.phase
        rated = [self.rate(move, phase) for move in self.game.legal_moves(self.player)]
        return sorted(rated, key=lambda r: -r.value)

    def rate(self, move: Move, phase: str) -> RatedMove:
        rows, crossed = self.after(self.rows, move)
        if phase == "action1" and not self.active:
            return RatedMove(move, self.judge.value(rows, self.penalties), False)
        crossed = crossed or self.game.active_crossed
        if phase == "action1":
            return RatedMove(move, *self.best_colour(rows, crossed))
        if phase == "action2":
            return RatedMove(move, *self.best_pawn(rows, crossed))
        return RatedMove(move, *self.end_of_turn(rows, crossed, move))

    def after(self, rows: tuple[Row, ...], move: Move) -> tuple[tuple[Row, ...], bool]:
        """The rows after ``move`` and whether it crossed a number."""
        target = self.target(move)
        if target is None:
            return rows, False
        colour, number = target
        r = ROWS.index(colour)
        crossed = self.judge.rules.cross(rows[r], self.judge.rules.index(ASCENDING[colour], number))
        return (rows if crossed is None else (*rows[:r], crossed, *rows[r + 1 :])), True

    def target(self, move: Move) -> tuple[str, int] | None:
        if move == PASS or move.row is None:
            return None
        if move.kind == "pawn":
            found = self.board_game().pawn_target(self.player, move.number or 0)
            return (found[1].colour, found[1].number) if found and found[2] else None
        return move.row, move.number or 0

    def best_colour(self, rows: tuple[Row, ...], crossed: bool) -> tuple[float, bool]:
        """The best action 2 with these dice after an action-1 choice."""
        dice = self.game.dice_on_table()
        best = self.best_pawn(rows, crossed)
        for colour in ROWS:
            r = ROWS.index(colour)
            if rows[r][2] or colour not in dice:
                continue
            for total in {dice["white1"] + dice[colour], dice["white2"] + dice[colour]}:
                after = self.judge.rules.cross(
                    rows[r], self.judge.rules.index(ASCENDING[colour], total)
                )
                if after is not None:
                    best = max(
                        best,
                        self.best_pawn((*rows[:r], after, *rows[r + 1 :]), True),
                        key=lambda v: v[0],
                    )
        return best

    def best_pawn(self, rows: tuple[Row, ...], crossed: bool) -> tuple[float, bool]:
        """The best action 3 (On Board), or simply the end of the turn."""
        best = self.end_of_turn(rows, crossed, PASS)
        if not self.game.has_board:  # action 3, the pawn's move, is On Board's
            return best
        for steps in range(1, 6):
            planned = self.pawn_plan(rows, steps)
            if planned is not None:
                move, moved = planned
                best = max(
                    best,
                    self.end_of_turn(moved, crossed or moved != rows, move),
                    key=lambda v: v[0],
                )
        return best

    def pawn_plan(self, rows: tuple[Row, ...], steps: int) -> tuple[Move, tuple[Row, ...]] | None:
        """The pawn move of ``steps`` and the rows after it, if the planned sheet allows it."""
        found = self.board_game().pawn_target(self.player, steps)
        if found is None:
            return None
        field = found[1]
        r = ROWS.index(field.colour)
        after = self.judge.rules.cross(
            rows[r], self.judge.rules.index(ASCENDING[field.colour], field.number)
        )
        if after is not None:
            return Move("pawn", field.colour, steps), (*rows[:r], after, *rows[r + 1 :])
        if field.number in self.game.sheets[self.player].crossed[field.colour]:
            return Move("pawn", field.colour, steps), rows
        return None

    def end_of_turn(self, rows: tuple[Row, ...], crossed: bool, pawn: Move) -> tuple[float, bool]:
        penalty = self.active and not crossed
        penalties = self.penalties + penalty
        if pawn.kind != "pawn":
            return self.judge.value(rows, penalties), penalty
        if self.finishes(pawn):  # the game ends with this turn: the sheet scores as it is
            value = float(sum(triangle(r[1]) for r in rows) - PENALTY * penalties)
        else:
            value = self.judge.value(rows, penalties)
        return value + self.pawn_gain(pawn), penalty

    def finishes(self, move: Move) -> bool:
        """Whether ``move`` takes the pawn of a one-seat game into the finish area (with
        nobody left to play a last turn, that ends the game)."""
        game = self.board_game()
        position = game.landing(self.player, move.number or 0)
        return len(game.players) == 1 and position is not None and game.board.in_finish(position)

    def pawn_gain(self, move: Move) -> float:
        game = self.board_game()
        position = game.landing(self.player, move.number or 0)
        assert position is not None  # the move was planned from where the pawn lands
        board = game.board
        return float(board.bonus(position) - board.bonus(game.pawn_positions()[self.player]))

    def board_game(self) -> OnBoardGame:
        """The game, for a pawn move: only On Board has them."""
        assert isinstance(self.game, OnBoardGame)
        return self.game


def row_of(game: QwixxGame, rules: RowRules, crossed: list[int], crosses: int, colour: str) -> Row:
    start = rules.index(ASCENDING[colour], crossed[-1]) + 1 if crossed else 0
    return start, crosses, colour in game.closed_rows()


def rate_moves(game: Game, player: int, level: str, settled: bool = True) -> list[RatedMove]:
    """Every legal move of ``player`` rated at ``level`` ("normal" or "hard"), best first."""
    assert isinstance(game, QwixxGame)
    return Turn.of(game, player, evaluator(game, player, level, settled)).rate_all()


def choose_rated(game: Game, player: int, level: str, tie: Callable[[], float]) -> Move:
    """The best move; ``tie`` breaks exact ties (seeded by the caller)."""
    rated = rate_moves(game, player, level)
    top = [r for r in rated if r.value >= rated[0].value - 1e-9]
    return max(top, key=lambda r: tie()).move if len(top) > 1 else rated[0].move
