"""Simulated guild members: run slash commands, click buttons, pick from selects, look."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .commands import command_data
from .records import USER_INSTALL, ChannelRecord, InteractionRecord, MemberRecord, StoredMessage
from .server import FakeDiscord

_log = logging.getLogger(__name__)
COMMAND, COMPONENT = 2, 3
BUTTON, STRING_SELECT = 2, 3
DEFERRED_UPDATE = 6


@dataclass
class ActionOutcome:
    """What one action led to, as the acting member sees it."""

    interaction: InteractionRecord
    messages: list[StoredMessage]
    """Messages the member sees that were created or edited since the action, oldest first."""

    @property
    def failed(self) -> str | None:
        """ "This interaction failed" (or None) – what the Discord client would show."""
        return self.interaction.failed

    @property
    def response(self) -> StoredMessage | None:
        """The interaction's original response (for component updates: the clicked message)."""
        original = self.interaction.original_id
        return next((m for m in self.messages if m.id == original), None)

    @property
    def followups(self) -> list[StoredMessage]:
        """The messages this interaction created after its response (its follow-ups)."""
        return [
            m
            for m in self.messages
            if m.interaction_id == self.interaction.id and m.id != self.interaction.original_id
        ]

    @property
    def message(self) -> StoredMessage:
        """What the member was answered: after a deferred update of a public message, its
        first follow-up; else the response if there is one, else the first message;
        AssertionError if none."""
        public_update = self.interaction.callback_type == DEFERRED_UPDATE and (
            self.response is None or not self.response.ephemeral
        )
        found = (
            (self.followups[0] if public_update and self.followups else None)
            or self.response
            or (self.messages[0] if self.messages else None)
        )
        if found is None:
            raise AssertionError(f"interaction {self.interaction.id} produced no message")
        return found

    @property
    def ephemeral(self) -> list[StoredMessage]:
        """The messages only this member sees."""
        return [m for m in self.messages if m.ephemeral]

    @property
    def public(self) -> list[StoredMessage]:
        """The messages everyone sees."""
        return [m for m in self.messages if not m.ephemeral]


