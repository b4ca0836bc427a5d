"""The bot in a process of its own, against a stand-in: ``python -m tests.e2e.bot_process``.

Arguments: REST base URL, gateway URL, database (a file or a PostgreSQL URL),
development guild id (0: commands synced globally), and optionally:

* ``--die-at-turn N``: SIGKILL right after a move that reaches turn N is committed,
  before anything is posted about it;
* ``--die-at POINT:N``: SIGKILL at the N-th time the process passes POINT (see
  :data:`POINTS`);
* ``--time-factor F --time-base B``: the bot's clock runs F times as fast as the
  wall clock from B on (the same B for every process on one database), so that
  deadlines and lobby expiry fall due within seconds;
* ``--shards IDS/COUNT``: run those shards only (as ``QWIXX_SHARDS``);
* ``--report-fires``: print ``fired GAME KIND`` on stdout for every timer that changed
  a game (KIND: the first event's kind), so that a test can tell which process fired;
* ``--hold-move N``: the N-th move is held right after its commit, before it is
  answered: the process prints ``held USER`` on stdout and goes on once it gets SIGUSR1
  (an interaction in flight, for a test of the stop);
* ``--log-level LEVEL``: the bot's log, on stderr (default WARNING).

The bot runs as ``qwixx-bot`` runs it (:func:`bot.__main__.serve`): SIGTERM and SIGINT
stop it cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import yarl

import bot.store.store as store_module
from bot.__main__ import serve
from bot.app import new_bot
from bot.channel.budget import WriteBudget
from bot.channel.publisher import Publisher
from bot.service.deadlines import Deadlines
from bot.service.lobby import Lobby
from bot.service.outcome import Outcome
from bot.service.turns import Turns
from bot.shards import ShardPlan

POINTS = {
    "commit": "a move is committed, before anything is posted about it",
    "lobby": "a lobby change (join, computer, start) is committed",
    "timer": "a timer firing (reminder, deadline, lobby expiry) is committed",
    "posted": "the channel was written, before the shown version is stored",
    "startup": "the database is open and migrated, before logging in",
    "migrate": "in the middle of the migrations, before their commit",
}


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def die_after_commit(turn: int) -> None:
    after(
        Turns, "move", die, lambda outcome: outcome.game is not None and outcome.game.turn >= turn
    )


def countdown(count: int) -> Callable[[], None]:
    """A function that SIGKILLs the process at its ``count``-th call."""
    calls = [0]

    def tick() -> None:
        calls[0] += 1
        if calls[0] >= count:
            die()

    return tick


def after(
    owner: Any,
    name: str,
    tick: Callable[[], None],
    when: Callable[[Any], bool] = lambda result: True,
) -> None:
    """Call ``tick`` after ``owner.name`` (a coroutine method) returns ``when`` its result."""
    method = getattr(owner, name)

    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = await method(*args, **kwargs)
        if when(result):
            tick()
        return result

    setattr(owner, name, wrapped)


def die_at(point: str, count: int) -> None:
    tick = countdown(count)
    if point == "commit":
        after(Turns, "move", tick, lambda outcome: outcome.changed)
    elif point == "lobby":
        for name in ("join", "add_computer", "start"):
            after(Lobby, name, tick)
    elif point == "timer":
        after(Deadlines, "fire", tick, lambda outcome: outcome is not None)
    elif point == "posted":
        show = Publisher.show

        async def die_before_shown(self: Publisher, *args: Any, **kwargs: Any) -> Any:
            tick()
            return await show(self, *args, **kwargs)

        Publisher.show = die_before_shown  # type: ignore[method-assign]
    elif point == "startup":
        after(store_module.Store, "connect", tick)
    elif point == "migrate":
        migrations = store_module.apply_migrations  # type: ignore[attr-defined]

        async def die_before_commit(engine: Any, now: float, *args: Any) -> int:
            migrate = engine.migrate

            async def migrate_then_die(work: Any) -> int:
                async def work_then_die(tx: Any) -> int:
                    version = int(await work(tx))
                    tick()  # the migrations ran, their transaction is still open
                    return version

                return int(await migrate(work_then_die))

            engine.migrate = migrate_then_die
            try:
                return int(await migrations(engine, now, *args))
            finally:
                del engine.migrate

        store_module.apply_migrations = die_before_commit  # type: ignore[attr-defined, assignment]
    else:
        raise SystemExit(f"unknown --die-at point {point!r}; one of {sorted(POINTS)}")


def report_fires() -> None:
    fire = Deadlines.fire

    async def reported(self: Deadlines, game_id: int) -> Outcome | None:
        outcome = await fire(self, game_id)
        if outcome is not None:
            kind = outcome.events[0].kind if outcome.events else "?"
            print(f"fired {game_id} {kind}", file=sys.stdout, flush=True)
        return outcome

    Deadlines.fire = reported  # type: ignore[method-assign]


def hold_move(count: int) -> None:
    """Hold the ``count``-th move after its commit until SIGUSR1."""
    move = Turns.move
    calls = [0]

    async def move_then_hold(
        self: Turns, game_id: int, user: int, *args: Any, **kwargs: Any
    ) -> Outcome:
        outcome = await move(self, game_id, user, *args, **kwargs)  # committed
        calls[0] += 1
        if calls[0] == count:
            released = asyncio.Event()
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, released.set)
            print(f"held {user}", file=sys.stdout, flush=True)
            await released.wait()
        return outcome

    Turns.move = move_then_hold  # type: ignore[method-assign]


def database(text: str) -> Path | str:
    return text if "://" in text else Path(text)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("gateway")
    parser.add_argument("database", type=database)
    parser.add_argument("guild", type=int)
    parser.add_argument("--die-at-turn", type=int)
    parser.add_argument("--die-at", help="POINT:N, e.g. commit:3")
    parser.add_argument("--time-factor", type=float, default=1.0)
    parser.add_argument("--time-base", type=float, default=0.0)
    parser.add_argument("--shards", type=ShardPlan.parse)
    parser.add_argument("--report-fires", action="store_true")
    parser.add_argument("--hold-move", type=int)
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args()
    logging.basicConfig(
        level=args.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    discord.http.Route.BASE = args.base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    if args.die_at_turn:
        die_after_commit(args.die_at_turn)
    if args.die_at:
        point, _, count = args.die_at.partition(":")
        die_at(point, int(count or 1))
    if args.report_fires:
        report_fires()
    if args.hold_move:
        hold_move(args.hold_move)
    base, factor = args.time_base, args.time_factor
    bot = new_bot(
        args.database,
        shards=args.shards,
        dev_guild=args.guild or None,
        seeds=lambda: 5,
        coalesce=0.05,
        tick=0.5,
        budget=WriteBudget(10_000, 1.0),
        clock=lambda: base + (time.time() - base) * factor,
    )
    bot._connection.guild_ready_timeout = 0.1
    asyncio.run(serve(bot, "sandbox-token"))


if __name__ == "__main__":
    main()
