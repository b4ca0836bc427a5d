"""Every wrong input at the command line: one line on standard error naming the command
and the problem, exit status 2, nothing started, no traceback.

Each case is the arguments, the environment and ``.env`` a host gives, and the exact
line. ``{tmp}`` stands for a fresh folder holding ``games.db`` (a SQLite database),
``afile`` (a file) and ``full/notes.txt`` (a folder holding something of its own).
"""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import SETTINGS
from bot.store import LATEST_VERSION, Store
from tests.store.postgres_server import PostgresServer

SETTINGS_LIST = ", ".join(SETTINGS)
EMPTY_DATABASE = (
    "is empty: give a SQLite file (qwixx.db, sqlite:///path) or "
    "postgresql://user:password@host/database"
)
UNREADABLE_URL = (
    "not a PostgreSQL URL that can be read; write it as "
    "postgresql://user:password@host:port/database, with any @ : / % # ? in "
    "the password written as %40 %3A %2F %25 %23 %3F"
)
TOKEN = {"DISCORD_TOKEN": "a-token"}
DB = {"QWIXX_DATABASE": "{tmp}/games.db"}
LOUD = 'QWIXX_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got "LOUD"'

# (argv, environment, .env, the line) — the bot itself, then each command.
CASES: list[tuple[list[str], dict[str, str], str | None, str]] = [
    (
        [],
        {},
        None,
        "qwixx-bot: DISCORD_TOKEN is not set: put the bot token in the "
        "environment or in a .env file in this folder (README: Settings)",
    ),
    (["--bogus"], TOKEN, None, "qwixx-bot: unrecognized arguments: --bogus (see qwixx-bot --help)"),
    (
        ["demoo"],
        {},
        None,
        "qwixx-bot: there is no command 'demoo'; the commands are demo, "
        "backup, migrate, copy-db, prune, health (see qwixx-bot --help)",
    ),
    (
        ["--database", "{tmp}/games.db", "backup", "{tmp}/copy.db"],
        {},
        None,
        "qwixx-bot: --database goes after the command: qwixx-bot backup {tmp}/copy.db "
        "--database {tmp}/games.db (see qwixx-bot --help)",
    ),
    (
        ["--database={tmp}/games.db", "prune", "--finished-before", "2026-01-01"],
        {},
        None,
        "qwixx-bot: --database goes after the command: qwixx-bot prune --finished-before "
        "2026-01-01 --database={tmp}/games.db (see qwixx-bot --help)",
    ),
    (
        ["--database", "games.db"],
        TOKEN,
        None,
        "qwixx-bot: --database is an option of the commands backup, migrate and prune, "
        "after the command (qwixx-bot migrate --database games.db); the bot itself reads "
        "QWIXX_DATABASE (see qwixx-bot --help)",
    ),
    (
        [],
        {**TOKEN, "QWIXX_SHARDS": "5/4"},
        None,
        'qwixx-bot: QWIXX_SHARDS "5/4": shard ids must be 0 to 3 for 4 shards, got 5',
    ),
    (
        [],
        {**TOKEN, "QWIXX_SHARDS": "0-1"},
        None,
        'qwixx-bot: QWIXX_SHARDS "0-1": expected IDS/COUNT such as 0-1/4, 3/4 or 0,2/4',
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": ""},
        None,
        f"qwixx-bot: QWIXX_DATABASE {EMPTY_DATABASE} (or leave the setting out for qwixx.db)",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "  "},
        None,
        f"qwixx-bot: QWIXX_DATABASE {EMPTY_DATABASE} (or leave the setting out for qwixx.db)",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "sqlite://games.db"},
        None,
        "qwixx-bot: QWIXX_DATABASE: a SQLite URL is sqlite:/// and the file's path "
        '(sqlite:///qwixx.db, sqlite:////data/qwixx.db), got "sqlite://games.db"',
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "sqlite://{tmp}/games.db"},
        None,
        "qwixx-bot: QWIXX_DATABASE: sqlite://{tmp}/games.db names {tmp_relative}/games.db in "
        "this folder, where there is no folder {tmp_relative}; for {tmp}/games.db write four "
        "slashes: sqlite:///{tmp}/games.db",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "mysql://root:secret@db/qwixx"},
        None,
        "qwixx-bot: QWIXX_DATABASE must be a SQLite file (qwixx.db, sqlite:///path) or "
        'postgresql://user:password@host/database, got a "mysql" URL',
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "postgresql://qwixx:secret@db:54321x/qwixx"},
        None,
        'qwixx-bot: QWIXX_DATABASE: the port must be a number from 1 to 65535, got "54321x"',
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "postgresql://qwixx:se%cret@db/qwixx"},
        None,
        f"qwixx-bot: QWIXX_DATABASE: {UNREADABLE_URL}",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "{tmp}"},
        None,
        "qwixx-bot: {tmp} is a folder, not a database file; name a file in it, e.g. {tmp}/qwixx.db",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "{tmp}/missing/qwixx.db"},
        None,
        "qwixx-bot: cannot open the database {tmp}/missing/qwixx.db: there is no folder "
        "{tmp}/missing",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "{tmp}/afile/qwixx.db"},
        None,
        "qwixx-bot: cannot open the database {tmp}/afile/qwixx.db: {tmp}/afile is a file, "
        "not a folder",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABASE": "{tmp}/afile"},
        None,
        "qwixx-bot: the database file {tmp}/afile failed SQLite's quick_check: file is not a "
        "database. Restore it from a backup (README, Operations) or move it aside to start "
        "with an empty one",
    ),
    ([], {**TOKEN, "QWIXX_LOG_LEVEL": "LOUD"}, None, f"qwixx-bot: {LOUD}"),
    ([], TOKEN, "export QWIXX_LOG_LEVEL=LOUD\n", f"qwixx-bot: {LOUD}"),
    ([], TOKEN, "QWIXX_LOG_LEVEL=LOUD\n", f"qwixx-bot: {LOUD}"),
    ([], {}, "\ufeffexport DISCORD_TOKEN=a-token\nQWIXX_LOG_LEVEL=LOUD\n", f"qwixx-bot: {LOUD}"),
    (
        [],
        TOKEN,
        "# settings\nQWIXX_DATABSE=games.db\n",
        "qwixx-bot: .env:2: QWIXX_DATABSE is not a setting; did you mean QWIXX_DATABASE?",
    ),
    (
        [],
        TOKEN,
        "QWIXX_COLOUR=red\n",
        f"qwixx-bot: .env:1: QWIXX_COLOUR is not a setting; the settings are {SETTINGS_LIST}",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DATABSE": "games.db"},
        None,
        "qwixx-bot: QWIXX_DATABSE is not a setting; did you mean QWIXX_DATABASE?",
    ),
    (
        [],
        {},
        "DISCORD_TOKEN: MTQ0.secret\n",
        "qwixx-bot: .env:1: expected KEY=value, got a line without '='",
    ),
    (
        [],
        TOKEN,
        b"QWIXX_LOG_LEVEL=\xe9\n".decode("latin-1"),
        "qwixx-bot: cannot read .env: it is not UTF-8 text",
    ),
    (
        [],
        {**TOKEN, "QWIXX_DEV_GUILD": "my-server"},
        None,
        'qwixx-bot: QWIXX_DEV_GUILD must be a server id (digits), got "my-server"',
    ),
    (
        [],
        {**TOKEN, "QWIXX_FORGET_SERVER_AFTER": "soon"},
        None,
        "qwixx-bot: QWIXX_FORGET_SERVER_AFTER must be a time such as 30d, 12h or 90m (a bare "
        'number counts days), from 1h to 3650d; got "soon"',
    ),
    (
        [],
        {**TOKEN, "QWIXX_MAX_GAMES_PER_MEMBER": "0"},
        None,
        "qwixx-bot: QWIXX_MAX_GAMES_PER_MEMBER must be a whole number from 1 to 1000 (the "
        'lobbies and running games one member may be in at once; default 5), got "0"',
    ),
    # demo
    (
        ["demo", "--out", "/etc/passwd/x"],
        {},
        None,
        "qwixx-bot demo: --out: /etc/passwd is a file, not a folder",
    ),
    (
        ["demo", "--out", "{tmp}/afile/x"],
        {},
        None,
        "qwixx-bot demo: --out: {tmp}/afile is a file, not a folder",
    ),
    (
        ["demo", "--out", "{tmp}/afile"],
        {},
        None,
        "qwixx-bot demo: --out: {tmp}/afile is a file, not a folder",
    ),
    (
        ["demo", "--out", "{tmp}/full"],
        {},
        None,
        "qwixx-bot demo: --out: {tmp}/full holds files the demo did not write (notes.txt); "
        "give an empty or new folder",
    ),
    (
        ["demo", "--out", "{tmp}"],
        {},
        None,
        "qwixx-bot demo: --out: {tmp} holds files the demo did not write (afile, full/, "
        "future.db and 1 more); give an empty or new folder",
    ),
    (
        ["demo", "--players", "9"],
        {},
        None,
        "qwixx-bot demo: --players: Qwixx seats 2-5 players (or 1 member alone, for solo "
        "practice), got 9 members (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--players", "1", "--computers", "5"],
        {},
        None,
        "qwixx-bot demo: --players: Qwixx seats 2-5 players (or 1 member alone, for solo "
        "practice), got 1 member and 5 computers (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--players", "0", "--computers", "2"],
        {},
        None,
        "qwixx-bot demo: --players: Qwixx seats 2-5 players (or 1 member alone, for solo "
        "practice), got 0 members and 2 computers (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--variant", "onboard", "--players", "3", "--computers", "2"],
        {},
        None,
        "qwixx-bot demo: --players: Qwixx On Board seats 2-4 players (or 1 member alone, for "
        "solo practice), got 3 members and 2 computers (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--players", "three"],
        {},
        None,
        "qwixx-bot demo: --players: invalid int value: 'three' (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--computers", "-1"],
        {},
        None,
        "qwixx-bot demo: --computers: at least 0, got -1 (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--level", "hard"],
        {},
        None,
        "qwixx-bot demo: --level: only with --computers (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--computers", "1", "--level", "expert"],
        {},
        None,
        "qwixx-bot demo: --level: invalid choice: 'expert' (choose from 'easy', 'normal', "
        "'hard') (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--variant", "yahtzee"],
        {},
        None,
        "qwixx-bot demo: --variant: invalid choice: 'yahtzee' (choose from 'classic', "
        "'longo', 'onboard', 'qwinto') (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--seed", "-1"],
        {},
        None,
        "qwixx-bot demo: --seed: a whole number from 0 to 9,223,372,036,854,775,807, got -1 "
        "(see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--seed", str(2**63)],
        {},
        None,
        "qwixx-bot demo: --seed: a whole number from 0 to 9,223,372,036,854,775,807, got "
        "9,223,372,036,854,775,808 (see qwixx-bot demo --help)",
    ),
    (
        ["demo", "--no-sync"],
        {},
        None,
        "qwixx-bot demo: unrecognized arguments: --no-sync (see qwixx-bot demo --help)",
    ),
    # backup
    (
        ["backup"],
        DB,
        None,
        "qwixx-bot backup: the following arguments are required: FILE "
        "(see qwixx-bot backup --help)",
    ),
    (
        ["backup", "{tmp}/copy.db", "--database", "{tmp}/none.db"],
        {},
        None,
        "qwixx-bot backup: there is no database file {tmp}/none.db",
    ),
    (
        ["backup", "{tmp}/copy.db"],
        {"QWIXX_DATABASE": "{tmp}/none.db"},
        None,
        "qwixx-bot backup: there is no database file {tmp}/none.db",
    ),
    (
        ["backup", "{tmp}/copy.db", "--database", ""],
        {},
        None,
        f"qwixx-bot backup: --database {EMPTY_DATABASE}",
    ),
    (
        ["backup", "{tmp}/copy.db", "--database", "postgresql://qwixx:secret@db/qwixx"],
        {},
        None,
        "qwixx-bot backup: backup copies a SQLite file; for PostgreSQL use pg_dump",
    ),
    (
        ["backup", "{tmp}"],
        DB,
        None,
        "qwixx-bot backup: FILE: {tmp} is a folder; name the "
        "backup file, e.g. {tmp}/qwixx-backup.db",
    ),
    (
        ["backup", "{tmp}/afile/copy.db"],
        DB,
        None,
        "qwixx-bot backup: FILE: {tmp}/afile is a file, not a folder",
    ),
    (
        ["backup", "{tmp}/games.db"],
        DB,
        None,
        "qwixx-bot backup: the backup must go to another file than {tmp}/games.db",
    ),
    (
        ["backup", "{tmp}/afile"],
        DB,
        None,
        "qwixx-bot backup: {tmp}/afile is not a SQLite database (file is not a database); "
        "backup replaces only an older backup: name a new file, or move {tmp}/afile aside",
    ),
    (
        ["backup", "{tmp}/full/notes.txt"],
        DB,
        None,
        "qwixx-bot backup: {tmp}/full/notes.txt is not a SQLite database (file is not a "
        "database); backup replaces only an older backup: name a new file, or move "
        "{tmp}/full/notes.txt aside",
    ),
    (
        ["backup", "{tmp}/copy.db", "--database", "{tmp}/afile"],
        {},
        None,
        "qwixx-bot backup: cannot back up {tmp}/afile to {tmp}/copy.db: file is not a database",
    ),
    # migrate
    (["migrate", "--database", ""], {}, None, f"qwixx-bot migrate: --database {EMPTY_DATABASE}"),
    (
        ["migrate", "--database", "{tmp}/missing/qwixx.db"],
        {},
        None,
        "qwixx-bot migrate: cannot open the database {tmp}/missing/qwixx.db: there is no "
        "folder {tmp}/missing",
    ),
    (
        ["migrate", "--database", "{tmp}"],
        {},
        None,
        "qwixx-bot migrate: {tmp} is a folder, not a database file; name a file in it, e.g. "
        "{tmp}/qwixx.db",
    ),
    (
        ["migrate", "--database", "mysql://root:secret@db/qwixx"],
        {},
        None,
        "qwixx-bot migrate: --database must be a SQLite file (qwixx.db, sqlite:///path) or "
        'postgresql://user:password@host/database, got a "mysql" URL',
    ),
    (
        ["migrate", "--database", "{tmp}/future.db"],
        {},
        None,
        f"qwixx-bot migrate: database schema version 99 is newer than this code ({LATEST_VERSION})",
    ),
    (
        ["migrate"],
        {"QWIXX_SHARDS": "5/4"},
        None,
        'qwixx-bot migrate: QWIXX_SHARDS "5/4": shard ids must be 0 to 3 for 4 shards, got 5',
    ),
    # copy-db
    (
        ["copy-db", "{tmp}/games.db"],
        {},
        None,
        "qwixx-bot copy-db: the following arguments are required: POSTGRES_URL "
        "(see qwixx-bot copy-db --help)",
    ),
    (
        ["copy-db", "{tmp}/none.db", "postgresql://qwixx:secret@db/qwixx"],
        {},
        None,
        "qwixx-bot copy-db: there is no database file {tmp}/none.db",
    ),
    (
        ["copy-db", "postgresql://qwixx:secret@db/qwixx", "{tmp}/games.db"],
        {},
        None,
        "qwixx-bot copy-db: SQLITE_FILE is a PostgreSQL URL: copy-db copies a SQLite file into "
        "PostgreSQL, as in: qwixx-bot copy-db qwixx.db postgresql://user:password@host/database",
    ),
    (
        ["copy-db", "{tmp}/games.db", "mysql://root:secret@db/qwixx"],
        {},
        None,
        'qwixx-bot copy-db: POSTGRES_URL must be a postgresql:// URL, got a "mysql" URL',
    ),
    (
        ["copy-db", "{tmp}/games.db", "{tmp}/other.db"],
        {},
        None,
        "qwixx-bot copy-db: POSTGRES_URL must be a postgresql:// URL, got a file path",
    ),
    (
        ["copy-db", "{tmp}/games.db", ""],
        {},
        None,
        "qwixx-bot copy-db: POSTGRES_URL is empty: give the PostgreSQL database to fill, "
        "postgresql://user:password@host:port/database",
    ),
    (
        ["copy-db", "{tmp}/games.db", " "],
        {},
        None,
        "qwixx-bot copy-db: POSTGRES_URL is empty: give the PostgreSQL database to fill, "
        "postgresql://user:password@host:port/database",
    ),
    (
        ["copy-db", "{tmp}/games.db", "postgresql://qwixx:secret@db:0/qwixx"],
        {},
        None,
        'qwixx-bot copy-db: POSTGRES_URL: the port must be a number from 1 to 65535, got "0"',
    ),
    # prune
    (
        ["prune"],
        DB,
        None,
        "qwixx-bot prune: the following arguments are required: "
        "--finished-before (see qwixx-bot prune --help)",
    ),
    (
        ["prune", "--finished-before", "last spring"],
        DB,
        None,
        "qwixx-bot prune: --finished-before: 'last spring' is not a date; write it as "
        "YYYY-MM-DD, e.g. 2026-01-01",
    ),
    (
        ["prune", "--finished-before", "2026-02-30"],
        DB,
        None,
        "qwixx-bot prune: --finished-before: '2026-02-30' is not a date; write it as "
        "YYYY-MM-DD, e.g. 2026-01-01",
    ),
    (
        ["prune", "--finished-before", "2999-01-01"],
        DB,
        None,
        "qwixx-bot prune: --finished-before: 2999-01-01 is in the future; prune removes the "
        "logs of games that have already ended",
    ),
    (
        ["prune", "--finished-before", "2026-01-01", "--database", "{tmp}/none.db"],
        {},
        None,
        "qwixx-bot prune: there is no database file {tmp}/none.db",
    ),
    (
        ["prune", "--finished-before", "2026-01-01", "--database", "mysql://root:secret@db/q"],
        {},
        None,
        "qwixx-bot prune: --database must be a SQLite file (qwixx.db, sqlite:///path) "
        'or postgresql://user:password@host/database, got a "mysql" URL',
    ),
]


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder ``{tmp}`` stands for, as the working directory, with no setting in the
    environment."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with closing(sqlite3.connect(tmp_path / "games.db")) as db, db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    with closing(sqlite3.connect(tmp_path / "future.db")) as db, db:
        db.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT "
            "NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        db.execute("INSERT INTO schema_version VALUES (99, 'future', 0)")
    (tmp_path / "afile").write_text("not a database and not a folder")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    return tmp_path


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The exit status, standard output and standard error of ``qwixx-bot argv``."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("argv", "env", "dotenv", "line"),
    CASES,
    ids=[" ".join(c[0]) + f" {sorted(c[1])} {c[2]!r}" for c in CASES],
)
def test_each_wrong_input_is_one_line_and_status_2(
    place: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    env: dict[str, str],
    dotenv: str | None,
    line: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value.format(tmp=place, tmp_relative=str(place)[1:]))
    if dotenv is not None:
        (place / ".env").write_bytes(dotenv.encode("latin-1" if "\xe9" in dotenv else "utf-8"))
    before = sorted(p.name for p in place.rglob("*"))
    status, out, err = refusal([a.format(tmp=place) for a in argv], capsys)
    assert (status, out, err) == (
        2,
        "",
        line.format(tmp=place, tmp_relative=str(place)[1:]) + "\n",
    )
    assert "secret" not in err
    assert sorted(p.name for p in place.rglob("*")) == before  # nothing made or changed


