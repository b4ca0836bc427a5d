"""Every entry point ends its process when it fails, even with a store open.

aiosqlite runs each SQLite connection on a thread of its own, not a daemon: a store left
open when an error escapes keeps the interpreter alive once the error is printed. Each
case runs an entry point in a process of its own (``python -m`` as a host runs it) with
a failure injected while a store is open, and waits at most :data:`WAIT` seconds for it
to end with a non-zero status and the injected error in its output.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WAIT = 180.0
"""Seconds a failing process may take to end: its imports and start on a loaded machine;
a process kept alive by a store's threads never ends."""
FAILURE = "injected failure"

RUN = """
import runpy, sys
{injection}
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""
"""A module run as ``python -m`` does, after ``injection``."""
FAIL = f"""
def broken(*args, **kwargs):
    raise RuntimeError("{FAILURE}")
async def fail(*args, **kwargs):
    broken()
"""
STATEMENT = (
    FAIL
    + """
from bot.store.sqlite import SqliteEngine
from bot.store.store import Store
allowed, opened = [{calls}], []
connect = Store.connect
async def connected(self):
    await connect(self)
    opened.append(self)
def tripwire(real):
    async def call(self, *args, **kwargs):
        if opened:
            allowed[0] -= 1
            if allowed[0] < 0:
                await fail()
        return await real(self, *args, **kwargs)
    return call
for name in ("transact", "fetch", "write_holding"):
    setattr(SqliteEngine, name, tripwire(getattr(SqliteEngine, name)))
Store.connect = connected
"""
)
"""Once a store is open, the statements after its first ``calls`` fail."""
MIGRATION = (
    FAIL
    + """
import bot.store.store
bot.store.store.apply_migrations = fail
"""
)
"""Bringing a store's schema up to date fails, its connections open."""
OFFLINE_BOT = (
    FAIL
    + """
import discord
from bot.app import QwixxBot
async def login(self, token):
    await self.setup_hook()
async def nothing(self, *args, **kwargs):
    pass
discord.Client.login = login
QwixxBot.learn_commands = nothing
discord.Client.connect = fail
"""
)
"""The bot sets itself up (its store open) without Discord, then connecting fails."""
STOP_FAILS = {
    "at the timers": "from bot.timers import Timers\nTimers.stop = fail\n",
    "closing the gateway": "discord.Client.close = fail\n",
}
"""A step of the bot's stop that fails, before the store would close."""
DEMO_FAILS = (
    FAIL
    + """
from bot.sandbox.demo import Transcript
said = Transcript.say
def say(self, line):
    if "presses Start" in line:
        broken()
    said(self, line)
Transcript.say = say
"""
)
"""The demo's own code fails while the bot plays."""
POSTGRES_ANSWERS = "import bot.store.postgres\nbot.store.postgres.check_reachable = print\n"

CASES = [
    ("the bot: setting up, its store open", OFFLINE_BOT, ["bot", "--no-sync"]),
    *(
        (f"the bot: its stop fails {step}", OFFLINE_BOT + injection, ["bot", "--no-sync"])
        for step, injection in STOP_FAILS.items()
    ),
    ("the bot: its first statement", OFFLINE_BOT + STATEMENT.format(calls=0), ["bot"]),
    ("migrate", MIGRATION, ["bot", "migrate", "--database", "games.db"]),
    (
        "prune",
        STATEMENT.format(calls=0),
        ["bot", "prune", "--finished-before", "2026-01-01", "--database", "games.db"],
    ),
    (
        "backup",
        FAIL + "import bot.store.maintenance\nbot.store.maintenance.row_counts = broken\n",
        ["bot", "backup", "copy.db", "--database", "games.db"],
    ),
    (
        "copy-db",
        POSTGRES_ANSWERS + MIGRATION,
        ["bot", "copy-db", "games.db", "postgresql://qwixx:secret@127.0.0.1:1/qwixx"],
    ),
    ("demo: its own code", DEMO_FAILS, ["bot", "demo", "--players", "2"]),
    (
        "demo: the bot's stop",
        FAIL + "from bot.timers import Timers\nTimers.stop = fail\n",
        ["bot", "demo", "--players", "2"],
    ),
    (
        "python -m benchmarks",
        STATEMENT.format(calls=0),
        ["benchmarks", "--quick", "--only", "click"],
    ),
    (
        "bench_scale's worker",
        STATEMENT.format(calls=0),
        ["benchmarks.bench_scale", "--worker", "scale.db", "0", "1", "2", "0.1", "0", "0"],
    ),
    ("soak_days", STATEMENT.format(calls=0), ["benchmarks.soak_days", "--clicks", "100"]),
    ("bench_click: opening its games", STATEMENT.format(calls=5), ["benchmarks.bench_click"]),
]
"""What fails, how, and the module run with its arguments."""
SLOW_BENCHMARKS = (
    "bench_bot",
    "bench_channel",
    "bench_daily",
    "bench_ratings",
    "bench_stats",
    "bench_upkeep",
    "outage",
    "soak",
)
"""The other benchmarks that open a store, whose first statement fails (slow: some fill
a database first)."""


