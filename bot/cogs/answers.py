"""The private answer every table of handlers shares, and the decorator that turns a
handler's refusals and surprises into one."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

import discord

from bot.i18n import using
from bot.i18n.words import t
from bot.service.games import ServiceError
from bot.service.types import CommitUnknown, StoreError

log = logging.getLogger(__name__)
P = ParamSpec("P")


class Answers(Protocol):
    """A table of handlers (:class:`Table`, the statistics' table) that answers privately."""

    async def language(self, guild_id: int) -> str: ...
    async def tell(self, interaction: discord.Interaction, text: str) -> None: ...


A = TypeVar("A", bound=Answers)
Handler = Callable[Concatenate[A, discord.Interaction, P], Awaitable[None]]


def answers_errors(handler: Handler[A, P]) -> Handler[A, P]:
    """Turn refusals and surprises into a polite ephemeral answer; everything the
    handler writes is in the member's Discord language unless it switches, or is
    called with ``public=True`` (a view shared with the channel: the server's)."""

    async def wrapper(
        self: A, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        locale: object = interaction.locale
        if kwargs.get("public"):  # a view shared with the channel speaks the server's language
            locale = await self.language(interaction.guild_id or 0)
        with using(locale):
            try:
                await handler(self, interaction, *args, **kwargs)
            except ServiceError as error:
                await self.tell(interaction, error.text())
            except CommitUnknown as error:  # the database stopped answering at the commit
                log.warning("interaction %s may not have been saved: %s", interaction.id, error)
                await self.tell(interaction, t("error.store_unknown"))
            except StoreError as error:  # e.g. a full or read-only disk: nothing was written
                log.warning("interaction %s could not be saved: %s", interaction.id, error)
                await self.tell(interaction, t("error.store"))
            except Exception:
                log.exception("handling interaction %s failed", interaction.id)
                await self.tell(interaction, t("error.internal"))

    functools.update_wrapper(wrapper, handler)
    return wrapper


class PrivateAnswers:
    """What every table of handlers shares (:class:`Answers`): the private answer."""

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
