"""Everything the stand-in remembers, with a change signal tests can wait on."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from .clock import Clock
from .ids import Snowflakes, iso_now
from .permissions import BOT_DEFAULT, MEMBER_DEFAULT
from .records import (
    TEXT_CHANNEL,
    ChannelRecord,
    EmojiRecord,
    Failure,
    GuildRecord,
    InteractionRecord,
    MemberRecord,
    RoleRecord,
    StoredMessage,
    UserRecord,
)

_log = logging.getLogger(__name__)
T = TypeVar("T")
POLL_INTERVAL = 0.05


class World:
    """Users, guilds, channels, messages, commands and interactions of one stand-in."""

    def __init__(self, clock: Clock, bot_name: str = "Sandbox Bot") -> None:
        self.clock = clock
        self.ids = Snowflakes()
        self.bot = UserRecord(self.ids.next(), bot_name, bot=True)
        self.owner = UserRecord(self.ids.next(), "Sandbox Owner")
        self.guilds: dict[int, GuildRecord] = {}
        self.channels: dict[int, ChannelRecord] = {}
        self.members: dict[tuple[int, int], MemberRecord] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        """Registered application commands; key None holds the global ones."""
        self.interactions: dict[int, InteractionRecord] = {}
        self.emojis: dict[int, EmojiRecord] = {}
        """The application's emojis (kept while the stand-in runs, across the bot's
        restarts)."""
        self.emojis_refused = False
        """Uploading an application emoji is refused (403), as for an application that
        may not have them."""
        self.log: list[tuple[str, int]] = []
        """("create" | "edit" | "delete", message id) in the order they happened."""
        self.failures: list[Failure] = []
        self._changed = asyncio.Event()

    @property
    def application_id(self) -> int:
        """The application id (equal to the bot user's id, as for modern apps)."""
        return self.bot.id

    # -- change notification -------------------------------------------------

    def notify(self) -> None:
        """Wake every waiter; called after each change."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T | None], timeout: float) -> T:
        """Wait until ``predicate()`` is truthy and return it; TimeoutError after ``timeout``."""
        async with asyncio.timeout(timeout):
            while not (result := predicate()):
                # Also re-check now and then, for predicates on state outside the world.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), POLL_INTERVAL)
            return result

    def fail(self, kind: str, endpoint: str, detail: str) -> Failure:
        """Record something real Discord would have rejected."""
        failure = Failure(kind, endpoint, detail)
        _log.warning("sandbox failure %s", failure)
        self.failures.append(failure)
        self.notify()
        return failure

    # -- guilds and members ----------------------------------------------------

    def add_guild(
        self, name: str, channels: list[str], shard: tuple[int, int] | None = None
    ) -> GuildRecord:
        """Create a guild with text channels and the bot as a member; ``shard``
        (id, count) picks a guild id whose events go to that shard."""
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = GuildRecord(guild_id, name)
        guild.roles.append(RoleRecord(guild.id, "@everyone", int(MEMBER_DEFAULT)))
        bot_role = RoleRecord(self.ids.next(), self.bot.name, int(BOT_DEFAULT), 1, managed=True)
        guild.roles.append(bot_role)
        self.guilds[guild.id] = guild
        for position, channel_name in enumerate(channels):
            self.add_channel(guild.id, channel_name, position=position)
        self._join(guild, self.bot, [bot_role.id], int(BOT_DEFAULT | MEMBER_DEFAULT))
        return guild

    def add_channel(
        self,
        guild_id: int,
        name: str,
        *,
        id: int | None = None,
        type: int = TEXT_CHANNEL,
        parent_id: int | None = None,
        owner_id: int | None = None,
        position: int = 0,
    ) -> ChannelRecord:
        """Create a text channel (or, with ``type``/``parent_id``, a thread)."""
        channel = ChannelRecord(
            id or self.ids.next(), guild_id, name, type, parent_id, owner_id, position
        )
        self.channels[channel.id] = channel
        self.guilds[guild_id].channel_ids.append(channel.id)
        return channel

    def add_member(self, guild_id: int, name: str, permissions: int | None = None) -> MemberRecord:
        """Add a human member; custom permissions come with a role of their own."""
        guild = self.guilds[guild_id]
        user = UserRecord(self.ids.next(), name)
        role_ids: list[int] = []
        granted = int(MEMBER_DEFAULT)
        if permissions is not None and permissions != granted:
            role = RoleRecord(self.ids.next(), f"{name}'s role", permissions, len(guild.roles))
            guild.roles.append(role)
            role_ids.append(role.id)
            granted |= permissions
        return self._join(guild, user, role_ids, granted)

    def _join(
        self, guild: GuildRecord, user: UserRecord, roles: list[int], perms: int
    ) -> MemberRecord:
        member = MemberRecord(user, guild.id, roles, perms, iso_now())
        self.members[(guild.id, user.id)] = member
        return member

    def guild_members(self, guild_id: int) -> list[MemberRecord]:
        """Members of one guild, the bot included."""
        return [m for (g, _), m in self.members.items() if g == guild_id]

    # -- messages --------------------------------------------------------------

    def record(self, action: str, message: StoredMessage) -> None:
        """Append to the message log and wake waiters."""
        self.log.append((action, message.id))
        self.notify()

    def visible_messages(self, user_id: int, channel_id: int | None = None) -> list[StoredMessage]:
        """Messages ``user_id`` can see, oldest first (optionally in one channel)."""
        return [
            m
            for m in self.messages.values()
            if m.visible_for(user_id) and channel_id in (None, m.channel_id)
        ]

    def public_messages(self, channel_id: int | None = None) -> list[StoredMessage]:
        """Non-ephemeral, non-deleted messages, oldest first."""
        return [
            m
            for m in self.messages.values()
            if not m.deleted and m.visible_to is None and channel_id in (None, m.channel_id)
        ]

    def touched_since(self, start: int, user_id: int) -> list[StoredMessage]:
        """Messages created or edited since log position ``start`` that ``user_id`` sees."""
        seen: dict[int, StoredMessage] = {}
        for _action, message_id in self.log[start:]:
            message = self.messages.get(message_id)
            if message is not None and message.visible_for(user_id):
                seen.setdefault(message_id, message)
        return list(seen.values())

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """The interaction owning a webhook token."""
        return next((i for i in self.interactions.values() if i.token == token), None)
