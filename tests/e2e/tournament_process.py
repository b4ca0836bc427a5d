"""The bot of :mod:`tests.e2e.bot_process`, killed right before it would store a
tournament's seating: ``python -m tests.e2e.tournament_process BOT_PROCESS_ARGS...
--die-before-seating N`` SIGKILLs the process when it is about to store round N (a
table's end is stored by then; the round is not), once a line on its standard input
says so: the test first sees the last table's end told in its thread, which the bot
posts while the seating waits, so that no click of the test's meets a dead process."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot.store.tournaments import TournamentRepository
from tests.e2e import bot_process

OPTION = "--die-before-seating"


def die_before_seating(number: int) -> None:
    seat = TournamentRepository.seat

    async def seat_or_die(self: TournamentRepository, record: Any, round_: Any, now: float) -> None:
        if round_.number == number:
            await asyncio.to_thread(sys.stdin.readline)  # the test's word to die
            bot_process.die()
        await seat(self, record, round_, now)

    TournamentRepository.seat = seat_or_die  # type: ignore[method-assign]


def main() -> None:
    args = sys.argv[1:]
    if OPTION in args:
        at = args.index(OPTION)
        die_before_seating(int(args[at + 1]))
        del args[at : at + 2]
    sys.argv[1:] = args
    bot_process.main()


if __name__ == "__main__":
    main()
