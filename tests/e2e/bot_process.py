"""The bot in a process of its own, against a stand-in: ``python -m tests.e2e.bot_process``.

Arguments: REST base URL, gateway URL, database file, development guild id, and
optionally ``--die-at-turn N``: the process SIGKILLs itself right after a move that
reaches turn N is committed, before anything is posted about it.
"""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import yarl

from bot.app import QwixxBot
from bot.cogs.budget import WriteBudget
from bot.service.games import GameService, Outcome


def die_after_commit(turn: int) -> None:
    act = GameService.act

    async def act_then_die(self: GameService, *args: Any, **kwargs: Any) -> Outcome:
        outcome = await act(self, *args, **kwargs)  # committed
        if outcome.game is not None and outcome.game.turn >= turn:
            os.kill(os.getpid(), signal.SIGKILL)
        return outcome
    GameService.act = act_then_die  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("gateway")
    parser.add_argument("database", type=Path)
    parser.add_argument("guild", type=int)
    parser.add_argument("--die-at-turn", type=int)
    args = parser.parse_args()
    discord.http.Route.BASE = args.base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    if args.die_at_turn:
        die_after_commit(args.die_at_turn)
    bot = QwixxBot(args.database, dev_guild=args.guild, seeds=lambda: 5, coalesce=0.05,
                   tick=0.5, budget=WriteBudget(10_000, 1.0))
    bot._connection.guild_ready_timeout = 0.1
    bot.run("sandbox-token", log_handler=None)


if __name__ == "__main__":
    main()
