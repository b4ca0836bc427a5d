"""Render example images from a seeded classic game: ``python -m bot.render.example OUTDIR``.

Writes ``sheet.png`` (player 1 with the options open to them outlined), ``dice.png``
and ``scoreboard.png`` (the same game played to its end).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bot.rules import PASS, new_game
from bot.rules.qwixx import QwixxGame

from . import render_dice, render_scoreboard, render_sheet

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia"}


def play(game: QwixxGame, moves: int, rng: random.Random) -> QwixxGame:
    """Play up to ``moves`` decisions, mostly crossing numbers that skip at most one."""
    for _ in range(moves):
        if game.finished:
            break
        player = min(game.decision().waiting)
        options = [m for m in game.legal_moves(player) if m != PASS]
        cheap = [m for m in options if len(game.skipped_by(player, m)) <= 1]
        pick = rng.choice(cheap) if cheap and rng.random() < 0.85 else PASS
        game, _ = game.apply(player, pick)
    return game


def start(seed: int) -> QwixxGame:
    game = new_game("classic", list(NAMES), seed)
    assert isinstance(game, QwixxGame)
    return game


def write_examples(out: Path, seed: int = 22, moves: int = 80) -> dict[str, Path]:
    """Write the three example images into ``out`` and return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    game = play(start(seed), moves, rng)
    ended = game
    while not ended.finished:
        ended = play(ended, 1, rng)
    images = {
        "sheet.png": render_sheet(game, 1, NAMES[1], game.legal_moves(1)),
        "dice.png": render_dice(game.dice),
        "scoreboard.png": render_scoreboard(ended, NAMES),
    }
    paths = {name: out / name for name in images}
    for name, data in images.items():
        paths[name].write_bytes(data)
    return paths


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else Path("docs")
    for path in write_examples(out).values():
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
