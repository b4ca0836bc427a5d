"""The table view: every player's sheet at a glance, in one image.

Each player is a compact block (:mod:`.compact`) in seat order, the active player's
framed and marked "to play", the cells filled most recently ringed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.i18n.words import t
from bot.rules import Game

from . import theme
from .compact import EDGE, Cell, CompactLayout, Surface, blocks_height, draw_blocks

TITLE = 44  # the title's line, and its words, at their base size (CompactLayout.words)
TITLE_SIZE = 24


def blocks_top(game: Game) -> int:
    """Where the first player's block begins, under the title."""
    return EDGE + round(CompactLayout.of(game).word(TITLE))


def table_size(game: Game) -> tuple[int, int]:
    """Width and height of :func:`render_table`'s image for ``game``."""
    layout = CompactLayout.of(game)
    return layout.width, blocks_top(game) + blocks_height(layout, len(game.players)) + EDGE


def render_table(
    game: Game, names: Mapping[int, str], latest: Mapping[int, Iterable[Cell]] | None = None
) -> bytes:
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
    title = (
        t("image.table_turn", title=game.title, turn=decision.turn)
        if decision.active is not None
        else t("image.table_over", title=game.title)
    )
    top = blocks_top(game)
    surface.label(
        (EDGE, (EDGE + top) / 2 - 4),
        title,
        layout.word(TITLE_SIZE),
        width - 2 * EDGE,
        theme.INK,
        bold=True,
    )
    draw_blocks(surface, layout, game, game.players, names, top, decision.active, latest)
    return surface.png(theme.TABLE_COMPRESS_LEVEL)
