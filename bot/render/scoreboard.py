"""The final scoreboard: the ranking with scores broken down, then every sheet, small."""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.rules import Game, Score, Standing
from bot.rules import qwinto as qwinto_rules

from . import qwinto_sheet, theme
from .canvas import Box, Canvas
from .parts import blend, centre, row_colours, signed
from .sheet import SheetLayout, draw_sheet, has_board, sheet_size


def score_rows(game: Game) -> tuple[str, ...]:
    """The rows a variant scores, in the sheet's order."""
    if game.variant == qwinto_sheet.VARIANT:
        return qwinto_rules.ROWS
    return SheetLayout.of(game).rows  # type: ignore[arg-type]


@dataclass(frozen=True)
class BoardLayout:
    """Scoreboard geometry in output pixels."""

    rows: tuple[str, ...]
    players: int
    bonus: bool
    sheet_size: tuple[int, int]
    penalty_label: str = "penalties"

    @classmethod
    def of(cls, game: Game) -> BoardLayout:
        qwinto = game.variant == qwinto_sheet.VARIANT
        # Qwinto always scores its bonus (pentagons), On Board its pawns' fields; other
        # games show one only if someone has it.
        bonus = qwinto or has_board(game) or any(s.bonus for s in game.scores().values())
        return cls(score_rows(game), len(game.players), bonus, sheet_size(game),
                   "failed" if qwinto else "penalties")

    @property
    def small_sheet(self) -> tuple[float, float]:
        w, h = self.sheet_size
        return w * theme.BOARD_SHEET_SCALE, h * theme.BOARD_SHEET_SCALE

    @property
    def columns(self) -> int:
        return min(theme.BOARD_COLUMNS, self.players)

    @property
    def width(self) -> int:
        sheets = self.columns * self.small_sheet[0] + (self.columns - 1) * theme.SECTION_GAP
        return math.ceil(max(sheets, self.min_table_width) + 2 * theme.MARGIN)

    @property
    def score_columns(self) -> list[str]:
        return [*self.rows, *(["bonus"] if self.bonus else []), self.penalty_label, "total"]

    @property
    def min_table_width(self) -> float:
        return theme.BOARD_RANK + theme.BOARD_NAME + len(self.score_columns) * theme.BOARD_COLUMN

    @property
    def table_top(self) -> float:
        return theme.MARGIN + theme.BOARD_TITLE + 8

    def table_cell(self, line: int, column: int) -> Box:
        """Line 0 is the header; column 0 the rank, 1 the name, then the score columns."""
        name_width = (self.width - 2 * theme.MARGIN - theme.BOARD_RANK
                      - len(self.score_columns) * theme.BOARD_COLUMN)
        widths = [theme.BOARD_RANK, name_width] + [theme.BOARD_COLUMN] * len(self.score_columns)
        x0 = theme.MARGIN + sum(widths[:column])
        y0 = self.table_top + line * theme.BOARD_ROW
        return (x0, y0, x0 + widths[column], y0 + theme.BOARD_ROW)

    @property
    def sheets_top(self) -> float:
        return self.table_top + (self.players + 1) * theme.BOARD_ROW + theme.SECTION_GAP + 4

    def sheet_origin(self, k: int) -> tuple[float, float]:
        w, h = self.small_sheet
        col, line = k % self.columns, k // self.columns
        return (theme.MARGIN + col * (w + theme.SECTION_GAP),
                self.sheets_top + line * (h + theme.SECTION_GAP))

    @property
    def height(self) -> int:
        lines = math.ceil(self.players / self.columns)
        h = self.small_sheet[1]
        return math.ceil(self.sheets_top + lines * h + (lines - 1) * theme.SECTION_GAP
                         + theme.MARGIN)


