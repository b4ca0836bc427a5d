"""What a member's private sheet shows: their options now, what they may decide ahead,
and their standing choices for the game.

Everything here is made from the game's record and rules object alone (the seats keep
each person's preferences and plans), so any message can carry a sheet's page: the
ephemeral sheet, or a direct message (:func:`page`).

- The active player of the Qwixx family, once they chose their white sum, chooses their
  coloured die ahead (and On Board's pawn after it) among the options the rules foresee
  (:meth:`~bot.rules.Game.foresee`); a tap plans it (:meth:`Turns.plan`).
- Qwinto's throw carries the member's re-throw rule; a player with nothing left to
  decide in the turn may choose their next throw ahead.
- ⚙ shows the game's standing choices (on others' turns, when time runs out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.channel.story import mentions
from bot.cogs import views
from bot.cogs.buttons import MoveButton, TurnButton
from bot.cogs.choice_items import (
    AheadButton,
    FallbackButton,
    GameChoiceSelect,
    RethrowSelect,
    SheetButton,
    ThrowButton,
)
from bot.i18n.words import emoji, row_name, t
from bot.records.games import GameRecord
from bot.records.options import Options
from bot.records.plans import Plan, Step
from bot.records.prefs import OTHERS, TIMEOUTS, Prefs
from bot.records.seats import Seats
from bot.rules import PASS, Game, Move
from bot.rules.qwinto import ROLL_MOVES
from bot.service.ahead import next_turn_of
from bot.service.hidden import in_no_channel

THROW_RULES = ("ask", "keep", "unless_writable")
"""The re-throw rules a throw offers (``ask``: none, the player is asked after it)."""
CHOSEN = "✓ "
ROWS = 5  # Discord's action rows in a message
WIDTH = 5  # and buttons in one


@dataclass(frozen=True)
class Page:
    """A sheet's page: its text, its components, the game its image draws (the game as
    foreseen, when deciding ahead; None: no image) and the options outlined on it."""

    content: str
    view: discord.ui.View | None
    drawn: Game | None
    marked: tuple[Move, ...] = ()
    ahead: bool = False
    """Whether it offers decisions ahead (a direct message shows them after a move)."""


def page(record: GameRecord, game: Game, player: int, header: str = "", mode: str = "") -> Page:
    """``player``'s sheet in ``game``, ``header`` on top. ``mode``: ``""`` what waits for
    them (a decision now, else one ahead); ``first``, this turn's first decision again
    (to change it); ``colour``, the coloured die ahead (On Board, before the pawn);
    ``choices``, the game's standing choices."""
    if mode == "choices" and choices_offered(record):
        return choices_page(record, game, player, header)
    if mode != "first" and ahead_offered(record):
        found = (
            next_throw_page(record, game, player, header)
            if game.variant == "qwinto"
            else coloured_page(record, game, player, header, mode)
        )
        if found is not None:
            return found
    if mode == "first" and plan_of(record, player, game.turn) is not None:
        header = "\n".join(filter(None, (header, t("sheet.drops_plan"))))
    return plain_page(record, game, player, header)


def ahead_offered(record: GameRecord) -> bool:
    """Whether the game lets its players decide ahead on the sheet: a running game with
    others to wait for (not one in no channel, a daily challenge or practice; not solo)."""
    return (
        record.status == "running"
        and not in_no_channel(record)
        and not Options.of(record.options).solo
    )


choices_offered = ahead_offered
"""Whether the sheet offers the game's standing choices (the same games)."""


def prefs_of(record: GameRecord, player: int) -> Prefs:
    return Seats.of(record).prefs_of(player)


def plan_of(record: GameRecord, player: int, turn: int) -> Plan | None:
    plan = Seats.of(record).plans.get(player)
    return plan if plan is not None and plan.turn == turn else None


