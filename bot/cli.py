"""The ``qwixx-bot`` command line: what it accepts and its help.

Every wrong input is refused in one line that names the command and the problem, with
exit status 2 and no traceback, before anything starts: :class:`Parser` for what
argparse finds, :class:`~bot.config.ConfigError` for the rest (raised by the checks
here and by the commands, printed by :func:`bot.__main__.main`).
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import textwrap
from pathlib import Path
from typing import NoReturn

from bot.config import SETTINGS, ConfigError
from bot.rules import VARIANTS

PROG = "qwixx-bot"
UNKNOWN_COMMAND = re.compile(r"argument COMMAND: invalid choice: '([^']*)'")
SEED_LIMIT = 2**63
"""Seeds are kept as 64-bit numbers."""
DATABASE_HELP = (
    "a SQLite file or postgresql:// URL (default: QWIXX_DATABASE from the "
    "environment or .env, else qwixx.db)"
)
ABOUT = f"""\
Qwixx games on Discord.

Without a command, {PROG} runs the bot. It needs DISCORD_TOKEN, the bot token from
Discord's developer portal (Bot -> Reset Token), in the environment or in a .env file
in the current folder, and keeps its games in QWIXX_DATABASE (default qwixx.db). Try
it without a token first: {PROG} demo."""
SETTINGS_HELP = "\n".join(
    [
        *textwrap.wrap(
            f"settings (environment or .env; the README lists them): {', '.join(SETTINGS)}", 86
        ),
        "",
        "Each command has its own --help.",
    ]
)
USAGE = f"{PROG} [-h] [--no-sync]\n       {PROG} COMMAND [-h] ..."


class Parser(argparse.ArgumentParser):
    """An argument parser whose every refusal is one line naming the command."""

    commands: tuple[str, ...] = ()

    def error(self, message: str) -> NoReturn:
        unknown = UNKNOWN_COMMAND.match(message)
        if unknown:
            message = f"there is no command {unknown[1]!r}; the commands are " + ", ".join(
                self.commands
            )
        message = message.removeprefix("argument ")
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parser() -> tuple[Parser, dict[str, Parser]]:
    """The top-level parser and each command's."""
    top = Parser(
        prog=PROG,
        usage=USAGE,
        description=ABOUT,
        epilog=SETTINGS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument(
        "--no-sync",
        action="store_true",
        help="run the bot without syncing its slash commands with Discord at "
        "start (they are synced by default)",
    )
    commands = top.add_subparsers(
        dest="command",
        metavar="COMMAND",
        prog=PROG,
        title="commands (none: run the bot)",
        help="the command, with its own --help",
    )
    demo = commands.add_parser(
        "demo",
        help="play a game against a local Discord stand-in (no token needed)",
        description="The real bot plays a whole game against a local stand-in for "
        "Discord, with simulated members; prints the channel and writes the "
        "images the bot sent to --out, with the channel as a page (transcript.html).",
    )
    demo.add_argument(
        "--variant", default="classic", choices=sorted(VARIANTS), help="the game (default classic)"
    )
    demo.add_argument(
        "--players",
        type=int,
        default=3,
        metavar="N",
        help="simulated members (default 3); 1 without --computers: solo practice",
    )
    demo.add_argument(
        "--computers",
        type=int,
        default=0,
        metavar="N",
        help="computer players the host seats in the lobby (default 0)",
    )
    demo.add_argument(
        "--level",
        choices=("easy", "normal", "hard"),
        help="the computer players' level (default: the lobby's, easy)",
    )
    demo.add_argument(
        "--out",
        type=Path,
        default=Path("demo"),
        metavar="FOLDER",
        help="folder for the images the bot sent and the transcript as a page "
        "(transcript.html), emptied of an earlier demo's files first (default: demo)",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="N",
        help="the game's seed: the same seed plays the same game (default 1)",
    )
    backup = commands.add_parser(
        "backup",
        help="copy a SQLite database to FILE; safe while the bot runs",
        description="Copy a SQLite database to FILE as one consistent snapshot, even while "
        "the bot runs, checked before it replaces FILE. For PostgreSQL, use "
        "pg_dump.",
    )
    backup.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help="where the copy goes: a new file, or an older backup it replaces (any other "
        "file is refused); its folder is made",
    )
    backup.add_argument(
        "--database",
        help="the SQLite file to copy (default: "
        "QWIXX_DATABASE from the environment or .env, else qwixx.db)",
    )
    migrate = commands.add_parser(
        "migrate",
        help="bring the database to the current schema (the bot also does at start)",
        description="Bring the database to the current schema; the bot does the same "
        "when it starts.",
    )
    migrate.add_argument("--database", help=DATABASE_HELP)
    copy_db = commands.add_parser(
        "copy-db",
        help="copy a SQLite database's whole history into an empty PostgreSQL database",
        description="Copy a SQLite database's whole history into an empty PostgreSQL "
        "database, all or nothing; the SQLite file is not changed.",
    )
    copy_db.add_argument("source", metavar="SQLITE_FILE", help="the SQLite database to copy")
    copy_db.add_argument(
        "target",
        metavar="POSTGRES_URL",
        help="the empty PostgreSQL database to fill: postgresql://user:password@host:port/database",
    )
    prune = commands.add_parser(
        "prune",
        help="remove the moves and events of games that ended before DATE",
        description="Remove the moves and events of games that ended before DATE; their "
        "rows, results, statistics, ratings and final sheets stay. Lobbies and "
        "running games are never touched. May run beside the bot.",
    )
    prune.add_argument(
        "--finished-before",
        metavar="DATE",
        required=True,
        help="YYYY-MM-DD (midnight UTC) or an ISO date and time",
    )
    prune.add_argument(
        "--dry-run", action="store_true", help="say what would be removed; remove nothing"
    )
    prune.add_argument("--database", help=DATABASE_HELP)
    commands.add_parser(
        "health",
        help="whether the running bot is alive (its timers' last pass is recent); the "
        "Docker image's health check",
        description="Exit status 0 if the bot's timers touched QWIXX_HEARTBEAT within the "
        "last 5 minutes, else 1 with a line saying why.",
    )
    top.commands = tuple(commands.choices)
    return top, dict(commands.choices)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The arguments, checked: a refusal exits with status 2 (see :class:`Parser`)."""
    top, commands = parser()
    given = sys.argv[1:] if argv is None else argv
    misplaced = misplaced_option(given, top, commands)
    if misplaced:
        top.error(misplaced)
    args, extra = top.parse_known_args(given)
    chosen = commands.get(args.command, top)
    if extra:
        chosen.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "demo":
            check_demo(args)
    except ConfigError as error:
        chosen.error(str(error))
    return args


def options(command: argparse.ArgumentParser) -> set[str]:
    return {name for action in command._actions for name in action.option_strings}


def misplaced_option(
    argv: list[str], top: argparse.ArgumentParser, commands: dict[str, Parser]
) -> str | None:
    """Why a command's option written before the command is refused (argparse would take
    its value for the command), with the line as it should read; None if none is."""
    for token in argv:
        if token in commands:
            return None
        name = token.partition("=")[0]
        takers = [c for c, p in commands.items() if name in options(p)]
        if not name.startswith("-") or name in options(top) or not takers:
            continue
        command = next((t for t in argv if t in commands), None)
        if command is None:  # an example with a command that needs nothing more
            ready = [c for c in takers if not any(a.required for a in commands[c]._actions)]
            example = shlex.join([(ready or takers)[0], *argv])
            named = ", ".join(takers[:-1]) + f" and {takers[-1]}" if len(takers) > 1 else takers[0]
            bot = "; the bot itself reads QWIXX_DATABASE" if name == "--database" else ""
            return (
                f"{name} is an option of the command{'s' if len(takers) > 1 else ''} "
                f"{named}, after the command ({PROG} {example}){bot}"
            )
        at = argv.index(command)
        moved = [command, *argv[at + 1 :], *argv[:at]]
        return f"{name} goes after the command: {PROG} {shlex.join(moved)}"
    return None


def check_demo(args: argparse.Namespace) -> None:
    """The demo seats what the game seats: ``--players`` members and ``--computers``
    computer players, or one member alone (solo practice)."""
    cls = VARIANTS[args.variant]
    members, computers = args.players, args.computers
    if computers < 0:
        raise ConfigError(f"--computers: at least 0, got {computers}")
    solo = (members, computers) == (1, 0)
    if members < 1 or not (solo or cls.min_players <= members + computers <= cls.max_players):
        got = f"{members} member{'' if members == 1 else 's'}" + (
            f" and {computers} computer{'' if computers == 1 else 's'}" if computers else ""
        )
        raise ConfigError(
            f"--players: {cls.title} seats {cls.min_players}-{cls.max_players} players "
            f"(or 1 member alone, for solo practice), got {got}"
        )
    if args.level and not args.computers:
        raise ConfigError("--level: only with --computers")
    if not 0 <= args.seed < SEED_LIMIT:
        raise ConfigError(f"--seed: a whole number from 0 to {SEED_LIMIT - 1:,}, got {args.seed:,}")


def file_in_the_way(folder: Path) -> Path | None:
    """The part of ``folder``'s path that is a file, if one is."""
    return next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` is not a folder that is there (None when it is)."""
    blocking = file_in_the_way(folder)
    if blocking is not None:
        return f"{blocking} is a file, not a folder"
    return None if folder.is_dir() else f"there is no folder {folder}"


def make_folder(folder: Path, what: str) -> None:
    """Make ``folder`` (and the folders above it) unless it is there; refused in one
    line, ``what`` naming the argument."""
    blocking = file_in_the_way(folder)
    if blocking is not None:
        raise ConfigError(f"{what}: {blocking} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(
            f"{what}: cannot make the folder {folder}: {error.strerror or error}"
        ) from None


def demo_folder(out: Path) -> None:
    """``--out`` made ready: made if missing, emptied of an earlier demo's files;
    refused when it is a file or holds anything else (it is not the demo's to delete)."""
    from bot.sandbox.demo import DEMO_FILE

    make_folder(out, "--out")
    entries = sorted(out.iterdir())
    others = [
        e.name + ("/" if e.is_dir() else "")
        for e in entries
        if not (DEMO_FILE.fullmatch(e.name) and e.is_file())
    ]
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        raise ConfigError(
            f"--out: {out} holds files the demo did not write ({shown}); "
            "give an empty or new folder"
        )
    for entry in entries:
        entry.unlink()
