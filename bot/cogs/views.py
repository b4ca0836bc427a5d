"""Message builders: the text and components of lobby, turn, sheet and end messages.

Text names players by mention (``<@id>``); only new messages about a pending
decision let those mentions ping, through ``AllowedMentions``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.channel.cards import FORM, Card
from bot.channel.plan import Shown
from bot.channel.story import field_position, mention, mentions, row_text
from bot.cogs import cards
from bot.cogs.buttons import (
    AskButton,
    FieldSelect,
    LevelSelect,
    LobbyButton,
    MoveButton,
    RematchButton,
    ReviewButton,
    TurnButton,
    encode_move,
)
from bot.durations import format_duration
from bot.i18n.words import decimal, emoji, percent, plural, row_name, t
from bot.players import LEVELS, Hint, is_computer
from bot.records.games import GameRecord, StoredEvent
from bot.records.options import Options
from bot.rules import PASS, VARIANTS, Game, Move
from bot.rules.qwinto import FACES, PENTAGONS, ROW_COLUMNS, ROWS

LABEL_LIMIT = 80  # Discord's limit for a button's label
COSTLY_SKIP = 3  # a move skipping this many numbers or more asks for a confirmation
CERTAIN = 0.995  # a hint's move this sure to cost a penalty takes it on purpose
ROW_STYLE = {
    "red": discord.ButtonStyle.danger,
    "green": discord.ButtonStyle.success,
    "blue": discord.ButtonStyle.primary,
}


# --- lobby ---------------------------------------------------------------
def lobby_blocks(record: GameRecord) -> list[str]:
    """The lobby's text in the parts a reader sees: who opened what, who sits, how it
    is played (only when an option is on), and what starts it."""
    cls = VARIANTS[record.variant]
    options = Options.of(record.options)
    names = ", ".join(seat_name(p, options) for p in record.players)
    played = [
        t(f"lobby.{flag}") for flag in ("solo", "hints", "fill_away") if getattr(options, flag)
    ]
    return [
        t("lobby.title", title=cls.title, host=mention(record.host_id)),
        t(
            "lobby.players",
            count=len(record.players),
            max=1 if options.solo else cls.max_players,
            names=names,
        ),
        *(["\n".join(played)] if played else []),
        t(
            "lobby.hint_solo" if options.solo else "lobby.hint",
            variant=record.variant,
            min=cls.min_players,
            turn_time=format_duration(record.turn_time),
        ),
    ]


def lobby_content(record: GameRecord) -> str:
    return "\n".join(lobby_blocks(record))


def seat_name(player: int, options: Options) -> str:
    """A person's mention, or a computer's name with its level: ``🤖 Computer 1 (Hard)``."""
    if not is_computer(player):
        return mention(player)
    return t("lobby.computer", name=mention(player), level=t(f"level.{options.level(player)}"))


def rematch_blocks(record: GameRecord, previous: Iterable[int]) -> list[str]:
    """A lobby opened by **Rematch**: it mentions the people of the game before (the
    lobby below names the computers)."""
    people = [p for p in previous if not is_computer(p)]
    return [t("rematch.content", names=mentions(people)), *lobby_blocks(record)]


def rematch_content(record: GameRecord, previous: Iterable[int]) -> str:
    return "\n".join(rematch_blocks(record, previous))


def lobby_message(laid_out: Card, buttons: discord.ui.View | None, as_card: bool) -> dict[str, Any]:
    """A lobby message's fields (to send or edit it): the card with ``buttons`` under
    it, or, for a lobby posted before cards (which keeps its form), its text as
    content."""
    if as_card:
        return {"view": cards.layout(laid_out, [], buttons)}
    return {"content": laid_out.text, "view": buttons}


def lobby_fields(record: GameRecord, as_card: bool) -> dict[str, Any]:
    """The open lobby's message, as :func:`lobby_message`."""
    return lobby_message(Card(tuple(lobby_blocks(record))), lobby_view(record), as_card)


def rematch_fields(record: GameRecord, previous: Iterable[int]) -> dict[str, Any]:
    """A lobby opened by **Rematch**, as :func:`lobby_message` (a card: it is new)."""
    return lobby_message(Card(tuple(rematch_blocks(record, previous))), lobby_view(record), True)