# --- a decision now ----------------------------------------------------------------
def plain_page(record: GameRecord, game: Game, player: int, header: str) -> Page:
    """The options of the decision waiting for ``player`` now (none: nothing to decide),
    and the choice made already, if the header does not say it (made on another look, or
    by their standing choice: it may change until everyone has chosen)."""
    chosen = options_of_chosen(game, player)
    if chosen is not None and views.you_did(chosen) not in header:
        header = "\n".join(
            filter(None, (t("sheet.your_choice", what=views.you_did(chosen)), header))
        )
    lines = [views.sheet_content(game, player, header)]
    if choices_offered(record):
        lines.append(choices_line(record, game, player))
    decision = game.decision()
    if (
        ahead_offered(record)
        and game.variant == "qwinto"
        and decision.phase == "roll"
        and player == decision.active
    ):
        view = throw_view(record, game, player)
    else:
        view = views.sheet_view(record, game, player)
    return Page(
        "\n".join(lines),
        with_choices(view, record, game),
        game,
        tuple(game.legal_moves(player)),
    )


def options_of_chosen(game: Game, player: int) -> Move | None:
    """``player``'s choice in this simultaneous phase, while they may still change it."""
    chosen = game.chosen_move(player)
    return chosen if chosen is not None and views.options_of(game, player) else None


def throw_view(record: GameRecord, game: Game, player: int) -> discord.ui.View | None:
    """Qwinto's throw: a button per choice of dice, each carrying the re-throw rule the
    select below them shows (the member's last choice; "ask me" carries none)."""
    moves = views.options_of(game, player) if record.status == "running" else []
    if not moves:
        return None
    rule = rule_shown(prefs_of(record, player).rethrow)
    view = discord.ui.View(timeout=None)
    if Options.of(record.options).hints:
        view.add_item(TurnButton(record.id, game.turn, "hint"))
    for move in moves:
        label = views.option_label(game, player, move)
        view.add_item(
            MoveButton(record.id, game.turn, "roll", move, label)
            if rule == "ask"
            else ThrowButton(record.id, game.turn, move, rule, label)
        )
    add_row(view, rethrow_select(record, game, rule))
    return view


def rule_shown(rule: str) -> str:
    """The rule a throw view shows: the member's, where it offers it ("ask me" else)."""
    return rule if rule in THROW_RULES else "ask"


def rethrow_select(record: GameRecord, game: Game, rule: str) -> RethrowSelect:
    options = [(r, t(f"rethrow.{r}")) for r in THROW_RULES]
    return RethrowSelect(record.id, game.turn, options, rule)


# --- the Qwixx family: the coloured die (and On Board's pawn) ahead -----------------
def foreseen(game: Game, player: int, moves: Sequence[Move]) -> Game | None:
    """The game as ``player`` will find it after ``moves`` (their white-sum choice
    first), if it then waits for a decision of theirs in this very turn."""
    found = game.foresee(player, list(moves))
    if (
        found is None
        or found.turn != game.turn
        or found.finished
        or player not in found.decision().waiting
        or not found.legal_moves(player)
    ):
        return None
    return found


def coloured_page(
    record: GameRecord, game: Game, player: int, header: str, mode: str
) -> Page | None:
    """The active player's coloured die ahead, once their white sum is chosen (On Board:
    then their pawn); None when there is nothing to decide ahead."""
    decision = game.decision()
    first = game.chosen_move(player)
    if decision.phase not in game.simultaneous_phases or player != decision.active:
        return None
    if first is None or (colour_game := foreseen(game, player, [first])) is None:
        return None
    plan = plan_of(record, player, game.turn)
    colour = None if plan is None else plan.step(game.turn, colour_game.decision().phase)
    if colour is not None and colour.move is not None and mode != "colour":
        pawn_game = foreseen(game, player, [first, colour.move])
        if pawn_game is not None:
            pawn = plan.step(game.turn, pawn_game.decision().phase) if plan else None
            return ahead_page(record, game, player, header, pawn_game, (colour,), pawn)
    return ahead_page(record, game, player, header, colour_game, (), colour)


