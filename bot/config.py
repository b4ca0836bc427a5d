"""Settings from the environment, with a ``.env`` file as a fallback."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.text import quote


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names it."""


@dataclass(frozen=True)
class Settings:
    token: str
    database: Path
    dev_guild: int | None
    log_level: str


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


def database_path(value: str) -> Path:
    """A file path, or a ``sqlite:///path`` URL."""
    if value.startswith("sqlite:///"):
        return Path(value.removeprefix("sqlite:///"))
    if "://" in value:
        raise ConfigError(f"QWIXX_DATABASE: only SQLite is supported, got {quote(value)}")
    return Path(value)


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
    )
