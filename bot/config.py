"""Settings from the environment, with a ``.env`` file as a fallback."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.shards import ShardError, ShardPlan
from bot.text import quote

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
DAY = 86400
FORGET_SERVER_AFTER = 30 * DAY
"""Default grace period before a server's data goes once the bot was removed from it."""
_GRACE = re.compile(r"([0-9]{1,7})([dhm]?)")
_GRACE_UNITS = {"d": DAY, "h": 3600, "m": 60, "": DAY}
_GRACE_RANGE = (3600, 3650 * DAY)
MAX_GAMES_PER_MEMBER = 5
"""Default of lobbies and running games one member may be in at once on a server:
several channels played asynchronously, well above what a person follows."""
MAX_GAMES_PER_SERVER = 50
"""Default of lobbies and running games one server may have at once."""
_MOST_GAMES = {"QWIXX_MAX_GAMES_PER_MEMBER": (MAX_GAMES_PER_MEMBER, 1000),
               "QWIXX_MAX_GAMES_PER_SERVER": (MAX_GAMES_PER_SERVER, 100_000)}


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database: Path | str
    """A SQLite file, or a PostgreSQL URL (``postgresql://…``) kept as written."""
    dev_guild: int | None
    log_level: str
    shards: ShardPlan | None = None
    """The shards this process runs; None: all of them, in one connection."""
    forget_server_after: int = FORGET_SERVER_AFTER
    """Seconds after the bot is removed from a server before that server's data is
    deleted (coming back within them keeps it)."""
    max_games_per_member: int = MAX_GAMES_PER_MEMBER
    """Lobbies and running games one member may be in at once on a server."""
    max_games_per_server: int = MAX_GAMES_PER_SERVER
    """Lobbies and running games one server may have at once."""


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments are ignored."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            # the line is not shown: it may be a mistyped DISCORD_TOKEN
            raise ConfigError(f"{path}:{number}: expected KEY=value, got a line without '='")
        values[key.strip()] = value.strip().strip("'\"")
    return values


def database_path(value: str) -> Path | str:
    """A SQLite file path or ``sqlite:///path`` URL (a Path), or a PostgreSQL URL (as is)."""
    if value.startswith("sqlite:///"):
        return Path(value.removeprefix("sqlite:///"))
    if value.startswith(POSTGRES_SCHEMES):
        return value
    if "://" in value:  # only the scheme is shown: the rest may hold a password
        scheme = quote(value.partition("://")[0], 20)
        raise ConfigError("QWIXX_DATABASE must be a SQLite file, sqlite:///path or "
                          f"postgresql://user:password@host/database, got a {scheme} URL")
    return Path(value)


def shard_plan(value: str) -> ShardPlan | None:
    """``QWIXX_SHARDS`` (``0-1/4``: shards 0 and 1 of 4); empty: no sharding."""
    if not value:
        return None
    try:
        return ShardPlan.parse(value)
    except ShardError as error:
        raise ConfigError(f"QWIXX_SHARDS: {error}; got {quote(value)}") from None


def grace_period(value: str) -> int:
    """``QWIXX_FORGET_SERVER_AFTER``: ``30d``, ``12h``, ``90m`` or a number of days, in
    seconds (1 hour to 3650 days); empty: 30 days."""
    if not value:
        return FORGET_SERVER_AFTER
    found = _GRACE.fullmatch(value.lower())
    seconds = 0 if found is None else int(found[1]) * _GRACE_UNITS[found[2]]
    if not _GRACE_RANGE[0] <= seconds <= _GRACE_RANGE[1]:
        raise ConfigError("QWIXX_FORGET_SERVER_AFTER must be a time such as 30d, 12h or 90m "
                          f"(a bare number counts days), from 1h to 3650d; got {quote(value)}")
    return seconds


def most_games(name: str, value: str) -> int:
    """``QWIXX_MAX_GAMES_PER_MEMBER`` or ``QWIXX_MAX_GAMES_PER_SERVER``: a whole number
    from 1 up to a sane ceiling; empty: the default."""
    default, ceiling = _MOST_GAMES[name]
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= ceiling:
        what = "one member may be in" if name.endswith("MEMBER") else "one server may have"
        raise ConfigError(f"{name} must be a whole number from 1 to {ceiling} (the lobbies "
                          f"and running games {what} at once; default {default}), "
                          f"got {quote(value)}")
    return int(value)


def load_settings(env: Mapping[str, str] | None = None, dotenv: Path = Path(".env"),
                  need_token: bool = True) -> Settings:
    merged = {**read_dotenv(dotenv), **(os.environ if env is None else env)}
    token = merged.get("DISCORD_TOKEN", "").strip()
    if need_token and not token:
        raise ConfigError("DISCORD_TOKEN is not set: put the bot token in the environment "
                          "or in .env (see .env.example)")
    guild = merged.get("QWIXX_DEV_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"QWIXX_DEV_GUILD must be a server id (digits), got {quote(guild)}")
    level = merged.get("QWIXX_LOG_LEVEL", "INFO").strip().upper()
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError("QWIXX_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, "
                          f"got {quote(level)}")
    return Settings(
        token=token,
        database=database_path(merged.get("QWIXX_DATABASE", "qwixx.db").strip() or "qwixx.db"),
        dev_guild=int(guild) if guild else None,
        log_level=level,
        shards=shard_plan(merged.get("QWIXX_SHARDS", "").strip()),
        forget_server_after=grace_period(merged.get("QWIXX_FORGET_SERVER_AFTER", "").strip()),
        max_games_per_member=most_games("QWIXX_MAX_GAMES_PER_MEMBER",
                                        merged.get("QWIXX_MAX_GAMES_PER_MEMBER", "").strip()),
        max_games_per_server=most_games("QWIXX_MAX_GAMES_PER_SERVER",
                                        merged.get("QWIXX_MAX_GAMES_PER_SERVER", "").strip()),
    )
