"""The private answers every group of handlers shares, and the decorator that turns a
handler's refusals and surprises into one."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

import discord

from bot.channel.cards import Card
from bot.cogs.cards import in_rows, layout
from bot.i18n import ENGLISH, using
from bot.i18n.words import t
from bot.records.errors import CommitUnknown, ReadFailed, StoreError
from bot.service.errors import ServiceError

log = logging.getLogger(__name__)
P = ParamSpec("P")
MESSAGE_LIMIT = 2000  # Discord's limit for a message's content
CARD_LIMIT = 4000  # and for a card's text displays together
IN_TIME = 1.5
"""Seconds a click waits for its answer before it is deferred: Discord allows 3 from the
interaction's creation, which the gateway's delivery and the answer's request eat into."""
Language = Callable[[int], Awaitable[str]]
"""A server's language, for what is shared with its channel."""
Editor = Callable[..., Awaitable[Any]]
"""Edits one message: ``content=``, ``attachments=``, ``view=`` (a card: its
``view`` a :class:`discord.ui.LayoutView`, no ``content``)."""


class Answers(Protocol):
    """A group of handlers that answers privately."""

    @property
    def language(self) -> Language: ...
    async def tell(self, interaction: discord.Interaction, text: str) -> None: ...
    async def afterwards(self, interaction: discord.Interaction) -> None: ...


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
            except ReadFailed as error:  # nothing was written: the read failed
                log.warning("interaction %s could not be read: %s", interaction.id, error)
                await self.tell(interaction, t("error.store_read"))
            except CommitUnknown as error:  # the database stopped answering at the commit
                log.warning("interaction %s may not have been saved: %s", interaction.id, error)
                await self.tell(interaction, t("error.store_unknown"))
            except StoreError as error:  # e.g. a full or read-only disk: nothing was written
                log.warning("interaction %s could not be saved: %s", interaction.id, error)
                await self.tell(interaction, t("error.store"))
            except Exception:
                log.exception("handling interaction %s failed", interaction.id)
                await self.tell(interaction, t("error.internal"))
            try:
                await self.afterwards(interaction)
            except Exception as error:  # a notice that can wait for the next interaction
                log.warning("interaction %s: its notice failed (%s)", interaction.id, error)

    functools.update_wrapper(wrapper, handler)
    return wrapper


async def english(guild_id: int) -> str:
    """The language of handlers that share nothing with a channel."""
    return ENGLISH


class PrivateAnswers:
    """What every group of handlers shares (:class:`Answers`): the private answer, and
    ``language``, the server's (or English where nothing is shared with a channel)."""

    def __init__(self, language: Language = english) -> None:
        self.language = language

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def afterwards(self, interaction: discord.Interaction) -> None:
        """What the member is to be told once the interaction is answered (nothing)."""


async def answer(interaction: discord.Interaction, editor: Editor | None, **fields: Any) -> Editor:
    """Show a private answer: in place through ``editor``, or (None) as a new ephemeral
    follow-up (a card when its ``view`` is a layout); what edits that answer later."""
    if editor is not None:
        await editor(**fields)
        return editor
    files = fields.pop("attachments", [])
    sent = await interaction.followup.send(
        ephemeral=True, wait=True, files=files, **{k: v for k, v in fields.items() if v is not None}
    )
    return FollowUp(sent.edit, isinstance(fields.get("view"), discord.ui.LayoutView))


class FollowUp:
    """Edits a private answer posted as a new message, in the form it was posted in:
    plain fields become a card on a card (:func:`as_card`)."""

    def __init__(self, edit: Editor, card: bool) -> None:
        self.edit = edit
        self.card = card

    async def __call__(self, **fields: Any) -> Any:
        return await self.edit(**(as_card(fields) if self.card else fields))


