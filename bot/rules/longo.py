"""Qwixx Longo: eight-sided dice, rows of 15, a two-number lock span and lucky numbers."""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from .base import DICE_VERSION, PASS, Move, RuleError
from .dice import DICE_VERSIONS, deal
from .qwixx import ASCENDING, ROWS, QwixxGame, QwixxRules

LUCKY = "lucky"
LUCKY_RANGE = range(5, 14)  # the project's decision: pairs dealt from 5-13


PAIRS = tuple(itertools.combinations(LUCKY_RANGE, 2))


def deal_lucky_numbers(
    seed: int, count: int, dice_version: int = DICE_VERSION
) -> list[tuple[int, int]]:
    """Two different lucky numbers per sheet; no two sheets share a pair."""
    if dice_version not in DICE_VERSIONS:
        raise RuleError(f"unknown dice version {dice_version!r}")
    return deal(dice_version, PAIRS, count, seed, "lucky")


@cache
def lucky_move(row: str, number: int) -> Move:
    """The move crossing ``number`` in ``row`` by a lucky number (shared: immutable)."""
    return Move(LUCKY, row, number)


RULES = QwixxRules(faces=8, lock_span=2, lock_threshold=6)
LUCKY_ROWS = tuple(
    (row, mask, row in ASCENDING, {n: lucky_move(row, n) for n in RULES.row_numbers[row]})
    for row, mask in zip(ROWS, RULES.row_masks, strict=True)
)
"""Per row: its name, its bits of :attr:`Sheet.allow`, whether its numbers ascend, and
number -> the lucky move crossing it."""


class LongoGame(QwixxGame):
    __slots__ = ("lucky",)
    variant = "longo"
    title = "Qwixx Longo"
    rules = RULES
    has_lucky_numbers = True

    def __init__(
        self,
        players: list[int],
        seed: int,
        options: dict[str, Any],
        dice_version: int = DICE_VERSION,
    ) -> None:
        self.lucky = dict(
            zip(players, deal_lucky_numbers(seed, len(players), dice_version), strict=True)
        )
        super().__init__(players, seed, options, dice_version)

    def _lucky_moves(self, player: int, total: int) -> list[Move]:
        return self.lucky_moves(player) if total in self.lucky[player] else []

    def _without_white_choice(self, total: int) -> dict[int, Move]:
        """As classic's, but a player whose lucky number ``total`` is has a move too when
        any open row lets their sheet cross something (its next number, by luck)."""
        rules, closed, sheets, lucky = self.rules, tuple(self.closed), self.sheets, self.lucky
        shift, open_rows, anything = 4 * total, rules.open_bits[closed], rules.row_bits[closed]
        passing: dict[int, Move] = {}
        for player in self.players:
            allow = sheets[player].allow
            if not (allow >> shift & open_rows or (total in lucky[player] and allow & anything)):
                passing[player] = PASS
        return passing

    def lucky_numbers(self, player: int) -> tuple[int, ...]:
        return tuple(self.lucky[player])

    def lucky_moves(self, player: int) -> list[Move]:
        """The next number of each emptiest open row whose next number may be crossed:
        rows whose part of the sheet's compact state allows anything, the next number
        being the row's first allowed (a test holds this to :meth:`_span`'s rule)."""
        closed, sheet = self.closed, self.sheets[player]
        allow = sheet.allow & self.rules.row_bits[tuple(closed)] if closed else sheet.allow
        crossed, locks = sheet.crossed, sheet.locks
        moves: list[Move] = []
        fewest = 0
        for row, mask, ascending, by_number in LUCKY_ROWS:
            bits = allow & mask  # bit 4 * n + (the row's place) for each number n allowed
            if not bits:
                continue  # nothing left to cross in this row
            count = len(crossed[row]) + (row in locks)
            if not moves or count < fewest:
                moves, fewest = [], count
            if count == fewest:  # the first allowed: the lowest bit, or the highest
                moves.append(
                    by_number[((bits & -bits) if ascending else bits).bit_length() - 1 >> 2]
                )
        return moves

    def _target(self, player: int, move: Move) -> tuple[str, int]:
        if move.kind == LUCKY and move.row is not None and move.number is not None:
            return move.row, move.number
        if move.kind == LUCKY:
            raise RuleError(f"malformed lucky move {move}")
        return super()._target(player, move)

    def _state_json(self) -> dict[str, Any]:
        return {**super()._state_json(), "lucky": {str(p): list(n) for p, n in self.lucky.items()}}

    def _load_state(self, data: dict[str, Any]) -> None:
        super()._load_state(data)
        self.lucky = {int(p): (n[0], n[1]) for p, n in data["lucky"].items()}