def posted_as_card(record: GameRecord) -> bool:
    """Whether the lobby's message was posted as a card, as noted when it was (for the
    edits that do not answer a click on it)."""
    return Shown.of(record).form == FORM


def lobby_view(record: GameRecord) -> discord.ui.View:
    """Join, Leave, Add computer player, Start, Cancel; below them, once the lobby has
    computer seats, a select that sets each one's level."""
    cls = VARIANTS[record.variant]
    options = Options.of(record.options)
    view = discord.ui.View(timeout=None)
    full = options.solo or len(record.players) >= cls.max_players
    view.add_item(LobbyButton(record.id, "join", disabled=full))
    view.add_item(LobbyButton(record.id, "leave"))
    view.add_item(LobbyButton(record.id, "computer", disabled=full))
    view.add_item(
        LobbyButton(
            record.id,
            "start",
            disabled=len(record.players) < (1 if options.solo else cls.min_players),
        )
    )
    view.add_item(LobbyButton(record.id, "cancel"))
    computers = [p for p in record.players if is_computer(p)]
    if computers:
        choices = [
            (
                f"{seat}.{level}",
                t("lobby.level_option", name=mention(seat), level=t(f"level.{level}")),
            )
            for seat in computers
            for level in LEVELS
        ]
        view.add_item(LevelSelect(record.id, t("lobby.level_placeholder"), choices))
    return view


# --- the turn message ----------------------------------------------------
def turn_view(record: GameRecord, game: Game) -> discord.ui.View:
    """ "Open my sheet"; "Pass" when a pass needs no sheet to be understood; everyone's
    sheets (for anyone, spectators too); the board on request (On Board)."""
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(record.id, game.turn, "sheet"))
    if any(PASS in game.legal_moves(p) for p in game.decision().waiting):
        view.add_item(TurnButton(record.id, game.turn, "pass", game.decision().phase))
    view.add_item(TurnButton(record.id, game.turn, "table"))
    if game.has_board:
        view.add_item(TurnButton(record.id, game.turn, "board"))
    return view


def latest_cells(events: Iterable[StoredEvent]) -> dict[int, set[tuple[str, int]]]:
    """The cells filled by stored events (e.g. this turn's), for the table view to ring:
    (row, number) crossed, or Qwinto's (row, column) written."""
    cells: dict[int, set[tuple[str, int]]] = {}
    for event in events:
        key = {"crossed": "number", "placed": "column"}.get(event.kind)
        if key and event.player is not None and key in event.data:
            cells.setdefault(event.player, set()).add((event.data["row"], event.data[key]))
    return cells


# --- a player's sheet ----------------------------------------------------
def options_of(game: Game, player: int) -> list[Move]:
    """What ``player`` may choose now; nothing when the game already passed for them
    (a simultaneous phase in which Pass was their only move)."""
    moves = game.legal_moves(player)
    return [] if moves == [PASS] and player not in game.decision().waiting else moves


def sheet_content(game: Game, player: int, header: str = "") -> str:
    decision = game.decision()
    lines = [header] if header else []
    if not options_of(game, player):
        lines.append(t("sheet.nothing", turn=game.turn))
    else:
        total = game.dice_total() or ""
        phase = t(f"sheet.phase.{decision.phase}", total=total)
        key = {"qwinto": "sheet.choose_write", "action3": "sheet.choose_pawn"}.get(
            "qwinto" if game.variant == "qwinto" else decision.phase, "sheet.choose"
        )
        lines.append(t(key, turn=game.turn, phase=phase))
        if decision.phase == "action1" and player not in decision.waiting:
            lines.append(t("sheet.changed"))
    return "\n".join(lines)


def option_label(game: Game, player: int, move: Move) -> str:
    phase = game.decision().phase
    if move.kind == "pass":
        return t("option.stay") if phase == "action3" else t("button.pass")
    if move.kind == "pawn":
        return pawn_label(game, player, move)
    if move.kind in ("roll", "reroll"):
        dice = move.dice or tuple(game.dice_on_table())
        return t(f"option.{move.kind}", dice="".join(emoji(c) for c in dice))
    if move.kind == "keep":
        return t("option.keep", total=game.dice_total())
    if move.kind == "place":
        return field_label(game, player, move)
    mark, row = emoji(move.row or ""), row_name(move.row or "")
    if move.kind == "lucky":
        label = t("option.lucky", lucky=game.dice_total(), emoji=mark, row=row, number=move.number)
    elif phase == "action2":
        # Action 2 is the Qwixx family's alone, whose games tell their dice apart.
        white, colour = game.colour_dice(move)  # type: ignore[attr-defined]
        label = t(
            "option.colour", emoji=mark, row=row, number=move.number, white=white, colour=colour
        )
    else:
        label = t("option.cross", emoji=mark, row=row, number=move.number)
    skipped = game.skipped_by(player, move)
    return fit_label(label + (t("option.skips", count=len(skipped)) if skipped else ""))


