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
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import ConfigError, database_path, load_settings
from bot.rules import VARIANTS
from bot.store.maintenance import DatabaseFileError, backup, check_database

if TYPE_CHECKING:
    import discord

    from bot.app import QwixxBot
    from bot.store.prune import PruneReport

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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="qwixx-bot", description="Qwixx games on Discord.")
    parser.add_argument("--no-sync", action="store_true",
                        help="do not sync slash commands at start")
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play a game against a local Discord stand-in "
                               "(no token needed)")
    demo.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    demo.add_argument("--players", type=int, default=3, help="simulated members (default 3)")
    demo.add_argument("--computers", type=int, default=0,
                      help="computer players the host seats in the lobby (default 0)")
    demo.add_argument("--level", choices=("easy", "normal", "hard"),
                      help="the computer players' level (default: the lobby's, easy)")
    demo.add_argument("--out", type=Path, default=Path("demo"),
                      help="folder for the images the bot sent (default: demo)")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    copy = commands.add_parser("backup", help="copy the database (QWIXX_DATABASE) to FILE; "
                               "safe while the bot runs")
    copy.add_argument("file", type=Path, help="where the copy goes (replaced if it exists)")
    migrate = commands.add_parser("migrate", help="bring the database to the current schema "
                                  "(the bot also does at start)")
    migrate.add_argument("--database", help="a SQLite file or postgresql:// URL "
                         "(default: QWIXX_DATABASE)")
    copy_db = commands.add_parser("copy-db", help="copy a SQLite database's whole history "
                                  "into an empty PostgreSQL database")
    copy_db.add_argument("source", type=Path, metavar="SQLITE_FILE")
    copy_db.add_argument("target", metavar="POSTGRES_URL")
    prune = commands.add_parser("prune", help="remove the moves and events of games that "
                                "ended before DATE; their rows, results, statistics, ratings "
                                "and final sheets stay")
    prune.add_argument("--finished-before", metavar="DATE",
                       help="YYYY-MM-DD (midnight UTC) or an ISO date and time")
    prune.add_argument("--dry-run", action="store_true",
                       help="say what would be removed; remove nothing")
    prune.add_argument("--database", help="a SQLite file or postgresql:// URL "
                       "(default: QWIXX_DATABASE)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        cls = VARIANTS[args.variant]
        seats = args.players + args.computers
        if args.computers < 0:
            parser.error(f"--computers: at least 0, got {args.computers}")
        if not cls.min_players <= seats <= cls.max_players:
            counted = f" ({args.players} + {args.computers} computers)" if args.computers else ""
            parser.error(f"--players: {cls.title} is for {cls.min_players}-{cls.max_players} "
                         f"players, got {seats}{counted}")
        if not 1 <= args.players <= 6:
            parser.error(f"--players: 1-6 simulated members, got {args.players}")
        if args.level and not args.computers:
            parser.error("--level: only with --computers")
    return args


def demo(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from bot.sandbox.demo import run_demo

    asyncio.run(run_demo(args.variant, args.players, args.out, args.seed,
                         computers=args.computers, level=args.level))
    return 0


def run_backup(target: Path) -> int:
    try:
        database = load_settings(need_token=False).database
        if not isinstance(database, Path):
            raise ConfigError("backup copies a SQLite file; for PostgreSQL use pg_dump")
        if database.exists():
            target.parent.mkdir(parents=True, exist_ok=True)  # backups/… as the README has it
        report = backup(database, target)
    except (ConfigError, DatabaseFileError) as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"qwixx-bot: cannot write the backup {target}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    counts = ", ".join(f"{rows} {table}" for table, rows in report.rows.items())
    print(f"backed up to {report.target} (quick_check ok): {counts}")
    return 0


def run_migrate(database: str | None) -> int:
    from bot.store import Store, StoreError
    from bot.store.postgres import redacted

    async def migrate(target: Path | str) -> int:
        async with Store(target) as store:
            return store.schema_version
    target: Path | str = database or "QWIXX_DATABASE"
    try:
        target = database_path(database) if database else \
            load_settings(need_token=False).database
        if isinstance(target, Path) and not target.parent.is_dir():
            raise ConfigError(f"cannot open the database {target}: there is no folder "
                              f"{target.parent}")
        version = asyncio.run(migrate(target))
    except (ConfigError, StoreError) as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    except (sqlite3.Error, OSError) as error:  # e.g. a file in a folder that does not exist
        print(f"qwixx-bot: cannot open the database {target}: {error}", file=sys.stderr)
        return 2
    shown = target if isinstance(target, Path) else redacted(target)
    print(f"{shown}: schema version {version} (up to date)")
    return 0


def run_copy_db(source: Path, target: str) -> int:
    from bot.store import StoreError
    from bot.store.copy import copy_to_postgres
    from bot.store.postgres import redacted

    try:
        counts = asyncio.run(copy_to_postgres(source, target))
    except (StoreError, DatabaseFileError) as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    print(f"copied {source} to {redacted(target)}; rows per table (the same on both sides):")
    for table, rows in counts.items():
        print(f"  {table}: {rows}")
    return 0


PRUNE_USAGE = "qwixx-bot prune --finished-before YYYY-MM-DD [--dry-run] [--database URL]"


def cutoff(text: str | None, now: float) -> float:
    """``--finished-before`` as unix seconds: a date is its midnight in UTC, a time
    without a zone is UTC. Raises :class:`ValueError` with the line to show."""
    if not text:
        raise ValueError(f"prune needs a date: {PRUNE_USAGE}")
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--finished-before: {text!r} is not a date; write it as "
                         "YYYY-MM-DD, e.g. 2026-01-01") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if when.timestamp() > now:
        raise ValueError(f"--finished-before: {text} is in the future; prune removes the "
                         "logs of games that have already ended")
    return when.timestamp()


def counted(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB"


def run_prune(args: argparse.Namespace) -> int:
    from bot.store import Store, StoreError
    from bot.store.postgres import redacted
    from bot.store.prune import prune

    try:
        before = cutoff(args.finished_before, time.time())
    except ValueError as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2

    async def run(target: Path | str) -> PruneReport:
        async with Store(target) as store:
            return await prune(store, before, dry_run=args.dry_run)
    target: Path | str = args.database or "QWIXX_DATABASE"
    try:
        target = database_path(args.database) if args.database else \
            load_settings(need_token=False).database
        if isinstance(target, Path) and not target.is_file():
            raise ConfigError(f"there is no database file {target} to prune")
        if isinstance(target, Path):
            check_database(target)
        report = asyncio.run(run(target))
    except (ConfigError, StoreError, DatabaseFileError) as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    except (sqlite3.Error, OSError) as error:
        print(f"qwixx-bot: cannot prune the database {target}: {error}", file=sys.stderr)
        return 2
    shown = target if isinstance(target, Path) else redacted(target)
    date = args.finished_before.strip()
    found = (f"{counted(report.games, 'game')} that ended before {date}: "
             f"{counted(report.moves, 'move')}, {counted(report.events, 'event')}")
    if report.dry_run:
        print(f"{shown}: would remove the moves and events of {found} (dry run: nothing "
              "removed)")
        return 0
    print(f"{shown}: removed the moves and events of {found}; their games, results, "
          "statistics, ratings and final sheets are kept")
    if isinstance(target, Path) and report.freed_bytes is not None:
        size = target.stat().st_size
        print(f"{megabytes(report.freed_bytes)} freed inside the file ({megabytes(size)}; "
              f"{megabytes(report.free_bytes or 0)} of it free now), which new games fill "
              "before the file grows again; to give the space back to the disk, stop the "
              f"bot and run: sqlite3 {target} VACUUM")
    return 0


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

    return isinstance(error, aiohttp.ClientConnectionError | TimeoutError
                      | discord.DiscordServerError)


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
        log.error("still stopping after %g s (%s%s): exiting anyway", STOP_WITHIN,
                  self.bot.stage, f"; interactions still being handled: {running}"
                  if running else "")
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


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command == "demo":
        return demo(args)
    if args.command == "backup":
        return run_backup(args.file)
    if args.command == "migrate":
        return run_migrate(args.database)
    if args.command == "copy-db":
        return run_copy_db(args.source, args.target)
    if args.command == "prune":
        return run_prune(args)
    try:
        settings = load_settings()
        if isinstance(settings.database, Path):
            check_database(settings.database)
    except (ConfigError, DatabaseFileError) as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact(settings.token))
    import discord

    from bot.app import new_bot
    from bot.cogs.throttle import ClickBuckets
    from bot.service.heap import limit_arenas, tune_gc
    from bot.service.limits import Limits

    limit_arenas()  # before the store's and Discord's threads start (see bot.service.heap)
    bot = new_bot(settings.database, shards=settings.shards, dev_guild=settings.dev_guild,
                  sync=not args.no_sync, forget_after=settings.forget_server_after,
                  limits=Limits(settings.max_games_per_member, settings.max_games_per_server),
                  clicks=ClickBuckets())
    tune_gc()  # start-up's objects out of the collector's walks (see bot.service.heap)
    try:
        asyncio.run(serve(bot, settings.token))
    except discord.LoginFailure:
        print("qwixx-bot: Discord refused DISCORD_TOKEN; copy the bot token again from the "
              "developer portal (Bot → Reset Token)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
