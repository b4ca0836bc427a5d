"""What is due when: reminders, decisions whose time ran out, lobbies nobody started.

The timer loop asks for the games due (:meth:`Deadlines.due`) and fires each
(:meth:`Deadlines.fire`); compare-and-set makes a second firing, here or in another
process, a no-op: what fired once is not due any more.
"""

from __future__ import annotations

from bot.records.games import GameRecord
from bot.records.options import Options
from bot.records.seats import Seats
from bot.rules import Event, Game
from bot.service.keeper import GameKeeper
from bot.service.outcome import Outcome, Snapshot
from bot.service.play import Play
from bot.service.timing import DecisionClock
from bot.service.writes import Abandon, Played, Retime, Tell, Write, waits_unattended
from bot.shards import ShardPlan

DUE_BATCH = 50  # due games read per timer pass


class Deadlines:
    """The games' clocks."""

    def __init__(self, keeper: GameKeeper) -> None:
        self.keeper = keeper

    async def due(self, shards: ShardPlan | None = None) -> list[int]:
        """Games with a reminder or a deadline due now, most overdue first; with
        ``shards``, only those in the guilds this process serves (others fire the rest)."""
        return await self.keeper.due(shards, limit=DUE_BATCH)

    async def fire(self, game_id: int) -> Outcome | None:
        """Send the due reminder or resolve the expired decision; None if nothing is due."""

        async def decide(current: Snapshot) -> Write:
            record, game = current.record, current.game
            if record.status == "lobby":
                return self._expire_lobby(record)
            if record.status != "running" or game is None:
                return Tell()
            if waits_unattended(record, game, self.keeper.clock()):  # never stored
                return Played(Play(game), Seats.of(record))
            clock = DecisionClock.of(record, Seats.of(record).timed)
            if clock is None:
                return Tell()
            now = self.keeper.clock()
            due = clock.due(now)
            if due == "remind":
                clock = clock.caught_up(now)
                return remind(record, game, clock)
            if due == "expire":
                return expire(record, game)
            return Tell()

        fired = await self.keeper.change(game_id, decide)
        return fired if fired.changed else None

    def _expire_lobby(self, record: GameRecord) -> Write:
        """A lobby nobody started within the turn time closes, freeing the channel."""
        if self.keeper.clock() < record.created_at + record.turn_time:
            return Tell()
        closed = Event("lobby_closed", None, {"reason": "expired"})
        return Abandon([(0, closed.kind, None, closed.data)], [closed])


def remind(record: GameRecord, game: Game, clock: DecisionClock) -> Retime:
    """The clock's next moment: the players the game waits for are reminded of their
    decision — in a round, all but those in their quiet hours; when quiet hours end,
    those a round skipped. Either way the game changes, so that its channel is shown
    again then: a person whose quiet hours held their call back is called now."""
    moment = clock.moment()
    assert moment is not None, "due only while a moment is left"
    waiting = game.decision().waiting - Seats.of(record).away
    if moment.kind == "round":
        reminded = frozenset(p for p in waiting if moment.counts(p)) - moment.held
    else:
        reminded = waiting & moment.owed
    event = Event("reminder", None, {"players": sorted(reminded), "deadline": clock.deadline})
    return Retime(clock.reminded().timing(), [event])


def expire(record: GameRecord, game: Game) -> Played:
    """Time is up: whoever has not decided does nothing this turn, or has the Hard
    computer decide if they chose so (``hard`` names them: the channel tells their
    moves as the computer's, not as nothing; a seat that goes away with it is told in
    this turn, before the passes may end it)."""
    late = game.decision().waiting
    play = Play(game)
    seats = Seats.of(record)
    hard = sorted(p for p in late if seats.prefs_of(p).timeout == "computer")
    told: dict[str, list[int]] = {"players": sorted(late)}
    if hard:
        told["hard"] = hard
    play.events.append(Event("expired", None, told))
    filled = Options.of(record.options).fill_away and seats.expired(late, []).people_present(
        record.players
    )
    seats = seats.expired(late, play.events, "stand_in" if filled else "expired")
    play.settle(late, "expired", this_turn=True, seats=seats)
    return Played(play, seats)
