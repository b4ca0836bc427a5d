"""``qwixx-bot`` / ``python -m bot``: run the bot (or a sub-command)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import ConfigError, load_settings
from bot.rules import VARIANTS


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="qwixx-bot", description="Qwixx games on Discord.")
    parser.add_argument("--no-sync", action="store_true",
                        help="do not sync slash commands at start")
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play a game against a local Discord stand-in "
                               "(no token needed)")
    demo.add_argument("--variant", default="classic", choices=sorted(VARIANTS))
    demo.add_argument("--players", type=int, default=3, help="simulated members (default 3)")
    demo.add_argument("--out", type=Path, default=Path("demo"),
                      help="folder for the images the bot sent (default: demo)")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        cls = VARIANTS[args.variant]
        if not cls.min_players <= args.players <= min(cls.max_players, 6):
            parser.error(f"--players: {cls.title} is for {cls.min_players}-{cls.max_players} "
                         f"players, got {args.players}")
    return args


def demo(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from bot.sandbox.demo import run_demo

    asyncio.run(run_demo(args.variant, args.players, args.out, args.seed))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command == "demo":
        return demo(args)
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import discord

    from bot.app import QwixxBot

    bot = QwixxBot(settings.database, settings.dev_guild, sync=not args.no_sync)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("qwixx-bot: Discord refused DISCORD_TOKEN; copy the bot token again from the "
              "developer portal (Bot → Reset Token)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
