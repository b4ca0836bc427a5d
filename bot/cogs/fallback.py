"""Answers for what discord.py would leave unanswered ("This interaction failed").

* A component whose custom_id is not on the message it was clicked on (a tampered
  client, or a message edited since): discord.py looks the id up among the message's
  components and silently drops the interaction when it is not there.
* A slash command that fails inside discord.py's command tree: an option value
  outside its choices, an unknown or outdated command, or any unexpected error.
  The tree's default handler only logs those.
* Any interaction that arrives while the bot is stopping (:class:`Gate`).

Each is answered with a polite ephemeral message, at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.buttons import refuse
from bot.cogs.discord_private import Parser, interaction_of, tasks_started
from bot.i18n import using
from bot.i18n.words import t
from bot.text import shorten

log = logging.getLogger(__name__)


class MalformedCommand(app_commands.AppCommandError):
    """Command data discord.py could not read (e.g. a user option that is no id)."""


USER_ERRORS = (
    app_commands.TransformerError,
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
    MalformedCommand,
)
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
    return any(
        getattr(c, "custom_id", None) == custom_id and c.type.value == kind
        for c in components(list(message.components))
    )


async def on_interaction(interaction: discord.Interaction) -> None:
    """Refuse components that discord.py would drop."""
    if interaction.type is not discord.InteractionType.component:
        return
    if not on_message(interaction):
        await refuse(interaction)


async def on_tree_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """A polite ephemeral answer to a slash command that could not run."""
    name = getattr(interaction.command, "qualified_name", None) or "?"
    if isinstance(error, USER_ERRORS):
        log.info(
            "refused /%s from user %s: %s", name, interaction.user.id, shorten(str(error), 120)
        )
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
    a value it cannot read (a member option that is no id) raises a plain ``ValueError``
    or ``TypeError`` as it reads the options, before the command runs, and the
    interaction would stay unanswered. discord.py calls the tree's public check
    (``interaction_check``) before it reads them: the check reads them first
    (``Interaction.namespace``, the same reading) and raises what it meets as
    :class:`MalformedCommand`, which discord.py hands ``on_error``. Errors of the
    command itself already arrive wrapped (``CommandInvokeError``).
    """
    check = tree.interaction_check

    async def readable(interaction: discord.Interaction) -> bool:
        try:
            interaction.namespace  # noqa: B018 (read for what reading raises)
        except (ValueError, TypeError, KeyError) as error:
            raise MalformedCommand(f"{type(error).__name__}: {error}") from error
        return await check(interaction)

    # The check is public, and meant to be replaced (as on_error is, below).
    tree.interaction_check = readable  # type: ignore[method-assign]


async def answer_raw(client: discord.Client, data: dict[str, Any], key: str) -> None:
    """Answer an interaction discord.py has not seen (its gateway data), at once and
    privately, with the text of ``key`` in the member's language (an autocomplete with
    no choices); an answer that fails is logged."""
    interaction = interaction_of(client, data)
    with using(interaction.locale):
        text = t(key)
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except Exception as error:  # e.g. the interaction expired, the connection closing
        log.warning("could not answer interaction %s (%s): %s", describe(data), key, error)


def describe(data: dict[str, Any]) -> str:
    """An interaction for the log: ``123 (qx:12:7:pass)`` or ``123 (/qwixx)``."""
    inner = data.get("data") or {}
    what = inner.get("custom_id") or (f"/{inner['name']}" if inner.get("name") else "?")
    return f"{data.get('id', '?')} ({shorten(str(what), 60)})"


class Gate:
    """The door every interaction comes in by (the gateway's ``INTERACTION_CREATE``).

    While open, an interaction goes on to ``parse`` (discord.py's parser, or the click
    throttle in front of it), and the tasks started for it (the command, the button's
    callback, the listeners, the throttle's answer) are its handling: the gate keeps
    them until they end, so that a stopping bot can let them finish. Once closed (the
    bot is stopping), an interaction is answered at once, privately, that the bot is
    restarting, and nothing else happens. Refusals are handling too.
    """

    def __init__(self, client: discord.Client, parse: Parser) -> None:
        self.open = True
        self.refused = 0
        """Interactions answered with the refusal since the gate closed."""
        self._client = client
        self._parse = parse
        self._running: dict[asyncio.Future[Any], str] = {}

    def receive(self, data: dict[str, Any]) -> None:
        """The parser of ``INTERACTION_CREATE`` in front of ``parse``."""
        if self.open:
            started = tasks_started(self._parse, data)
        else:
            self.refused += 1
            started = [
                asyncio.get_running_loop().create_task(
                    self.refuse(data), name=f"qwixx-refuse-{data.get('id')}"
                )
            ]
        for task in started:
            self._running[task] = describe(data)
            task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Future[Any]) -> None:
        self._running.pop(task, None)

    async def refuse(self, data: dict[str, Any]) -> None:
        await answer_raw(self._client, data, "error.restarting")

    def close(self) -> None:
        """Refuse every interaction from now on."""
        self.open = False

    @property
    def in_flight(self) -> list[str]:
        """The interactions being handled (refusals included), for the log."""
        return sorted(set(self._running.values()))

    async def settle(self, timeout: float) -> list[str]:
        """Wait until no interaction is being handled, at most ``timeout`` seconds; the
        interactions still being handled then."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._running and (left := deadline - loop.time()) > 0:
            await asyncio.wait(list(self._running), timeout=left)
        return self.in_flight

    def cancel(self) -> None:
        """Stop the handling still running (a stop that ran out of time)."""
        for task in list(self._running):
            task.cancel()


def install(bot: commands.Bot) -> None:
    """Register the fallbacks on ``bot`` (the gate is put in front by the bot itself,
    with the click throttle: :meth:`bot.app.QwixxBot.front`)."""
    bot.add_listener(on_interaction)
    # discord.py's documented way to handle a command tree's errors is to replace it.
    bot.tree.on_error = on_tree_error  # type: ignore[method-assign]
    guard_parsing(bot.tree)
