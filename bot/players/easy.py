"""The ``easy`` computer player: cross without leaving much behind, avoid penalties."""

from __future__ import annotations

import random

from bot.rules import PASS, Game, Move
from bot.rules.qwinto import PLACE, ROW_COLUMNS


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


def _best(game: Game, player: int, options: list[Move],
          rng: random.Random | None = None) -> Move | None:
    """The cheapest option if it is cheap enough; cheaper still when a penalty looms."""
    if not options:
        return None
    tie = rng.random if rng else (lambda: 0.0)
    ranked = sorted(options, key=lambda m: (_cost(game, player, m), tie()))
    limit = 3.0 if _penalty_looms(game, player) else 1.0
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
    return [Move(PLACE, row, column) for row in thrown
            for column in sheet.free_fields(row, total)]


def _penalty_looms(game: Game, player: int) -> bool:
    """The active player's last chance this turn to avoid a penalty or failed throw."""
    return game.passing_costs_penalty(player)