def fit_label(label: str) -> str:
    return label if len(label) <= LABEL_LIMIT else label[: LABEL_LIMIT - 1] + "…"


def skips(game: Game, player: int, move: Move) -> int:
    """How many numbers a cross leaves behind for good (0 for any other move)."""
    if move.kind not in ("cross", "lucky"):
        return 0
    return len(game.skipped_by(player, move))


def costly(game: Game, player: int, move: Move) -> bool:
    return skips(game, player, move) >= COSTLY_SKIP


def confirm_content(game: Game, player: int, move: Move) -> str:
    """The question before a costly cross: "Cross Red 9 and skip 5 numbers?"."""
    key = "confirm.lucky" if move.kind == "lucky" else "confirm.cross"
    what = t(key, row=row_name(move.row or ""), number=move.number)
    return t("confirm.skip", what=what, count=skips(game, player, move))


def confirm_view(record: GameRecord, game: Game, move: Move) -> discord.ui.View:
    """[Yes] applies ``move``, [Back] returns to the sheet; both carry the move."""
    view = discord.ui.View(timeout=None)
    phase = game.decision().phase
    view.add_item(
        MoveButton(
            record.id,
            game.turn,
            phase,
            move,
            t("button.yes"),
            discord.ButtonStyle.danger,
            step="yes",
        )
    )
    view.add_item(MoveButton(record.id, game.turn, phase, move, t("button.back"), step="back"))
    return view


def ask_view(what: str) -> discord.ui.View:
    """[Yes] [Back] under the question of ``/qwixx leave`` or ``/qwixx abandon``."""
    view = discord.ui.View(timeout=None)
    view.add_item(AskButton(what, "yes"))
    view.add_item(AskButton(what, "back"))
    return view


def pawn_label(game: Game, player: int, move: Move) -> str:
    """``♟ 3 → 🟩 10 (cross, bonus 7)``: where the pawn lands and what it does."""
    # A pawn move is On Board's alone, whose games know where a pawn lands.
    target = game.pawn_target(player, move.number or 0)  # type: ignore[attr-defined]
    assert target is not None
    _, field, crosses = target
    what = t("option.pawn.cross") if crosses else t("option.pawn.crossed")
    return fit_label(
        t(
            "option.pawn",
            steps=move.number,
            emoji=emoji(field.colour),
            row=row_name(field.colour),
            number=field.number,
            what=what,
            bonus=field.bonus,
        )
    )


def field_label(game: Game, player: int, move: Move) -> str:
    """A Qwinto field by its place in the row and its written neighbours."""
    row, column = move.row or "", move.number or 0
    written = game.sheets[player].fields[row]
    left = [written[c] for c in ROW_COLUMNS[row] if c < column and c in written]
    right = [written[c] for c in ROW_COLUMNS[row] if c > column and c in written]
    if left and right:
        where = t("option.where.between", left=left[-1], right=right[0])
    elif left or right:
        where = (
            t("option.where.after", left=left[-1])
            if left
            else t("option.where.before", right=right[0])
        )
    else:
        where = t("option.where.empty")
    label = t(
        "option.field",
        emoji=emoji(row),
        row=row_name(row),
        position=ROW_COLUMNS[row].index(column) + 1,
        where=where,
    )
    return label + (t("option.field_pentagon") if column in PENTAGONS[row] else "")


