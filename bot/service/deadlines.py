"""What is due when: reminders, decisions whose time ran out, lobbies nobody started.

The timer loop asks for the games due (:meth:`Deadlines.due`) and fires each
(:meth:`Deadlines.fire`); compare-and-set makes a second firing, here or in another
process, a no-op: what fired once is not due any more.
"""

from __future__ import annotations

from dataclasses import replace

from bot.records import GameRecord
from bot.rules import Event, Game
from bot.service.play import Options, Play, Seats
from bot.service.state import Games, Outcome, shard_ids, waits_unattended
from bot.service.timing import Clock
from bot.shards import ShardPlan

DUE_BATCH = 50  # due games read per timer pass


class Deadlines:
    """The games' clocks."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def due(self, shards: ShardPlan | None = None) -> list[int]:
        """Games with a reminder or a deadline due now, most overdue first; with
        ``shards``, only those in the guilds this process serves (others fire the rest)."""
        records = await self.games.store.games.due(
            self.games.clock(), limit=DUE_BATCH, shards=shard_ids(shards)
        )
        return [r.id for r in records]

    async def fire(self, game_id: int) -> Outcome | None:
        """Send the due reminder or resolve the expired decision; None if nothing is due."""

        async def decide(current: Outcome) -> Outcome:
            record, game = current.record, current.game
            if record.status == "lobby":
                return await self._expire_lobby(current)
            if record.status != "running" or game is None:
                return nothing(current)
            if waits_unattended(record, game):  # their answer was never stored
                return await self.games.save(record, Play(game), Seats.of(record))
            clock = Clock.of(record)
            if clock is None:
                return nothing(current)
            due = clock.due(self.games.clock())
            if due == "remind":
                return await self._remind(record, game, clock)
            if due == "expire":
                return await self._expire(record, game)
            return nothing(current)

        fired = await self.games.change(game_id, decide)
        return fired if fired.changed else None

    async def _expire_lobby(self, current: Outcome) -> Outcome:
        """A lobby nobody started within the turn time closes, freeing the channel."""
        record = current.record
        if self.games.clock() < record.created_at + record.turn_time:
            return nothing(current)
        closed = Event("lobby_closed", None, {"reason": "expired"})
        ended = await self.games.abandon(record, [(0, closed.kind, None, closed.data)])
        return replace(ended, events=[closed])

    async def _remind(self, record: GameRecord, game: Game, clock: Clock) -> Outcome:
        waiting = sorted(game.decision().waiting - Seats.of(record).away)
        store = self.games.store
        reminded = await store.games.set_timing(
            record.id, record.version, clock.reminded().timing()
        )
        self.games.keep(reminded, game)
        event = Event("reminder", None, {"players": waiting, "deadline": clock.deadline})
        return Outcome(reminded, game, [event], game.decision())

    async def _expire(self, record: GameRecord, game: Game) -> Outcome:
        """Time is up: whoever has not decided does nothing this turn (a seat that goes
        away with it is told in this turn, before the passes may end it)."""
        late = game.decision().waiting
        play = Play(game)
        play.events.append(Event("expired", None, {"players": sorted(late)}))
        seats = Seats.of(record)
        filled = Options.of(record.options).fill_away and seats.expired(late, []).people_present(
            record.players
        )
        seats = seats.expired(late, play.events, "stand_in" if filled else "expired")
        play.settle(late, "expired", this_turn=True)
        return await self.games.save(record, play, seats)


def nothing(current: Outcome) -> Outcome:
    """Nothing was due."""
    return replace(current, kind="same")
