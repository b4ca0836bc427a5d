"""Answers for what discord.py would leave unanswered ("This interaction failed").

* A component whose ``qx:`` custom_id is not on the message it was clicked on (a
  tampered client, or a message edited since): discord.py looks the id up among the
  message's components and silently drops the interaction when it is not there.
* A slash command that fails inside discord.py's command tree: an option value
  outside its choices, an unknown or outdated command, or any unexpected error.
  The tree's default handler only logs those.

Both answer with a polite ephemeral message, at once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.buttons import refuse
from bot.i18n import using
from bot.messages import t
from bot.text import shorten

log = logging.getLogger(__name__)
PREFIX = "qx:"


class MalformedCommand(app_commands.AppCommandError):
    """Command data discord.py could not read (e.g. a user option that is no id)."""


USER_ERRORS = (app_commands.TransformerError, app_commands.CommandNotFound,
               app_commands.CommandSignatureMismatch, MalformedCommand)
"""Errors caused by what the client sent, not by the bot: logged without a traceback."""


def components(items: list[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones (action rows' children) included."""
    for item in items:
        yield item
        yield from components(list(getattr(item, "children", None) or []))


def on_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked component is on the message, so discord.py dispatches it."""
    data: dict[str, Any] = dict(interaction.data or {})
    message = interaction.message
    if message is None:
        return False
    kind, custom_id = data.get("component_type"), data.get("custom_id")
    return any(getattr(c, "custom_id", None) == custom_id and c.type.value == kind
               for c in components(list(message.components)))


async def on_interaction(interaction: discord.Interaction) -> None:
    """Refuse ``qx:`` components that discord.py would drop."""
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    if custom_id.startswith(PREFIX) and not on_message(interaction):
        await refuse(interaction)


async def on_tree_error(interaction: discord.Interaction,
                        error: app_commands.AppCommandError) -> None:
    """A polite ephemeral answer to a slash command that could not run."""
    name = getattr(interaction.command, "qualified_name", None) or "?"
    if isinstance(error, USER_ERRORS):
        log.info("refused /%s from user %s: %s", name, interaction.user.id,
                 shorten(str(error), 120))
        key = "error.bad_command"
    else:
        log.error("command /%s failed", name, exc_info=error)
        key = "error.internal"
    with using(interaction.locale):  # a command that failed before it could set it
        text = t(key)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as failed:  # e.g. the interaction expired meanwhile
        log.warning("could not answer /%s: %s", name, failed)


def guard_parsing(tree: app_commands.CommandTree[Any]) -> None:
    """Route errors in reading a command's data to ``tree.on_error``.

    discord.py hands ``on_error`` only :class:`~discord.app_commands.AppCommandError`;
    a value it cannot parse (a user option ``""``) raises a plain ``ValueError``
    before the command runs, and the interaction would stay unanswered. Errors of the
    command itself already arrive wrapped (``CommandInvokeError``).
    """
    call = tree._call

    async def guarded(interaction: discord.Interaction) -> None:
        try:
            await call(interaction)
        except app_commands.AppCommandError:
            raise
        except (ValueError, TypeError, KeyError) as error:
            raise MalformedCommand(f"{type(error).__name__}: {error}") from error
    tree._call = guarded  # type: ignore[method-assign]


def install(bot: commands.Bot) -> None:
    """Register both fallbacks on ``bot``."""
    bot.add_listener(on_interaction)
    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]
    guard_parsing(bot.tree)