def test_every_option_has_help() -> None:
    from bot.cli import parser

    top, commands = parser()
    for name, command in {"": top, **commands}.items():
        for action in command._actions:
            assert action.help, f"qwixx-bot {name} {action.option_strings or action.dest}"


def test_the_help_says_how_to_run_the_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Without a command, qwixx-bot runs the bot. It needs DISCORD_TOKEN" in text
    assert "qwixx-bot demo" in text and "QWIXX_DATABASE" in text


def test_prune_help_shows_the_date_as_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["prune", "--help"])
    usage = " ".join(capsys.readouterr().out.split("\n\n")[0].split())
    assert usage == (
        "usage: qwixx-bot prune [-h] --finished-before DATE [--dry-run] [--database DATABASE]"
    )


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    """The real entry point, in a process of its own (what a host runs)."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--out", "/etc/passwd/x"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).parent.parent)},
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "qwixx-bot demo: --out: /etc/passwd is a file, not a folder\n",
    )


# --- PostgreSQL: the real server the tests start, each failure told apart


def closed_port() -> int:
    """A loopback port nobody listens on: connecting is refused."""
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def password_user(postgres: PostgresServer) -> str:
    """A user ``pwuser`` (password ``right``) whom the server asks for a password."""
    import psycopg

    hba = postgres.data / "pg_hba.conf"
    before = hba.read_text()
    with psycopg.connect(postgres.url(), autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS pwuser")
        admin.execute("CREATE ROLE pwuser LOGIN PASSWORD 'right'")
        hba.write_text("local all pwuser scram-sha-256\n" + before)
        admin.execute("SELECT pg_reload_conf()")
    yield "pwuser"
    with psycopg.connect(postgres.url(), autocommit=True) as admin:
        hba.write_text(before)
        admin.execute("SELECT pg_reload_conf()")


@pytest.mark.parametrize("command", [[], ["migrate"], ["prune", "--finished-before", "2026-01-01"]])
def test_postgresql_failures_are_told_apart(
    place: Path,
    postgres: PostgresServer,
    password_user: str,
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    port, socket_folder = closed_port(), postgres.data
    prefix = " ".join(["qwixx-bot", *command[:1]])
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    cases = [
        (
            f"postgresql://qwixx:secret@127.0.0.1:{port}/qwixx",
            f"cannot connect to postgresql://qwixx@127.0.0.1:{port}/qwixx: the connection was "
            f"refused at 127.0.0.1, port {port}: is PostgreSQL running there, and listening on "
            "that address and port?",
        ),
        (
            postgres.url("nosuch"),
            f"cannot connect to postgresql://postgres@/nosuch?host={socket_folder}: the server "
            'has no database "nosuch" (make it first, e.g. createdb nosuch)',
        ),
        (
            f"postgresql://pwuser:secret@/postgres?host={socket_folder}",
            f"cannot connect to postgresql://pwuser@/postgres?host={socket_folder}: wrong "
            'password for user "pwuser"',
        ),
        (
            f"postgresql://pwuser@/postgres?host={socket_folder}",
            f"cannot connect to postgresql://pwuser@/postgres?host={socket_folder}: the server "
            "asks for a password, and the URL has none",
        ),
        (
            f"postgresql://ghost:secret@/postgres?host={socket_folder}",
            f"cannot connect to postgresql://ghost@/postgres?host={socket_folder}: the server "
            'has no user (role) "ghost"',
        ),
        (
            f"postgresql://qwixx:secret@/qwixx?host={place}/nowhere",
            f"cannot connect to postgresql://qwixx@/qwixx?host={place}/nowhere: there is no "
            f"PostgreSQL socket {place}/nowhere/.s.PGSQL.5432: is the server running, with its "
            "socket in that folder?",
        ),
    ]
    for url, says in cases:
        monkeypatch.setenv("QWIXX_DATABASE", url)
        assert refusal(command, capsys) == (2, "", f"{prefix}: {says}\n"), url


def test_copy_db_names_the_database_that_has_games(
    place: Path, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url, source = postgres.clean_database(), place / "source.db"

    async def one_game_each() -> None:
        for target in (url, source):
            async with Store(target) as store:
                await store.games.create(1, 2, 3, "classic", {}, 4)

    asyncio.run(one_game_each())
    status, out, err = refusal(["copy-db", str(source), url], capsys)
    assert (status, out, err) == (
        2,
        "",
        f"qwixx-bot copy-db: {url_shown(url)} already has "
        "1 game; copy-db only fills an empty database\n",
    )


def url_shown(url: str) -> str:
    from bot.store.postgres import redacted

    return redacted(url)


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "1"],
        ["--players", "1", "--computers", "1"],
        ["--players", "6", "--variant", "qwinto"],
    ],
)
def test_the_demo_takes_any_count_the_game_seats(argv: list[str]) -> None:
    from bot.cli import parse_args

    args = parse_args(["demo", *argv])
    assert args.players == int(argv[1])
