"""``qwixx-bot``: start-up checks, patience while Discord is out of reach, backups."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

from bot import __main__ as cli
from bot.app import QwixxBot
from bot.records.daily import Attempt, DailySettings
from bot.records.games import GameChange, GameResults, PlayerResult
from bot.sandbox import Sandbox
from bot.service.rated import RatingService
from bot.store import LATEST_VERSION, Store
from bot.store.engine import Tx
from bot.store.maintenance import row_counts
from tests.store.helpers import CHANNEL, GUILD, HOST, PLAYER2, make_lobby, make_running
from tests.store.postgres_server import PostgresServer


def closed_port() -> int:
    """A loopback port nobody listens on: connecting is refused."""
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stop(Exception):
    """Ends a retry loop from the fake sleep."""


class FakeSleep:
    """Records the waits; after ``then_at`` calls runs ``then`` (or stops the loop)."""

    def __init__(self, limit: int, then: object = None) -> None:
        self.waits: list[float] = []
        self.limit = limit
        self.then = then

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        if len(self.waits) == self.limit:
            if self.then is None:
                raise Stop
            self.then()  # type: ignore[operator]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> str:
    """discord.py's REST base pointed at a closed loopback port; the real base is returned."""
    real = discord.http.Route.BASE
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    return real


def test_waits_grow_to_a_minute() -> None:
    waits = cli.waits()
    assert [next(waits) for _ in range(9)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]


@pytest.mark.parametrize(
    ("error", "retried"),
    [
        (
            aiohttp.ClientConnectorDNSError(
                None, OSError(-3, "Temporary failure in name resolution")
            ),
            True,
        ),
        (aiohttp.ServerDisconnectedError(), True),
        (TimeoutError(), True),
        (discord.LoginFailure("Improper token has been passed."), False),
        (PermissionError(13, "Permission denied: 'qwixx.db'"), False),
    ],
)
def test_what_counts_as_unreachable(error: BaseException, retried: bool) -> None:
    assert cli.unreachable(error) is retried


async def test_unreachable_discord_is_one_line_and_a_retry(
    offline: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = QwixxBot(tmp_path / "q.db")
    sleep = FakeSleep(limit=8)
    with caplog.at_level(logging.WARNING), pytest.raises(Stop):
        await cli.serve(bot, "token", sleep)
    assert sleep.waits == [1, 2, 4, 8, 16, 32, 60, 60]
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 8
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in lines)
    assert "cannot reach Discord (Cannot connect to host 127.0.0.1" in lines[0].getMessage()
    assert "trying again in 1 s" in lines[0].getMessage()
    assert bot.store is None  # the bot's own set-up never began
    assert not (tmp_path / "q.db").exists()


async def test_the_bot_starts_once_discord_answers(tmp_path: Path) -> None:
    async with Sandbox(members=["Ana"]) as sb:
        sandbox_base = sb.server.base_url

        def back_online() -> None:
            discord.http.Route.BASE = sandbox_base

        discord.http.Route.BASE = f"http://127.0.0.1:{closed_port()}/api/v10"
        try:
            sleep = FakeSleep(limit=3, then=back_online)
            bot = QwixxBot(tmp_path / "q.db", dev_guild=sb.guild.id)
            bot._connection.guild_ready_timeout = 0.05
            serving = asyncio.create_task(cli.serve(bot, "sandbox-token", sleep))
            await sb.wait_for(bot.is_ready, timeout=30)  # generous: no speed assumed
            assert sleep.waits == [1, 2, 4]
            lobby = await sb.member("Ana").slash("qwixx", "start", variant="classic")
            assert "lobby" in lobby.message.content
            await bot.close()
            await serving
        finally:
            back_online()  # the sandbox restores the real base when it closes
        assert sb.failures == [], sb.describe_failures()


async def test_a_refused_token_is_not_retried(tmp_path: Path) -> None:
    async with Sandbox() as sb:
        sb.server.rest.tokens = {"the-right-token"}
        bot = QwixxBot(tmp_path / "q.db")
        sleep = FakeSleep(limit=1)
        with pytest.raises(discord.LoginFailure):
            await cli.serve(bot, "a-wrong-token", sleep)
        assert sleep.waits == []


