"""The Qwixx On Board track with every pawn on it.

The start field and the 40 fields snake across lines of ``theme.TRACK_COLUMNS`` slots:
left to right, then back, and so on; a grey road behind the fields shows the way. Each
field shows its number in its colour and its bonus in a white pill below; the finish
area (the last five fields) sits on a chequered frame next to a flag. Pawns stand on
their field's top edge and carry their seat number as well as their colour; the legend
under the track names them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.i18n.words import t
from bot.render.describe import row_word
from bot.rules import Move
from bot.rules.boards import Board, Field
from bot.rules.onboard import PAWN, OnBoardGame

from . import icons, theme
from .canvas import Box, Canvas
from .parts import centre, draw_pawn, rounded, row_colours

__all__ = ["BoardLayout", "board_size", "field_box", "legend_box", "pawn_box", "render_board"]


@dataclass(frozen=True)
class BoardLayout:
    """Where the track's slots, the finish and the legend sit, in output pixels."""

    last: int  # the last position (40)
    finish_from: int
    players: int

    @classmethod
    def of(cls, game: OnBoardGame) -> BoardLayout:
        return cls(game.board.last, game.board.finish_from, len(game.players))

    @property
    def lines(self) -> int:
        return -(-(self.last + 1) // theme.TRACK_COLUMNS)

    @property
    def width(self) -> int:
        w, _ = theme.TRACK_CELL
        cols = theme.TRACK_COLUMNS
        return 2 * theme.MARGIN + cols * w + (cols - 1) * theme.TRACK_GAP

    def slot(self, position: int) -> tuple[int, int]:
        """(line, column) of ``position``: even lines run left to right, odd ones back."""
        line, k = divmod(position, theme.TRACK_COLUMNS)
        column = k if line % 2 == 0 else theme.TRACK_COLUMNS - 1 - k
        return line, column

    def slot_box(self, line: int, column: int) -> Box:
        w, h = theme.TRACK_CELL
        x0 = theme.MARGIN + column * (w + theme.TRACK_GAP)
        y0 = self.track_top + line * (h + theme.TRACK_LINE_GAP)
        return (x0, y0, x0 + w, y0 + h)

    def field_box(self, position: int) -> Box:
        return self.slot_box(*self.slot(position))

    @property
    def track_top(self) -> float:
        """The first line's top: its pawns' heads clear of the title's words, which end
        above the title line's last 12 px."""
        return theme.MARGIN + theme.TRACK_TITLE + theme.TRACK_PAWN - theme.PAWN_FOOT - 12

    @property
    def track_bottom(self) -> float:
        return self.slot_box(self.lines - 1, 0)[3]

    def finish_box(self) -> Box:
        """The chequered frame around the finish fields."""
        boxes = [self.field_box(p) for p in range(self.finish_from, self.last + 1)]
        pad = theme.TRACK_GAP * 0.9
        return (
            min(b[0] for b in boxes) - pad,
            min(b[1] for b in boxes) - pad,
            max(b[2] for b in boxes) + pad,
            max(b[3] for b in boxes) + pad,
        )

    def flag_area(self) -> Box:
        """The free slots after the last field, where the finish flag stands."""
        line, column = self.slot(self.last)
        step = 1 if line % 2 == 0 else -1
        free = [c for c in range(theme.TRACK_COLUMNS) if (c - column) * step > 0]
        if not free:  # a track that fills its last line: the flag goes below it
            b = self.field_box(self.last)
            return (b[0], b[3], b[2], b[3] + theme.TRACK_LINE_GAP)
        boxes = [self.slot_box(line, c) for c in free]
        gap = theme.TRACK_GAP * 2  # keep clear of the finish frame
        x0, x1 = min(b[0] for b in boxes), max(b[2] for b in boxes)
        if step < 0:
            x1 -= gap
        else:
            x0 += gap
        return (x0, boxes[0][1], x1, boxes[0][3])

    @property
    def legend_columns(self) -> int:
        return 1 if self.players <= 2 else 2

    def legend_box(self, k: int) -> Box:
        cols = self.legend_columns
        width = (self.width - 2 * theme.MARGIN - (cols - 1) * theme.SECTION_GAP) / cols
        line, col = divmod(k, cols)
        x0 = theme.MARGIN + col * (width + theme.SECTION_GAP)
        y0 = self.track_bottom + theme.SECTION_GAP + 8 + line * theme.LEGEND_ROW
        return (x0, y0, x0 + width, y0 + theme.LEGEND_ROW - 6)

    @property
    def height(self) -> int:
        rows = -(-self.players // self.legend_columns)
        return round(
            self.track_bottom + theme.SECTION_GAP + 8 + rows * theme.LEGEND_ROW + theme.MARGIN - 6
        )


def board_size(game: OnBoardGame) -> tuple[int, int]:
    layout = BoardLayout.of(game)
    return layout.width, layout.height


def field_box(game: OnBoardGame, position: int) -> tuple[int, int, int, int]:
    """Pixel box of ``position`` on the track (0 is the start field)."""
    return rounded(BoardLayout.of(game).field_box(position))


def pawn_box(game: OnBoardGame, position: int) -> tuple[int, int, int, int]:
    """Pixel box of the pawn standing alone on ``position`` (1 to the last field)."""
    return rounded(pawn_boxes(BoardLayout.of(game).field_box(position), 1)[0])


def legend_box(game: OnBoardGame, player: int) -> tuple[int, int, int, int]:
    """Pixel box of ``player``'s line in the legend."""
    return rounded(BoardLayout.of(game).legend_box(game.players.index(player)))


# --- drawing ---------------------------------------------------------------


def render_board(
    game: OnBoardGame, names: dict[int, str] | None = None, highlight: Iterable[Move] = ()
) -> bytes:
    """The track with every pawn, and a legend naming the players, as a PNG in the fixed
    palette (:meth:`.Canvas.card_png`: every colour of the board is in it; a tenth smaller
    and a third faster than an adaptive palette).

    ``highlight`` (the active player's legal moves) outlines the fields their "pawn" moves
    would land on, each with its number of steps.
    """
    layout = BoardLayout.of(game)
    canvas = Canvas.new(layout.width, layout.height)
    draw_board(canvas, game, names or {}, highlight, layout)
    return canvas.card_png()


def draw_board(
    canvas: Canvas,
    game: OnBoardGame,
    names: dict[int, str],
    highlight: Iterable[Move] = (),
    layout: BoardLayout | None = None,
) -> None:
    """The printed track (drawn once per board, see :meth:`Canvas.static`), then the
    final-round caption, the targets of ``highlight``, the pawns and the legend."""
    layout = layout or BoardLayout.of(game)
    board = game.board
    track = replace(layout, players=1)  # the same for any number of players: above the legend
    canvas.static(
        ("board", track, game.title, board),
        track.width,
        track.height,
        lambda card: draw_track(card, track, game.title, board),
    )
    draw_finish_caption(canvas, layout, game)
    draw_targets(canvas, layout, game, highlight)
    draw_pawns(canvas, layout, game)
    for k, player in enumerate(game.players):
        draw_legend_entry(
            canvas,
            layout.legend_box(k),
            game,
            player,
            k,
            names.get(player) or t("describe.player", number=player),
        )


def draw_track(canvas: Canvas, layout: BoardLayout, title: str, board: Board) -> None:
    """Everything printed on the board: the title, the road, the finish and the fields."""
    draw_title(canvas, layout, title, board.name)
    draw_road(canvas, layout)
    draw_finish(canvas, layout)
    draw_start(canvas, layout.field_box(0))
    for position in range(1, board.last + 1):
        field = board.field(position)
        assert field is not None
        draw_field(canvas, layout.field_box(position), position, field)


def draw_title(canvas: Canvas, layout: BoardLayout, title: str, board_name: str) -> None:
    y = theme.MARGIN + theme.TRACK_TITLE / 2 - 6
    canvas.text((theme.MARGIN, y), title, theme.TITLE_SIZE + 4, theme.INK, bold=True, anchor="lm")
    side = t("image.board_side", name=board_name)
    canvas.label(
        (layout.width - theme.MARGIN, y),
        side,
        theme.TRACK_WORDS,
        layout.width / 4,
        theme.MUTED,
        anchor="rm",
    )


def draw_road(canvas: Canvas, layout: BoardLayout) -> None:
    points = [centre(layout.field_box(p)) for p in range(layout.last + 1)]
    canvas.line(points, theme.TRACK_ROAD, theme.TRACK_ROAD_WIDTH)


def finish_flag(layout: BoardLayout) -> tuple[Box, float, float]:
    """The flag's box in the free slots after the last field, where its words start and
    how much room they have."""
    area = layout.flag_area()
    h = area[3] - area[1]
    flag = (area[0] + 4, area[1] + h * 0.12, area[0] + 4 + h * 0.5, area[1] + h * 0.62)
    x = flag[2] + 10
    return flag, x, area[2] - x


def draw_finish(canvas: Canvas, layout: BoardLayout) -> None:
    """The chequered frame around the finish fields, and the flag with "FINISH"."""
    frame = layout.finish_box()
    icons.chequer(canvas, frame, theme.TRACK_CHEQUER, theme.FINISH_DARK, theme.FINISH_LIGHT)
    area = layout.flag_area()
    h = area[3] - area[1]
    flag, x, room = finish_flag(layout)
    icons.flag(canvas, flag, h * 0.07)
    canvas.label(
        (x, area[1] + h * 0.3), t("image.finish"), 26, room, theme.INK, bold=True, anchor="lm"
    )


def draw_finish_caption(canvas: Canvas, layout: BoardLayout, game: OnBoardGame) -> None:
    """Under "FINISH": what the finish is, or the final round's last turn."""
    area = layout.flag_area()
    h = area[3] - area[1]
    _, x, room = finish_flag(layout)
    caption = t("image.finish_caption")
    last = game.last_turn()
    if last is not None and not game.finished:
        caption = t("image.final_round", turn=last)
    canvas.label(
        (x, area[1] + h * 0.62), caption, theme.TRACK_WORDS, room, theme.MUTED, anchor="lm"
    )


def draw_start(canvas: Canvas, b: Box) -> None:
    """The start field: no number and no bonus (it scores 0), room for every pawn."""
    canvas.rect(b, fill=theme.START_FIELD, outline=theme.INK, width=2.5, radius=theme.CELL_RADIUS)
    cx = (b[0] + b[2]) / 2
    canvas.label((cx, b[1] + 13), t("image.start"), 16, b[2] - b[0] - 10, theme.INK, bold=True)


def draw_field(canvas: Canvas, b: Box, position: int, field: Field) -> None:
    colours = row_colours(field.colour)
    canvas.rect(b, fill=colours.band, radius=theme.CELL_RADIUS)
    light = field.colour in theme.LIGHT_BANDS
    ink = theme.INK if light else theme.PAPER
    canvas.text(number_centre(b), str(field.number), theme.TRACK_NUMBER_SIZE, ink, bold=True)
    index_ink = colours.ink if light else colours.cell
    canvas.text((b[0] + 5, b[1] + 3), str(position), theme.TRACK_INDEX_SIZE, index_ink, anchor="lt")
    draw_bonus(canvas, b, field.bonus)


def number_centre(b: Box) -> tuple[float, float]:
    """Where a field's number stands: between the pawn's foot and the bonus."""
    return ((b[0] + b[2]) / 2, b[1] + (b[3] - b[1] - theme.TRACK_BONUS) * 0.5 + 3)


def bonus_box(b: Box) -> Box:
    """The white pill at the bottom of field ``b`` that holds its bonus."""
    h = theme.TRACK_BONUS
    return (b[0] + 6, b[3] - h - 5, b[2] - 6, b[3] - 5)


def draw_bonus(canvas: Canvas, b: Box, bonus: int) -> None:
    """The bonus in a white pill at the bottom of a field."""
    pill = bonus_box(b)
    canvas.rect(pill, fill=theme.PAPER, outline=theme.INK, width=1.5, radius=theme.TRACK_BONUS / 2)
    canvas.text(
        centre(pill), str(bonus), theme.TRACK_BONUS_SIZE, theme.INK, bold=True, condensed=True
    )


def draw_targets(
    canvas: Canvas, layout: BoardLayout, game: OnBoardGame, highlight: Iterable[Move]
) -> None:
    """Outline where the active player's pawn moves would land, with their steps."""
    for move in highlight:
        if move.kind != PAWN or move.number is None or game.finished:
            continue
        target = game.pawn_target(game.active, move.number)
        if target is None:
            continue
        b = layout.field_box(target[0])
        icons.outline(canvas, b, theme.CELL_RADIUS)
        r = theme.TRACK_WORDS * 0.7
        badge = (b[2] - r, b[1] - r - 2, b[2] + r, b[1] + r - 2)
        canvas.ellipse(badge, fill=theme.HIGHLIGHT_OUTER, outline=theme.PAPER, width=2)
        canvas.text(centre(badge), str(move.number), theme.TRACK_WORDS, theme.PAPER, bold=True)


def pawn_boxes(b: Box, count: int, start: bool = False) -> list[Box]:
    """Boxes for ``count`` pawns standing on the field ``b``.

    A pawn on a field (one at most) stands on its top edge, at its right, in the gap above
    the line: whatever is printed on the field (its position, number and bonus) stays in
    sight. The start field holds any number of pawns: one or two side by side, three or
    four two by two, under the word START.
    """
    if not start:
        height = theme.TRACK_PAWN
        right, foot = b[2] - 3, b[1] + theme.PAWN_FOOT
        return [(right - height * theme.PAWN[0] / theme.PAWN[1], foot - height, right, foot)]
    w, h = theme.PAWN
    area = (b[0] + 3, b[1] + 24, b[2] - 3, b[3] - 3)
    columns = 1 if count == 1 else 2
    lines = 1 if count <= 2 else 2
    cell_w = (area[2] - area[0]) / columns
    cell_h = (area[3] - area[1]) / lines
    scale = min(cell_w / w, cell_h / h, 0.8)
    pw, ph = w * scale, h * scale
    boxes = []
    for k in range(count):
        line, column = divmod(k, columns)
        x = area[0] + (column + 0.5) * cell_w
        y = area[1] + (line + 0.5) * cell_h
        boxes.append((x - pw / 2, y - ph / 2, x + pw / 2, y + ph / 2))
    return boxes


def draw_pawns(canvas: Canvas, layout: BoardLayout, game: OnBoardGame) -> None:
    by_position: dict[int, list[int]] = {}
    pawns = game.pawn_positions()
    for seat, player in enumerate(game.players):
        by_position.setdefault(pawns[player], []).append(seat)
    for position, seats in sorted(by_position.items()):
        b = layout.field_box(position)
        boxes = pawn_boxes(b, len(seats), start=position == 0)
        for box, seat in zip(boxes, seats, strict=True):
            draw_pawn(canvas, box, seat)


def draw_legend_entry(
    canvas: Canvas, b: Box, game: OnBoardGame, player: int, seat: int, name: str
) -> None:
    """The player's pawn, their name, and where the pawn stands (field and bonus)."""
    if not game.finished and player == game.active:
        canvas.rect(b, fill=theme.WINNER, radius=8)
    h = b[3] - b[1]
    pawn_h = h - 8
    pawn = (
        b[0] + 8,
        b[1] + 4,
        b[0] + 8 + pawn_h * theme.PAWN[0] / theme.PAWN[1],
        b[1] + 4 + pawn_h,
    )
    draw_pawn(canvas, pawn, seat)
    x = pawn[2] + 12
    room = b[2] - x - 8
    label, size = canvas.fit_name(name, theme.LEGEND_SIZE, room, bold=True)
    canvas.text((x, b[1] + h * 0.32), label, size, theme.INK, bold=True, anchor="lm")
    where = where_text(game.board, game.pawn_positions()[player])
    canvas.label((x, b[1] + h * 0.74), where, theme.TRACK_WORDS, room, theme.MUTED, anchor="lm")


def where_text(board: Board, position: int) -> str:
    if position == 0:
        return t("image.where_start")
    field = board.field(position)
    assert field is not None
    key = "image.where_finish" if board.in_finish(position) else "image.where"
    return t(
        key,
        position=position,
        row=row_word(field.colour).lower(),
        number=field.number,
        bonus=field.bonus,
    )
