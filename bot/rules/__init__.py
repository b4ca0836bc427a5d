"""The games, as pure data and functions: no Discord, no I/O, no clock, no global random.

Every variant implements :class:`Game`: ``decision()``, ``legal_moves(player)``,
``apply(player, move) -> (game, events)``, ``finished``, ``scores()``,
``ranking()`` and ``to_json()``. Create games with :func:`new_game` and restore
them with :func:`game_from_json` or :func:`replay`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .base import PASS, Decision, Event, Game, Move, RuleError, Score, Standing, dice_version_of
from .dice import DICE_VERSION
from .longo import LongoGame
from .onboard import OnBoardGame
from .qwinto import QwintoGame
from .qwixx import QwixxGame

VARIANTS: dict[str, type[Game]] = {
    cls.variant: cls for cls in (QwixxGame, LongoGame, OnBoardGame, QwintoGame)
}

__all__ = [
    "DICE_VERSION",
    "PASS",
    "VARIANTS",
    "Decision",
    "Event",
    "Game",
    "Move",
    "RuleError",
    "Score",
    "Standing",
    "dice_version_of",
    "game_from_json",
    "new_game",
    "replay",
]


def variant_class(variant: str) -> type[Game]:
    try:
        return VARIANTS[variant]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise RuleError(f"unknown variant {variant!r}; known variants: {known}") from None


def new_game(
    variant: str,
    players: Sequence[int],
    seed: int,
    options: dict[str, Any] | None = None,
    solo: bool = False,
    dice_version: int = DICE_VERSION,
) -> Game:
    """Start a game: the first player is active and the first roll is made.

    ``solo``: the one-person form (practice), exactly one seat, active every turn;
    otherwise the variant's player count applies. ``dice_version``: the dice
    derivation (:mod:`bot.rules.dice`); only a replay of an older game needs another.
    """
    cls = variant_class(variant)
    if len(set(players)) != len(players):
        raise RuleError("a player can only take one seat")
    if solo:
        if len(players) != 1:
            raise RuleError(f"a solo game of {cls.title} has exactly one player")
    elif not cls.min_players <= len(players) <= cls.max_players:
        raise RuleError(f"{cls.title} needs {cls.min_players}-{cls.max_players} players")
    return cls(list(players), seed, options or {}, dice_version)


def game_from_json(data: dict[str, Any]) -> Game:
    return variant_class(data["variant"]).from_json(data)


def replay(
    variant: str,
    players: Sequence[int],
    seed: int,
    options: dict[str, Any] | None,
    moves: Iterable[tuple[int, Move]],
    solo: bool = False,
    dice_version: int = DICE_VERSION,
) -> Game:
    """Rebuild a game from its seed and its move log; ``dice_version``: the stored
    game's (:func:`dice_version_of` its JSON)."""
    game = new_game(variant, players, seed, options, solo, dice_version)
    for player, move in moves:
        game, _ = game.apply(player, move)
    return game
