"""Every image in words: text versions of sheets and the table, and the descriptions
(Discord's attachment alt text) of each image the bot uploads.

Pure functions of the game data, no Discord and no Pillow: the words come from the
message catalogue (:func:`bot.i18n.words.t`), so a translation replaces them all. Row names
are the catalogue's ``row.<colour>`` entries (:func:`row_word`); the images print their
first letter on each row (:func:`bot.render.parts.row_letter`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.i18n.english import EN
from bot.i18n.words import plural, t
from bot.rules import Game, Score
from bot.rules.qwinto import FAILED_LIMIT, GEOMETRY
from bot.rules.qwixx import QwixxGame

from .tally import SheetTally

ALT_TEXT = 1024  # Discord's limit for an attachment's description
QWINTO = "qwinto"
QWIXX_ROWS = ("red", "yellow", "green", "blue")
QWINTO_ROWS = ("orange", "yellow", "purple")


def row_word(row: str) -> str:
    """``row`` in words (``Red``) from the catalogue; the colour itself if it has none."""
    key = f"row.{row}"
    return t(key) if key in EN else row.capitalize()


def fit(text: str, limit: int = ALT_TEXT) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (alt text has a limit)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def name_of(names: Mapping[int, str], player: int) -> str:
    return names.get(player) or t("describe.player", number=player)


def signed(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def points(value: int) -> str:
    """``1 point``, ``−3 points``, ``5 punktów``: a score in words, in the language's plural
    form, with a typographic minus."""
    return plural("unit.point", value).replace("-", "−")


# --- one sheet ---------------------------------------------------------------


def sheet_text(game: Game, player: int, name: str) -> str:
    """``player``'s sheet in words, one line per row (name, crossed numbers, lock, points),
    then penalties (failed throws in Qwinto), any bonus, and the total."""
    score = game.scores()[player]
    lines = [t("describe.sheet", name=name, title=game.title)]
    if game.variant == QWINTO:
        lines += qwinto_lines(game, player, score)
    else:
        lines += qwixx_lines(game, player, score)
    lines.append(t("describe.total", total=signed(score.total)))
    return "\n".join(lines)


def qwixx_rows(game: Game) -> tuple[str, ...]:
    sheet = game.sheets[game.players[0]]
    return tuple(r for r in QWIXX_ROWS if r in sheet.crossed)


def qwixx_lines(game: Game, player: int, score: Score) -> list[str]:
    sheet = game.sheets[player]
    closed = set(game.closed_rows())
    lines = []
    for row in qwixx_rows(game):
        crossed = ", ".join(map(str, sheet.crossed[row])) or t("describe.crossed_none")
        marks = [t("describe.lock_crossed")] if row in sheet.locks else []
        marks += [t("describe.row_closed")] if row in closed else []
        lines.append(
            t(
                "describe.qwixx_row_points",
                row=row_word(row),
                numbers=crossed,
                marks="".join(f" · {m}" for m in marks),
                points=points(score.rows[row]),
            )
        )
    if game.has_lucky_numbers:
        a, b = game.lucky_numbers(player)
        lines.append(t("describe.lucky", a=a, b=b))
    if game.has_board:
        lines.append(pawn_line(game, player, game.pawn_positions()[player]))
    assert isinstance(game, QwixxGame)  # every other variant is of the Qwixx family
    limit = game.rules.penalty_limit
    lines.append(
        t(
            "describe.penalties",
            count=sheet.penalties,
            limit=limit,
            points=signed(score.penalty_points),
        )
    )
    return lines


def pawn_line(game: Any, player: int, position: int) -> str:
    if position == 0:
        return t("describe.pawn_start")
    field = game.board.fields[position - 1]
    return t(
        "describe.pawn",
        position=position,
        row=row_word(field.colour),
        number=field.number,
        bonus=game.bonus(player),
    )


def qwinto_lines(game: Game, player: int, score: Score) -> list[str]:
    sheet = game.sheets[player]
    lines = []
    for row in QWINTO_ROWS:
        written = sheet.fields[row]
        fields = " ".join(
            str(written[c]) if c in written else t("describe.empty_field")
            for c in GEOMETRY[row].columns
        )
        lines.append(
            t(
                "describe.qwinto_row_points",
                row=row_word(row),
                fields=fields,
                count=len(written),
                size=len(GEOMETRY[row].columns),
                points=points(score.rows[row]),
            )
        )
    lines.append(t("describe.bonus", points=score.bonus))
    lines.append(
        t(
            "describe.failed",
            count=sheet.failed,
            limit=FAILED_LIMIT,
            points=signed(score.penalty_points),
        )
    )
    return lines


# --- the table -----------------------------------------------------------------


def table_text(game: Game, names: Mapping[int, str]) -> str:
    """One short line per player, in seat order: score, penalties, locks, crosses per row
    (numbers written per row in Qwinto); the active player is marked."""
    scores = game.scores()
    active = game.decision().active
    return "\n".join(
        player_summary(game, p, name_of(names, p), scores[p], p == active) for p in game.players
    )


def player_summary(game: Game, player: int, name: str, score: Score, active: bool) -> str:
    sheet = game.sheets[player]
    mark = t("describe.active_mark") if active else ""
    if game.variant == QWINTO:
        counts = ", ".join(
            t("describe.row_count", row=row_word(r), count=len(sheet.fields[r]))
            for r in QWINTO_ROWS
        )
        return t(
            "describe.table_qwinto_points",
            mark=mark,
            name=name,
            points=points(score.total),
            failed=sheet.failed,
            rows=counts,
        )
    counts = ", ".join(
        t("describe.row_count", row=row_word(r), count=len(sheet.crossed[r]))
        for r in qwixx_rows(game)
    )
    locks = ", ".join(map(row_word, sheet.locks)) or t("describe.locks_none")
    return t(
        "describe.table_qwixx_points",
        mark=mark,
        name=name,
        points=points(score.total),
        penalties=sheet.penalties,
        locks=locks,
        rows=counts,
    )


# --- alt text of each image -------------------------------------------------------


def sheet_alt(game: Game, player: int, name: str) -> str:
    """The description of :func:`bot.render.render_sheet`'s image."""
    return fit(sheet_text(game, player, name))