def ahead_page(
    record: GameRecord,
    game: Game,
    player: int,
    header: str,
    ahead: Game,
    before: tuple[Step, ...],
    chosen: Step | None,
) -> Page:
    """The options of ``ahead`` (the game foreseen) as choices for later, after the steps
    ``before`` chosen already; ``chosen``: the step chosen for it, if any."""
    phase = ahead.decision().phase
    first = game.chosen_move(player) or PASS
    waiting = sorted(game.decision().waiting - {player})
    lines = [
        header
        or t(
            "sheet.done" if waiting else "sheet.done_all",
            what=views.you_did(first),
            names=mentions(waiting),
        ),
        t("sheet.changed"),
        t(f"ahead.{phase}", turn=game.turn),
    ]
    steps = (*before, chosen) if chosen is not None else before
    if steps:
        lines.append(t("ahead.chosen", what=chosen_text(game, player, steps)))
    fallback = prefs_of(record, player).fallback
    lines.append(t(f"ahead.fallback.{fallback}"))
    view = discord.ui.View(timeout=None)
    for move in ahead.legal_moves(player):
        label = ahead_label(ahead, player, move)
        mark = chosen is not None and chosen.move == move
        style = views.ROW_STYLE.get(move.row or "", discord.ButtonStyle.secondary)
        view.add_item(
            AheadButton(
                record.id,
                game.turn,
                (*before, Step(phase, move)),
                views.fit_label(CHOSEN + label if mark else label),
                style,
            )
        )
    other = "pass" if fallback == "ask" else "ask"
    last: list[discord.ui.Item[Any]] = [
        FallbackButton(record.id, game.turn, other, t(f"button.fallback.{other}")),
        SheetButton(record.id, game.turn, "see-first", t("button.first")),
    ]
    if before:
        last.append(SheetButton(record.id, game.turn, "see-colour", t("button.colour")))
    if plan_of(record, player, game.turn) is not None:
        last.append(SheetButton(record.id, game.turn, "later", t("button.later")))
    add_row(view, *last)
    return Page("\n".join(lines), view, ahead, tuple(ahead.legal_moves(player)), ahead=True)


def ahead_label(ahead: Game, player: int, move: Move) -> str:
    """An option ahead, labelled as on the sheet; not crossing is "None" (or "Stay" for
    the pawn), saying so when it would cost a penalty."""
    if move != PASS:
        return views.option_label(ahead, player, move)
    penalty = ahead.passing_costs_penalty(player)
    if ahead.decision().phase == "action3":
        return t("ahead.stay_penalty") if penalty else t("option.stay")
    return t("ahead.none_penalty") if penalty else t("ahead.none")


def chosen_text(game: Game, player: int, steps: Sequence[Step]) -> str:
    """The steps chosen ahead in words: "🟨 Yellow 10 (⚪4+🟨6), then ♟ 3 → …"."""
    first = game.chosen_move(player) or PASS
    made: list[Move] = [first]
    labels = []
    for step in steps:
        ahead = foreseen(game, player, made)
        move = step.move or PASS
        labels.append(ahead_label(ahead, player, move) if ahead else short_label(move))
        made.append(move)
    text = labels[0]
    for label in labels[1:]:
        text = t("ahead.then", first=text, second=label)
    return text


def short_label(move: Move) -> str:
    """A move in few words, without the game it is made in: "Red 9", "♟ 3", "Roll 🟧🟨",
    "keep the throw", "None"."""
    if move.kind == "pawn":
        return t("ahead.pawn", steps=move.number)
    if move.kind == "roll":
        return t("option.roll", dice="".join(emoji(d) for d in move.dice))
    if move.kind in ("keep", "reroll"):
        return t(f"ahead.{move.kind}")
    if move.row is None:
        return t("ahead.none")
    return f"{row_name(move.row)} {move.number}"


# --- Qwinto: the next throw ahead ----------------------------------------------------
def next_throw_page(record: GameRecord, game: Game, player: int, header: str) -> Page | None:
    """A player with nothing (more) to decide in this turn chooses their next throw and
    its re-throw rule ahead; None while a decision waits for them (or the game is over)."""
    decision = game.decision()
    if game.finished or player in decision.waiting:
        return None
    turn = next_turn_of(game, player)
    plan = plan_of(record, player, turn)
    roll = None if plan is None else plan.step(turn, "roll")
    rule_step = None if plan is None else plan.step(turn, "reroll")
    if roll is not None:
        rule = rule_step.rule if rule_step is not None and rule_step.rule else "ask"
    else:
        rule = rule_shown(prefs_of(record, player).rethrow)
    chosen = game.chosen_move(player)
    lines = [header] if header else []
    if chosen is not None and not header:
        waiting = sorted(decision.waiting - {player})
        lines.append(
            t(
                "sheet.done" if waiting else "sheet.done_all",
                what=views.you_did(chosen),
                names=mentions(waiting),
            )
        )
    if chosen is not None:
        lines.append(t("sheet.changed"))
    elif not header:
        lines.append(t("sheet.nothing", turn=game.turn))
    lines.append(t("ahead.roll", turn=turn))
    if roll is not None and roll.move is not None:
        throw = views.option_label(game, player, roll.move)
        lines.append(t("ahead.chosen_throw", throw=throw, rule=t(f"rule.{rule}")))
    lines.append(choices_line(record, game, player))
    view = discord.ui.View(timeout=None)
    then = () if rule == "ask" else (Step("reroll", rule=rule),)
    for move in ROLL_MOVES:  # any throw is allowed then
        label = views.option_label(game, player, move)
        mark = roll is not None and roll.move == move
        view.add_item(
            AheadButton(
                record.id, turn, (Step("roll", move), *then), CHOSEN + label if mark else label
            )
        )
    add_row(view, rethrow_select(record, game, rule))
    last: list[discord.ui.Item[Any]] = []
    if chosen is not None:
        last.append(SheetButton(record.id, game.turn, "see-first", t("button.first_write")))
    if plan is not None:
        last.append(SheetButton(record.id, game.turn, "later", t("button.later")))
    last.append(choices_button(record, game))
    add_row(view, *last)
    return Page("\n".join(lines), view, game, ahead=True)


