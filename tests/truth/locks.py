"""A plan made ahead that meets a lock, set up from the dice a seed throws.

Plans ahead seldom fail by themselves: the only thing that takes a move foreseen away is
another player's lock in action 1, which needs five crosses in a row and the white dice's
highest (or lowest) sum in the right turn. So a game of people only is given a plot: one
person, the locker, crosses a row from its start on the white sums that climb it, and
locks it in action 1 of a turn whose white dice throw its last number; that turn's
active person, who keeps the row open, plans to cross in it with its coloured die. The
dice of a turn come from the seed and the turn alone (the rules' :func:`throw`, each die
with its own face), so the seed is chosen for such a turn before the game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.rules import PASS, Game, Move, new_game
from bot.rules.dice import DICE_VERSION, throw
from bot.rules.qwixx import ALL_DICE

ROWS = ("red", "green")
"""The rows a locker fills: the first locks at the white dice's highest sum, the other
at their lowest."""
FROM, TO = 10, 20
"""The turns the lock may come in: late enough for the locker's crosses, early enough for
the game to last."""
VARIANTS = ("classic", "longo", "onboard")


SPARE = {"red": "blue", "green": "yellow"}
"""The row whose first number the planner keeps, so that the lock's white sum gives
them a choice in action 1 (a plan is made with one): blue's 12, yellow's 2."""


@dataclass(frozen=True)
class LockPlot:
    """The locker crosses ``row`` by the white sums of ``path`` (turn -> number) and
    locks it in action 1 of ``turn``, whose active person, the planner, planned to
    cross in it."""

    turn: int
    row: str
    locker: int
    planner: int
    path: dict[int, int]

    def move(self, game: Game, player: int, move: Move) -> Move:
        """``move`` as the plot has it until the lock: the locker's crosses on its path
        and the lock; nobody's other cross in the row (kept open for the planner's
        plan), nor the planner's in the :data:`SPARE` row; no pass that costs a penalty
        while a cross is open (a fourth would end the game before the lock)."""
        if game.turn > self.turn or game.variant not in VARIANTS:
            return move
        if player == self.locker and game.decision().phase == "action1":
            number = self.path.get(game.turn)
            if game.turn == self.turn:
                number = game.rules.numbers(self.row)[-1]
            wanted = Move("cross", self.row, number) if number is not None else None
            if wanted is not None and wanted in game.legal_moves(player):
                return wanted
        kept = self.kept(game, player)
        if move.row in kept or (move == PASS and game.passing_costs_penalty(player)):
            return elsewhere(game, player, kept)
        return move

    def kept(self, game: Game, player: int) -> set[str]:
        """The rows ``player`` leaves alone now (none after the lock's turn; the locker
        crosses its row only as :meth:`move` has it)."""
        if game.turn > self.turn:
            return set()
        if player == self.planner and game.turn < self.turn:
            return {self.row, SPARE[self.row]}
        return {self.row}


def elsewhere(game: Game, player: int, kept: set[str]) -> Move:
    """The cross that skips least outside the rows ``kept`` (a pawn's move landing
    outside them), or a pass."""
    moves = [m for m in game.legal_moves(player) if m != PASS and m.row not in kept]
    return min(moves, key=lambda m: len(game.skipped_by(player, m)), default=PASS)


def lock_plot(variant: str, seed: int, people: Sequence[int]) -> LockPlot | None:
    """The first turn from :data:`FROM` to :data:`TO` whose white dice throw the last
    number of a row of :data:`ROWS` while its coloured die gives the active person a cross
    in it, with the white sums of the turns before climbing that row far enough for a
    lock (the locker: the next seat); None if there is none."""
    if variant not in VARIANTS or len(people) < 2:
        return None
    rules = new_game(variant, list(people), seed).rules
    numbers_of, span = rules.numbers, rules.lock_span
    faces, needed = rules.faces, rules.lock_threshold
    for turn in range(FROM, TO + 1):
        dice = throw(DICE_VERSION, ALL_DICE, faces, seed, "turn", turn, among=ALL_DICE)
        white = (dice["white1"], dice["white2"])
        for row in ROWS:
            numbers = numbers_of(row)
            if sum(white) != numbers[-1] or not any(
                w + dice[row] in numbers[:-span] for w in white
            ):
                continue
            path = climb(seed, faces, numbers[:-span], turn)
            if len(path) >= needed:
                planner, locker = people[(turn - 1) % len(people)], people[turn % len(people)]
                return LockPlot(turn, row, locker, planner, path)
    return None


def climb(seed: int, faces: int, numbers: list[int], before: int) -> dict[int, int]:
    """The longest run of white sums of turns 1 .. ``before`` - 1 that climbs
    ``numbers`` (a row before its lock), turn -> number."""
    sums = []
    for turn in range(1, before):
        dice = throw(DICE_VERSION, ALL_DICE, faces, seed, "turn", turn, among=ALL_DICE)
        total = dice["white1"] + dice["white2"]
        if total in numbers:
            sums.append((turn, numbers.index(total)))
    best: list[list[tuple[int, int]]] = []  # the longest climb ending at each sum
    for index, (turn, place) in enumerate(sums):
        before_it = [best[i] for i in range(index) if sums[i][1] < place]
        best.append([*max(before_it, key=len, default=[]), (turn, place)])
    longest = max(best, key=len, default=[])
    return {turn: numbers[place] for turn, place in longest}


def lock_seed(variant: str, seed: int, seated: Callable[[int], Sequence[int]]) -> int:
    """The first of ``seed``, ``seed + 100000``, ... whose game of people only
    (``seated``: the people a seed seats, three or more) has a :class:`LockPlot`;
    ``seed`` if none of the first 500 has."""
    for candidate in range(seed, seed + 100_000 * 500, 100_000):
        people = seated(candidate)
        if len(people) >= 3 and lock_plot(variant, candidate, people) is not None:
            return candidate
    return seed
