"""``async with Sandbox() as sb``: a stand-in Discord with a guild, members and a bot runner."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

from .driver import SimMember
from .records import ChannelRecord, Failure, GuildRecord, MemberRecord, StoredMessage
from .server import FakeDiscord

if TYPE_CHECKING:
    import discord

_log = logging.getLogger(__name__)
T = TypeVar("T")
FAST_GUILD_READY = 0.05


@dataclass
class GuildSpec:
    """A guild to create: its name and text channels."""

    name: str = "Sandbox Guild"
    channels: Sequence[str] = field(default=("general",))
    locale: str = "en-US"  # the preferred locale
    shard: tuple[int, int] | None = None
    """(shard id, shard count): the guild gets an id that Discord routes to that shard."""
    bot: bool = True
    """False: a server that never added the bot (the gateway never tells the bot of it;
    its members may use the app they installed to their own account)."""


class Sandbox:
    """A started :class:`FakeDiscord` with discord.py pointed at it, guilds and members."""

    def __init__(
        self,
        *,
        guilds: Sequence[GuildSpec | str] | None = None,
        members: Sequence[str] = (),
        openapi: Path | None = None,
        strict_schema: bool = True,
        timeout: float = 5.0,
        settle: float = 0.05,
        bot_name: str = "Sandbox Bot",
        write_limit: bool = True,
        emojis: bool = True,
    ) -> None:
        self.server = FakeDiscord(openapi=openapi, strict_schema=strict_schema, bot_name=bot_name)
        self.server.world.emojis_refused = not emojis  # the application may have none
        if not write_limit:  # for tests that play faster than any channel may be written
            self.server.rest.write_limit = None
        self.timeout = timeout
        self.settle = settle
        specs = [GuildSpec(g) if isinstance(g, str) else g for g in guilds or [GuildSpec()]]
        self.guilds = [
            self.server.world.add_guild(s.name, list(s.channels), s.shard, with_bot=s.bot)
            for s in specs
        ]
        for spec, record in zip(specs, self.guilds, strict=True):
            record.locale = spec.locale
        self._members: dict[tuple[int, str], SimMember] = {}
        for name in members:
            self.member(name)
        self._patch: contextlib.AbstractContextManager[None] | None = None
        self.bot: discord.Client | None = None
        self._bot_task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Sandbox:
        await self.server.start()
        self._patch = self.server.patched()
        self._patch.__enter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self.stop_bot()
        finally:
            await self.server.stop()
            if self._patch is not None:
                self._patch.__exit__(None, None, None)

    # -- the world -------------------------------------------------------------------

    @property
    def guild(self) -> GuildRecord:
        """The first guild."""
        return self.guilds[0]

    @property
    def channel(self) -> ChannelRecord:
        """The first channel of the first guild."""
        return self.server.world.channels[self.guild.channel_ids[0]]

    def channel_named(self, name: str) -> ChannelRecord:
        """A channel or thread by name."""
        return next(c for c in self.server.world.channels.values() if c.name == name)

    def member(
        self,
        name: str,
        *,
        permissions: int | None = None,
        guild: GuildRecord | None = None,
        channel: ChannelRecord | None = None,
        locale: str | None = None,
        accepts_dms: bool | None = None,
    ) -> SimMember:
        """The member called ``name`` in ``guild``, created on first use; ``locale`` sets
        the language of their Discord client (sent with each of their interactions),
        ``accepts_dms=False`` closes their direct messages."""
        guild = guild or self.guild
        key = (guild.id, name)
        if key not in self._members:
            record = self.server.world.add_member(guild.id, name, permissions)
            self._members[key] = self._driver(record, channel)
        member = self._members[key]
        if locale is not None:
            member.record.user.locale = locale
        if accepts_dms is not None:
            member.accepts_dms = accepts_dms
        return member

    def join(
        self,
        member: SimMember,
        guild: GuildRecord,
        *,
        permissions: int | None = None,
        channel: ChannelRecord | None = None,
    ) -> SimMember:
        """The same person as ``member``, now also a member of ``guild`` (its first
        channel theirs unless ``channel`` says otherwise); ``sb.member(name, guild=guild)``
        returns it afterwards."""
        key = (guild.id, member.name)
        if key in self._members:
            raise ValueError(f"{guild.name} already has a member called {member.name}")
        user = member.record.user
        record = self.server.world.add_member(guild.id, user.name, permissions, user)
        self._members[key] = self._driver(record, channel)
        return self._members[key]

    def _driver(self, record: MemberRecord, channel: ChannelRecord | None) -> SimMember:
        world = self.server.world
        where = channel or world.channels[world.guilds[record.guild_id].channel_ids[0]]
        return SimMember(self.server, record, where, timeout=self.timeout, settle=self.settle)

    def group_dm(self, *members: SimMember, name: str = "") -> ChannelRecord:
        """A new group DM of ``members`` (the first one owns it); the bot is not in it, so
        only a user install reaches it (interaction context 2)."""
        if len(members) < 2:
            raise ValueError("a group DM needs at least two members")
        return self.server.world.add_group_dm([m.id for m in members], name)

    def dm_between(self, one: SimMember, other: SimMember) -> ChannelRecord:
        """The DM of two members (not the bot's: interaction context 2)."""
        return self.server.world.open_dm(one.id, other.id)

    def messages(self, channel: ChannelRecord | None = None) -> list[StoredMessage]:
        """Public messages, oldest first."""
        return self.server.world.public_messages(channel.id if channel else None)

    @property
    def failures(self) -> list[Failure]:
        """Everything real Discord would have refused or reported."""
        return self.server.failures

    @property
    def declined(self) -> list[Failure]:
        """What Discord refused that no bot can foresee, apart from :attr:`failures`: a post
        to a member whose DMs are closed (``dm_closed``) or who shares no server with the
        bot and has not installed the app (``no_mutual_guild``)."""
        return self.server.world.declined

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float | None = None) -> T:
        """Wait until ``predicate()`` is truthy (re-checked after every change) and return it."""
        return await self.server.world.wait_until(predicate, timeout or self.timeout)

    async def wait_for_message(
        self,
        predicate: Callable[[StoredMessage], bool],
        *,
        channel: ChannelRecord | None = None,
        timeout: float | None = None,
    ) -> StoredMessage:
        """The first public message satisfying ``predicate``, waiting for it if needed."""

        def first() -> StoredMessage | None:
            return next((m for m in self.messages(channel) if predicate(m)), None)

        return await self.wait_for(first, timeout)

    # -- the bot ---------------------------------------------------------------------

    async def run_bot(
        self,
        bot: discord.Client,
        token: str = "sandbox-token",
        *,
        timeout: float = 10.0,
        fast_ready: bool = True,
    ) -> None:
        """Start ``bot.start(token)`` as a task and return once the bot is ready.

        ``fast_ready`` shortens discord.py's 2 s wait after the last GUILD_CREATE
        (``guild_ready_timeout``); the stand-in sends all guilds at once.
        """
        if self._bot_task is not None:
            raise RuntimeError("a bot is already running; await stop_bot() first")
        if fast_ready:
            from bot.cogs.discord_private import hasten_ready  # discord.py, once a bot runs

            hasten_ready(bot, FAST_GUILD_READY)
        task = asyncio.create_task(bot.start(token), name="sandbox-bot")
        self.bot, self._bot_task = bot, task
        try:
            await self._until_ready(bot, task, timeout)
        except BaseException:
            self.bot, self._bot_task = None, None
            await bot.close()
            task.cancel()
            raise

    @staticmethod
    async def _until_ready(bot: discord.Client, task: asyncio.Task[None], timeout: float) -> None:
        async with asyncio.timeout(timeout):
            while not bot.is_ready():
                if task.done():
                    task.result()
                    raise RuntimeError("the bot stopped before it was ready")
                await asyncio.sleep(0.01)

    async def stop_bot(self) -> None:
        """Close the running bot (its gateway session ends, as on Discord)."""
        bot, task = self.bot, self._bot_task
        self.bot, self._bot_task = None, None
        if bot is None or task is None:
            return
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, self.timeout)  # re-raises a crash of the bot
        await self.wait_for(lambda: not self.server.gateway.connected)

    async def reconnected(self, resumes: int) -> None:
        """Wait until the gateway has seen ``resumes`` RESUMEs and a socket is open again."""
        gateway = self.server.gateway
        await self.wait_for(lambda: gateway.resumes >= resumes and gateway.connected)

    def describe_failures(self) -> str:
        """The failures, one per line (for assertion messages)."""
        return "\n".join(map(str, self.failures)) or "(none)"
