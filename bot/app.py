"""The discord.py client: ``setup_hook`` wires the store, service, commands and buttons."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.channel.budget import WriteBudget
from bot.channel.publisher import Publisher
from bot.cogs import discord_private, fallback, throttle
from bot.cogs.emojis import DiceEmojis
from bot.cogs.handlers import Handlers
from bot.cogs.places import PlacedTree
from bot.cogs.qwixx import QwixxCog
from bot.cogs.registry import DYNAMIC_ITEMS
from bot.config import MAX_GAMES_PER_MEMBER, MAX_GAMES_PER_SERVER
from bot.heartbeat import Heartbeat
from bot.i18n import commands as cited
from bot.i18n.translator import Translator
from bot.service.games import GameService
from bot.service.limits import Limits
from bot.service.privacy import DEFAULT_FORGET_AFTER, PrivacyService
from bot.service.stats import StatsService
from bot.shards import ShardPlan
from bot.store import Store
from bot.timers import Timers

log = logging.getLogger(__name__)
# Never @everyone or a role, whatever a message says; each post narrows it further
# to the players whose decision it opens.
ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)
# The bot never joins voice: no start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
LIMITS = Limits(MAX_GAMES_PER_MEMBER, MAX_GAMES_PER_SERVER)
"""Lobbies and running games at once, per member on a server and per server, unless
the settings say otherwise (``QWIXX_MAX_GAMES_PER_MEMBER``, ``QWIXX_MAX_GAMES_PER_SERVER``)."""
STOP_WAIT = 8.0
"""Seconds a stop waits for the interactions being handled and the pending channel
syncs before it closes the gateway and the store anyway (``bot.__main__`` ends the
process 10 s after SIGTERM, whatever is still running then)."""


class QwixxBot(commands.Bot):
    """Slash commands only: no message content, no privileged intents.

    One gateway connection for every guild; :class:`ShardedQwixxBot` runs some shards.
    """

    def __init__(
        self,
        database: Path | str,
        dev_guild: int | None = None,
        sync: bool = True,
        seeds: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
        coalesce: float = 30.0,
        tick: float = 15.0,
        budget: WriteBudget | None = None,
        shards: ShardPlan | None = None,
        forget_after: float = DEFAULT_FORGET_AFTER,
        limits: Limits = LIMITS,
        clicks: throttle.ClickBuckets | None = None,
        heartbeat: Path | None = None,
    ) -> None:
        if shards is not None and not isinstance(self, discord.AutoShardedClient):
            raise TypeError("a ShardPlan needs ShardedQwixxBot (see new_bot)")
        sharding: dict[str, Any] = (
            {} if shards is None else {"shard_ids": list(shards.ids), "shard_count": shards.count}
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            help_command=None,
            allowed_mentions=ALLOWED_MENTIONS,
            tree_cls=PlacedTree,
            **sharding,
        )
        self.shard_plan = shards
        """The shards this process runs (None: all); timers and catch-up keep to them."""
        self.database = database
        self.dev_guild = dev_guild
        # Commands belong to the application, not to a shard: one process syncs them.
        self.sync_commands = sync and (shards is None or 0 in shards.ids)
        # The dice's emojis too: one process uploads them, the others only look.
        self.dice_emojis = DiceEmojis(upload=shards is None or 0 in shards.ids)
        self.store: Store | None = None
        self.seeds = seeds
        self.clock = clock
        self.coalesce = coalesce
        self.tick = tick
        self.budget = budget
        self.forget_after = forget_after
        """Seconds a server's data is kept after the bot was removed from it."""
        self.heartbeat = heartbeat
        """The file the timers touch after each pass (``QWIXX_HEARTBEAT``), if any."""
        self.limits = limits
        """How many lobbies and running games a member and a server may have at once."""
        self.clicks = clicks
        """Interactions per member before they are answered as too fast (None: no
        throttle, for the stand-in's members, who click as fast as the bot answers)."""
        self.throttle: throttle.Throttle | None = None
        self.privacy: PrivacyService | None = None
        self.gate: fallback.Gate | None = None
        """What every interaction comes in by, once set up (:meth:`front`)."""
        self.stop_wait = STOP_WAIT
        self.stage = "running"
        """What the bot is doing, for a stop that takes too long: ``running``, or the
        step of the stop it is at."""
        self._stopping: asyncio.Future[None] | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.database)
        service = GameService(self.store, self.seeds, self.clock, self.limits)
        self.privacy = privacy = PrivacyService(self.store, self.clock, self.forget_after)
        stats = StatsService(self.store)
        await stats.backfill()  # games that finished before results were recorded
        self.service = service
        self.handlers = handlers = Handlers.wire(
            self,
            service,
            stats,
            privacy,
            settle=self.coalesce,
            budget=self.budget,
            faces=self.dice_emojis.faces,
        )
        self.publisher = handlers.adapter.publisher
        self.timers = Timers(
            service,
            self.publisher,
            self.tick,
            self.shard_plan,
            privacy,
            catch_ups=(handlers.daily.board.catch_up, handlers.tournaments.catch_up),
            publish=handlers.adapter.changed,
            heartbeat=None if self.heartbeat is None else Heartbeat(self.heartbeat),
        )
        await self.add_cog(QwixxCog(handlers))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        fallback.install(self)  # answers what discord.py would leave unanswered
        discord_private.front_interactions(self, self.front)
        await self.tree.set_translator(Translator())  # commands in each member's language
        if self.sync_commands:
            await self.sync_tree()
        else:
            await self.learn_commands()
        self.timers.start()

    def front(self, parse: discord_private.Parser) -> discord_private.Parser:
        """What every interaction comes in by, in front of discord.py's parser ``parse``:
        the gate (:class:`bot.cogs.fallback.Gate`), then the click throttle, if any; so an
        answer of the throttle is handling the gate waits for."""
        if self.clicks is not None:
            self.throttle = throttle.Throttle(self, self.clicks, parse)
            parse = self.throttle.receive
        self.gate = fallback.Gate(self, parse)
        return self.gate.receive

    async def sync_tree(self) -> None:
        """Sync to the development guild (instant) if configured, else globally."""
        if self.dev_guild is None:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))
        else:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %d", len(synced), self.dev_guild)
        cited.learn(synced)

    async def learn_commands(self) -> None:
        """The commands' ids, for messages that cite them as mentions (another process
        synced them); without them, messages cite commands as plain text."""
        guild = None if self.dev_guild is None else discord.Object(self.dev_guild)
        try:
            cited.learn(await self.tree.fetch_commands(guild=guild))
        except discord.HTTPException as error:
            log.warning("could not fetch the commands' ids (%s); messages cite them as text", error)

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves ``guild_id`` (always, unless sharded)."""
        return self.shard_plan is None or self.shard_plan.owns(guild_id)

    async def on_ready(self) -> None:
        self.dice_emojis.start(self)  # in the background, once: see bot/cogs/emojis.py
        shards = "" if self.shard_plan is None else f" (shards {self.shard_plan})"
        log.info(
            "logged in as %s (%s) in %d servers%s",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
            shards,
        )

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (kicked, or the server deleted): its data is deleted
        after :attr:`forget_after` seconds, unless the bot is invited back."""
        if self.privacy is not None and self.owns(guild.id):
            await self.privacy.guild_left(guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server's channels arrived (at the start, or after an outage)."""
        if self.owns(guild.id):
            await self.handlers.tournaments.guild_arrived(guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Invited (back) to a server: whatever it kept stays."""
        if self.privacy is not None and self.owns(guild.id):
            await self.privacy.guild_back(guild.id)

    async def close(self) -> None:
        await self.stop()

    async def stop(self, reason: str = "close") -> None:
        """Stop cleanly: refuse new interactions (each is answered that the bot is
        restarting), stop the timers, let the interactions being handled finish (their
        commits and answers), run the pending channel syncs, then close the gateway and
        the store. What is still running after :attr:`stop_wait` seconds is cut short
        and logged. Called again, it waits for the first call."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop(reason))
        await asyncio.shield(self._stopping)

    async def _stop(self, reason: str) -> None:
        started = time.monotonic()
        store, gate = self.store, self.gate
        if store is None:  # never set up: nothing of ours to finish
            await super().close()
            return
        try:
            cut, handled = await self._wind_down(reason, started)
            self.stage = "closing the gateway"
            await super().close()
        finally:  # whatever failed above: an open store's threads keep the process alive
            self.stage = "closing the store"
            await store.close()
            self.store = None
        self.stage = "stopped"
        took = time.monotonic() - started
        refused = 0 if gate is None else gate.refused
        if cut:
            log.warning(
                "stopped in %.2f s, cut short: %s; %d interactions refused",
                took,
                "; ".join(cut),
                refused,
            )
        else:
            log.info(
                "stopped in %.2f s: %d interactions finished, %d refused",
                took,
                handled,
                refused,
            )

    async def _wind_down(self, reason: str, started: float) -> tuple[list[str], int]:
        """The stop's first steps, up to the gateway: what was cut short, and how many
        interactions were being handled."""
        gate = self.gate
        if gate is not None:
            gate.close()
        await self.dice_emojis.stop()  # the next start uploads what is still missing
        handling = [] if gate is None else gate.in_flight
        log.info(
            "stopping (%s): new interactions are refused; %d being handled", reason, len(handling)
        )
        cut: list[str] = []
        timers: Timers | None = getattr(self, "timers", None)
        if timers is not None:
            self.stage = "stopping the timers"
            await timers.stop()
        until = started + self.stop_wait
        if gate is not None:
            self.stage = "waiting for the interactions being handled"
            if left := await gate.settle(until - time.monotonic()):
                cut.append(f"interactions still being handled were cancelled: {', '.join(left)}")
                gate.cancel()
        publisher: Publisher | None = getattr(self, "publisher", None)
        if publisher is not None:
            self.stage = "running the pending channel syncs"
            try:
                async with asyncio.timeout(max(until - time.monotonic(), 0.5)):
                    await publisher.drain()
            except TimeoutError:
                cut.append(
                    "channel syncs were cut off (the timers catch those channels up "
                    "at the next start)"
                )
        if gate is not None:  # refusals sent meanwhile
            await gate.settle(max(until - time.monotonic(), 0.5))
        return cut, len(handling)


class ShardedQwixxBot(QwixxBot, commands.AutoShardedBot):
    """The bot running the shards of ``QWIXX_SHARDS``, one gateway connection each.

    Every process of a sharded bot uses the same shard count and one database; each
    fires the timers of its own guilds' games.
    """


def new_bot(database: Path | str, *, shards: ShardPlan | None = None, **options: Any) -> QwixxBot:
    """The bot for ``shards`` (``QWIXX_SHARDS``): sharded if given, else one connection."""
    cls = QwixxBot if shards is None else ShardedQwixxBot
    return cls(database, shards=shards, **options)
