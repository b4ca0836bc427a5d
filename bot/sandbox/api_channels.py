"""REST endpoints for channels, channel messages (bot token) and threads."""

from __future__ import annotations

from typing import Any

from . import payloads
from .messages import Messages
from .permissions import Perm
from .records import PRIVATE_THREAD, PUBLIC_THREAD, ChannelRecord, Failure, StoredMessage
from .rest import ApiError, ApiRequest, Rest
from .world import World

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
DM_REFUSALS = {
    50007: "Cannot send messages to this user",
    50278: "Cannot send messages to this user due to having no mutual guilds",
}


class ChannelEndpoints:
    """Messages sent and edited with the bot token, and thread creation."""

    def __init__(self, world: World, messages: Messages) -> None:
        self.world = world
        self.messages = messages

    def register(self, rest: Rest) -> None:
        """Add the handlers to ``rest``."""
        rest.add("GET", "/channels/{channel_id}", self.get_channel)
        rest.add("GET", MESSAGES, self.list_messages)
        rest.add("POST", MESSAGES, self.create_message)
        rest.add("GET", MESSAGE, self.get_message)
        rest.add("PATCH", MESSAGE, self.edit_message)
        rest.add("DELETE", MESSAGE, self.delete_message)
        rest.add("POST", "/channels/{channel_id}/threads", self.create_thread)
        rest.add("POST", MESSAGE + "/threads", self.create_thread_from_message)

    def _channel(self, request: ApiRequest) -> ChannelRecord:
        """The channel, if the bot is in it: 404 if there is none, 403 Missing Access in
        a server without the bot or someone else's DM."""
        channel = self.world.channels.get(int(request.params["channel_id"]))
        if channel is None:
            raise ApiError(
                404,
                "Unknown Channel",
                10003,
                kind="not_found",
                detail=f"channel {request.params['channel_id']}",
            )
        if not self.world.bot_sees(channel):
            where = "a DM the bot is not in" if channel.is_private else "a server without the bot"
            raise ApiError(
                403,
                "Missing Access",
                50001,
                kind="forbidden",
                detail=f"channel {channel.id} is in {where}",
            )
        return channel

    def _require(self, channel: ChannelRecord, permission: Perm) -> None:
        """Discord's 403 when the bot lacks ``permission`` (guild-wide; no overwrites here;
        none in DMs)."""
        if channel.guild_id is None:
            return
        bot = self.world.members.get((channel.guild_id, self.world.bot.id))
        if bot is not None and not bot.permissions & (permission | Perm.ADMINISTRATOR):
            raise ApiError(
                403,
                "Missing Permissions",
                50013,
                kind="forbidden",
                detail=f"the bot lacks {permission.name} in channel {channel.id}",
            )

    def _require_open(self, channel: ChannelRecord) -> None:
        """Discord's refusals of a post to a DM that no bot can foresee, kept in
        ``world.declined`` rather than among the failures: the member closed their DMs
        (50007), or shares no server with the bot and has not installed the app (50278)."""
        for user_id in channel.recipients if channel.is_private else ():
            user = self.world.users[user_id]
            if user.id == self.world.bot.id:
                continue
            if not user.accepts_dms:
                self._decline(channel, "dm_closed", f"{user.name} closed their DMs", 50007)
            if not (self.world.shares_guild(user.id) or user.id in self.world.user_installs):
                self._decline(channel, "no_mutual_guild", f"{user.name} shares no server", 50278)

    def _decline(self, channel: ChannelRecord, kind: str, why: str, code: int) -> None:
        detail = f"{why} (channel {channel.id})"
        self.world.declined.append(Failure(kind, f"POST {MESSAGES}", detail))
        self.world.notify()
        raise ApiError(403, DM_REFUSALS[code], code)

    def _message(self, request: ApiRequest) -> StoredMessage:
        channel = self._channel(request)
        message = self.messages.find(channel.id, int(request.params["message_id"]))
        if message.visible_to is not None:
            raise ApiError(
                404,
                "Unknown Message",
                10008,
                kind="not_found",
                detail="ephemeral messages are not channel messages",
            )
        return message

    async def get_channel(self, request: ApiRequest) -> dict[str, Any]:
        """One channel."""
        return payloads.any_channel(self.world, self._channel(request))

    async def list_messages(self, request: ApiRequest) -> list[dict[str, Any]]:
        """Public messages, newest first, honouring ``limit``, ``before`` and ``after``."""
        channel = self._channel(request)
        found = self.world.public_messages(channel.id)
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])]
        limit = int(request.query.get("limit", 50))
        return [self.messages.payload(m) for m in reversed(found[-limit:])]

    async def create_message(self, request: ApiRequest) -> dict[str, Any]:
        """Send a message as the bot (which needs Send Messages, and Attach Files for files)."""
        channel = self._channel(request)
        self._require_open(channel)
        self._require(
            channel, Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        )
        if request.files:
            self._require(channel, Perm.ATTACH_FILES)
        body = request.json()
        nonce = str(body["nonce"]) if body.get("nonce") is not None else None
        if nonce is not None and body.get("enforce_nonce"):
            for earlier in self.world.public_messages(channel.id):
                if earlier.nonce == nonce and earlier.author.id == self.world.bot.id:
                    return self.messages.payload(earlier)  # a repeat: no second message
        message = await self.messages.create(channel.id, body, request.files, nonce=nonce)
        return self.messages.payload(message)

    async def get_message(self, request: ApiRequest) -> dict[str, Any]:
        """Fetch one message."""
        return self.messages.payload(self._message(request))

    async def edit_message(self, request: ApiRequest) -> dict[str, Any]:
        """Edit one of the bot's messages."""
        message = self._message(request)
        if message.author.id != self.world.bot.id:
            raise ApiError(
                403,
                "Cannot edit a message authored by another user",
                50005,
                kind="forbidden",
                detail=f"message {message.id}",
            )
        await self.messages.edit(message, request.json(), request.files)
        return self.messages.payload(message)

    async def delete_message(self, request: ApiRequest) -> None:
        """Delete a message."""
        await self.messages.delete(self._message(request))

    async def create_thread(self, request: ApiRequest) -> dict[str, Any]:
        """Start a thread without a message (private unless ``type`` says 11)."""
        parent = self._channel(request)
        kind = int(request.json().get("type") or PRIVATE_THREAD)
        return await self._thread(parent, request.json(), kind, None)

    async def create_thread_from_message(self, request: ApiRequest) -> dict[str, Any]:
        """Start a public thread on a message; the thread takes the message's id."""
        message = self._message(request)
        if message.id in self.world.channels:
            raise ApiError(
                400,
                "A thread has already been created for this message",
                160004,
                kind="thread_exists",
                detail=f"message {message.id}",
            )
        parent = self.world.channels[message.channel_id]
        return await self._thread(parent, request.json(), PUBLIC_THREAD, message.id)

    async def _thread(
        self, parent: ChannelRecord, body: dict[str, Any], kind: int, thread_id: int | None
    ) -> dict[str, Any]:
        if parent.is_thread:
            raise ApiError(
                400,
                "Cannot create a thread inside a thread",
                50024,
                kind="bad_request",
                detail=f"channel {parent.id} is a thread",
            )
        if parent.guild_id is None:
            raise ApiError(
                400,
                "Cannot execute action on this channel type",
                50024,
                kind="bad_request",
                detail=f"channel {parent.id} is a DM",
            )
        thread = self.world.add_channel(
            parent.guild_id,
            str(body.get("name") or "thread"),
            id=thread_id,
            type=kind,
            parent_id=parent.id,
            owner_id=self.world.bot.id,
        )
        data = payloads.channel(thread)
        await self.messages.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        self.world.notify()
        return data
