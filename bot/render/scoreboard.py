"""The final scoreboard: the ranking with scores broken down, then every player's
compact sheet (:mod:`.compact`) in ranking order.

The image is as wide as the compact sheets, and its table's digits as large as their
digits, so the whole scoreboard stays readable on a phone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, partial

from bot.i18n.words import t
from bot.rules import Game, Score, Standing
from bot.rules import qwinto as qwinto_rules
from bot.rules.qwixx import QwixxGame

from . import theme
from .canvas import Box, Canvas, Colour
from .compact import (
    EDGE,
    CompactLayout,
    Surface,
    blocks_height,
    draw_blocks,
    draw_chip,
    draw_name,
    sprite,
)
from .parts import centre, measure, row_colours, signed
from .sheet import SheetLayout

# The title's line and words, the captions and their line over the names, at their base
# size (see CompactLayout.words).
TITLE = 44
TITLE_SIZE = 26
HEADER_SIZE = 15  # column captions
CAPTION_LINE = 22
CAPTION_PAD = 6  # a caption's room in its column
ROW_PAD = 14  # a table line is this much taller than its digits' font size
NAME_SCALE = 1.0  # a standing's name, this many times the digits' size
NAME_PAD = 8  # ... on a line this much taller


def score_rows(game: Game) -> tuple[str, ...]:
    """The rows a variant scores, in the sheet's order."""
    if game.variant == qwinto_rules.QwintoGame.variant:
        return qwinto_rules.ROWS
    assert isinstance(game, QwixxGame)  # every other variant is of the Qwixx family
    return SheetLayout.of(game).rows


