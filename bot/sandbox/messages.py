"""Creating, editing and deleting stored messages, shared by channel and webhook endpoints."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import mimetypes
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from . import limits, payloads
from .ids import iso_now
from .records import (
    COMPONENTS_V2,
    LOADING,
    SUPPRESS_EMBEDS,
    StoredAttachment,
    StoredMessage,
    UserRecord,
    layout_text,
    media_urls,
)
from .rest import ApiError, UploadedFile
from .world import World

Dispatch = Callable[[str, dict[str, Any]], Awaitable[None]]
EDITABLE_FLAGS = SUPPRESS_EMBEDS | COMPONENTS_V2


class Messages:
    """Applies message bodies to the world and tells the gateway about public changes."""

    def __init__(self, world: World, dispatch: Dispatch, http_base: Callable[[], str]) -> None:
        self.world = world
        self.dispatch = dispatch
        self._http_base = http_base

    def check(self, body: dict[str, Any], files: list[UploadedFile]) -> None:
        """Raise a Discord-like 400/413 if the body breaks a limit."""
        problems = limits.check_message(body)
        if problems:
            raise ApiError(
                400,
                "Invalid Form Body",
                50035,
                kind="limit",
                body=limits.error_body(problems),
                detail=limits.describe(problems),
            )
        for upload in files:
            if len(upload.data) > payloads.ATTACHMENT_SIZE_LIMIT:
                raise ApiError(
                    413,
                    "Request entity too large",
                    40005,
                    kind="limit",
                    detail=f"{upload.filename} is {len(upload.data)} bytes",
                )

    async def create(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        author: UserRecord | None = None,
        visible_to: int | None = None,
        **extra: Any,
    ) -> StoredMessage:
        """Store a new message (ephemeral when ``visible_to`` is a user id)."""
        self.check(body, files)
        channel = self.world.channels[channel_id]
        message = StoredMessage(
            id=self.world.ids.next(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=author or self.world.bot,
            visible_to=visible_to,
            timestamp=iso_now(),
            audience=frozenset(channel.recipients) if channel.is_private else None,
            **extra,
        )
        message.content = str(body.get("content") or "")
        message.embeds = list(body.get("embeds") or [])
        message.components = numbered(body.get("components") or [])
        message.flags |= int(body.get("flags") or 0)
        message.attachments = self._attachments(message, body, files)
        _read_layout(message)
        _require_something(message)
        self.world.messages[message.id] = message
        self.world.record("create", message)
        await self._announce("MESSAGE_CREATE", message)
        return message

    async def edit(
        self, message: StoredMessage, body: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage:
        """Apply a PATCH body: only the fields present change (none if it is refused)."""
        self.check(body, files)
        before = dataclasses.replace(message)
        try:
            self._apply(message, body, files)
        except ApiError:
            vars(message).update(vars(before))
            raise
        message.flags &= ~LOADING
        message.edited_timestamp = iso_now()
        self.world.record("edit", message)
        await self._announce("MESSAGE_UPDATE", message)
        return message

    def _apply(
        self, message: StoredMessage, body: dict[str, Any], files: list[UploadedFile]
    ) -> None:
        _require_legacy_cleared(message, body)
        if "content" in body:
            message.content = str(body["content"] or "")
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = numbered(body["components"] or [])
        if body.get("flags") is not None:
            wanted = int(body["flags"])
            if message.layout and not wanted & COMPONENTS_V2:
                raise ApiError(
                    400,
                    "Invalid Form Body",
                    50035,
                    kind="invalid",
                    detail="a message's IS_COMPONENTS_V2 flag cannot be removed",
                )
            message.flags = (message.flags & ~EDITABLE_FLAGS) | (wanted & EDITABLE_FLAGS)
        if "attachments" in body or files:
            message.attachments = self._attachments(message, body, files)
        _read_layout(message)

    async def delete(self, message: StoredMessage) -> None:
        """Mark a message deleted."""
        message.deleted = True
        self.world.record("delete", message)
        if self._heard(message):
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            await self.dispatch("MESSAGE_DELETE", data)

    def find(self, channel_id: int, message_id: int) -> StoredMessage:
        """A live message in a channel, or 404 Unknown Message."""
        message = self.world.messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel_id:
            raise ApiError(
                404,
                "Unknown Message",
                10008,
                kind="not_found",
                detail=f"message {message_id} in channel {channel_id}",
            )
        return message

    def payload(self, message: StoredMessage) -> dict[str, Any]:
        """The message as Discord returns it."""
        return payloads.message(self.world, message)

    async def _announce(self, event: str, message: StoredMessage) -> None:
        if self._heard(message):
            await self.dispatch(event, self.payload(message))

    def _heard(self, message: StoredMessage) -> bool:
        """Whether the gateway tells the bot of ``message``: a public one in a channel
        the bot is in (not a server without it, nor other people's DMs)."""
        channel = self.world.channels[message.channel_id]
        return message.visible_to is None and self.world.bot_sees(channel)

    def _attachments(
        self, message: StoredMessage, body: dict[str, Any], files: list[UploadedFile]
    ) -> list[StoredAttachment]:
        uploads = {upload.index: upload for upload in files}
        entries = body.get("attachments")
        if entries is None:
            return message.attachments + [self._store(message, u, {}) for u in files]
        kept = {str(a.id): a for a in message.attachments}
        result: list[StoredAttachment] = []
        for entry in entries:
            key = str(entry.get("id"))
            if key in kept:
                result.append(kept[key])
            elif key.isdigit() and int(key) in uploads:
                result.append(self._store(message, uploads.pop(int(key)), entry))
        return result + [self._store(message, u, {}) for u in uploads.values()]

    def _store(
        self, message: StoredMessage, upload: UploadedFile, entry: dict[str, Any]
    ) -> StoredAttachment:
        attachment_id = self.world.ids.next()
        filename = entry.get("filename") or upload.filename
        url = f"{self._http_base()}/attachments/{message.channel_id}/{attachment_id}/{filename}"
        content_type = mimetypes.guess_type(filename)[0] or upload.content_type
        return StoredAttachment(
            attachment_id, filename, upload.data, content_type, url, entry.get("description")
        )


def _read_layout(message: StoredMessage) -> None:
    """A card's text is its text displays'; every ``attachment://`` it shows names one
    of its files (Discord refuses the body otherwise)."""
    if not message.layout:
        return
    message.content = layout_text(message.components)
    names = {a.filename for a in message.attachments}
    missing = [
        url
        for url in media_urls(message.components)
        if url.startswith(ATTACHMENT) and url.removeprefix(ATTACHMENT) not in names
    ]
    if missing:
        raise ApiError(
            400,
            "Invalid Form Body",
            50035,
            kind="invalid",
            detail=f"{', '.join(missing)} names no file of the message",
        )


ATTACHMENT = "attachment://"


def _require_legacy_cleared(message: StoredMessage, body: dict[str, Any]) -> None:
    """An edit that makes a message a card (sets ``IS_COMPONENTS_V2``) empties the
    content and embeds it has (Discord refuses it otherwise)."""
    if message.layout or not int(body.get("flags") or 0) & COMPONENTS_V2:
        return
    kept = [
        field
        for field, value in (("content", message.content), ("embeds", message.embeds))
        if value and body.get(field, value)
    ]
    if kept:
        raise ApiError(
            400,
            "Invalid Form Body",
            50035,
            kind="invalid",
            detail=f"a message made a card keeps its {' and '.join(kept)}",
        )


def _require_something(message: StoredMessage) -> None:
    if message.flags & LOADING:
        return
    if not (message.content or message.embeds or message.components or message.attachments):
        raise ApiError(
            400,
            "Cannot send an empty message",
            50006,
            kind="empty_message",
            detail="no content, embeds, components or files",
        )


def numbered(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``components`` as Discord stores them: each one the body gives no ``id`` takes
    the next number unused in the message, in reading order (a row, then its items)."""
    taken = {c["id"] for c in _every(components) if c.get("id")}
    fresh = (n for n in itertools.count(1) if n not in taken)
    copied = copy.deepcopy(components)
    for component in _every(copied):
        if not component.get("id"):
            component["id"] = next(fresh)
    return copied


def _every(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each component and, after it, those inside it (its items, its accessory)."""
    for component in components:
        yield component
        yield from _every(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield from _every([component["accessory"]])
