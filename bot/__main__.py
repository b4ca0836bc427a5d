"""``qwixx-bot`` / ``python -m bot``: run the bot (or a sub-command)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import signal
import sqlite3
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING

from bot import upkeep
from bot.cli import PROG, demo_folder, parse_args
from bot.config import ConfigError, load_settings
from bot.records.errors import StoreError
from bot.store.maintenance import DatabaseFileError

if TYPE_CHECKING:
    import discord

    from bot.app import QwixxBot

log = logging.getLogger("bot.__main__")
FIRST_WAIT, LONGEST_WAIT = 1.0, 60.0
"""Seconds between attempts to reach Discord at start: doubling, then capped."""
Sleep = Callable[[float], Awaitable[None]]
STOP_WITHIN = 10.0
"""Seconds from SIGTERM (or SIGINT) to the end of the process, whatever still runs then."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
TOKENS = re.compile(r"(/(?:webhooks|interactions)/\d+/|['\"]token['\"]:\s*['\"])[\w.-]{20,}")
"""Interaction tokens in request URLs and in gateway payloads (discord.py logs both at DEBUG)."""


class Redact(logging.Filter):
    """Masks the bot token and interaction tokens in log records, whatever logs them."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        masked = TOKENS.sub(r"\1<token>", text)
        for secret in self.secrets:
            masked = masked.replace(secret, "<token>")
        if masked != text:
            record.msg, record.args = masked, None
        return True


def demo(args: argparse.Namespace) -> int:
    demo_folder(args.out)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from bot.sandbox.demo import run_demo

    asyncio.run(
        run_demo(
            args.variant,
            args.players,
            args.out,
            args.seed,
            computers=args.computers,
            level=args.level,
        )
    )
    return 0


def command(args: argparse.Namespace) -> int:
    """Run the command ``args`` names (``demo`` or an upkeep command)."""
    if args.command == "demo":
        return demo(args)
    if args.command == "backup":
        return upkeep.run_backup(args.file, args.database)
    if args.command == "migrate":
        return upkeep.run_migrate(args.database)
    if args.command == "copy-db":
        return upkeep.run_copy_db(args.source, args.target)
    if args.command == "health":
        return upkeep.run_health()
    return upkeep.run_prune(args.finished_before, args.dry_run, args.database)


def refused(command: str | None, error: BaseException) -> int:
    """Print why ``command`` (None: the bot) was refused, in one line; the exit status."""
    if isinstance(error, OSError):
        reason = f"{error.strerror or error}" + (f": {error.filename}" if error.filename else "")
    else:
        reason = " ".join(str(error).split())
    print(f"{PROG}{f' {command}' if command else ''}: {reason}", file=sys.stderr)
    return 2


def waits(first: float = FIRST_WAIT, longest: float = LONGEST_WAIT) -> Iterator[float]:
    """1, 2, 4 … seconds, then ``longest`` for ever."""
    wait = first
    while True:
        yield min(wait, longest)
        wait *= 2


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` means Discord could not be reached (as opposed to refused us)."""
    import aiohttp
    import discord

    return isinstance(
        error, aiohttp.ClientConnectionError | TimeoutError | discord.DiscordServerError
    )


async def login(bot: discord.Client, token: str, sleep: Sleep = asyncio.sleep) -> None:
    """``bot.login``, tried again with growing waits while Discord cannot be reached.

    A refused token (``LoginFailure``) and failures once the bot's own set-up has
    begun (``bot.application`` is known by then) are raised at once.
    """
    from discord.utils import MISSING

    for wait in waits():
        try:
            await bot.login(token)
            return
        except Exception as error:
            if not unreachable(error) or bot.application is not None:
                raise
            reason = " ".join(str(error).split()) or type(error).__name__
            log.warning("cannot reach Discord (%s); trying again in %g s", reason, wait)
        await bot.http.close()  # a fresh session and connector for the next attempt
        bot.http.connector = MISSING
        await sleep(wait)