@dataclass(frozen=True)
class ScoreboardLayout:
    """Scoreboard geometry in output pixels."""

    rows: tuple[str, ...]
    players: int
    bonus: bool
    sheets: CompactLayout
    penalty_label: str = "penalties"

    @classmethod
    def of(cls, game: Game) -> ScoreboardLayout:
        qwinto = game.variant == qwinto_rules.QwintoGame.variant
        # Qwinto always scores its bonus (pentagons), On Board its pawns' fields; other
        # games show one only if someone has it.
        bonus = qwinto or game.has_board or any(s.bonus for s in game.scores().values())
        return cls(
            score_rows(game),
            len(game.players),
            bonus,
            CompactLayout.of(game),
            "failed" if qwinto else "penalties",
        )

    @cached_property
    def width(self) -> int:
        return self.sheets.width

    @cached_property
    def score_columns(self) -> list[str]:
        return [*self.rows, *(["bonus"] if self.bonus else []), self.penalty_label, "total"]

    @cached_property
    def text_size(self) -> float:
        """The table's digits a little taller than the sheets' (which are just readable
        on a phone)."""
        return self.sheets.digit_size + 1

    @cached_property
    def line_height(self) -> int:
        return math.ceil(self.text_size + ROW_PAD)

    @cached_property
    def name_height(self) -> int:
        """A standing's name line, over its scores."""
        return math.ceil(self.text_size * NAME_SCALE + NAME_PAD)

    @cached_property
    def standing_height(self) -> int:
        return self.name_height + self.line_height

    def caption(self, column: str) -> str:
        """The words over a column ("rank", "player", "bonus"...); a row's is its chip."""
        return t(f"image.{column}")

    def caption_width(self, column: str, size: float) -> int:
        """What ``column``'s caption (or a row's chip) needs at ``size``, with its margin."""
        if column in self.rows:
            return self.sheets.label + CAPTION_PAD
        return math.ceil(measure(self.caption(column), size, bold=column == "total") + CAPTION_PAD)

    def value_width(self, column: str) -> int:
        """What the widest value of ``column`` needs: a row's most points, or "−20"."""
        widest = self.sheets.widest if column in self.rows else "−20"
        return math.ceil(measure(widest, self.text_size, True, True) + 10)

    def widths_at(self, size: float) -> list[int]:
        """The rank column, then each score column, as wide as their widest value or
        disc and their captions at ``size``."""
        rank = max(math.ceil(self.line_height * 0.9), self.caption_width("rank", size))
        return [
            rank,
            *(max(self.value_width(c), self.caption_width(c, size)) for c in self.score_columns),
        ]

    @cached_property
    def caption_size(self) -> float:
        """One size for every caption of the table's header: ``HEADER_SIZE`` (larger if
        a phone would show it too small, see :class:`.CompactLayout`), or the largest below
        it at which each fits its column beside the others."""
        size = max(self.sheets.word(HEADER_SIZE), self.sheets.least_words)
        room = self.width - 2 * EDGE
        while size > 8 and sum(self.widths_at(size)) > room:
            size -= 0.5
        return size

    @cached_property
    def column_widths(self) -> list[int]:
        """Each score column as wide as its widest value, chip or caption, the room left
        after the rank shared equally among them."""
        widths = self.widths_at(self.caption_size)[1:]
        spare = self.width - 2 * EDGE - self.rank_width - sum(widths)
        each = max(0, spare) // len(widths)
        widths = [w + each for w in widths]
        widths[-1] += max(0, spare) - each * len(widths)
        return widths

    @cached_property
    def rank_width(self) -> int:
        return self.widths_at(self.caption_size)[0]

    @cached_property
    def table_top(self) -> float:
        return EDGE + round(self.sheets.word(TITLE))

    @cached_property
    def caption_line(self) -> int:
        """The header's line over the names, with its caption."""
        return round(self.sheets.word(CAPTION_LINE))

    @cached_property
    def header_height(self) -> int:
        """The header: the caption over the names, then the columns' captions."""
        return self.caption_line + self.line_height

    def line_top(self, line: int) -> float:
        """Top of table line ``line``: 0 is the header, then a standing per line."""
        if line == 0:
            return self.table_top
        return self.table_top + self.header_height + (line - 1) * self.standing_height

    def table_cell(self, line: int, column: int) -> Box:
        """Column 0 is the rank (a standing's two lines), 1 the name (a standing's first
        line, as wide as the scores), then the score columns (its second line); the header
        (line 0) has their captions in the same places."""
        y0 = self.line_top(line)
        x0 = EDGE + self.rank_width
        right = self.width - EDGE
        names = self.caption_line if line == 0 else self.name_height
        if column == 0:
            return (EDGE, y0, x0, y0 + names + self.line_height)
        if column == 1:
            return (x0, y0, right, y0 + names)
        widths = self.column_widths
        x = x0 + sum(widths[: column - 2])
        return (x, y0 + names, x + widths[column - 2], y0 + names + self.line_height)

    @cached_property
    def sheets_top(self) -> float:
        return self.line_top(self.players + 1) + theme.SECTION_GAP

    @cached_property
    def height(self) -> int:
        return math.ceil(self.sheets_top + blocks_height(self.sheets, self.players) + EDGE)


def render_scoreboard(game: Game, names: dict[int, str]) -> bytes:
    """Ranking (winner first, ties share a rank) with every player's sheet, as a PNG."""
    layout = ScoreboardLayout.of(game)
    surface = Surface(layout.width, layout.height)
    surface.label(
        (EDGE, (EDGE + layout.table_top) / 2 - 4),
        t("image.final_scores", title=game.title),
        layout.sheets.word(TITLE_SIZE),
        layout.width - 2 * EDGE,
        theme.INK,
        bold=True,
    )
    draw_table_header(surface, layout)
    scores = game.scores()
    standings = game.ranking()
    for line, standing in enumerate(standings, start=1):
        draw_standing(
            surface,
            layout,
            line,
            standing,
            scores[standing.player],
            player_name(names, standing.player),
        )
    draw_blocks(
        surface, layout.sheets, game, [s.player for s in standings], names, layout.sheets_top
    )
    return surface.png(theme.SCOREBOARD_COMPRESS_LEVEL)


def player_name(names: dict[int, str], player: int) -> str:
    return names.get(player) or t("describe.player", number=player)


