"""Restart-proof components: every button carries its meaning in its custom_id.

Templates (all start with ``qx:``):

* ``qx:<game>:lobby:<join|leave|start|cancel>`` — lobby buttons
* ``qx:<game>:<turn>:sheet`` / ``qx:<game>:<turn>:pass`` — public turn message
* ``qx:<game>:<turn>:<phase>:<move>`` — a move on a player's own sheet

The callbacks hand over to the bot's :class:`~bot.cogs.table.Table`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.messages import t
from bot.rules import Move

if TYPE_CHECKING:
    from bot.cogs.table import Table



def encode_move(move: Move) -> str:
    """``cross.red.7``, ``pass``, ``lucky.green.16`` — short enough for a custom_id."""
    parts = [move.kind, move.row or "", "" if move.number is None else str(move.number),
             "+".join(move.dice)]
    return ".".join(parts).rstrip(".")


def decode_move(text: str) -> Move:
    kind, row, number, dice = [*text.split("."), "", "", ""][:4]
    return Move(kind, row or None, int(number) if number else None,
                tuple(dice.split("+")) if dice else ())


def table(interaction: discord.Interaction) -> Table:
    return interaction.client.table  # type: ignore[attr-defined]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"qx:(?P<game>\d+):lobby:(?P<action>join|leave|computer|start|cancel)"):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
        "computer": discord.ButtonStyle.secondary, "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger}

    def __init__(self, game: int, action: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=t(f"button.{action}"), style=self.STYLES[action], disabled=disabled,
            custom_id=f"qx:{game}:lobby:{action}"))
        self.game, self.action = game, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: re.Match[str]) -> LobbyButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await table(interaction).on_lobby(interaction, self.game, self.action)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"qx:(?P<game>\d+):(?P<turn>\d+):(?P<action>sheet|pass)"):
    """"Open my sheet" and "Pass" on the public turn message."""

    def __init__(self, game: int, turn: int, action: str) -> None:
        style = discord.ButtonStyle.primary if action == "sheet" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=t(f"button.{action}"), style=style, custom_id=f"qx:{game}:{turn}:{action}"))
        self.game, self.turn, self.action = game, turn, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: re.Match[str]) -> TurnButton:
        return cls(int(match["game"]), int(match["turn"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.action == "sheet":
            await table(interaction).on_open_sheet(interaction, self.game, self.turn)
        else:
            await table(interaction).on_public_pass(interaction, self.game, self.turn)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"qx:(?P<game>\d+):(?P<turn>\d+):(?P<phase>[a-z0-9]+):(?P<move>[a-z0-9.+]+)"):
    """One legal option on a player's ephemeral sheet."""

    def __init__(self, game: int, turn: int, phase: str, move: Move, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(
            label=label or encode_move(move), style=style,
            custom_id=f"qx:{game}:{turn}:{phase}:{encode_move(move)}"))
        self.game, self.turn, self.phase, self.move = game, turn, phase, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: re.Match[str]) -> MoveButton:
        return cls(int(match["game"]), int(match["turn"]), match["phase"],
                   decode_move(match["move"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await table(interaction).on_move(interaction, self.game, self.turn, self.phase, self.move)


class FieldSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"qx:(?P<game>\d+):(?P<turn>\d+):(?P<phase>[a-z0-9]+):pick-(?P<row>[a-z]+)"):
    """The fields of one row where a player may write (Qwinto): one select per row,
    so a sheet with more than 25 open fields still fits Discord's limits."""

    def __init__(self, game: int, turn: int, phase: str, row: str, placeholder: str = "",
                 options: list[tuple[str, str]] | None = None) -> None:
        choices = [discord.SelectOption(label=label[:100], value=value)
                   for value, label in (options or [("pass", "pass")])]
        super().__init__(discord.ui.Select(
            custom_id=f"qx:{game}:{turn}:{phase}:pick-{row}", placeholder=placeholder[:150],
            options=choices[:25]))
        self.game, self.turn, self.phase = game, turn, phase

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Select[Any], match: re.Match[str]) -> FieldSelect:
        return cls(int(match["game"]), int(match["turn"]), match["phase"], match["row"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        move = decode_move(values[0]) if values else Move("pass")
        await table(interaction).on_move(interaction, self.game, self.turn, self.phase, move)


DYNAMIC_ITEMS = (LobbyButton, TurnButton, MoveButton, FieldSelect)
