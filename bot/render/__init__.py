"""Pillow images of the games: sheets, dice, the On Board track, the table view and the
final scoreboard; :mod:`.describe` says what each shows in words (alt text).

Every function is synchronous and pure (game data in, PNG bytes out); callers run them
off the event loop with ``asyncio.to_thread``.

The functions below import their module, and with it Pillow, the fonts and the drawing
code, at the first image drawn: a bot that has drawn nothing yet (or, with many
games open, a process that only plays) does not hold them (about 6 MB). What an
image shows in words (:mod:`.describe`) and what a leaderboard lists
(:mod:`.lines`) need no Pillow.

The modules import only those below them (tests/test_import_graph.py checks that there
is no circle), from the bottom up:

- :mod:`.fonts`, :mod:`.pool`, :mod:`.describe` (words only), :mod:`.lines` (the
  leaderboard's lines), :mod:`.tally` (a sheet counted, without its numbers): Pillow and
  the rules;
- :mod:`.theme` (colours, fonts, geometry, :func:`.theme.blend`) and :mod:`.png`;
- :mod:`.palette`: the fixed palettes, the leaderboard's colours among them;
- :mod:`.canvas`: the drawing surface and its caches;
- :mod:`.icons`, then :mod:`.parts`: shapes and the pieces every sheet shares;
- :mod:`.compact` (the small sheets, :class:`.compact.Surface`), :mod:`.dice`,
  :mod:`.qwinto_sheet`, :mod:`.board`;
- :mod:`.sheet`, :mod:`.table`, :mod:`.leaderboard`, :mod:`.card` (a daily's share
  card), then :mod:`.scoreboard`;
- :mod:`.example` (positions for tests and screenshots) at the top.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.rules import Game, Move
    from bot.rules.onboard import OnBoardGame

    from .compact import Cell
    from .lines import BoardTable
    from .tally import SheetTally

__all__ = [
    "latest_between",
    "latest_from_moves",
    "render_board",
    "render_card",
    "render_dice",
    "render_leaderboard",
    "render_scoreboard",
    "render_sheet",
    "render_standings",
    "render_table",
]


def render_board(
    game: OnBoardGame, names: dict[int, str] | None = None, highlight: Iterable[Move] = ()
) -> bytes:
    """:func:`.board.render_board`."""
    from .board import render_board as draw

    return draw(game, names, highlight)


def render_card(marks: SheetTally, title: str) -> bytes:
    """:func:`.card.render_card`."""
    from .card import render_card as draw

    return draw(marks, title)


def render_dice(dice: dict[str, int], show_sum: bool | None = None) -> bytes:
    """:func:`.dice.render_dice`."""
    from .dice import render_dice as draw

    return draw(dice, show_sum)


def render_scoreboard(game: Game, names: dict[int, str]) -> bytes:
    """:func:`.scoreboard.render_scoreboard`."""
    from .scoreboard import render_scoreboard as draw

    return draw(game, names)


def render_sheet(game: Game, player: int, name: str, highlight: Iterable[Move] = ()) -> bytes:
    """:func:`.sheet.render_sheet`."""
    from .sheet import render_sheet as draw

    return draw(game, player, name, highlight)


def render_table(
    game: Game, names: Mapping[int, str], latest: Mapping[int, Iterable[Cell]] | None = None
) -> bytes:
    """:func:`.table.render_table`."""
    from .table import render_table as draw

    return draw(game, names, latest)


def render_leaderboard(table: BoardTable) -> bytes:
    """:func:`.leaderboard.render_leaderboard`."""
    from .leaderboard import render_leaderboard as draw

    return draw(table)


def latest_from_moves(moves: Iterable[tuple[int, Move]]) -> dict[int, set[Cell]]:
    """:func:`.compact.latest_from_moves`."""
    from .compact import latest_from_moves as latest

    return latest(moves)


def latest_between(before: Game, after: Game) -> dict[int, set[Cell]]:
    """:func:`.compact.latest_between`."""
    from .compact import latest_between as latest

    return latest(before, after)


def render_standings(table: BoardTable) -> bytes:
    """:func:`.standings.render_standings` (the lines: :mod:`.standings_lines`)."""
    from .standings import render_standings as draw

    return draw(table)