def draw_table_header(surface: Surface, layout: ScoreboardLayout) -> None:
    """The captions, all of one size (:attr:`ScoreboardLayout.caption_size`: each fits its
    column at it), and the rows' chips."""
    size = layout.caption_size
    rank = layout.table_cell(0, 0)
    surface.label(
        centre(rank),
        layout.caption("rank"),
        size,
        rank[2] - rank[0] - CAPTION_PAD,
        theme.MUTED,
        anchor="mm",
    )
    names = layout.table_cell(0, 1)
    surface.label(
        (names[0] + 6, centre(names)[1] + 2),
        layout.caption("player"),
        size,
        names[2] - names[0] - 12,
        theme.MUTED,
    )
    for k, column in enumerate(layout.score_columns):
        b = layout.table_cell(0, k + 2)
        if column in layout.rows:  # the row's letter chip, as on the sheets
            height = layout.line_height - 10
            left = centre(b)[0] - layout.sheets.label / 2
            draw_chip(surface, layout.sheets, column, left, b[1] + 5, height, theme.PAPER)
        else:
            surface.label(
                centre(b),
                layout.caption(column),
                size,
                b[2] - b[0] - CAPTION_PAD,
                theme.MUTED,
                bold=column == "total",
                anchor="mm",
            )
    bottom = layout.table_cell(0, 0)[3]
    surface.rect((EDGE, bottom - 1, layout.width - EDGE, bottom + 1), theme.RULE)


def draw_standing(
    surface: Surface,
    layout: ScoreboardLayout,
    line: int,
    standing: Standing,
    score: Score,
    name: str,
) -> None:
    """A standing in two lines beside its rank: the name, whole, over the scores."""
    first = layout.table_cell(line, 0)
    right = layout.width - EDGE
    winner = standing.rank == 1
    ground = theme.WINNER if winner else theme.PAPER
    if winner:
        surface.rect((first[0], first[1] + 2, right, first[3] - 2), theme.WINNER)
    size = layout.text_size
    rank = str(standing.rank)
    side = layout.rank_width - 6
    surface.paste(
        sprite(
            ("rank", rank, winner, size),
            (side, side),
            ground,
            lambda c: draw_rank(c, rank, side, size, winner),
        ),
        centre(first)[0] - side / 2,
        centre(first)[1] - side / 2,
    )
    name_cell = layout.table_cell(line, 1)
    draw_name(
        surface,
        (name_cell[0] + 6, centre(name_cell)[1] + 2),
        name,
        size * NAME_SCALE,
        name_cell[2] - name_cell[0] - 12,
        theme.INK,
        bold=winner,
        ground=ground,
    )
    values = [score.rows[r] for r in layout.rows]
    values += [*([score.bonus] if layout.bonus else []), score.penalty_points, score.total]
    for k, value in enumerate(values):
        b = layout.table_cell(line, k + 2)
        column = layout.score_columns[k]
        tint = row_colours(column).cell if column in layout.rows else ground
        if tint != ground:
            surface.paste(
                sprite(
                    ("tint", tint),
                    (round(b[2] - b[0]) - 4, round(b[3] - b[1]) - 8),
                    ground,
                    partial(draw_tint, fill=tint, w=b[2] - b[0] - 4, h=b[3] - b[1] - 8),
                ),
                b[0] + 2,
                b[1] + 4,
            )
        surface.text(
            centre(b),
            signed(value),
            size,
            theme.INK,
            bold=column == "total",
            anchor="mm",
            condensed=True,
            ground=tint,
        )


def draw_tint(canvas: Canvas, fill: Colour, w: float, h: float) -> None:
    """A score cell's tint: the row's pale colour."""
    canvas.rect((0, 0, w, h), fill=fill, radius=5)


def draw_rank(canvas: Canvas, rank: str, side: float, size: float, winner: bool) -> None:
    """The rank, on a gold disc for the winner(s)."""
    if winner:
        canvas.ellipse((0, 0, side, side), fill=theme.GOLD)
    canvas.text((side / 2, side / 2), rank, size, theme.INK, bold=True, condensed=True)