class Refuses(BaseHTTPRequestHandler):
    """Answers every request as Discord answers a wrong token."""

    def do_GET(self) -> None:
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def refusing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    server = HTTPServer(("127.0.0.1", 0), Refuses)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(
        discord.http.Route, "BASE", f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    )
    yield
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean environment with a token and a database in ``tmp_path``."""
    monkeypatch.chdir(tmp_path)  # no .env of the checkout
    monkeypatch.setenv("DISCORD_TOKEN", "some-token")
    monkeypatch.setenv("QWIXX_DATABASE", str(tmp_path / "games.db"))
    monkeypatch.setenv("QWIXX_LOG_LEVEL", "ERROR")
    return tmp_path / "games.db"


def test_main_explains_a_refused_token_in_one_line(
    environment: Path, refusing: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--no-sync"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Discord refused DISCORD_TOKEN" in error


def test_main_names_a_damaged_database_before_connecting(
    environment: Path, offline: str, capsys: pytest.CaptureFixture[str]
) -> None:
    environment.write_bytes(b"not a database at all " * 100)
    assert cli.main([]) == 2
    error = capsys.readouterr().err
    assert f"the database file {environment} failed SQLite's quick_check" in error
    assert error.count("\n") == 1


def test_backup_command(environment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with closing(sqlite3.connect(environment)) as db, db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        db.executemany("INSERT INTO games VALUES (?)", [(1,), (2,)])
    target = environment.with_name("copy.db")
    assert cli.main(["backup", str(target)]) == 0
    assert capsys.readouterr().out == (
        f"backed up {environment} to {target} (quick_check ok): 1 table, 2 rows\n"
    )
    with closing(sqlite3.connect(target)) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    assert cli.main(["backup", str(environment)]) == 2
    assert "another file" in capsys.readouterr().err


def test_backup_makes_the_folder_it_writes_to(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with closing(sqlite3.connect(environment)) as db, db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    target = environment.parent / "backups" / "qwixx-2026-11-27.db"  # as the README has it
    assert cli.main(["backup", str(target)]) == 0
    assert target.is_file() and "quick_check ok" in capsys.readouterr().out


def test_backup_of_another_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, target = tmp_path / "other.db", tmp_path / "copy.db"
    with closing(sqlite3.connect(source)) as db, db:
        db.executemany("CREATE TABLE t (x)", [()])
        db.executemany("INSERT INTO t VALUES (?)", [(1,), (2,), (3,)])
    assert cli.main(["backup", str(target), "--database", f"sqlite:///{source}"]) == 0
    assert capsys.readouterr().out == (
        f"backed up {source} to {target} (quick_check ok): 1 table, 3 rows\n"
    )


def test_migrate_command(
    database: str | Path, environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["migrate", "--database", str(database)]) == 0
    assert f"schema version {LATEST_VERSION} (up to date)" in capsys.readouterr().out
    assert cli.main(["migrate"]) == 0  # QWIXX_DATABASE
    assert environment.exists()


async def a_history(path: Path) -> None:
    """A SQLite database with something in every table: a finished game with results,
    ratings and events, a lobby, names and server settings."""
    async with Store(path) as store:
        game = await make_running(store)
        results = GameResults(
            4, (PlayerResult(HOST, 0, 30, 1, True), PlayerResult(PLAYER2, 1, 20, 2, False))
        )
        change = GameChange(
            [(HOST, {"kind": "pass"}, "player")],
            {"turn": 4},
            "finished",
            results,
            events=[(4, "game_over", None, {"reason": "done"})],
        )
        await store.games.change(game, change)
        await RatingService(store).backfill()
        finished = await store.games.get(game.id)
        assert finished is not None
        await store.reviews.add(finished, [(HOST, 0.75, 12)], False, 2.0)
        await a_daily(store)
        await a_tournament(store, game.id)
        await make_lobby(store, CHANNEL + 1)
        await store.names.remember(GUILD, HOST, "Ana")
        await store.settings.set_turn_time(GUILD, 3600)
        await store.settings.set_language(GUILD, "de")
        await store.privacy.forget(PLAYER2 + 100)  # someone forgotten: an anonymous id
        await store.privacy.mark_departed(GUILD + 1, 1.0)


async def a_daily(store: Store) -> None:
    """A finished daily attempt, with its par, ranking message, settings and secret."""
    day = "2026-11-27"
    await store.daily.secret()
    game = await store.games.create(GUILD, -5, HOST, "classic", {"daily": day}, 9)
    await store.daily.add_attempt(
        Attempt(day, "classic", HOST, GUILD, CHANNEL, game.id, None, None)
    )
    await store.daily.finish_attempt(game.id, 42, 3.0)
    await store.daily.set_par(day, "classic", 80)
    await store.daily.set_post(GUILD, day, "classic", CHANNEL, 77)
    await store.daily.set_settings(GUILD, DailySettings(CHANNEL, 6, "Europe/Berlin"))


async def a_tournament(store: Store, game_id: int) -> None:
    """A tournament whose round 1 table was the game ``game_id``, and the organisers' role."""

    async def work(tx: Tx) -> None:
        await tx.execute(
            "INSERT INTO tournaments (id, guild_id, channel_id, host_id, name, settings, seed, "
            "status, rounds, created_at, updated_at) VALUES (1, ?, ?, ?, 'Cup', '{}', 5, "
            "'running', 1, 1, 1)",
            (GUILD, CHANNEL + 2, HOST),
        )
        await tx.executemany(
            "INSERT INTO tournament_entrants (tournament_id, guild_id, user_id, joined_at) "
            "VALUES (1, ?, ?, 1)",
            [(GUILD, HOST), (GUILD, PLAYER2)],
        )
        await tx.execute(
            "INSERT INTO tournament_rounds (tournament_id, guild_id, number, seating, seated_at) "
            "VALUES (1, ?, 1, '{}', 1)",
            (GUILD,),
        )
        await tx.execute(
            "INSERT INTO tournament_tables (tournament_id, guild_id, round, number, players, "
            "game_id) VALUES (1, ?, 1, 1, ?, ?)",
            (GUILD, f"[{HOST}, {PLAYER2}]", game_id),
        )
        await tx.execute("INSERT INTO tournament_roles (guild_id, role_id) VALUES (?, 9)", (GUILD,))
        await tx.execute(
            "INSERT INTO member_prefs (user_id, prefs, updated_at) VALUES (?, ?, 1)",
            (HOST, '{"others": "safe", "dm": true}'),
        )
        await tx.execute(
            "INSERT INTO game_seats (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (game_id, PLAYER2),
        )

    await store.engine.transact(work)