def card_alt(marks: SheetTally, title: str) -> str:
    """The description of :func:`bot.render.render_card`'s image: each row's crosses of
    how many, and the penalties (failed throws) of how many."""
    rows = [
        t("describe.card_row", row=row_word(r.row), crosses=r.crosses, cells=r.cells)
        + (f" ({t('describe.lock_crossed')})" if r.locked else "")
        for r in marks.rows
    ]
    key = "describe.card_failed" if marks.qwinto else "describe.card_penalties"
    rows.append(t(key, count=marks.penalties, limit=marks.limit))
    return fit(t("describe.card", title=title, rows=" · ".join(rows)))


def table_alt(game: Game, names: Mapping[int, str]) -> str:
    """The description of :func:`bot.render.render_table`'s image."""
    decision = game.decision()
    if decision.active is None:
        head = t("describe.table_final", title=game.title)
    else:
        head = t(
            "describe.table_title",
            title=game.title,
            turn=decision.turn,
            active=name_of(names, decision.active),
        )
    return fit(head + "\n" + table_text(game, names))


def dice_alt(dice: Mapping[str, int]) -> str:
    """The description of :func:`bot.render.render_dice`'s image: each die, and the sum
    that matters: the white dice's in the Qwixx games (what every player may use), the
    thrown dice's in Qwinto (which has no white dice)."""
    parts = ", ".join(
        t("describe.die", colour=row_word(colour_of(die)), value=value)
        for die, value in dice.items()
    )
    white = [value for die, value in dice.items() if colour_of(die) == "white"]
    if white:
        return fit(t("describe.dice_white", dice=parts, total=sum(white)))
    return fit(t("describe.dice_thrown", dice=parts, total=sum(dice.values())))


def colour_of(die: str) -> str:
    """A die's colour from its name (``white1`` -> ``white``)."""
    return die.rstrip("0123456789")


def board_alt(game: Game, names: Mapping[int, str]) -> str:
    """The description of :func:`bot.render.render_board`'s image (On Board's track)."""
    pawns = game.pawn_positions()
    lines = [t("describe.board", title=game.title)]
    lines += [f"{name_of(names, p)}: {pawn_line(game, p, pawns[p])}" for p in game.players]
    return fit("\n".join(lines))


def scoreboard_alt(game: Game, names: Mapping[int, str]) -> str:
    """The description of :func:`bot.render.render_scoreboard`'s image: the ranking with
    each score broken down."""
    scores = game.scores()
    lines = [t("describe.scoreboard", title=game.title)]
    for standing in game.ranking():
        score = scores[standing.player]
        rows = ", ".join(f"{row_word(r)} {v}" for r, v in score.rows.items())
        lines.append(
            t(
                "describe.scoreboard_line",
                rank=standing.rank,
                name=name_of(names, standing.player),
                total=signed(score.total),
                rows=rows,
                bonus=score.bonus,
                penalty=signed(score.penalty_points),
            )
        )
    return fit("\n".join(lines))


class TableLike(Protocol):
    """What :func:`leaderboard_alt` reads (e.g. :class:`bot.render.leaderboard.BoardTable`)."""

    title: str
    subtitle: str
    headers: tuple[str, ...]
    footer: str

    @property
    def rows(self) -> Sequence[Any]: ...  # each with rank, name and values


def leaderboard_alt(table: TableLike) -> str:
    """The description of a leaderboard image: its title, one line per table line with
    each value after its header, and the footer."""
    lines = [f"{table.title} ({table.subtitle})" if table.subtitle else table.title]
    for row in table.rows:
        cells = ", ".join(f"{h} {v}" for h, v in zip(table.headers, row.values, strict=False))
        lines.append(f"{row.rank}. {row.name}: {cells}")
    if table.footer:
        lines.append(table.footer)
    return fit("\n".join(lines))
