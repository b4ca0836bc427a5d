"""The standing choice "cross only what skips nothing, else pass", for a member's
decisions on other people's turns (Qwixx, Longo, On Board)."""

from __future__ import annotations

from bot.rules import PASS, Game, Move


def skips_nothing(game: Game, player: int) -> Move:
    """The cross that leaves no number behind on ``player``'s sheet — of several, the
    one in the row already crossed most (nearest its lock), the rules' first on a tie —
    else a pass. Only among ``game.legal_moves(player)``."""
    best: Move = PASS
    most = -1
    sheet = game.sheets.get(player)
    for move in game.legal_moves(player):
        if move == PASS or move.row is None or game.skipped_by(player, move):
            continue
        crossed = sheet.crosses(move.row) if sheet is not None else 0
        if crossed > most:
            best, most = move, crossed
    return best