async def what_it_shows(target: str | Path) -> tuple[Any, ...]:
    async with Store(target) as store:
        return (
            await store.games.of_channel(CHANNEL),
            await store.games.moves(1),
            await store.games.events(1),
            await store.stats.history(GUILD),
            sorted(await store.stats.leaderboard(GUILD), key=lambda t: t.player_id),
            await store.stats.player_totals(GUILD, HOST),
            await store.names.of(GUILD, [HOST]),
            await store.settings.language(GUILD),
            await store.ratings.of_variant(GUILD, "qwixx"),
            await store.ratings.changes(1),
            await store.games.in_channel(CHANNEL + 1),
            await store.reviews.of(1),
            await store.daily.attempt("2026-11-27", "classic", HOST),
            await store.daily.settings(GUILD),
            await store.daily.secret(),
            await store.members.prefs(HOST),
            await store.games.seated(PLAYER2),
        )


def test_copy_db_copies_every_table_and_shows_the_counts(
    tmp_path: Path, postgres: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source, url = tmp_path / "games.db", postgres.clean_database()
    asyncio.run(a_history(source))
    assert cli.main(["copy-db", str(source), url]) == 0
    out = capsys.readouterr().out
    with closing(sqlite3.connect(source)) as db:
        counts = row_counts(db)
    del counts["schema_version"]
    assert all(counts.values()), counts  # every table had rows to copy
    for table, rows in counts.items():
        assert f"  {table}: {rows}\n" in out
    assert asyncio.run(what_it_shows(url)) == asyncio.run(what_it_shows(source))

    async def new_game() -> int:
        async with Store(url) as store:
            return (await make_lobby(store, CHANNEL + 2)).id

    assert asyncio.run(new_game()) == 4  # after the copied ids (three games)
    # Copying again into a database that has games is refused, and changes nothing.
    assert cli.main(["copy-db", str(source), url]) == 2
    assert "already has 4 games;" in capsys.readouterr().err


async def an_old_history(path: str | Path) -> None:
    """:func:`a_history` a year ago (its game shown whole), and a game running now."""
    async with Store(path, clock=lambda: 1_750_000_000.0) as store:  # June 2025
        game = await make_running(store)
        results = GameResults(
            4, (PlayerResult(HOST, 0, 30, 1, True), PlayerResult(PLAYER2, 1, 20, 2, False))
        )
        change = GameChange(
            [(HOST, {"kind": "pass"}, "player")],
            {"turn": 4},
            "finished",
            results,
            events=[(4, "game_over", None, {"reason": "done"})],
        )
        done = (await store.games.change(game, change)).record
        await store.games.set_shown(done, None, {})
    async with Store(path) as store:
        running = await make_running(store, CHANNEL + 1)
        await store.games.change(
            running, GameChange([(HOST, {"kind": "pass"}, "player")], {"turn": 1})
        )


def test_prune_command(
    database: str | Path, environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(an_old_history(database))
    shown = asyncio.run(what_it_shows(database))
    dry = ["prune", "--finished-before", "2026-01-01", "--dry-run", "--database", str(database)]
    assert cli.main(dry) == 0
    out = capsys.readouterr().out
    assert (
        "would remove the moves and events of 1 game that ended before 2026-01-01: "
        "1 move, 1 event (dry run: nothing removed)" in out
    )
    assert asyncio.run(what_it_shows(database)) == shown
    assert cli.main(dry[:3] + dry[4:]) == 0
    out = capsys.readouterr().out
    assert "removed the moves and events of 1 game " in out and "kept" in out
    if isinstance(database, Path):  # one game's rows shared their pages with others
        assert out.splitlines()[1] == (
            f"{database} is {cli.upkeep.size(database.stat().st_size)}"
            "; no page of it was freed (the rows removed shared "
            "their pages with rows that stay)"
        )
    else:
        assert out.count("\n") == 1
    after = asyncio.run(what_it_shows(database))
    assert after[1:3] == ([], [])  # game 1's moves and events
    assert after[0] == shown[0] and after[3:] == shown[3:]  # the rest, the running game's too

    async def running_moves() -> int:
        async with Store(database) as store:
            return len(await store.games.moves(2))

    assert asyncio.run(running_moves()) == 1


def a_database(path: Path, games: int) -> None:
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY)")
        db.execute("DELETE FROM games")
        db.executemany("INSERT INTO games VALUES (?)", [(n,) for n in range(games)])


def games_in(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def test_backup_replaces_an_older_backup(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = environment.with_name("nightly.db")
    a_database(environment, 2)
    assert cli.main(["backup", str(target)]) == 0
    a_database(environment, 5)
    assert cli.main(["backup", str(target)]) == 0
    assert "quick_check ok" in capsys.readouterr().out
    assert games_in(target) == 5
    assert sorted(p.name for p in environment.parent.iterdir()) == ["games.db", "nightly.db"]


def test_a_backup_that_fails_midway_keeps_the_older_one(
    environment: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The disk fills once the copy is written, before it replaces the older backup."""
    from bot.store import maintenance

    target = environment.with_name("nightly.db")
    a_database(environment, 2)
    assert cli.main(["backup", str(target)]) == 0
    older = target.read_bytes()
    a_database(environment, 5)

    def full(db: sqlite3.Connection) -> dict[str, int]:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(maintenance, "row_counts", full)
    capsys.readouterr()
    assert cli.main(["backup", str(target)]) == 2
    assert capsys.readouterr().err == (
        f"qwixx-bot backup: cannot back up {environment} to {target}: database or disk is full\n"
    )
    assert target.read_bytes() == older and games_in(target) == 2
    assert sorted(p.name for p in environment.parent.iterdir()) == ["games.db", "nightly.db"]


def test_prune_with_nothing_to_remove_says_so(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(an_old_history(environment))
    assert cli.main(["prune", "--finished-before", "2026-01-01"]) == 0
    capsys.readouterr()
    for dry in ([], ["--dry-run"]):
        assert cli.main(["prune", "--finished-before", "2026-01-01", *dry]) == 0
        assert capsys.readouterr().out == (
            f"{environment}: nothing to remove: no game that ended before 2026-01-01 "
            "has moves or events left\n"
        )


# -- health: the timer loop's sign of life, as the Docker image checks it --------------


async def test_the_running_bot_keeps_a_sign_of_life_that_health_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    alive = tmp_path / "alive"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QWIXX_HEARTBEAT", str(alive))
    assert cli.main(["health"]) == 1  # not started yet
    assert capsys.readouterr().err == (
        f"qwixx-bot health: no sign of life yet: {alive} is missing (the bot writes it "
        "once it is set up, then after every pass of its timers)\n"
    )
    async with Sandbox(members=["Ana"]) as sb:
        bot = QwixxBot(tmp_path / "q.db", dev_guild=sb.guild.id, tick=0.05, heartbeat=alive)
        await sb.run_bot(bot)
        await sb.wait_for(alive.exists, timeout=30)
        first = alive.stat().st_mtime_ns
        await sb.wait_for(lambda: alive.stat().st_mtime_ns > first, timeout=30)  # each pass
        await sb.stop_bot()
    assert cli.main(["health"]) == 0
    assert capsys.readouterr().out.startswith("qwixx-bot health: alive, the timers' last pass ")
    stale = alive.stat().st_mtime - 1000
    os.utime(alive, (stale, stale))  # as if the timers had stopped 1,000 s ago
    assert cli.main(["health"]) == 1
    assert capsys.readouterr().err.startswith(
        f"qwixx-bot health: the timers' last pass (by {alive}) was 1,0"
    )


def test_health_without_a_heartbeat_setting_is_unhealthy_in_one_line(
    environment: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("QWIXX_HEARTBEAT", raising=False)
    assert cli.main(["health"]) == 1
    assert capsys.readouterr().err == (
        "qwixx-bot health: QWIXX_HEARTBEAT is not set, so the bot keeps no sign of life "
        "to check (the Docker image sets it)\n"
    )
