"""A game played live or slow: the time each decision has.

A game is slow at its start (the server's turn time, 24 h unless it chose another). It
turns live — the server's live turn time, 10 minutes unless it chose another — once
every person still at the table asked for it; anyone may turn it slow again at once
(nobody is kept to a pace they cannot keep). Each switch starts the pending decision's
clock again, and is told in the channel.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from bot.players import is_computer
from bot.records.games import GameRecord
from bot.records.seats import Seats
from bot.rules import Event
from bot.service.errors import ServiceError
from bot.service.keeper import GameKeeper
from bot.service.outcome import Outcome, Snapshot
from bot.service.settings import ServerSettings
from bot.service.where import Where
from bot.service.writes import Repace, Write

Speed = Literal["live", "slow"]
SPEEDS: tuple[Speed, ...] = ("live", "slow")


def speed_of(record: GameRecord) -> Speed:
    return "live" if record.options.get("pace") == "live" else "slow"


def present(record: GameRecord, seats: Seats) -> frozenset[int]:
    """The people still at the table: they decide the pace."""
    return frozenset(p for p in record.players if not is_computer(p) and p not in seats.away)


class Pace:
    """The games' pace (see the module)."""

    def __init__(self, keeper: GameKeeper, settings: ServerSettings) -> None:
        self.keeper = keeper
        self.settings = settings

    async def ask(
        self, game_id: int, user: int, speed: str, *, where: Where | None = None
    ) -> Outcome:
        """``user`` asks for the game to be played at ``speed``: slow at once; live once
        everyone still at the table asked (until then, the asking is told and kept)."""
        if speed not in SPEEDS:
            raise ServiceError("error.pace_unknown", pace=speed[:20])
        current = await self.keeper.read(game_id, where, user)
        live_time = await self.settings.live_time(current.record.guild_id)

        async def decide(current: Snapshot) -> Write:
            record = current.record
            if record.status != "running" or current.game is None:
                raise ServiceError("error.game_over")
            seats = Seats.of(record)
            people = present(record, seats)
            if user not in people:
                raise ServiceError("error.not_player")
            if speed == speed_of(record):
                raise ServiceError(f"error.pace_already_{speed}")
            if speed == "slow":
                return slowed(record, seats, user)
            asked = (seats.live | {user}) & people
            if asked < people:
                told = Event("pace_asked", user, {"asked": sorted(asked), "turn_time": live_time})
                return Repace(record.turn_time, record.options, seats_asking(seats, asked), [told])
            return livened(record, seats, user, live_time)

        return await self.keeper.change(game_id, decide, where, user)


def seats_asking(seats: Seats, asked: frozenset[int]) -> Seats:
    """``seats`` with ``asked`` the people asking to play live."""
    return replace(seats, live=asked)


def livened(record: GameRecord, seats: Seats, user: int, live_time: int) -> Repace:
    """Everyone asked: the game is live, its slow turn time kept for the way back."""
    options = {**record.options, "pace": "live", "slow_time": record.turn_time}
    told = Event("pace", user, {"to": "live", "turn_time": live_time})
    return Repace(live_time, options, seats_asking(seats, frozenset()), [told])


def slowed(record: GameRecord, seats: Seats, user: int) -> Repace:
    """Back to the turn time the game had before it turned live."""
    options = {k: v for k, v in record.options.items() if k not in ("pace", "slow_time")}
    turn_time = int(record.options.get("slow_time", record.turn_time))
    told = Event("pace", user, {"to": "slow", "turn_time": turn_time})
    return Repace(turn_time, options, seats_asking(seats, frozenset()), [told])
