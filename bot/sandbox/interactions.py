"""Interaction lifecycle: INTERACTION_CREATE payloads, the 3 s window, 15 min tokens."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from . import payloads
from .messages import Dispatch
from .records import ChannelRecord, InteractionRecord, MemberRecord, StoredMessage
from .rest import ApiError
from .world import World

_log = logging.getLogger(__name__)

ACK_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60.0
FAILED = "This interaction failed"


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
        member: MemberRecord,
        channel: ChannelRecord,
        data: dict[str, Any],
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        """Create an interaction and send INTERACTION_CREATE to the bot."""
        record = InteractionRecord(
            id=self.world.ids.next(),
            token=f"sandbox-{secrets.token_urlsafe(48)}",
            type=kind,
            user_id=member.user.id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            data=data,
            created_at=self.world.clock.now(),
            log_start=len(self.world.log),
            message_id=message.id if message else None,
        )
        self.world.interactions[record.id] = record
        loop = asyncio.get_running_loop()
        loop.call_later(self.ack_window + 0.01, self.check_deadlines)
        await self._dispatch("INTERACTION_CREATE", self.payload(record, member, channel, message))
        return record

    def payload(
        self,
        record: InteractionRecord,
        member: MemberRecord,
        channel: ChannelRecord,
        message: StoredMessage | None,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE body with every field discord.py 2.7 reads."""
        guild_id = str(channel.guild_id)
        bot = self.world.members[(channel.guild_id, self.world.bot.id)]
        guild = self.world.guilds[channel.guild_id]
        body: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.world.application_id),
            "type": record.type,
            "data": record.data,
            "guild_id": guild_id,
            "guild": {"id": guild_id, "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": payloads.channel(channel),
            "member": payloads.member(member, with_permissions=True),
            "token": record.token,
            "version": 1,
            "app_permissions": str(bot.permissions),
            "locale": member.user.locale,
            "guild_locale": guild.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild_id},
            "context": 0,
            "attachment_size_limit": payloads.ATTACHMENT_SIZE_LIMIT,
        }
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
