"""Everything the stand-in remembers, with a change signal tests can wait on."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from .clock import SandboxClock
from .ids import Snowflakes, iso_now
from .permissions import BOT_DEFAULT, MEMBER_DEFAULT
from .records import (
    DM_CHANNEL,
    GROUP_DM,
    GUILD_INSTALL,
    TEXT_CHANNEL,
    USER_INSTALL,
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

    def __init__(self, clock: SandboxClock, bot_name: str = "Sandbox Bot") -> None:
        self.clock = clock
        self.ids = Snowflakes()
        self.bot = UserRecord(self.ids.next(), bot_name, bot=True)
        self.owner = UserRecord(self.ids.next(), "Sandbox Owner")
        self.users: dict[int, UserRecord] = {u.id: u for u in (self.bot, self.owner)}
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
        self.declined: list[Failure] = []
        """Refusals a bot cannot foresee (a DM to a member who closed them, or shares no
        server with the bot): answered as Discord answers them, but no failure of the bot's."""
        self.install_types = {GUILD_INSTALL, USER_INSTALL}
        """The installation contexts the application supports (its Developer Portal
        settings: this project's app is installable to servers and to users)."""
        self.user_installs: set[int] = set()
        """Users who installed the app to their own account."""
        self._dms: dict[frozenset[int], ChannelRecord] = {}
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
        self,
        name: str,
        channels: list[str],
        shard: tuple[int, int] | None = None,
        *,
        with_bot: bool = True,
    ) -> GuildRecord:
        """Create a guild with text channels and (unless ``with_bot`` is False) the bot
        as a member; ``shard`` (id, count) picks a guild id whose events go to that shard."""
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = GuildRecord(guild_id, name, has_bot=with_bot)
        guild.roles.append(RoleRecord(guild.id, "@everyone", int(MEMBER_DEFAULT)))
        self.guilds[guild.id] = guild
        for position, channel_name in enumerate(channels):
            self.add_channel(guild.id, channel_name, position=position)
        if with_bot:
            role = RoleRecord(self.ids.next(), self.bot.name, int(BOT_DEFAULT), 1, managed=True)
            guild.roles.append(role)
            self._join(guild, self.bot, [role.id], int(BOT_DEFAULT | MEMBER_DEFAULT))
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

    def add_member(
        self,
        guild_id: int,
        name: str,
        permissions: int | None = None,
        user: UserRecord | None = None,
    ) -> MemberRecord:
        """Add a human member (``user``, or a new user called ``name``); custom
        permissions come with a role of their own."""
        guild = self.guilds[guild_id]
        user = user or UserRecord(self.ids.next(), name)
        self.users[user.id] = user
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

    def shares_guild(self, user_id: int) -> bool:
        """Whether ``user_id`` is a member of some guild the bot is in."""
        return any(u == user_id and self.guilds[g].has_bot for g, u in self.members)

    def bot_guilds(self) -> list[GuildRecord]:
        """The guilds that added the bot (the gateway tells it of no other)."""
        return [g for g in self.guilds.values() if g.has_bot]

    # -- direct messages -------------------------------------------------------

    def open_dm(self, user_id: int, other_id: int) -> ChannelRecord:
        """The DM channel of two users (with the bot's id: the user's DM with the bot),
        the same one every time."""
        key = frozenset((user_id, other_id))
        if key not in self._dms:
            self._dms[key] = self._private(DM_CHANNEL, "", (user_id, other_id), None)
        return self._dms[key]

    def add_group_dm(self, user_ids: list[int], name: str = "") -> ChannelRecord:
        """A new group DM of these users; the first one owns it."""
        return self._private(GROUP_DM, name, tuple(user_ids), user_ids[0])

    def _private(
        self, kind: int, name: str, recipients: tuple[int, ...], owner_id: int | None
    ) -> ChannelRecord:
        channel = ChannelRecord(
            self.ids.next(), None, name, kind, owner_id=owner_id, recipients=recipients
        )
        self.channels[channel.id] = channel
        self.notify()
        return channel

    def dm_of(self, user_id: int) -> ChannelRecord | None:
        """The user's DM with the bot, if it was opened."""
        return self._dms.get(frozenset((user_id, self.bot.id)))

    def bot_sees(self, channel: ChannelRecord) -> bool:
        """Whether the bot is in ``channel`` (its guild added the bot, or the DM is the
        bot's): what it may read and write with its token, and hears of."""
        if channel.guild_id is None:
            return self.bot.id in channel.recipients
        return self.guilds[channel.guild_id].has_bot

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
        """Non-ephemeral, non-deleted messages of one channel, oldest first; without a
        channel, those of every guild channel (DMs and group DMs are nobody's public)."""
        return [
            m
            for m in self.messages.values()
            if not m.deleted
            and m.visible_to is None
            and (m.channel_id == channel_id if channel_id is not None else m.audience is None)
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
