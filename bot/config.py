"""Settings from the environment, with a ``.env`` file as a fallback."""

from __future__ import annotations

import difflib
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.shards import ShardError, ShardPlan
from bot.text import quote, shorten

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
DAY = 86400
FORGET_SERVER_AFTER = 30 * DAY
"""Default grace period before a server's data goes once the bot was removed from it."""
_COMMENT = re.compile(r"[ \t]#")
"""Where an unquoted ``.env`` value's comment starts."""
_GRACE = re.compile(r"([0-9]{1,7})([dhm]?)")
_GRACE_UNITS = {"d": DAY, "h": 3600, "m": 60, "": DAY}
_GRACE_RANGE = (3600, 3650 * DAY)
MAX_GAMES_PER_MEMBER = 5
"""Default of lobbies and running games one member may be in at once on a server:
several channels played asynchronously, well above what a person follows."""
MAX_GAMES_PER_SERVER = 50
"""Default of lobbies and running games one server may have at once."""
_MOST_GAMES = {
    "QWIXX_MAX_GAMES_PER_MEMBER": (MAX_GAMES_PER_MEMBER, 1000),
    "QWIXX_MAX_GAMES_PER_SERVER": (MAX_GAMES_PER_SERVER, 100_000),
}
SETTINGS = (
    "DISCORD_TOKEN",
    "QWIXX_DATABASE",
    "QWIXX_DEV_GUILD",
    "QWIXX_LOG_LEVEL",
    "QWIXX_SHARDS",
    "QWIXX_FORGET_SERVER_AFTER",
    *_MOST_GAMES,
    "QWIXX_HEARTBEAT",
)
"""Every setting the bot reads (the environment, or ``.env``)."""
DATABASE_FORMS = (
    "a SQLite file (qwixx.db, sqlite:///path) or postgresql://user:password@host/database"
)


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
    heartbeat: Path | None = None
    """The file the timers touch after each pass, for ``qwixx-bot health`` (None: none)."""


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines (``export KEY=value`` too, as a shell reads them); blank lines
    and ``#`` comments are ignored, and each value is read as :func:`dotenv_value` says. A
    key that is no setting but looks like one is refused, naming the setting it
    resembles."""
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte order mark is no part of a key
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "it is not UTF-8 text"
        raise ConfigError(f"cannot read {path}: {reason}") from None
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.removeprefix("export ").partition("=")
        if not sep:
            # the line is not shown: it may be a mistyped DISCORD_TOKEN
            raise ConfigError(f"{path}:{number}: expected KEY=value, got a line without '='")
        key = key.strip()
        mistyped = unknown_setting(key, everything=True)
        if mistyped:  # .env is the bot's: any name in it should be a setting
            raise ConfigError(f"{path}:{number}: {mistyped}")
        try:
            values[key] = dotenv_value(value)
        except ValueError as problem:  # the value is not shown: it may be the token
            raise ConfigError(f"{path}:{number}: the value of {key} {problem}") from None
    return values


def dotenv_value(text: str) -> str:
    """A value as written after ``KEY=`` in ``.env``, read as Docker Compose and
    python-dotenv read it: inside matching quotes (``"…"`` or ``'…'``) as it is, a
    ``# comment`` after them allowed; unquoted, up to a ``#`` after a space or tab (a
    comment), stripped. Raises ValueError saying what is wrong (without the value)."""
    text = text.strip()
    quote_mark = text[:1]
    if quote_mark not in ("'", '"'):
        return _COMMENT.split(text, maxsplit=1)[0].strip()
    end = text.find(quote_mark, 1)
    if end < 0:
        raise ValueError(f"opens a quote ({quote_mark}) and does not close it")
    rest = text[end + 1 :].strip()
    if rest and not rest.startswith("#"):
        raise ValueError("goes on after its closing quote; put a # before a comment")
    return text[1:end]


def unknown_setting(key: str, everything: bool, given: Iterable[str] = ()) -> str | None:
    """Why ``key`` is refused, if it is no setting but near one that is not ``given``
    (``everything``: also any other ``QWIXX_`` name)."""
    if key in SETTINGS or not key.isascii():
        return None
    near = difflib.get_close_matches(key.upper(), SETTINGS, n=1, cutoff=0.85)
    if near and near[0] != key and near[0] not in given:
        return f"{shorten(key)} is not a setting; did you mean {near[0]}?"
    if everything and key.upper().startswith("QWIXX_"):
        return f"{shorten(key)} is not a setting; the settings are {', '.join(SETTINGS)}"
    return None


def database_path(value: str, name: str = "QWIXX_DATABASE") -> Path | str:
    """A SQLite file path or ``sqlite:///path`` URL (a Path), or a PostgreSQL URL (as is,
    once it reads as one). ``name`` is where the value came from, for the refusal."""
    text = value.strip()
    if text.startswith("sqlite:"):
        path = text.removeprefix("sqlite:///")
        if path == text or not path:
            raise ConfigError(
                f"{name}: a SQLite URL is sqlite:/// and the file's path "
                f"(sqlite:///qwixx.db, sqlite:////data/qwixx.db), got {quote(text)}"
            )
        if three_slashes_meant_four(Path(path)):
            raise ConfigError(
                f"{name}: sqlite:///{path} names {path} in this folder, where there is no "
                f"folder {Path(path).parent}; for /{path} write four slashes: sqlite:////{path}"
            )
        return Path(path)
    if text.startswith(POSTGRES_SCHEMES):
        problem = postgres_problem(text)
        if problem:
            raise ConfigError(f"{name}: {problem}")
        return text
    if "://" in text:  # only the scheme is shown: the rest may hold a password
        scheme = quote(text.partition("://")[0], 20)
        raise ConfigError(f"{name} must be {DATABASE_FORMS}, got a {scheme} URL")
    if not text:
        raise ConfigError(
            f"{name} is empty: give {DATABASE_FORMS}"
            + (" (or leave the setting out for qwixx.db)" if name == "QWIXX_DATABASE" else "")
        )
    return Path(text)


def three_slashes_meant_four(path: Path) -> bool:
    """Whether ``sqlite:///path`` (relative) names no folder here, but would as an
    absolute path (``sqlite:////path``): the host meant the absolute one."""
    return (
        not path.is_absolute()
        and not path.parent.is_dir()
        and path.parent != Path(".")
        and (Path("/") / path).parent.is_dir()
    )


def postgres_problem(url: str) -> str | None:
    """What keeps ``url`` from being read as a PostgreSQL URL (never repeating it: it may
    hold a password); None if it reads."""
    import psycopg

    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return (
            "not a PostgreSQL URL that can be read; write it as "
            "postgresql://user:password@host:port/database, with any @ : / % # ? in "
            "the password written as %40 %3A %2F %25 %23 %3F"
        )
    for port in str(info.get("port") or "5432").split(","):
        if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
            return f"the port must be a number from 1 to 65535, got {quote(port, 20)}"
    return None


def shard_plan(value: str) -> ShardPlan | None:
    """``QWIXX_SHARDS`` (``0-1/4``: shards 0 and 1 of 4); empty: no sharding."""
    if not value:
        return None
    try:
        return ShardPlan.parse(value)
    except ShardError as error:
        raise ConfigError(f"QWIXX_SHARDS {quote(value)}: {error}") from None


def grace_period(value: str) -> int:
    """``QWIXX_FORGET_SERVER_AFTER``: ``30d``, ``12h``, ``90m`` or a number of days, in
    seconds (1 hour to 3650 days); empty: 30 days."""
    if not value:
        return FORGET_SERVER_AFTER
    found = _GRACE.fullmatch(value.lower())
    seconds = 0 if found is None else int(found[1]) * _GRACE_UNITS[found[2]]
    if not _GRACE_RANGE[0] <= seconds <= _GRACE_RANGE[1]:
        raise ConfigError(
            "QWIXX_FORGET_SERVER_AFTER must be a time such as 30d, 12h or 90m "
            f"(a bare number counts days), from 1h to 3650d; got {quote(value)}"
        )
    return seconds


def most_games(name: str, value: str) -> int:
    """``QWIXX_MAX_GAMES_PER_MEMBER`` or ``QWIXX_MAX_GAMES_PER_SERVER``: a whole number
    from 1 up to a sane ceiling; empty: the default."""
    default, ceiling = _MOST_GAMES[name]
    if not value:
        return default
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= ceiling:
        what = "one member may be in" if name.endswith("MEMBER") else "one server may have"
        raise ConfigError(
            f"{name} must be a whole number from 1 to {ceiling} (the lobbies "
            f"and running games {what} at once; default {default}), "
            f"got {quote(value)}"
        )
    return int(value)


def load_settings(
    env: Mapping[str, str] | None = None, dotenv: Path = Path(".env"), need_token: bool = True
) -> Settings:
    environment = os.environ if env is None else env
    merged = {**read_dotenv(dotenv), **environment}
    refuse_mistyped(environment, merged)
    token = merged.get("DISCORD_TOKEN", "").strip()
    if need_token and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: put the bot token in the environment "
            "or in a .env file in this folder (README: Settings)"
        )
    if need_token and any(c.isspace() for c in token):  # not shown: it is the token
        raise ConfigError(
            "DISCORD_TOKEN has a space in it, and a bot token has none: copy it again from "
            "the developer portal (Bot → Reset Token)"
        )
    guild = merged.get("QWIXX_DEV_GUILD", "").strip()
    if guild and not (guild.isascii() and guild.isdigit()):
        raise ConfigError(f"QWIXX_DEV_GUILD must be a server id (digits), got {quote(guild)}")
    level = merged.get("QWIXX_LOG_LEVEL", "").strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(
            f"QWIXX_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {quote(level)}"
        )
    return Settings(
        token=token,
        database=database_path(merged.get("QWIXX_DATABASE", "qwixx.db")),
        dev_guild=int(guild) if guild else None,
        log_level=level,
        shards=shard_plan(merged.get("QWIXX_SHARDS", "").strip()),
        forget_server_after=grace_period(merged.get("QWIXX_FORGET_SERVER_AFTER", "").strip()),
        max_games_per_member=most_games(
            "QWIXX_MAX_GAMES_PER_MEMBER", merged.get("QWIXX_MAX_GAMES_PER_MEMBER", "").strip()
        ),
        max_games_per_server=most_games(
            "QWIXX_MAX_GAMES_PER_SERVER", merged.get("QWIXX_MAX_GAMES_PER_SERVER", "").strip()
        ),
        heartbeat=heartbeat_path(merged.get("QWIXX_HEARTBEAT", "").strip()),
    )


def heartbeat_path(value: str) -> Path | None:
    """``QWIXX_HEARTBEAT``: a file in a folder that is there; empty: none."""
    if not value:
        return None
    path = Path(value)
    if path.is_dir() or not path.parent.is_dir():
        what = "a folder" if path.is_dir() else f"in no folder that is there ({path.parent})"
        raise ConfigError(f"QWIXX_HEARTBEAT must be a file in a folder that is there, got {what}")
    return path


def refuse_mistyped(names: Iterable[str], given: Mapping[str, str]) -> None:
    """A variable of the environment named almost as a setting that is not ``given`` is
    refused: that setting would silently keep its default."""
    for name in names:
        mistyped = unknown_setting(name, everything=False, given=given)
        if mistyped:
            raise ConfigError(mistyped)