def sheet_view(record: GameRecord, game: Game, player: int) -> discord.ui.View | None:
    """One button per option, **Hint** first in a game started with hints; Qwinto's
    fields to write in as buttons (see :func:`field_view`)."""
    moves = options_of(game, player) if record.status == "running" else []
    if not moves:
        return None
    if any(m.kind == "place" for m in moves):
        return field_view(record, game, player, moves)
    view = discord.ui.View(timeout=None)
    if Options.of(record.options).hints:
        view.add_item(TurnButton(record.id, game.turn, "hint"))
    phase = game.decision().phase
    for move in moves[: BUTTONS_PER_ROW * ACTION_ROWS - len(view.children)]:
        style = ROW_STYLE.get(move.row or "", discord.ButtonStyle.secondary)
        view.add_item(
            MoveButton(record.id, game.turn, phase, move, option_label(game, player, move), style)
        )
    return view


BUTTONS_PER_ROW = 5  # Discord's limits: 5 buttons in an action row,
ACTION_ROWS = 5  # 5 action rows in a message, a select filling one
OTHER_FIELDS = "other"  # the FieldSelect (``pick-other``) of fields without a button


def field_view(record: GameRecord, game: Game, player: int, moves: list[Move]) -> discord.ui.View:
    """Qwinto's write: one tap. The fields open to the sum as buttons, a rolled row's on
    its own action row(s) (:func:`field_lines`); the fields left without a button, if
    any, in one select "Another field…"; **Pass** and **Hint** on the last row. A
    choice made already (it may change until everyone has chosen) shows as chosen."""
    view = discord.ui.View(timeout=None)
    phase = game.decision().phase
    chosen = game.chosen_move(player)

    def style(move: Move) -> discord.ButtonStyle:
        return discord.ButtonStyle.success if move == chosen else discord.ButtonStyle.secondary

    lines, rest = field_lines(game, player, [m for m in moves if m.kind == "place"])
    items: list[tuple[int, discord.ui.Item[Any]]] = [
        (
            index,
            MoveButton(record.id, game.turn, phase, move, field_button_label(move), style(move)),
        )
        for index, line in enumerate(lines)
        for move in line
    ]
    if rest:
        items.append(
            (
                len(lines),
                FieldSelect(
                    record.id,
                    game.turn,
                    phase,
                    OTHER_FIELDS,
                    t("option.other_field", total=game.dice_total()),
                    [(encode_move(m), field_label(game, player, m)) for m in rest],
                    chosen=encode_move(chosen) if chosen in rest else None,
                ),
            )
        )
    last = len(lines) + bool(rest)
    items += [
        (
            last,
            MoveButton(
                record.id, game.turn, phase, move, option_label(game, player, move), style(move)
            ),
        )
        for move in moves
        if move.kind != "place"
    ]
    if Options.of(record.options).hints:
        items.append((last, TurnButton(record.id, game.turn, "hint")))
    for row, item in items:
        item.row = row
        view.add_item(item)
    return view