class SimMember:
    """A guild member driven by a test: ``await ana.slash("qwixx", "start", variant="classic")``.

    The same person can act in their DM with the bot (:meth:`open_dm`), in a DM or group
    DM with others, and in another guild they joined (:meth:`Sandbox.join`): pass the
    channel as ``in_channel``; a click acts where its message is.
    """

    def __init__(
        self,
        server: FakeDiscord,
        record: MemberRecord,
        channel: ChannelRecord,
        *,
        timeout: float = 5.0,
        settle: float = 0.05,
    ) -> None:
        self.server = server
        self.record = record
        self.channel = channel
        self.timeout = timeout
        self.settle = settle

    def __repr__(self) -> str:
        return f"<SimMember {self.name} id={self.id}>"

    @property
    def id(self) -> int:
        """The member's user id."""
        return self.record.user.id

    @property
    def name(self) -> str:
        """The member's display name."""
        return self.record.user.name

    @property
    def permissions(self) -> int:
        """Guild permissions as sent in interaction payloads."""
        return self.record.permissions

    @property
    def accepts_dms(self) -> bool:
        """False once the member closed their direct messages: the bot's posts there are
        answered 403 with code 50007, as Discord answers them (kept in ``sb.declined``)."""
        return self.record.user.accepts_dms

    @accepts_dms.setter
    def accepts_dms(self, value: bool) -> None:
        self.record.user.accepts_dms = value

    def install_app(self) -> None:
        """Add the app to the member's own account (a user install): its commands that
        declare the user install follow them into any server, DM or group DM."""
        world = self.server.world
        if USER_INSTALL not in world.install_types:
            raise PermissionError("the application does not support user installs")
        world.user_installs.add(self.id)
        world.notify()

    def uninstall_app(self) -> None:
        """Remove the app from the member's account."""
        self.server.world.user_installs.discard(self.id)
        self.server.world.notify()

    # -- direct messages -------------------------------------------------------------

    def open_dm(self) -> ChannelRecord:
        """The member's DM with the bot, opened from their side if the bot has not yet
        (the channel the bot's ``POST /users/@me/channels`` answers too)."""
        world = self.server.world
        return world.open_dm(self.id, world.bot.id)

    @property
    def dm_channel(self) -> ChannelRecord | None:
        """The member's DM with the bot, if either side opened it."""
        return self.server.world.dm_of(self.id)

    def direct_messages(self) -> list[StoredMessage]:
        """The member's DM with the bot as they read it, oldest first (deleted ones gone,
        their own ephemeral answers there included)."""
        channel = self.dm_channel
        return [] if channel is None else self.messages(channel)

    # -- actions -------------------------------------------------------------------

    async def slash(
        self, *path: str, in_channel: ChannelRecord | None = None, **options: Any
    ) -> ActionOutcome:
        """Run a slash command (``path`` = command, [group,] subcommand) with options, in
        ``in_channel`` (a DM or another guild's channel too); :class:`NotOffered` where
        Discord's client would not offer it."""
        values = {k: v.record if isinstance(v, SimMember) else v for k, v in options.items()}
        channel = in_channel or self.channel
        data = command_data(self.server.world, self.record, path, values, channel)
        return await self._act(COMMAND, channel, data, None)

    async def click(
        self, message: StoredMessage, *, label: str | None = None, custom_id: str | None = None
    ) -> ActionOutcome:
        """Click a button of ``message`` found by label and/or custom_id."""
        button = self._component(message, label=label, custom_id=custom_id)
        if button.get("type") != BUTTON or "custom_id" not in button:
            raise ValueError(f"{button} is not a clickable (non-link) button")
        data = {"custom_id": button["custom_id"], "component_type": BUTTON}
        return await self._act(COMPONENT, self._channel_of(message), data, message)

    async def select(
        self,
        message: StoredMessage,
        values: Sequence[str],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> ActionOutcome:
        """Pick ``values`` in a string select of ``message``."""
        menu = self._component(message, custom_id=custom_id, placeholder=placeholder)
        if menu.get("type") != STRING_SELECT:
            raise NotImplementedError("only string selects are simulated")
        _check_choice(menu, list(values))
        data = {
            "custom_id": menu["custom_id"],
            "component_type": STRING_SELECT,
            "values": list(values),
        }
        return await self._act(COMPONENT, self._channel_of(message), data, message)

    # -- what the member sees --------------------------------------------------------

    def messages(self, channel: ChannelRecord | None = None) -> list[StoredMessage]:
        """What the member sees in ``channel`` (a DM too), oldest first; without a
        channel, the public messages of every guild channel plus this member's own
        ephemeral ones (their DMs: :meth:`direct_messages`)."""
        if channel is not None:
            return self.server.world.visible_messages(self.id, channel.id)
        seen = self.server.world.visible_messages(self.id)
        return [m for m in seen if m.audience is None or m.ephemeral]

    def ephemeral_messages(self) -> list[StoredMessage]:
        """Only this member's ephemeral messages (in any channel)."""
        return [m for m in self.messages() if m.ephemeral]

    def last_message(self, channel: ChannelRecord | None = None) -> StoredMessage:
        """The newest message this member sees."""
        seen = self.messages(channel)
        if not seen:
            raise AssertionError(f"{self.name} sees no messages")
        return seen[-1]

    # -- internals -------------------------------------------------------------------

    def _component(self, message: StoredMessage, **criteria: str | None) -> dict[str, Any]:
        if not message.visible_for(self.id):
            raise PermissionError(f"{self.name} cannot see message {message.id}")
        component = message.find_component(**criteria)
        if component.get("disabled"):
            raise ValueError(f"component {criteria} is disabled")
        return component

    def _channel_of(self, message: StoredMessage) -> ChannelRecord:
        return self.server.world.channels[message.channel_id]

    async def _act(
        self, kind: int, channel: ChannelRecord, data: dict[str, Any], message: StoredMessage | None
    ) -> ActionOutcome:
        record = await self.server.interactions.open(kind, self.record, channel, data, message)
        world = self.server.world
        limit = max(self.timeout, self.server.interactions.ack_window + 1.0)
        await world.wait_until(lambda: record.acknowledged or record.failed, limit)
        if not record.failed:
            await self._settle(record)
        return ActionOutcome(record, world.touched_since(record.log_start, self.id))

    async def _settle(self, record: InteractionRecord) -> None:
        """Wait until requests stop and a deferred reply has been filled in.

        A deferred update (type 6) promises an edit or a follow-up through its token;
        until one of them arrives the member is still waiting for an answer too.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while loop.time() < deadline:
            original = self.server.world.messages.get(record.original_id or 0)
            loading = original is not None and original.loading and not original.deleted
            promised = record.callback_type == DEFERRED_UPDATE and not record.answered
            if self.server.rest.quiet_for(self.settle) and not loading and not promised:
                return
            await asyncio.sleep(self.settle / 2)
        _log.warning("interaction %s still busy after %.1f s", record.id, self.timeout)


def _check_choice(menu: dict[str, Any], values: list[str]) -> None:
    allowed = [o["value"] for o in menu.get("options") or []]
    low, high = menu.get("min_values", 1), menu.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ValueError(f"pick {low}..{high} values, not {len(values)}")
    wrong = [v for v in values if v not in allowed]
    if wrong:
        raise ValueError(f"{wrong} are not options of {menu['custom_id']!r}: {allowed}")
