"""Whole games played through the service by tests: the first person the game waits
for makes a move chosen at random."""

from __future__ import annotations

import random

from bot.players import is_computer
from bot.service.games import GameService
from bot.service.outcome import Outcome


async def random_move(service: GameService, outcome: Outcome, rng: random.Random) -> Outcome:
    """The move of the first person ``outcome``'s game waits for (the computers move by
    themselves), chosen by ``rng`` among their legal moves."""
    game = outcome.game
    assert game is not None and not game.finished
    person = next(p for p in sorted(game.decision().waiting) if not is_computer(p))
    return await service.turns.move(
        outcome.record.id,
        person,
        game.turn,
        game.decision().phase,
        rng.choice(game.legal_moves(person)),
    )
