"""Restart-proof components: every button carries its meaning in its custom_id.

Templates (all start with ``qx:``):

* ``qx:<game>:lobby:<join|leave|computer|start|cancel>`` — lobby buttons
* ``qx:<game>:<turn>:<action>`` (``TURN_ACTIONS``) — public turn message
* ``qx:<game>:<turn>:<phase>:<move>`` — a move on a player's own sheet
* ``qx:<game>:<turn>:<phase>:pick-other`` — a select of the fields to write in that
  have no button (Qwinto; ``pick-<row>`` on sheets sent before)
* ``qx:<game>:lobby:level`` — the lobby's select of computer levels (``<seat>.<level>``)
* ``qx:<game>:rematch``, ``qx:<game>:review`` — under a game's final message
* ``qx:<game>:card`` — **Share** under a finished daily attempt: its card, posted
* ``qx:<game>:final``, ``qx:share:<what>:<args>`` — the statistics' **Final sheets** and
  **Share**
* ``qx:ask:<leave|abandon>:<yes|back>`` — the question of ``/qwixx leave`` or ``abandon``

An item only reads its click; one table (:data:`bot.cogs.handlers.ROUTES`) names the
handler each kind of item goes to.

A custom_id is untrusted input: a forged or garbled one (``qx:1:2:action1:cross.red.x``,
a 40-digit game id) must still be answered within Discord's 3 seconds. So no item's
``from_custom_id`` raises: each item reads its id in ``parse`` (:class:`Parsed`), and what
does not parse becomes a :class:`BadComponent`, which also catches every ``qx:`` id that
no other registered template matches, and answers with a polite ephemeral refusal.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

import discord

from bot.i18n import using
from bot.i18n.words import t
from bot.rules import VARIANTS, Move
from bot.service.stats import PERIODS, SORTS
from bot.text import shorten

log = logging.getLogger(__name__)
LARGEST_ID = 2**63 - 1
"""SQLite integers are signed 64-bit: a larger game id or turn cannot be looked up."""
LOBBY_ACTIONS = ("join", "leave", "computer", "start", "cancel")
TURN_ACTIONS = ("sheet", "pass", "board", "table", "hint")
"""Turn buttons: public, and **Hint** on a sheet."""
BOARD_SORTS = (*SORTS, "rating")
"""The leaderboard's sorts: the totals' sorts, and the skill rating."""
VIEW_ITEMS = 25  # Discord's limit of components in one message
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
MOVE_TEXT = re.compile(r"[a-z]+(\.[a-z]*(\.[0-9]{0,3}(\.[a-z]+(\+[a-z]+)*)?)?)?")


def interaction_data(interaction: discord.Interaction) -> dict[str, Any]:
    """The raw data of a component interaction (discord.py types it as a union of
    every kind of interaction's data)."""
    return cast(dict[str, Any], interaction.data or {})


def chosen_values(interaction: discord.Interaction) -> list[str]:
    """The values chosen in a select (untrusted: checked by the caller)."""
    return [str(value) for value in interaction_data(interaction).get("values") or []]


class Malformed(ValueError):
    """A custom_id (or a select value) that is not one the bot could have sent."""


def picked(interaction: discord.Interaction, allowed: frozenset[str]) -> str:
    """The one value picked in a select; :class:`Malformed` unless one of ``allowed``."""
    values = chosen_values(interaction)
    if len(values) != 1 or values[0] not in allowed:
        raise Malformed(str(values))
    return values[0]


def encode_move(move: Move) -> str:
    """``cross.red.7``, ``pass``, ``lucky.green.16`` — short enough for a custom_id."""
    parts = [
        move.kind,
        move.row or "",
        "" if move.number is None else str(move.number),
        "+".join(move.dice),
    ]
    return ".".join(parts).rstrip(".")


def decode_move(text: str) -> Move:
    """The move :func:`encode_move` wrote as ``text``; :class:`Malformed` for anything else."""
    if not MOVE_TEXT.fullmatch(text):
        raise Malformed(text)
    kind, row, number, dice = [*text.split("."), "", "", ""][:4]
    move = Move(
        kind, row or None, int(number) if number else None, tuple(dice.split("+")) if dice else ()
    )
    if encode_move(move) != text:  # "cross.red.07", "cross.red." and the like
        raise Malformed(text)
    return move


def identifier(text: str) -> int:
    """A game id or turn number from a custom_id: ASCII digits, within SQLite's range."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > LARGEST_ID:
        raise Malformed(text)
    return int(text)


def game_turn(match: re.Match[str]) -> tuple[int, int]:
    """The game id and turn number a template's ``game`` and ``turn`` groups read."""
    return identifier(match["game"]), identifier(match["turn"])


def button(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> discord.ui.Button[Any]:
    """A button labelled ``label`` (its custom_id when there is none)."""
    return discord.ui.Button(
        label=label or custom_id, style=style, disabled=disabled, custom_id=custom_id
    )


def answer_button(question: str, step: str) -> discord.ui.Button[Any]:
    """[Yes] (red) or [Back] under the question whose custom_ids begin ``question``."""
    style = discord.ButtonStyle.danger if step == "yes" else discord.ButtonStyle.secondary
    return button(f"{question}:{step}", t(f"button.{step}"), style)


# --- reading a custom_id ------------------------------------------------------
class Parsed(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """An item rebuilt from its custom_id by :meth:`parse`, or refused: what does not
    parse comes back as a :class:`BadComponent`, not as the item. (Never registered
    itself: its template matches nothing.)"""

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        """The item ``match`` names; :class:`Malformed` if it names none (``item``: the
        component as clicked, with a select's options)."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # a refusal instead of the item
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self | BadComponent:
        try:
            return cls.parse(match, item)
        except Malformed:
            return BadComponent(item)

    def read(self, interaction: discord.Interaction) -> None:
        """What the click carries besides its id (a select's value), checked and kept;
        :class:`Malformed` if the bot cannot have sent it."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """The click, read, goes to its handler through the one table of routes."""
        try:
            self.read(interaction)
        except Malformed:
            await refuse(interaction)
            return
        await cast(Routed, interaction.client).handlers.route(interaction, self)


class Router(Protocol):
    """The bot's handlers, as a component sees them (:class:`bot.cogs.handlers.Handlers`)."""

    def route(self, interaction: discord.Interaction, item: Parsed[Any], /) -> Awaitable[None]: ...


class Routed(Protocol):
    """The bot (:class:`~bot.app.QwixxBot`), as a component sees it."""

    @property
    def handlers(self) -> Router: ...


def options_of(item: discord.ui.Item[Any]) -> list[tuple[str, str]]:
    """A clicked select's options as sent: (value, label)."""
    return [(o.value, o.label) for o in getattr(item, "options", [])]


# --- the game's components ----------------------------------------------------
class LobbyButton(
    Parsed[discord.ui.Button[Any]],
    template=rf"qx:(?P<game>\d+):lobby:(?P<action>{'|'.join(LOBBY_ACTIONS)})",
):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "computer": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }

    def __init__(self, game: int, action: str, disabled: bool = False) -> None:
        label, style = t(f"button.{action}"), self.STYLES[action]
        super().__init__(button(f"qx:{game}:lobby:{action}", label, style, disabled))
        self.game, self.action = game, action

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(identifier(match["game"]), match["action"])


class TurnButton(
    Parsed[discord.ui.Button[Any]],
    template=rf"qx:(?P<game>\d+):(?P<turn>\d+):(?P<action>{'|'.join(TURN_ACTIONS)})"
    r"(?:-(?P<phase>[a-z0-9]+))?",
):
    """ "Open my sheet", "Pass" and the like on the public turn message. A button that
    decides carries its phase (``qx:12:7:pass-action1``), so that a double tap cannot
    decide the next phase too."""

    def __init__(self, game: int, turn: int, action: str, phase: str | None = None) -> None:
        style = discord.ButtonStyle.primary if action == "sheet" else discord.ButtonStyle.secondary
        suffix = f"-{phase}" if phase else ""
        super().__init__(button(f"qx:{game}:{turn}:{action}{suffix}", t(f"button.{action}"), style))
        self.game, self.turn, self.action, self.phase = game, turn, action, phase

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(*game_turn(match), match["action"], match["phase"])


class MoveButton(
    Parsed[discord.ui.Button[Any]],
    template=r"qx:(?P<game>\d+):(?P<turn>\d+):(?P<phase>[a-z0-9]+):(?P<move>[a-z0-9.+]+)"
    r"(?::(?P<step>yes|back))?",
):
    """One legal option on a player's ephemeral sheet.

    ``step``: "" for the option itself (a costly one asks first), "yes" to apply it
    after the question, "back" to return to the sheet. The move rides in the id, so a
    question survives a restart of the bot.
    """

    def __init__(
        self,
        game: int,
        turn: int,
        phase: str,
        move: Move,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        step: str = "",
    ) -> None:
        custom_id = f"qx:{game}:{turn}:{phase}:{encode_move(move)}{':' + step if step else ''}"
        super().__init__(button(custom_id, label or encode_move(move), style))
        self.game, self.turn, self.phase, self.move = game, turn, phase, move
        self.step = step

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(
            *game_turn(match), match["phase"], decode_move(match["move"]), step=match["step"] or ""
        )


class AskButton(
    Parsed[discord.ui.Button[Any]], template=r"qx:ask:(?P<what>leave|abandon):(?P<step>yes|back)"
):
    """[Yes] and [Back] under the question of ``/qwixx leave`` or ``/qwixx abandon``;
    both act on the game of the channel clicked in."""

    def __init__(self, what: str, step: str) -> None:
        super().__init__(answer_button(f"qx:ask:{what}", step))
        self.what, self.step = what, step

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(match["what"], match["step"])


class GameButton(Parsed[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that names its game and nothing else: ``qx:<game>:<kind>``. Each kind is
    a subclass, ``class RematchButton(GameButton, kind="rematch", label=...)``. (Never
    registered itself.)"""

    KIND: ClassVar[str] = ""
    LABEL: ClassVar[str] = ""
    """The key of the label's words."""
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init_subclass__(
        cls,
        *,
        kind: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init_subclass__(template=rf"qx:(?P<game>\d+):{kind}")
        cls.KIND, cls.LABEL, cls.STYLE = kind, label, style

    def __init__(self, game: int, label: str = "") -> None:
        super().__init__(button(f"qx:{game}:{self.KIND}", label or t(self.LABEL), self.STYLE))
        self.game = game

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(identifier(match["game"]))


class RematchButton(
    GameButton, kind="rematch", label="button.rematch", style=discord.ButtonStyle.primary
):
    """On the final message: a new lobby with the same variant and options."""


class ReviewButton(GameButton, kind="review", label="button.review"):
    """On the final message: the game's review, only for whoever clicks."""


class RowSelect(Parsed[discord.ui.Select[Any]], template=r"(?!)"):
    """A select placed on the action row asked for. (Never registered itself.)"""

    @property
    def row(self) -> int | None:
        """The action row asked for: a select keeps it where DynamicItem does not look."""
        return self.item.row

    @row.setter
    def row(self, value: int | None) -> None:
        self.item.row = value


class CardButton(
    GameButton, kind="card", label="button.share_card", style=discord.ButtonStyle.primary
):
    """Under a finished daily attempt: its share card, posted in the chat clicked in."""


class FieldSelect(
    RowSelect,
    template=r"qx:(?P<game>\d+):(?P<turn>\d+):(?P<phase>[a-z0-9]+):pick-(?P<row>[a-z]+)",
):
    """Fields where a player may write (Qwinto) that the sheet has no button for, as
    ``pick-other`` (``pick-<row>``: one row's fields, as sheets sent before had)."""

    def __init__(
        self,
        game: int,
        turn: int,
        phase: str,
        row: str,
        placeholder: str = "",
        options: list[tuple[str, str]] | None = None,
        chosen: str | None = None,
    ) -> None:
        """``chosen``: the value shown as selected (a choice the player made already)."""
        options = [("pass", "pass")] if options is None else options
        choices = [
            discord.SelectOption(label=label[:100], value=value, default=value == chosen)
            for value, label in options
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"qx:{game}:{turn}:{phase}:pick-{row}",
                placeholder=placeholder[:150],
                options=choices[:25],
            )
        )
        self.game, self.turn, self.phase = game, turn, phase
        self.allowed = frozenset(value for value, _ in options[:25])
        self.move = Move("pass")
        """The move picked (:meth:`read`)."""

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        """With the options of the select as sent: a value must be one of them."""
        return cls(*game_turn(match), match["phase"], match["row"], options=options_of(item))

    def read(self, interaction: discord.Interaction) -> None:
        self.move = decode_move(picked(interaction, self.allowed))


class LevelSelect(Parsed[discord.ui.Select[Any]], template=r"qx:(?P<game>\d+):lobby:level"):
    """The lobby's computer levels: each option is a seat at a level (``-1.hard``)."""

    VALUE = re.compile(r"(?P<seat>-[0-9]{1,2})\.(?P<level>[a-z]{1,10})")

    def __init__(
        self, game: int, placeholder: str = "", options: list[tuple[str, str]] | None = None
    ) -> None:
        options = [("-1.easy", "-1.easy")] if options is None else options
        super().__init__(
            discord.ui.Select(
                custom_id=f"qx:{game}:lobby:level",
                placeholder=placeholder[:150],
                options=[
                    discord.SelectOption(label=label[:100], value=value)
                    for value, label in options[:25]
                ],
            )
        )
        self.game = game
        self.allowed = frozenset(value for value, _ in options[:25])
        self.seat, self.level = -1, ""
        """The seat and level picked (:meth:`read`)."""

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(identifier(match["game"]), options=options_of(item))

    def read(self, interaction: discord.Interaction) -> None:
        found = self.VALUE.fullmatch(picked(interaction, self.allowed))
        if found is None:
            raise Malformed(found)
        self.seat, self.level = int(found["seat"]), found["level"]


# --- the statistics' components ---------------------------------------------
class FinalButton(GameButton, kind="final", label="button.final_sheets"):
    """ "Final sheets" of one finished game, from the history (restart-proof)."""


class ShareButton(
    Parsed[discord.ui.Button[Any]],
    template=r"qx:share:(?P<what>leaderboard|stats|history):(?P<args>[a-z0-9.]{1,60})",
):
    """**Share**: the leaderboard, stats or history just shown, posted in the channel.

    ``args``: ``variant.period.sort`` (variant ``all`` for every game) for the
    leaderboard, the member's id for stats and history (0: everyone's history)."""

    def __init__(self, what: str, args: str) -> None:
        super().__init__(button(f"qx:share:{what}:{args}", t("button.share")))
        self.what, self.args = what, args

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        what, args = match["what"], match["args"]
        if not share_args_valid(what, args):
            raise Malformed(args)
        return cls(what, args)


def share_args_valid(what: str, args: str) -> bool:
    if what == "leaderboard":
        parts = args.split(".")
        return (
            len(parts) == 3
            and (parts[0] == "all" or parts[0] in VARIANTS)
            and parts[1] in PERIODS
            and parts[2] in BOARD_SORTS
        )
    try:
        identifier(args)
    except Malformed:
        return False
    return True


def share_view(what: str, args: str, view: discord.ui.View | None = None) -> discord.ui.View:
    """``view`` (or a new one) with a **Share** button, if there is room for it."""
    view = view or discord.ui.View(timeout=None)
    if len(view.children) < VIEW_ITEMS:
        view.add_item(ShareButton(what, args))
    return view


# --- refusals -------------------------------------------------------------------
class BadComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"qx:.*"):
    """A ``qx:`` component that does not parse: answered with a polite refusal (the
    registered catch-all is :class:`~bot.cogs.registry.Unclaimed`)."""

    def __init__(self, item: discord.ui.Item[Any], answer: bool = True) -> None:
        super().__init__(item)
        self.answer = answer

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.answer:
            await refuse(interaction)


async def refuse(interaction: discord.Interaction) -> None:
    """The ephemeral answer to a component the bot cannot have sent as it is."""
    custom_id = str(interaction_data(interaction).get("custom_id", ""))
    log.info(
        "refused malformed component %s from user %s", shorten(custom_id, 120), interaction.user.id
    )
    if not interaction.response.is_done():
        with using(getattr(interaction, "locale", None)):  # the member's language
            text = t("error.bad_button")
        await interaction.response.send_message(text, ephemeral=True)
