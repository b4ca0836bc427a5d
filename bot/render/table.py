"""The table view: every player's sheet at a glance, in one image.

Each player is a compact block (:mod:`.compact`) in seat order, the active player's
framed and marked "to play", the cells filled most recently ringed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.messages import t
from bot.rules import Game

from . import theme
from .compact import EDGE, Cell, CompactLayout, Surface, blocks_height, draw_blocks

TITLE = 44
TITLE_SIZE = 24


def table_size(game: Game) -> tuple[int, int]:
    """Width and height of :func:`render_table`'s image for ``game``."""
    layout = CompactLayout.of(game)
    return layout.width, TITLE + blocks_height(layout, len(game.players)) + 2 * EDGE


def render_table(game: Game, names: Mapping[int, str],
                 latest: Mapping[int, Iterable[Cell]] | None = None) -> bytes:
    """Every player's sheet in one compact PNG, in seat order.

    ``names``: player id -> display name. ``latest``: player id -> the cells to ring, as
    (row, number) for the Qwixx games and (row, column) for Qwinto — e.g. what was
    crossed in the current and the last turn; :func:`bot.render.compact.latest_from_moves`
    and :func:`bot.render.compact.latest_between` build it from moves or two game states.
    """
    layout = CompactLayout.of(game)
    width, height = table_size(game)
    surface = Surface(width, height)
    decision = game.decision()
    title = (t("image.table_turn", title=game.title, turn=decision.turn)
             if decision.active is not None else t("image.table_over", title=game.title))
    surface.label((EDGE, EDGE + TITLE / 2 - 4), title, TITLE_SIZE, width - 2 * EDGE, theme.INK,
                  bold=True)
    draw_blocks(surface, layout, game, game.players, names, EDGE + TITLE,
                decision.active, latest)
    return surface.png(theme.TABLE_COMPRESS_LEVEL)