# --- standing choices for the game -----------------------------------------------------
def others_choices(variant: str) -> tuple[str, ...]:
    """The standing choices for other people's turns (Qwinto skips nothing: no "safe")."""
    return tuple(o for o in OTHERS if not (o == "safe" and variant == "qwinto"))


def choices_line(record: GameRecord, game: Game, player: int) -> str:
    """The game's standing choices in force for ``player``, in one line."""
    prefs = prefs_of(record, player)
    return t(
        "choices.line",
        others=t(f"choices.others.{prefs.answers_others(game.variant)}"),
        timeout=t(f"choices.timeout.{prefs.timeout}"),
    )


def choices_page(record: GameRecord, game: Game, player: int, header: str) -> Page:
    """The game's standing choices, each a select, and the way back to the sheet."""
    prefs = prefs_of(record, player)
    lines = [header] if header else []
    lines.append(t("choices.title"))
    view = discord.ui.View(timeout=None)
    others = [(o, t(f"choices.others.{o}")) for o in others_choices(game.variant)]
    timeouts = [(o, t(f"choices.timeout.{o}")) for o in TIMEOUTS]
    chosen = prefs.answers_others(game.variant)
    for row, item in enumerate(
        (
            GameChoiceSelect(record.id, game.turn, "others", others, chosen),
            GameChoiceSelect(record.id, game.turn, "timeout", timeouts, prefs.timeout),
        )
    ):
        item.row = row
        view.add_item(item)
    add_row(view, SheetButton(record.id, game.turn, "see-sheet", t("button.to_sheet")))
    return Page("\n".join(lines), view, None)


def choices_button(record: GameRecord, game: Game) -> SheetButton:
    return SheetButton(record.id, game.turn, "see-choices", t("button.choices"))


def with_choices(
    view: discord.ui.View | None, record: GameRecord, game: Game
) -> discord.ui.View | None:
    """``view`` with ⚙ (the game's standing choices) on its last row, where it offers
    them and there is room."""
    if not choices_offered(record):
        return view
    view = view or discord.ui.View(timeout=None)
    add_row(view, choices_button(record, game), join=True)
    return view


# --- laying out ------------------------------------------------------------------------
def rows_used(view: discord.ui.View) -> list[int]:
    """How wide each action row of ``view`` is (a select fills one)."""
    widths = [0] * ROWS
    for item in view.children:  # laid out as discord.py lays them, in order
        row = item.row
        if row is None:
            row = next((r for r in range(ROWS) if widths[r] + item.width <= WIDTH), ROWS - 1)
        widths[row] += item.width
    return widths


def add_row(view: discord.ui.View, *items: discord.ui.Item[Any], join: bool = False) -> None:
    """``items`` on an action row of their own below the others (``join``: the last row,
    if it has room); left out where the message has no room for them."""
    widths = rows_used(view)
    used = max((i for i, w in enumerate(widths) if w), default=-1)
    width = sum(i.width for i in items)
    row = used if join and used >= 0 and widths[used] + width <= WIDTH else used + 1
    if row >= ROWS or len(view.children) + len(items) > ROWS * WIDTH:
        return
    for item in items:
        item.row = row
        view.add_item(item)
