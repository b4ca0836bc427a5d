"""The ``easy`` computer player: a beginner's rules of thumb.

Qwixx: cross a number only if it leaves none behind (a pawn's steps count a little),
unless a penalty looms, then one that leaves up to three. Qwinto: write the throw
near the field its sum deserves (within one field, three when a failed throw looms).
(Qwixx's ``easy`` once let one number go at any time: ``normal`` then beat it in only
two games of three, too close to tell the levels apart.)
"""

from __future__ import annotations

import random

from bot.rules import PASS, Game, Move
from bot.rules.qwinto import PLACE, ROW_COLUMNS

CALM = {"qwinto": 1.0}  # the most an option may cost with no penalty looming; Qwixx: 0


def choose(game: Game, player: int, rng: random.Random) -> Move:
    """A sensible legal move: cross without leaving much behind, avoid penalties."""
    moves = game.legal_moves(player)
    kinds = {m.kind for m in moves}
    if "roll" in kinds:
        return rng.choice([m for m in moves if len(m.dice) >= 2])
    if "keep" in kinds:
        return Move("keep") if _best(game, player, _placements(game, player)) else Move("reroll")
    options = [m for m in moves if m != PASS]
    best = _best(game, player, options, rng)
    return best if best is not None else game.fallback_move(player)


def _best(
    game: Game, player: int, options: list[Move], rng: random.Random | None = None
) -> Move | None:
    """The cheapest option if it is cheap enough (:data:`CALM`), or up to 3 when a
    penalty looms."""
    if not options:
        return None
    tie = rng.random if rng else (lambda: 0.0)
    ranked = sorted(options, key=lambda m: (_cost(game, player, m), tie()))
    limit = 3.0 if _penalty_looms(game, player) else CALM.get(game.variant, 0.0)
    return ranked[0] if _cost(game, player, ranked[0]) <= limit else None


def _cost(game: Game, player: int, move: Move) -> float:
    """How much a move gives up: numbers skipped (Qwixx), distance from the field a
    sum deserves (Qwinto); pawn moves are worth a little per step."""
    if move.kind == "place":
        return _field_cost(game, move)
    skipped = len(game.skipped_by(player, move))
    return skipped - 0.1 * (move.number or 0) if move.kind == "pawn" else skipped


def _field_cost(game: Game, move: Move) -> float:
    position = ROW_COLUMNS[move.row or ""].index(move.number or 0)
    ideal = ((game.dice_total() or 1) - 1) / 17 * 8  # sums run 1-18 over fields 0-8
    return abs(position - ideal)


def _placements(game: Game, player: int) -> list[Move]:
    """Where the current throw could go, as if it were final."""
    sheet = game.sheets[player]
    thrown = game.dice_on_table()  # the colours rolled, in the rules' order
    total = game.dice_total() or 0
    return [Move(PLACE, row, column) for row in thrown for column in sheet.free_fields(row, total)]


def _penalty_looms(game: Game, player: int) -> bool:
    """The active player's last chance this turn to avoid a penalty or failed throw."""
    return game.passing_costs_penalty(player)