def render_scoreboard(game: Game, names: dict[int, str]) -> bytes:
    """Ranking (winner first, ties share a rank) with every player's sheet, as a PNG."""
    layout = BoardLayout.of(game)
    canvas = Canvas.new(layout.width, layout.height)
    canvas.text((theme.MARGIN, theme.MARGIN + theme.BOARD_TITLE / 2),
                f"{game.title} — final scores", 30, theme.INK, bold=True, anchor="lm")
    draw_table_header(canvas, layout)
    scores = game.scores()
    standings = game.ranking()
    for line, standing in enumerate(standings, start=1):
        draw_standing(canvas, layout, line, standing, scores[standing.player],
                      player_name(names, standing.player))
    for k, standing in enumerate(standings):
        x, y = layout.sheet_origin(k)
        view = canvas.view(x, y, theme.BOARD_SHEET_SCALE)
        draw_sheet(view, game, standing.player, player_name(names, standing.player))
    return canvas.png()


def player_name(names: dict[int, str], player: int) -> str:
    return names.get(player) or f"Player {player}"


def draw_table_header(canvas: Canvas, layout: BoardLayout) -> None:
    size = theme.BOARD_HEADER_TEXT
    canvas.text(centre(layout.table_cell(0, 0)), "rank", size, theme.MUTED)
    name_cell = layout.table_cell(0, 1)
    canvas.text((name_cell[0] + 8, centre(name_cell)[1]), "player", size, theme.MUTED,
                anchor="lm")
    for k, column in enumerate(layout.score_columns):
        b = layout.table_cell(0, k + 2)
        if column in layout.rows:
            colours = row_colours(column)
            canvas.rect((b[0] + 3, b[1] + 6, b[2] - 3, b[3] - 6), fill=colours.band, radius=6)
            ink = theme.INK if column in theme.LIGHT_BANDS else theme.PAPER
            canvas.text(centre(b), column, canvas.fit_text(column, size, b[2] - b[0] - 10),
                        ink, bold=True)
        else:
            label = canvas.fit_text(column, size, b[2] - b[0] - 6)
            canvas.text(centre(b), column, label, theme.MUTED, bold=column == "total")
    left, bottom = layout.table_cell(0, 0)[0], layout.table_cell(0, 0)[3]
    right = layout.width - theme.MARGIN
    canvas.line(((left, bottom), (right, bottom)), theme.RULE, 2, round_ends=False)


def draw_standing(canvas: Canvas, layout: BoardLayout, line: int, standing: Standing,
                  score: Score, name: str) -> None:
    first = layout.table_cell(line, 0)
    right = layout.width - theme.MARGIN
    winner = standing.rank == 1
    if winner:
        canvas.rect((first[0], first[1] + 2, right, first[3] - 2), fill=theme.WINNER, radius=8)
    rank_centre = centre(first)
    if winner:
        r = theme.BOARD_ROW * 0.36
        canvas.ellipse((rank_centre[0] - r, rank_centre[1] - r, rank_centre[0] + r,
                        rank_centre[1] + r), fill=theme.GOLD)
    canvas.text(rank_centre, str(standing.rank), theme.BOARD_TEXT, theme.INK, bold=True)
    name_cell = layout.table_cell(line, 1)
    name, size = canvas.fit_name(name, theme.BOARD_TEXT, name_cell[2] - name_cell[0] - 16,
                                 bold=True)
    canvas.text((name_cell[0] + 8, centre(name_cell)[1]), name, size, theme.INK, bold=winner,
                anchor="lm")
    values = [score.rows[r] for r in layout.rows]
    values += [*([score.bonus] if layout.bonus else []), score.penalty_points, score.total]
    for k, value in enumerate(values):
        b = layout.table_cell(line, k + 2)
        column = layout.score_columns[k]
        if column in layout.rows:
            canvas.rect((b[0] + 3, b[1] + 5, b[2] - 3, b[3] - 5),
                        fill=blend(row_colours(column).cell, theme.PAPER, 0.2), radius=6)
        canvas.text(centre(b), signed(value), theme.BOARD_TEXT + (2 if column == "total" else 0),
                    theme.INK, bold=column == "total")