def field_lines(game: Game, player: int, fields: list[Move]) -> tuple[list[list[Move]], list[Move]]:
    """The fields shown as buttons, one list per action row, left to right, and those
    left for the select. Every field is a button when all fit above the last row (a
    rolled row's fields filling as many action rows as they need); else each rolled
    row gets one action row — spare ones going to the rows with most fields left — of
    the fields nearest to where its sum fits (:func:`fitting_place`)."""
    rows: dict[str, list[Move]] = {}
    for move in fields:
        rows.setdefault(move.row or "", []).append(move)
    room = ACTION_ROWS - 1  # the last row holds Pass (and Hint)
    share = {row: -(-len(ms) // BUTTONS_PER_ROW) for row, ms in rows.items()}
    if sum(share.values()) > room:
        room -= 1  # the select of the other fields fills one
        share = dict.fromkeys(rows, 1)  # Qwinto rolls at most 3 rows: one each fits
        for _ in range(room - len(rows)):
            most = max(rows, key=lambda r: len(rows[r]) - share[r] * BUTTONS_PER_ROW)
            share[most] += 1
    lines: list[list[Move]] = []
    shown: set[Move] = set()
    for row, row_fields in rows.items():
        fit_at = fitting_place(game, player, row)
        places = field_places(row)
        nearest = sorted(row_fields, key=lambda m: (abs(places[m.number or 0] - fit_at), m.number))
        keep = sorted(nearest[: share[row] * BUTTONS_PER_ROW], key=lambda m: m.number or 0)
        shown.update(keep)
        lines += [keep[i : i + BUTTONS_PER_ROW] for i in range(0, len(keep), BUTTONS_PER_ROW)]
    return lines, [m for m in fields if m not in shown]


def field_places(row: str) -> dict[int, int]:
    """A Qwinto row's columns → their places in the row, 0 to 8 left to right."""
    return {column: place for place, column in enumerate(ROW_COLUMNS[row])}


def fitting_place(game: Game, player: int, row: str) -> float:
    """Where in ``row`` (places 0 to 8) the current sum fits: between the written
    numbers around it, as far along as it lies between them; an empty row runs from
    0 (before its first field) to one more than the highest sum (after its last), so
    a 7 goes about a third of the way along."""
    number = game.dice_total() or 0  # the place phase always has dice
    places = field_places(row)
    written = game.sheets[player].fields[row]
    marks = [
        (-1, 0),
        *sorted((places[c], n) for c, n in written.items()),
        (len(places), FACES * len(ROWS) + 1),
    ]
    left = max((m for m in marks if m[1] < number), key=lambda m: m[0])
    right = min((m for m in marks if m[1] > number and m[0] > left[0]), key=lambda m: m[0])
    return float(left[0] + (right[0] - left[0]) * (number - left[1]) / (right[1] - left[1]))


def field_button_label(move: Move) -> str:
    """A field on a button, told apart without colour: ``🟧 Orange 4/9``."""
    row = move.row or ""
    return fit_label(
        t(
            "option.field_button",
            emoji=emoji(row),
            row=row_name(row),
            position=field_position(row, move.number or 0),
        )
    )


def hint_content(game: Game, player: int, hint: Hint) -> str:
    """What ``hard`` would do, in one or two lines: the move and the points it is
    expected to bring — in a Qwixx game of two or more, the lead over the best
    opponent, which is what ``hard`` plays for — with its margin over the next best (or,
    where it expects less than the next but wins more surely, that), then a risk worth
    naming."""

    def label(move: Move) -> str:
        return option_label(game, player, move)

    best, others = hint.options[0], hint.options[1:]
    value, key = round(best.value), "hint.best"  # round(): never "-0"
    if game.variant != "qwinto" and len(game.players) > 1:  # hard rates its lead then
        key = "hint.ahead" if value >= 0 else "hint.behind"
        value = abs(value)
    line = t(key, move=label(best.move), value=value)
    if hint.surer:
        line += t("hint.surer", other=label(others[0].move))
    elif others and round(hint.gain, 1) == 0:  # never "0.0 more than"
        line += t("hint.equal", other=label(others[0].move))
    elif others:
        line += t("hint.gain", gain=decimal(hint.gain, 1), other=label(others[0].move))
    lines = [line + "."]
    loss = "failed_throw" if game.variant == "qwinto" else "penalty"
    risky = [o for o in others if o.risk >= 0.5]
    if best.risk >= CERTAIN:  # the loss is the plan: say so, and why
        lines.append(t(f"hint.on_purpose.{loss}"))
    elif best.risk >= 0.05:
        lines.append(t(f"hint.risk.{loss}", risk=percent(best.risk)))
    elif risky:
        lines.append(
            t(
                f"hint.risk_other.{loss}",
                move=label(risky[0].move),
                risk=percent(risky[0].risk),
            )
        )
    return "\n".join(lines)


def you_did(move: Move) -> str:
    if move.kind == "pass":
        return t("you.passed")
    if move.kind in ("roll", "keep", "reroll"):
        return t({"roll": "you.rolled", "keep": "you.kept", "reroll": "you.rerolled"}[move.kind])
    if move.kind == "place":
        return t("you.placed", row=field_button_label(move))  # the field, not just the row
    if move.kind == "pawn":
        return t("you.moved", steps=plural("unit.field", move.number or 0))
    return t("you.crossed", row=row_text(move.row or ""), number=move.number)


# --- the end -------------------------------------------------------------
def end_view(record: GameRecord) -> discord.ui.View:
    """**Rematch** under the final message (not a tournament's table): a new lobby with
    the same game and options; **Review** under a finished game's: its review, for
    whoever clicks."""
    view = discord.ui.View(timeout=None)
    if "tournament" not in record.options:  # a tournament's next table is seated for it
        view.add_item(RematchButton(record.id))
    if record.status == "finished":
        view.add_item(ReviewButton(record.id))
    return view
