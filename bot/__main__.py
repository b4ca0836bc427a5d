"""``qwixx-bot`` / ``python -m bot``: run the bot (or a sub-command)."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.config import ConfigError, load_settings


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="qwixx-bot", description="Qwixx games on Discord.")
    parser.add_argument("--no-sync", action="store_true",
                        help="do not sync slash commands at start")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"qwixx-bot: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.app import QwixxBot

    bot = QwixxBot(settings.database, settings.dev_guild, sync=not args.no_sync)
    bot.run(settings.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