class Stopper:
    """SIGTERM and SIGINT stop the bot cleanly (``QwixxBot.stop``); before it is
    connected, they end the start. Whatever happens, the process exits
    :data:`STOP_WITHIN` seconds after the first signal (status 1 if it has to)."""

    def __init__(self, bot: QwixxBot, starting: asyncio.Task[None]) -> None:
        self.bot = bot
        self.starting: asyncio.Task[None] | None = starting
        """The task logging in, until the bot is connected: a signal cancels it."""
        self.signal: str | None = None
        self._stopping: asyncio.Task[None] | None = None
        self._watchdog: threading.Timer | None = None

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for number in STOP_SIGNALS:
            try:
                loop.add_signal_handler(number, self.received, number.name)
            except (NotImplementedError, RuntimeError):  # no signals here (Windows, a thread)
                return

    def uninstall(self) -> None:
        """Signals as they were; no watchdog (the stop has ended)."""
        loop = asyncio.get_running_loop()
        for number in STOP_SIGNALS:
            loop.remove_signal_handler(number)
        if self._watchdog is not None:
            self._watchdog.cancel()

    def received(self, name: str) -> None:
        if self.signal is not None:
            log.info("%s: already stopping (%s)", name, self.bot.stage)
            return
        self.signal = name
        self._watchdog = threading.Timer(STOP_WITHIN, self.overdue)
        self._watchdog.daemon = True
        self._watchdog.start()
        if self.starting is not None:
            log.info("%s: stopping before the bot was connected", name)
            self.starting.cancel()
        else:
            self._stopping = asyncio.get_running_loop().create_task(self.bot.stop(name))

    def overdue(self) -> None:
        """The last resort, on a thread of its own: the stop did not end in time."""
        try:  # read from another thread: at worst the dict changes under it
            running = ", ".join(self.bot.gate.in_flight) if self.bot.gate else ""
        except RuntimeError:
            running = "?"
        log.error(
            "still stopping after %g s (%s%s): exiting anyway",
            STOP_WITHIN,
            self.bot.stage,
            f"; interactions still being handled: {running}" if running else "",
        )
        logging.shutdown()
        os._exit(1)


async def serve(bot: discord.Client, token: str, sleep: Sleep = asyncio.sleep) -> None:
    """What ``bot.run`` does, with :func:`login`'s patience at the start and a clean stop
    on SIGTERM and SIGINT (see :class:`Stopper`)."""
    from bot.app import QwixxBot

    task = asyncio.current_task()
    assert task is not None
    stopper = Stopper(bot, task) if isinstance(bot, QwixxBot) else None
    if stopper is not None:
        stopper.install()
    try:
        async with bot:
            try:
                await login(bot, token, sleep)
            except asyncio.CancelledError:
                if stopper is None or stopper.signal is None:
                    raise
                task.uncancel()
            else:
                if stopper is not None:
                    stopper.starting = None
                await bot.connect(reconnect=True)  # returns once the gateway is closed
            finally:
                await bot.close()  # a stop under way: its end (the store closes after)
    finally:
        if stopper is not None:
            stopper.uninstall()


REFUSALS = (ConfigError, StoreError, DatabaseFileError, sqlite3.Error, OSError)
"""What a command or the bot's start is refused with, in one line (see :func:`refused`)."""


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command is not None:
        try:
            return command(args)
        except REFUSALS as error:
            return refused(args.command, error)
    try:
        settings = load_settings()
        upkeep.check_target(settings.database, exists=False)
    except REFUSALS as error:
        return refused(None, error)
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact(settings.token))
    import discord

    from bot.app import new_bot
    from bot.cogs.throttle import ClickBuckets
    from bot.heap import tune_gc, tune_malloc
    from bot.service.limits import Limits

    tune_malloc()  # before the store's and Discord's threads start (see bot.heap)
    bot = new_bot(
        settings.database,
        shards=settings.shards,
        dev_guild=settings.dev_guild,
        sync=not args.no_sync,
        forget_after=settings.forget_server_after,
        limits=Limits(settings.max_games_per_member, settings.max_games_per_server),
        clicks=ClickBuckets(),
        heartbeat=settings.heartbeat,
    )
    tune_gc()  # start-up's objects out of the collector's walks (see bot.heap)
    try:
        asyncio.run(serve(bot, settings.token))
    except discord.LoginFailure:
        print(
            f"{PROG}: Discord refused DISCORD_TOKEN; copy the bot token again from the "
            "developer portal (Bot → Reset Token)",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
