"""Render example images from seeded games: ``python -m bot.render.example OUTDIR``.

Writes ``sheet.png`` (a classic sheet, player 1 with the options open to them outlined),
``dice.png`` and ``scoreboard.png`` (the same game played to its end), ``table.png``
(the table view of a 4-player classic game mid-game, the last two turns' crosses ringed),
``sheet-longo.png`` (a Longo sheet when a lucky number came up) and ``sheet-qwinto.png``
(a Qwinto sheet with the fields open to the current sum outlined); and ``board.png``
(a Qwixx On Board track in the active player's action 3, the fields their pawn may move
to outlined) with ``sheet-onboard.png`` (that player's sheet, with the board bonus box).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TypeVar

from bot.rules import PASS, Game, Move, new_game
from bot.rules.onboard import OnBoardGame
from bot.rules.qwinto import ROW_COLUMNS
from bot.rules.qwixx import QwixxGame

from . import (
    latest_between,
    render_board,
    render_dice,
    render_scoreboard,
    render_sheet,
    render_table,
)
from .compact import Cell

# Names as Discord has them: a long one (16 letters, the most shown whole), accents,
# Chinese and an emoji.
NAMES = {1: "Ana", 2: "Maximilian Weber", 3: "王小明"}
TABLE_NAMES = {**NAMES, 4: "Zoë 🦊"}
Played = TypeVar("Played", bound=QwixxGame)  # a Qwixx game, played on as its own kind


def play(
    game: Played, moves: int, rng: random.Random, max_skip: int = 1, keen: float = 0.85
) -> Played:
    """Play up to ``moves`` decisions, mostly (``keen``) crossing numbers that skip at most
    ``max_skip``."""
    for _ in range(moves):
        if game.finished:
            break
        player = min(game.decision().waiting)
        options = [m for m in game.legal_moves(player) if m != PASS]
        cheap = [m for m in options if len(game.skipped_by(player, m)) <= max_skip]
        pick = rng.choice(cheap) if cheap and rng.random() < keen else PASS
        game, _ = game.apply(player, pick)
    return game


def play_qwinto(game: Game, moves: int, rng: random.Random) -> Game:
    """Play up to ``moves`` Qwinto decisions: throw two or three dice, keep the throw, and
    write the sum where it roughly belongs in its row (small left, large right)."""
    for _ in range(moves):
        if game.finished:
            break
        player = min(game.decision().waiting)
        options = game.legal_moves(player)
        rolls = [m for m in options if m.kind == "roll" and len(m.dice) >= 2]
        places = [m for m in options if m.kind == "place"]
        if rolls:
            pick = rng.choice(rolls)
        elif places:
            pick = min(places, key=lambda m: misfit(game, m) + rng.random() * 0.15)
        else:
            pick = next((m for m in options if m.kind == "keep"), rng.choice(options))
        game, _ = game.apply(player, pick)
    return game


def misfit(game: Game, move: Move) -> float:
    """How far from its natural place (by the size of the sum) ``move`` writes the sum."""
    columns = ROW_COLUMNS[move.row or ""]
    where = columns.index(move.number or 0) / (len(columns) - 1)
    dice = len(game.dice_on_table())
    total = game.dice_total() or 0
    return abs(where - (total - dice) / (5 * dice))


def table_example(seed: int, turns: int = 9) -> tuple[QwixxGame, dict[int, set[Cell]]]:
    """A 4-player classic game at turn ``turns``, and the cells crossed since the start
    of the turn before (the latest crosses the table view rings)."""
    rng = random.Random(seed)
    game = start(seed, players=list(TABLE_NAMES))
    starts = {game.turn: game}
    while game.turn < turns and not game.finished:
        game = play(game, 1, rng)
        starts.setdefault(game.turn, game)
    return game, latest_between(starts.get(game.turn - 1, game), game)


def start(seed: int, variant: str = "classic", players: list[int] | None = None) -> QwixxGame:
    game = new_game(variant, players or list(NAMES), seed)
    assert isinstance(game, QwixxGame)
    return game


def longo_example(seed: int, crosses: int = 8) -> QwixxGame:
    """A Longo game stopped when player 1, with at least ``crosses`` crosses, may use luck."""
    rng = random.Random(seed)
    game = start(seed, "longo")
    for _ in range(2000):
        sheet = game.sheets[1]
        lucky = any(m.kind == "lucky" for m in game.legal_moves(1))
        if game.finished or (lucky and sum(map(sheet.crosses, sheet.crossed)) >= crosses):
            break
        game = play(game, 1, rng, max_skip=2, keen=0.95)
    return game


def qwinto_example(seed: int, turns: int = 14) -> Game:
    """A Qwinto game from turn ``turns`` on, stopped when player 1 may write in 3+ fields."""
    rng = random.Random(seed)
    game = new_game("qwinto", list(NAMES), seed)
    for _ in range(2000):
        fields = [m for m in game.legal_moves(1) if m.kind == "place"]
        if game.finished or (game.turn >= turns and len(fields) >= 3):
            break
        game = play_qwinto(game, 1, rng)
    return game


def onboard_example(seed: int, turns: int = 14, board: str = "A") -> OnBoardGame:
    """An On Board game from turn ``turns`` on, stopped in an action 3 with 3+ pawn moves,
    one of which at least crosses a number."""
    rng = random.Random(seed)
    game = new_game("onboard", list(NAMES), seed, {"board": board})
    assert isinstance(game, OnBoardGame)
    for _ in range(2000):
        steps = [m.number or 0 for m in game.legal_moves(game.active) if m.kind == "pawn"]
        crossing = any(t and t[2] for t in (game.pawn_target(game.active, s) for s in steps))
        if game.finished or (game.turn >= turns and len(steps) >= 3 and crossing):
            break
        game = play(game, 1, rng, max_skip=2, keen=0.9)
    return game


def write_board_examples(out: Path, seed: int = 22) -> dict[str, Path]:
    """Write ``board.png`` and ``sheet-onboard.png`` into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    game = onboard_example(seed)
    moves = game.legal_moves(game.active)
    images = {
        "board.png": render_board(game, NAMES, moves),
        "sheet-onboard.png": render_sheet(game, game.active, NAMES[game.active], moves),
    }
    paths = {name: out / name for name in images}
    for name, data in images.items():
        paths[name].write_bytes(data)
    return paths


def write_examples(out: Path, seed: int = 22, moves: int = 80) -> dict[str, Path]:
    """Write the example images into ``out`` and return their paths by file name."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    game = play(start(seed), moves, rng)
    ended = game
    while not ended.finished:
        ended = play(ended, 1, rng)
    longo = longo_example(seed)
    qwinto = qwinto_example(seed)
    table, latest = table_example(seed)
    images = {
        "sheet.png": render_sheet(game, 1, NAMES[1], game.legal_moves(1)),
        "dice.png": render_dice(game.dice_on_table()),
        "scoreboard.png": render_scoreboard(ended, NAMES),
        "sheet-longo.png": render_sheet(longo, 1, NAMES[1], longo.legal_moves(1)),
        "sheet-qwinto.png": render_sheet(qwinto, 1, NAMES[1], qwinto.legal_moves(1)),
        "table.png": render_table(table, TABLE_NAMES, latest),
    }
    paths = {name: out / name for name in images}
    for name, data in images.items():
        paths[name].write_bytes(data)
    return paths


def write_all(out: Path) -> dict[str, Path]:
    """Write every example image into ``out`` (the README's images, in ``docs/``)."""
    return {**write_examples(out), **write_board_examples(out)}


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else Path("docs")
    for path in write_all(out).values():
        print(path, path.stat().st_size, "bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