def writes_card(interaction: discord.Interaction, editor: Editor | None) -> bool:
    """Whether the answer ``editor`` writes is a card: a new answer (None) is, and so is
    a command's own (its placeholder takes the form of its first edit); a message posted
    before cards keeps its form: a follow-up's, or the clicked message's, that a click
    edits."""
    if editor is None:
        return True
    posted = getattr(editor, "card", None)
    if isinstance(posted, bool):
        return posted
    return is_card(interaction.message) if interaction.message is not None else True


def is_card(message: discord.Message | None) -> bool:
    """Whether ``message`` was posted as a card (Discord's IS_COMPONENTS_V2); a message
    posted before cards keeps its text form."""
    return message is not None and bool(message.flags.components_v2)


def as_card(
    fields: dict[str, Any], laid_out: Card | None = None, colour: int | None = None
) -> dict[str, Any]:
    """An answer's fields (``content``, ``attachments``, ``view``) as a card's:
    ``laid_out``, or its content in one text display (however many paragraphs it has,
    the card stays within Discord's 40 components) in ``colour``, its images after it,
    its buttons under it in the rows their view lays them in; fields that are a card
    already are left as they are."""
    if isinstance(fields.get("view"), discord.ui.LayoutView):
        return fields
    rest = {k: v for k, v in fields.items() if k not in ("content", "view")}
    files = list(fields.get("attachments") or [])
    buttons = fields.get("view")
    shown = laid_out or Card((str(fields.get("content") or ""),))
    view = layout(shown, files, None if buttons is None else in_rows(buttons))
    for box in view.children:
        if isinstance(box, discord.ui.Container) and colour is not None:
            box.accent_colour = colour
    return {**rest, "view": view}


def worn(message: discord.Message) -> int | None:
    """The accent colour of a card (its first container's), so that an edit keeps it."""
    for component in message.components:
        if isinstance(component, discord.Container) and component.accent_colour:
            return int(component.accent_colour)
    return None


def with_text(content: str, text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``content`` followed by a sheet's text version, cut to fit one message."""
    return "\n".join(part for part in fit_text(content, text, limit) if part)


def fit_text(content: str, text: str, limit: int) -> tuple[str, str]:
    """``content`` and a sheet's text version to follow it, cut to fit ``limit``
    characters with the line between them (the text left out when no room is left)."""
    room = limit - len(content) - 1
    if room < 20:
        return content[:limit], ""
    return content, text if len(text) <= room else text[: room - 1] + "…"


class Reply:
    """The answer to a click that updates the message clicked: one request (the update
    itself) when the answer is ready within :data:`IN_TIME`, else a deferred update
    first, at that moment, and the answer as an edit through the token, so that Discord's
    3 seconds hold either way. ``async with Reply(interaction) as reply:`` — leaving the
    block waits for a deferral under way, so that a refusal is sent as it should be."""

    def __init__(self, interaction: discord.Interaction, in_time: float = IN_TIME) -> None:
        self.interaction = interaction
        self._in_time = in_time
        self._timer: asyncio.TimerHandle | None = None
        self._deferring: asyncio.Task[Any] | None = None

    async def __aenter__(self) -> Reply:
        self._timer = asyncio.get_running_loop().call_later(self._in_time, self._defer)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self._settled()

    def _defer(self) -> None:
        if not self.interaction.response.is_done():
            self._deferring = asyncio.ensure_future(self.interaction.response.defer())

    async def _settled(self) -> None:
        """No deferral is under way any more (an answer may go out)."""
        if self._timer is not None:
            self._timer.cancel()
        if self._deferring is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._deferring

    async def edit(self, **fields: Any) -> None:
        """The clicked message, as ``fields`` say (an :data:`Editor`), in its own form:
        plain fields become a card on a card (:func:`as_card`)."""
        message = self.interaction.message
        if message is not None and is_card(message):
            fields = as_card(fields, colour=worn(message))
        await self._settled()
        if self.interaction.response.is_done():
            await self.interaction.edit_original_response(**fields)
        else:
            await self.interaction.response.edit_message(**fields)
