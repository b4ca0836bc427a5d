"""Long work shows how far it is on a terminal, and nothing anywhere else.

Standard error is replaced by a stream that says it is a terminal (``Terminal``); the
bars are read from what was written to it.
"""

from __future__ import annotations

import asyncio
import io
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot import __main__ as cli
from bot.progress import stage
from bot.service.rated import BATCH, RatingService
from bot.store import Store
from bot.store.migrations import MIGRATIONS
from tests.store.helpers import apply_migrations
from tests.store.postgres_server import PostgresServer
from tests.test_main import a_history, an_old_history


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """Standard error a terminal from now on in the test (pytest's own capture puts its
    stream back between a fixture's set-up and the test)."""
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    return screen


def last_state(screen: str, what: str) -> str:
    """The bar of ``what`` as it was drawn last (tqdm redraws it after a carriage return)."""
    drawn = [part for part in re.split(r"[\r\n]", screen) if part.startswith(f"{what}:")]
    assert drawn, f"no bar {what!r} in {screen!r}"
    return drawn[-1]


def test_a_bar_on_a_terminal_nothing_elsewhere() -> None:
    screen, pipe = Terminal(), io.StringIO()
    for stream in (screen, pipe):
        with stage("copying rows", 3_000, "rows", stream=stream) as advance:
            for _ in range(3):
                advance(1_000)
    assert pipe.getvalue() == ""
    bar = last_state(screen.getvalue(), "copying rows")
    assert bar.startswith("copying rows: 100% |") and " 3000/3000 rows [" in bar
    assert screen.getvalue().endswith("\n")  # the finished bar stays, on a line of its own


def test_work_that_cannot_tell_its_time_left_shows_counts_and_time_only() -> None:
    screen = Terminal()
    with stage("migrating the database", 6, "steps", eta=False, stream=screen) as advance:
        advance(6)
    assert (
        last_state(screen.getvalue(), "migrating the database")
        == "migrating the database: 6/6 steps [00:00]"
    )


def test_prune_shows_the_games_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_terminal(monkeypatch)
    database = tmp_path / "games.db"
    asyncio.run(an_old_history(database))
    assert cli.main(["prune", "--finished-before", "2026-01-01", "--database", str(database)]) == 0
    assert terminal.getvalue().startswith(f"checking {database} (SQLite's quick_check)…\n")
    bar = last_state(terminal.getvalue(), "removing the logs of ended games")
    assert bar.startswith("removing the logs of ended games: 100% |") and " 1/1 games [" in bar


def test_backup_shows_the_bytes_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_terminal(monkeypatch)
    database = tmp_path / "games.db"
    asyncio.run(a_history(database))
    assert cli.main(["backup", str(tmp_path / "copy.db"), "--database", str(database)]) == 0
    bar = last_state(terminal.getvalue(), "backing up")
    done, total = re.findall(r" (\S+)/(\S+)B \[", bar)[0]
    assert bar.startswith("backing up: 100% |") and done == total


def test_migrate_shows_the_steps_of_an_upgrade_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = on_terminal(monkeypatch)
    old = tmp_path / "old.db"
    asyncio.run(apply_migrations(old, 0.0, MIGRATIONS[:8]))
    assert cli.main(["migrate", "--database", str(old)]) == 0
    steps = sum(len(m.statements) for m in MIGRATIONS[8:])
    assert last_state(terminal.getvalue(), "migrating the database").startswith(
        f"migrating the database: {steps}/{steps} steps ["
    )
    terminal.seek(0)
    terminal.truncate()
    assert cli.main(["migrate", "--database", str(tmp_path / "new.db")]) == 0
    assert terminal.getvalue() == ""  # a new database's schema is made in a moment


def test_copy_db_shows_the_rows_copied(
    tmp_path: Path,
    postgres: PostgresServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    terminal = on_terminal(monkeypatch)
    source = tmp_path / "games.db"
    asyncio.run(a_history(source))
    assert cli.main(["copy-db", str(source), postgres.clean_database()]) == 0
    copied = sum(
        int(n.replace(",", ""))
        for n in re.findall(r"^  \w+: ([\d,]+)$", capsys.readouterr().out, re.M)
    )
    bar = last_state(terminal.getvalue(), "copying rows")
    assert bar.startswith("copying rows: 100% |") and f" {copied}/{copied} rows [" in bar


def finished_games(path: Path, count: int) -> None:
    """``count`` counted games of two people, finished and not rated yet."""
    with closing(sqlite3.connect(path)) as db, db:
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, variant, options, seed, "
            "players, status, version, created_at, updated_at, finished_at) "
            "VALUES (?, 1, 2, 11, 'classic', '{}', 1, '[11, 12]', 'finished', 2, ?, ?, ?)",
            [(n, n, n, n) for n in range(1, count + 1)],
        )
        db.executemany(
            "INSERT INTO matches (game_id, guild_id, channel_id, variant, "
            "started_at, finished_at, turns, players, counted) "
            "VALUES (?, 1, 2, 'classic', ?, ?, 20, 2, 1)",
            [(n, n, n) for n in range(1, count + 1)],
        )
        db.executemany(
            "INSERT INTO results (game_id, player_id, guild_id, variant, seat, "
            "score, rank, won, counted, finished_at) "
            "VALUES (?, ?, 1, 'classic', ?, ?, ?, ?, 1, ?)",
            [
                (n, 11 + seat, seat, 30 - seat, 1 + seat, 1 - seat, n)
                for n in range(1, count + 1)
                for seat in (0, 1)
            ],
        )


def test_the_first_starts_rating_shows_the_games_rated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = on_terminal(monkeypatch)
    path, count = tmp_path / "games.db", BATCH + 1

    async def rate(games: int) -> int:
        async with Store(path) as store:
            if games:
                finished_games(path, games)
            return await RatingService(store).backfill()

    assert asyncio.run(rate(count)) == count
    bar = last_state(terminal.getvalue(), "rating the games played so far")
    assert bar.startswith("rating the games played so far: 100% |")
    assert f" {count}/{count} games [" in bar
    terminal.seek(0)
    terminal.truncate()
    assert asyncio.run(rate(0)) == 0 and terminal.getvalue() == ""  # nothing left: no bar


def test_nothing_is_drawn_when_standard_error_is_no_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "games.db"
    asyncio.run(an_old_history(database))
    for argv in (
        ["prune", "--finished-before", "2026-01-01"],
        ["backup", str(tmp_path / "copy.db")],
    ):
        assert cli.main([*argv, "--database", str(database)]) == 0
        assert capsys.readouterr().err == ""