def run_failing(
    injection: str, argv: list[str], folder: Path, *, script: bool = False
) -> subprocess.CompletedProcess[str]:
    """``python -m argv`` in ``folder`` with ``injection`` made first (``script``: the
    injection alone, as a script); fails the test if it is still running after
    :data:`WAIT` seconds."""
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "a-token",
        "QWIXX_DATABASE": "games.db",
    }
    code = injection if script else RUN.format(injection=injection)
    try:
        return subprocess.run(
            [sys.executable, "-c", code, *argv],
            cwd=folder,
            env=environment,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
    except subprocess.TimeoutExpired as running:  # subprocess.run has killed it
        tail = (running.stderr or b"")[-2000:]
        pytest.fail(f"python -m {' '.join(argv)} still ran {WAIT:g} s after failing: {tail!r}")


@pytest.mark.parametrize(
    ("injection", "argv"),
    [pytest.param(injection, argv, id=name) for name, injection, argv in CASES]
    + [
        pytest.param(
            STATEMENT.format(calls=0), [f"benchmarks.{name}"], id=name, marks=pytest.mark.slow
        )
        for name in SLOW_BENCHMARKS
    ],
)
def test_a_failure_with_a_store_open_ends_the_process(
    tmp_path: Path, injection: str, argv: list[str]
) -> None:
    with closing(sqlite3.connect(tmp_path / "games.db")):
        pass  # an empty database, which the store brings up to date
    done = run_failing(injection, argv, tmp_path)
    assert done.returncode not in (0, None), done.stdout[-2000:]
    assert FAILURE in done.stderr, done.stderr[-2000:]


def test_without_an_injection_the_command_succeeds(tmp_path: Path) -> None:
    """The runner runs the module as ``python -m`` would (the quickest command here)."""
    done = run_failing("", ["bot", "migrate", "--database", "games.db"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("games.db: schema version ")


CLOSE_CANCELLED = f"""
import asyncio
from bot.store import Store

async def main():
    store = await Store.open("games.db")
    held, release = asyncio.Event(), asyncio.Event()

    async def work(tx):
        held.set()
        await release.wait()

    busy = asyncio.create_task(store.engine.transact(work))
    await held.wait()
    closing = asyncio.create_task(store.close())  # waits for the transaction
    await asyncio.sleep(0)
    closing.cancel()  # a stop cut short
    await asyncio.gather(closing, return_exceptions=True)
    release.set()
    await asyncio.gather(busy, return_exceptions=True)
    raise RuntimeError("{FAILURE}")

asyncio.run(main())
"""


def test_a_close_cut_short_still_ends_the_stores_threads(tmp_path: Path) -> None:
    done = run_failing(CLOSE_CANCELLED, [], tmp_path, script=True)
    assert done.returncode not in (0, None) and FAILURE in done.stderr, done.stderr[-2000:]
