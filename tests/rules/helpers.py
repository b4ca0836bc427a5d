"""Helpers to build exact Qwixx situations, through :mod:`tests.positions` (a game
is never written to: each helper returns a new one)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from bot.rules import PASS, Event, Move, new_game
from bot.rules.base import dice_rng
from bot.rules.qwixx import QwixxGame
from tests.positions import reposition

ALL_DICE = ("white1", "white2", "red", "yellow", "green", "blue")
ROWS = ("red", "yellow", "green", "blue")
RED_YELLOW = list(range(2, 13))
GREEN_BLUE = list(range(12, 1, -1))
TRIANGLE = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]


def numbers(row: str) -> list[int]:
    """The printed numbers of ``row``, left to right (independent of the core)."""
    return RED_YELLOW if row in ("red", "yellow") else GREEN_BLUE


def cross(row: str, number: int) -> Move:
    return Move("cross", row, number)


def make_game(players: Sequence[int] = (1, 2, 3), seed: int = 1) -> QwixxGame:
    game = new_game("classic", players, seed)
    assert isinstance(game, QwixxGame)
    return game


def with_dice(
    game: QwixxGame,
    *,
    white1: int = 1,
    white2: int = 1,
    red: int = 1,
    yellow: int = 1,
    green: int = 1,
    blue: int = 1,
    phase: str = "action1",
    active_crossed: bool = False,
) -> QwixxGame:
    """``game`` at the start of ``phase`` with exactly these dice (a new game).

    No player is pre-passed: in action 1 every player has to choose explicitly.
    Dice of closed rows are left out, as the core would not have rolled them.
    """
    values = {
        "white1": white1,
        "white2": white2,
        "red": red,
        "yellow": yellow,
        "green": green,
        "blue": blue,
    }
    built = reposition(
        game,
        dice={d: v for d, v in values.items() if d not in game.closed},
        phase=phase,
        chosen={},
        active_crossed=active_crossed,
    )
    assert isinstance(built, QwixxGame)
    return built


def set_row(game: QwixxGame, player: int, row: str, crossed: Iterable[int]) -> QwixxGame:
    """``game`` with ``player``'s ``row`` crossed exactly so (a lock number adds the lock;
    a new game)."""
    built = reposition(game, sheets={player: {row: list(crossed)}})
    assert isinstance(built, QwixxGame)
    return built


def first(row: str, count: int) -> list[int]:
    """The first ``count`` numbers of ``row`` (never the lock number for count <= 10)."""
    return numbers(row)[:count]


def play(game: QwixxGame, *steps: tuple[int, Move]) -> tuple[QwixxGame, list[Event]]:
    """Apply ``(player, move)`` steps in order; return the final game and all events."""
    events: list[Event] = []
    for player, move in steps:
        game, new = game.apply(player, move)
        events += new
    return game, events


def everyone_passes_action1(game: QwixxGame) -> tuple[QwixxGame, list[Event]]:
    return play(game, *((p, PASS) for p in sorted(game.decision().waiting)))


def derived(
    dice: Sequence[str],
    faces: int,
    seed: int,
    *salt: object,
    version: int = 2,
    among: Sequence[str] = (),
) -> dict[str, int]:
    """The throw the core is documented to make at the position ``salt`` names, written
    out independently of it. Version 1: ``random.Random("seed:salt...")``, one ``randint``
    per die; version 2 (and 3): the BLAKE2b hash of that text, bytes below the largest
    multiple of ``faces`` taken in order as ``byte % faces + 1``, one per die of ``dice``;
    version 4: those faces go to ``among`` (the variant's every die, in order), and each
    die of ``dice`` shows its own."""
    key = ":".join(str(part) for part in (seed, *salt))
    if version == 1:
        rng = dice_rng(seed, *salt)
        return {die: rng.randint(1, faces) for die in dice}
    digest = hashlib.blake2b(key.encode()).digest()
    values = [b % faces + 1 for b in digest if b < 256 - 256 % faces]
    every = among if version == 4 else dice
    assert len(values) >= len(every), "the first block holds enough (true for these seeds)"
    thrown = dict(zip(every, values, strict=False))
    return {die: thrown[die] for die in dice}


def lucky_pairs(seed: int, count: int, version: int = 3) -> list[tuple[int, int]]:
    """Longo's lucky numbers the core is documented to deal ``count`` sheets, written out
    independently of it: of the 36 pairs of 5-13 in order, version 1 and 2 take
    ``random.Random("seed:lucky").sample``; version 3 reads the BLAKE2b hash of that text,
    bytes below 252 as ``byte % 36``, a pair already dealt skipped."""
    pairs = [(a, b) for a in range(5, 14) for b in range(a + 1, 14)]
    if version in (1, 2):
        return dice_rng(seed, "lucky").sample(pairs, count)
    digest = hashlib.blake2b(f"{seed}:lucky".encode()).digest()
    picks = list(dict.fromkeys(b % 36 for b in digest if b < 252))
    assert len(picks) >= count, "the first block holds enough (true for these seeds)"
    return [pairs[i] for i in picks[:count]]


def roll(
    seed: int, turn: int, dice: Sequence[str] = ALL_DICE, *, version: int = 4
) -> dict[str, int]:
    """What the core is documented to roll for ``turn`` of a classic game (of ``version``;
    by default a new game's)."""
    return derived(dice, 6, seed, "turn", turn, version=version, among=ALL_DICE)


def seed_with_white_sum(turn: int, total: int) -> int:
    """The smallest seed whose roll for ``turn`` has white sum ``total``."""
    for seed in range(10_000):
        dice = roll(seed, turn)
        if dice["white1"] + dice["white2"] == total:
            return seed
    raise AssertionError(f"no seed rolls white sum {total} on turn {turn}")


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]
