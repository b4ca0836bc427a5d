"""Interaction lifecycle: INTERACTION_CREATE payloads, the 3 s window, 15 min tokens."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from . import contexts, payloads
from .contexts import ALL_INSTALLS
from .messages import Dispatch
from .records import (
    GUILD_INSTALL,
    ChannelRecord,
    InteractionRecord,
    MemberRecord,
    StoredMessage,
    UserRecord,
)
from .rest import ApiError
from .world import World

_log = logging.getLogger(__name__)

ACK_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60.0
FAILED = "This interaction failed"
COMMAND, AUTOCOMPLETE = 2, 4


class Interactions:
    """Opens interactions and enforces Discord's deadlines on them."""

    def __init__(
        self,
        world: World,
        dispatch: Dispatch,
        *,
        ack_window: float = ACK_WINDOW,
        token_lifetime: float = TOKEN_LIFETIME,
    ) -> None:
        self.world = world
        self._dispatch = dispatch
        self.ack_window = ack_window
        self.token_lifetime = token_lifetime
        world.clock.on_advance(self.check_deadlines)

    async def open(
        self,
        kind: int,
        who: MemberRecord | UserRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        """Create an interaction of ``who`` (a user, or their membership of the guild)
        in ``channel`` and send INTERACTION_CREATE to the bot."""
        user = who.user if isinstance(who, MemberRecord) else who
        member = contexts.membership(self.world, user, channel)
        found = self._owners(kind, user, channel, data, message)
        record = InteractionRecord(
            id=self.world.ids.next(),
            token=f"sandbox-{secrets.token_urlsafe(48)}",
            type=kind,
            user_id=user.id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            data=data,
            created_at=self.world.clock.now(),
            log_start=len(self.world.log),
            message_id=message.id if message else None,
            context=contexts.context_of(self.world, channel),
            owners=found,
            forced_ephemeral=contexts.forced_ephemeral(member, found),
        )
        self.world.interactions[record.id] = record
        loop = asyncio.get_running_loop()
        loop.call_later(self.ack_window + 0.01, self.check_deadlines)
        payload = self.payload(record, user, member, channel, message)
        await self._dispatch("INTERACTION_CREATE", payload)
        return record

    def _owners(
        self,
        kind: int,
        user: UserRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        message: StoredMessage | None,
    ) -> dict[str, str]:
        """A command's installations reaching this place; a component's are those of the
        interaction that made its message (a message the bot posted: its guild install)."""
        if kind in (COMMAND, AUTOCOMPLETE):
            command = self._command(data.get("id"))
            installs = command.get("integration_types") if command else None
            return contexts.owners(self.world, user.id, channel, installs or ALL_INSTALLS)
        origin = self.world.interactions.get(message.interaction_id or 0) if message else None
        if origin is not None:
            return dict(origin.owners)
        return contexts.owners(self.world, user.id, channel, (GUILD_INSTALL,))

    def _command(self, command_id: Any) -> dict[str, Any] | None:
        for scope in self.world.commands.values():
            for command in scope:
                if command["id"] == str(command_id):
                    return command
        return None

    def payload(
        self,
        record: InteractionRecord,
        user: UserRecord,
        member: MemberRecord | None,
        channel: ChannelRecord,
        message: StoredMessage | None,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE body as Discord sends it (every field discord.py 2.7
        reads): in a guild with ``member`` and the guild, elsewhere with ``user``."""
        body: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.world.application_id),
            "type": record.type,
            "data": record.data,
            "channel_id": str(channel.id),
            "channel": payloads.any_channel(self.world, channel),
            "token": record.token,
            "version": 1,
            "app_permissions": str(contexts.app_permissions(self.world, member, channel)),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": record.owners,
            "context": record.context,
            "attachment_size_limit": payloads.ATTACHMENT_SIZE_LIMIT,
        }
        if member is not None:
            guild = self.world.guilds[member.guild_id]
            body["guild_id"] = str(guild.id)
            body["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            body["member"] = payloads.member(member, with_permissions=True)
            body["guild_locale"] = guild.locale
        else:
            body["user"] = payloads.user(user)
        if message is not None:
            body["message"] = payloads.message(self.world, message)
        return body

    def check_deadlines(self) -> None:
        """Mark every interaction not acknowledged within the window as failed."""
        now = self.world.clock.now()
        for record in self.world.interactions.values():
            overdue = now - record.created_at >= self.ack_window
            if overdue and not record.acknowledged and record.failed is None:
                record.failed = FAILED
                self.world.fail(
                    "interaction_failed",
                    f"interaction {record.id}",
                    f"{FAILED}: not acknowledged within {self.ack_window:g} s",
                )

    def for_callback(self, interaction_id: int, token: str) -> InteractionRecord:
        """The interaction a callback answers; 404/400 as Discord when it cannot."""
        record = self.world.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise ApiError(
                404,
                "Unknown interaction",
                10062,
                kind="unknown_interaction",
                detail=f"no interaction {interaction_id} with that token",
            )
        if record.acknowledged:
            raise ApiError(
                400,
                "Interaction has already been acknowledged.",
                40060,
                kind="already_acknowledged",
                detail=f"interaction {record.id}",
            )
        age = self.world.clock.now() - record.created_at
        if age > self.ack_window or record.failed:
            raise ApiError(
                404,
                "Unknown interaction",
                10062,
                kind="late_callback",
                detail=f"callback {age:.2f} s after the interaction (limit 3 s)",
            )
        return record

    def for_webhook(self, application_id: int, token: str) -> InteractionRecord:
        """The interaction behind a follow-up webhook; 404/401 as Discord when it cannot."""
        record = self.world.interaction_by_token(token)
        if application_id != self.world.application_id or record is None:
            raise ApiError(
                404,
                "Unknown Webhook",
                10015,
                kind="unknown_webhook",
                detail="no interaction with that token",
            )
        age = self.world.clock.now() - record.created_at
        if age > self.token_lifetime:
            raise ApiError(
                401,
                "Invalid Webhook Token",
                50027,
                kind="token_expired",
                detail=f"token is {age:.0f} s old (limit {self.token_lifetime:.0f} s)",
            )
        if not record.acknowledged:
            raise ApiError(
                404,
                "Unknown Webhook",
                10015,
                kind="not_acknowledged",
                detail="follow-up before the interaction was acknowledged",
            )
        return record
