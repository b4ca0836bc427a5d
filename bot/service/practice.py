"""Practice against the computers, anywhere: a member's game against computer players,
played on their private sheet wherever they are (a server, the bot's direct messages, a
group chat, a server that never added the bot).

**A practice game** is an ordinary game of the games table that lives in no channel, as
a daily attempt does: its ``channel_id`` is a negative number of the member's own
(:func:`practice_channel`), so no channel's game, limit or message ever meets it, and a
member has one at a time. It belongs to no server (:data:`~bot.records.games.NO_SERVER`),
so it may be resumed from anywhere. Its seats are the member's and those of the
computers, which decide right after each of the member's moves: the member's clicks
drive the whole game. With no computer it is the one-person form (solo practice). It
never counts for a leaderboard: one person's game never does
(:func:`~bot.service.results.game_results`).

Its decisions never run out while a member plays on (:data:`TURN_TIME`): a game left
for that long is played out by passes, as any game whose player went away.
"""

from __future__ import annotations

from typing import Any

from bot.durations import LONGEST
from bot.players import DEFAULT_LEVEL, LEVELS, computer_seat
from bot.records.games import NO_SERVER
from bot.rules import VARIANTS
from bot.service.errors import ServiceError
from bot.service.hidden import PRACTICE, practice_channel
from bot.service.keeper import GameKeeper
from bot.service.lobby import Lobby
from bot.service.outcome import Outcome, Snapshot
from bot.service.writes import Abandon, Tell, Write
from bot.text import quote

TURN_TIME = LONGEST
DEFAULT_COMPUTERS = 2


def practice_options(computers: int, level: str, hints: bool) -> dict[str, Any]:
    """The stored options of a practice game with ``computers`` computers at ``level``."""
    options: dict[str, Any] = {"rules": {}, PRACTICE: True}
    if computers == 0:
        options["solo"] = True
    else:
        options["levels"] = {str(computer_seat(n)): level for n in range(1, computers + 1)}
    if hints:
        options["hints"] = True
    return options


def check_practice(variant: str, computers: int, level: str) -> None:
    """Refuse a game that cannot be (before anything is stored)."""
    if variant not in VARIANTS:
        raise ServiceError("error.unknown_variant", variant=variant)
    most = VARIANTS[variant].max_players - 1
    if not 0 <= computers <= most:
        raise ServiceError("error.practice_computers", most=most, title=VARIANTS[variant].title)
    if level not in LEVELS:
        raise ServiceError("error.unknown_level", level=quote(level))


async def ended(current: Snapshot) -> Write:
    """A practice game given up for a new one: it ends unranked (unless it has ended)."""
    record, game = current.record, current.game
    if not record.is_active:
        return Tell()
    turn = 0 if game is None else game.turn
    kind = "lobby_closed" if game is None else "game_over"
    return Abandon([(turn, kind, record.host_id, {"reason": "abandoned"})])


class PracticeService:
    """Each member's practice game: begun, resumed, given up for a new one."""

    def __init__(self, keeper: GameKeeper, lobby: Lobby) -> None:
        self.keeper = keeper
        self.lobby = lobby

    async def current(self, user: int) -> Snapshot | None:
        """``user``'s practice game still being played, if any."""
        try:
            found = await self.keeper.in_channel(practice_channel(user))
        except ServiceError:  # none
            return None
        return found if found.record.status == "running" else None

    async def begin(
        self,
        user: int,
        variant: str,
        computers: int = DEFAULT_COMPUTERS,
        level: str = DEFAULT_LEVEL,
        hints: bool = False,
    ) -> Outcome:
        """A new practice game for ``user``, its computers' first decisions made; the one
        they were playing, if any, ends unranked."""
        check_practice(variant, computers, level)
        channel = practice_channel(user)
        try:  # a lobby left by a start cut short, or the game being played
            found = await self.keeper.in_channel(channel)
        except ServiceError:
            found = None
        if found is not None:
            await self.keeper.change(found.record.id, ended)
        players = [user, *(computer_seat(n) for n in range(1, computers + 1))]
        options = practice_options(computers, level, hints)
        try:
            record = await self.lobby.open_seated(
                NO_SERVER, channel, user, variant, players, options, TURN_TIME
            )
        except ServiceError as error:  # begun twice at once: the other one is played
            if error.key == "error.channel_busy":
                raise ServiceError("error.practice_twice") from None
            raise
        return await self.lobby.begin(record.id, user)
