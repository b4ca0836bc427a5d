"""Restart-proof components: every button carries its meaning in its custom_id.

Templates (all start with ``qx:``):

* ``qx:<game>:lobby:<join|leave|computer|start|cancel>`` — lobby buttons
* ``qx:<game>:<turn>:<action>`` (``TURN_ACTIONS``) — public turn message
* ``qx:<game>:<turn>:<phase>:<move>`` — a move on a player's own sheet
* ``qx:<game>:<turn>:<phase>:pick-other`` — a select of the fields to write in that
  have no button (Qwinto; ``pick-<row>`` on sheets sent before)
* ``qx:<game>:lobby:level`` — the lobby's select of computer levels (``<seat>.<level>``)

The callbacks hand over to the bot's :class:`~bot.cogs.table.Table`.

A custom_id is untrusted input: a forged or garbled one (``qx:1:2:action1:cross.red.x``,
a 40-digit game id) must still be answered within Discord's 3 seconds. So
``from_custom_id`` never raises: what does not parse becomes a :class:`BadComponent`,
which also catches every ``qx:`` id that no other registered template matches, and
answers with a polite ephemeral refusal.
"""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar, Protocol, cast

import discord

from bot.i18n import using
from bot.i18n.words import t
from bot.rules import Move
from bot.text import shorten

log = logging.getLogger(__name__)
LARGEST_ID = 2**63 - 1
"""SQLite integers are signed 64-bit: a larger game id or turn cannot be looked up."""
LOBBY_ACTIONS = ("join", "leave", "computer", "start", "cancel")
TURN_HANDLERS = {
    "sheet": "on_open_sheet",
    "pass": "on_public_pass",
    "board": "on_board",
    "table": "on_table",
    "hint": "on_hint",
}
"""Turn buttons (public, and **Hint** on a sheet): action → :class:`Table` handler
``(interaction, game, turn)``."""
TURN_ACTIONS = tuple(TURN_HANDLERS)
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


class Handlers(Protocol):
    """What the components hand a click over to (:class:`~bot.cogs.table.Table`)."""

    async def on_lobby(
        self, interaction: discord.Interaction, game_id: int, action: str
    ) -> None: ...
    async def on_level(
        self, interaction: discord.Interaction, game_id: int, seat: int, level: str
    ) -> None: ...
    async def on_answer(self, interaction: discord.Interaction, what: str, yes: bool) -> None: ...
    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def on_move(
        self,
        interaction: discord.Interaction,
        game_id: int,
        turn: int,
        phase: str,
        move: Move,
        confirmed: bool = False,
    ) -> None: ...
    async def on_back(self, interaction: discord.Interaction, game_id: int, turn: int) -> None: ...


class HasHandlers(Protocol):
    """The bot (:class:`~bot.app.QwixxBot`), as the components see it."""

    table: Handlers


def table(interaction: discord.Interaction) -> Handlers:
    """The handlers of the bot that received ``interaction``."""
    return cast(HasHandlers, interaction.client).table


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
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
        super().__init__(
            discord.ui.Button(
                label=t(f"button.{action}"),
                style=self.STYLES[action],
                disabled=disabled,
                custom_id=f"qx:{game}:lobby:{action}",
            )
        )
        self.game, self.action = game, action

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton | BadComponent:
        try:
            return cls(identifier(match["game"]), match["action"])
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await table(interaction).on_lobby(interaction, self.game, self.action)


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"qx:(?P<game>\d+):(?P<turn>\d+):(?P<action>{'|'.join(TURN_ACTIONS)})"
    r"(?:-(?P<phase>[a-z0-9]+))?",
):
    """ "Open my sheet", "Pass" and the like on the public turn message. A button that
    decides carries its phase (``qx:12:7:pass-action1``), so that a double tap cannot
    decide the next phase too."""

    def __init__(self, game: int, turn: int, action: str, phase: str | None = None) -> None:
        style = discord.ButtonStyle.primary if action == "sheet" else discord.ButtonStyle.secondary
        suffix = f"-{phase}" if phase else ""
        super().__init__(
            discord.ui.Button(
                label=t(f"button.{action}"),
                style=style,
                custom_id=f"qx:{game}:{turn}:{action}{suffix}",
            )
        )
        self.game, self.turn, self.action, self.phase = game, turn, action, phase

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TurnButton | BadComponent:
        try:
            return cls(
                identifier(match["game"]),
                identifier(match["turn"]),
                match["action"],
                match["phase"],
            )
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = getattr(table(interaction), TURN_HANDLERS[self.action])
        if self.phase:
            await handler(interaction, self.game, self.turn, self.phase)
        else:
            await handler(interaction, self.game, self.turn)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
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
        suffix = f":{step}" if step else ""
        super().__init__(
            discord.ui.Button(
                label=label or encode_move(move),
                style=style,
                custom_id=f"qx:{game}:{turn}:{phase}:{encode_move(move)}{suffix}",
            )
        )
        self.game, self.turn, self.phase, self.move = game, turn, phase, move
        self.step = step

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton | BadComponent:
        try:
            return cls(
                identifier(match["game"]),
                identifier(match["turn"]),
                match["phase"],
                decode_move(match["move"]),
                step=match["step"] or "",
            )
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = table(interaction)
        if self.step == "back":
            await handler.on_back(interaction, self.game, self.turn)
        elif self.step == "yes":
            await handler.on_move(interaction, self.game, self.turn, self.phase, self.move, True)
        else:
            await handler.on_move(interaction, self.game, self.turn, self.phase, self.move)


class AskButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"qx:ask:(?P<what>leave|abandon):(?P<step>yes|back)",
):
    """[Yes] and [Back] under the question of ``/qwixx leave`` or ``/qwixx abandon``;
    both act on the game of the channel clicked in."""

    def __init__(self, what: str, step: str) -> None:
        style = discord.ButtonStyle.danger if step == "yes" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=t(f"button.{step}"), style=style, custom_id=f"qx:ask:{what}:{step}"
            )
        )
        self.what, self.step = what, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AskButton:
        return cls(match["what"], match["step"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await table(interaction).on_answer(interaction, self.what, self.step == "yes")


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qx:(?P<game>\d+):rematch"
):
    """On the final message: a new lobby with the same variant and options."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("button.rematch"),
                style=discord.ButtonStyle.primary,
                custom_id=f"qx:{game}:rematch",
            )
        )
        self.game = game

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton | BadComponent:
        try:
            return cls(identifier(match["game"]))
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await table(interaction).on_rematch(interaction, self.game)


class ReviewHandlers(Protocol):
    """What **Review** hands a click over to (:class:`~bot.cogs.review.ReviewTable`)."""

    async def on_review_button(self, interaction: discord.Interaction, game_id: int) -> None: ...


class HasReview(Protocol):
    """The bot (:class:`~bot.app.QwixxBot`), as **Review** sees it."""

    review_table: ReviewHandlers


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qx:(?P<game>\d+):review"
):
    """On the final message: the game's review, only for whoever clicks."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("button.review"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"qx:{game}:review",
            )
        )
        self.game = game

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton | BadComponent:
        try:
            return cls(identifier(match["game"]))
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await cast(HasReview, interaction.client).review_table.on_review_button(
            interaction, self.game
        )


class FieldSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
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

    @property
    def row(self) -> int | None:
        """The action row asked for: a select keeps it where DynamicItem does not look."""
        return self.item.row

    @row.setter
    def row(self, value: int | None) -> None:
        self.item.row = value

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FieldSelect | BadComponent:
        """With the options of the select as sent: a value must be one of them."""
        options = [(o.value, o.label) for o in getattr(item, "options", [])]
        try:
            return cls(
                identifier(match["game"]),
                identifier(match["turn"]),
                match["phase"],
                match["row"],
                options=options,
            )
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        try:
            if len(values) != 1 or values[0] not in self.allowed:
                raise Malformed(str(values))
            move = decode_move(values[0])
        except Malformed:
            await refuse(interaction)
            return
        await table(interaction).on_move(interaction, self.game, self.turn, self.phase, move)


class LevelSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"qx:(?P<game>\d+):lobby:level"
):
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

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LevelSelect | BadComponent:
        options = [(o.value, o.label) for o in getattr(item, "options", [])]
        try:
            return cls(identifier(match["game"]), options=options)
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = chosen_values(interaction)
        found = self.VALUE.fullmatch(values[0]) if len(values) == 1 else None
        if found is None or values[0] not in self.allowed:
            await refuse(interaction)
            return
        await table(interaction).on_level(
            interaction, self.game, int(found["seat"]), found["level"]
        )


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


GAME_ITEMS = (
    LobbyButton,
    TurnButton,
    MoveButton,
    FieldSelect,
    AskButton,
    RematchButton,
    LevelSelect,
    ReviewButton,
)
