"""Shared steps for service tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.rules import Game, Move
from bot.service.games import GameService

Chooser = Callable[[Game, int], Move]
"""What a player decides in a position."""


async def play(service: GameService, game_id: int, choose: Chooser, limit: int = 10_000) -> None:
    """Whoever is awaited first decides by ``choose`` (the service plays the computers),
    until the game ends."""
    for _ in range(limit):
        game = (await service.keeper.read(game_id)).game
        assert game is not None
        if game.finished:
            return
        decision = game.decision()
        player = sorted(decision.waiting)[0]
        await service.turns.move(game_id, player, game.turn, decision.phase, choose(game, player))
    raise AssertionError("game did not end")


async def play_randomly(
    service: GameService, game_id: int, rng: random.Random, limit: int = 10_000
) -> None:
    """Whoever is awaited first makes a random legal move, until the game ends."""
    await play(service, game_id, lambda game, player: rng.choice(game.legal_moves(player)), limit)
