"""The games as this process keeps them: read, changed by compare-and-set, answered,
and shown in their channels.

A change is decided on the record this process last saw of the game (its memo, see
:mod:`bot.service.memo`), on the event loop, and stored by a write that reads nothing:
the compare-and-set on the record's version checks that nobody changed the game
meanwhile. Should somebody have, the game is read afresh and the change decided again
(:meth:`Games.change`, the one retry policy). What a change decided on the memo
refuses, or leaves unstored, is decided again on a fresh read when the game turns out
to have moved on: a stale memo never refuses anyone.

Lobby, turns, deadlines and server settings are services of their own
(:mod:`bot.service.lobby`, :mod:`bot.service.turns`, :mod:`bot.service.deadlines`,
:mod:`bot.service.settings`) over this one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

from bot.records import (
    NO_TIMING,
    EventRow,
    GameChange,
    GameRecord,
    Showing,
    StoredEvent,
    Timing,
    VersionConflict,
    WrongStatus,
)
from bot.rules import VARIANTS, Decision, Event, Game, Move, dice_version_of
from bot.rules import replay as replay_game
from bot.service.errors import ServiceError
from bot.service.memo import GameMemo
from bot.service.play import Options, Play, Seats
from bot.service.results import game_results
from bot.service.timing import Clock
from bot.shards import ShardPlan
from bot.store import Store
from bot.store.locks import KeyedLocks

log = logging.getLogger(__name__)

ATTEMPTS = 5  # compare-and-set retries before a click is refused as busy
T = TypeVar("T")
Kind = Literal["changed", "same", "asked", "chosen"]


@dataclass(slots=True)
class Outcome:
    """A game after a change, with what happened and the decision before it."""

    record: GameRecord
    game: Game | None
    events: list[Event] = field(default_factory=list)
    before: Decision | None = None
    kind: Kind = "changed"
    """``changed``: what the click asked for is stored (or the game changed by itself);
    ``same``: the choice was made already (a double tap), nothing stored; ``asked``:
    a costly move, nothing stored until it is confirmed; ``chosen``: a confirmation of
    a move made already."""
    stored: list[StoredEvent] = field(default_factory=list)
    """The events the change stored, as stored (the channel tells its story from them)."""
    since: int | None = None
    """The version the change began from, when :attr:`stored` holds every event stored
    since then (None: the events since are to be read)."""

    @property
    def changed(self) -> bool:
        return self.kind == "changed"


def shard_ids(plan: ShardPlan | None) -> tuple[tuple[int, ...], int] | None:
    """A shard plan as the store filters by it."""
    return None if plan is None else (plan.ids, plan.count)


def opening(game: Game) -> list[Event]:
    """The first turn's opening, as later turns are opened by the rules' "turn" event."""
    dice = game.dice_on_table()
    return [Event("turn", game.active, {"turn": game.turn, **({"dice": dice} if dice else {})})]


def waits_unattended(record: GameRecord, game: Game | None) -> bool:
    """Whether the running game waits for a seat nobody clicks for: a computer's, or an
    away player's (which :meth:`Play.for_the_absent` decides for)."""
    return (
        record.status == "running"
        and game is not None
        and not game.finished
        and Seats.of(record).unattended(game.decision())
    )


class Games:
    """The games of one store: read, kept, changed (see the module)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks = KeyedLocks()  # a game's lock only while a writer holds or awaits it
        self._memo = GameMemo()
        self._showing: dict[int, Showing] = {}
        """What channels show, to be stored with their game's next change."""

    # --- reading ---------------------------------------------------------
    async def read(self, game_id: int) -> Outcome:
        """The game as stored now (one read; its rules object from the memo)."""
        record = await self.store.games.get(game_id)
        if record is None:
            raise ServiceError("error.game_gone")
        return Outcome(record, self._memo.game(record), kind="same")

    async def in_channel(self, channel_id: int) -> Outcome:
        """The lobby or running game of a channel, as stored now."""
        record = await self.store.games.in_channel(channel_id)
        if record is None:
            raise ServiceError("error.no_game")
        return Outcome(record, self._memo.game(record), kind="same")

    def kept(self, game_id: int) -> Outcome | None:
        """The game as this process last saw it, if it keeps it (no read)."""
        held = self._memo.held(game_id)
        return None if held is None else Outcome(*held, kind="same")

    async def replay(self, game_id: int) -> Game:
        """The game rebuilt from its seed and move log (the audit trail)."""
        record = (await self.read(game_id)).record
        moves = [
            (m.player_id, Move.from_json(m.move)) for m in await self.store.games.moves(game_id)
        ]
        return replay_game(
            record.variant,
            record.players,
            record.seed,
            record.options.get("rules", {}),
            moves,
            solo=Options.of(record.options).solo,
            dice_version=dice_version_of(record.state or {}),
        )

    # --- what the channel shows ---------------------------------------------
    def channel_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with games.channel_lock(game_id):`` the one writer of a game's channel
        at a time, in this process and (on PostgreSQL) in every other. Not re-entrant.
        Changes do not take it: they are ordered by compare-and-set."""
        return self.store.game_lock(game_id)

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """The stored events of ``game_id`` from ``first_turn`` on, in order (a change
        returns its own: read these only for turns the channel does not hold)."""
        return await self.store.games.events(game_id, first_turn)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """The lobby's message: where its channel shows it."""
        await self.store.games.set_message(game_id, message_id)

    async def lagging(self, shards: ShardPlan | None = None, limit: int = 50) -> list[int]:
        """At most ``limit`` games whose channel shows less than the store holds, the one
        behind longest first (with ``shards``: in the guilds this process serves)."""
        return await self.store.games.lagging(limit, shards=shard_ids(shards))

    async def mark_behind(self, game_id: int) -> None:
        """The channel of ``game_id`` could not be updated now (see
        :attr:`~bot.records.GameRecord.behind_since`)."""
        await self.store.games.mark_behind(game_id, self.clock())

    async def mark_left_behind(self, started: float, shards: ShardPlan | None = None) -> int:
        """The games (with ``shards``: of the guilds this process serves) whose channel
        lags a change made before ``started``, this process's start, could not be
        updated: the process before stopped, or was killed, before showing it."""
        return await self.store.games.mark_left_behind(started, self.clock(), shard_ids(shards))

    async def show(
        self, record: GameRecord, message_id: int | None, shown: dict[str, Any]
    ) -> GameRecord:
        """The channel of ``record``'s game shows its version, in ``message_id``, as
        ``shown`` tells (stored now; the record with it as stored)."""
        showing = self._showing.get(record.id)
        if showing is not None and showing.version <= record.version:
            del self._showing[record.id]
        return await self.store.games.set_shown(record, message_id, shown)

    def show_later(self, record: GameRecord, message_id: int | None, shown: dict[str, Any]) -> None:
        """As :meth:`show`, stored with the game's next change rather than now, for a
        channel whose update is harmless to repeat (edits only): meanwhile the game
        looks behind to the catch-up, which stores it at its next pass."""
        self._showing[record.id] = Showing(record.version, message_id, shown)

    # --- changing --------------------------------------------------------
    async def change(self, game_id: int, decide: Callable[[Outcome], Awaitable[T]]) -> T:
        """``decide`` on the game as kept (else as read), under the game's lock in this
        process; again on the game read afresh when another writer won the race
        (refused as busy after :data:`ATTEMPTS`), and when a decision on the kept game
        refused or stored nothing while the game had moved on."""
        async with self._locks.hold(game_id):
            return await self.attempts(game_id, decide, self.kept(game_id))

    async def attempts(
        self, game_id: int, decide: Callable[[Outcome], Awaitable[T]], kept: Outcome | None
    ) -> T:
        """:meth:`change`'s policy, for a caller holding the game's lock."""
        current = kept or await self.read(game_id)
        for _ in range(ATTEMPTS):
            fresh: Outcome | None = None
            try:
                done = await decide(current)
            except ServiceError:
                if current is not kept or (fresh := await self._fresher(current)) is None:
                    raise
            except (VersionConflict, WrongStatus):
                log.info("game %s changed concurrently; retrying", game_id)
            else:
                if (
                    current is not kept
                    or (isinstance(done, Outcome) and done.changed)
                    or (fresh := await self._fresher(current)) is None
                ):
                    return done
            current = fresh or await self.read(game_id)
        raise ServiceError("error.busy")

    async def _fresher(self, kept: Outcome) -> Outcome | None:
        """The game as stored, if in another version than ``kept`` (one read)."""
        record = await self.store.games.get(kept.record.id)
        if record is None:
            return None
        game = self._memo.game(record)  # the row as read: the freshest record of its version
        return None if record.version == kept.record.version else Outcome(record, game)

    def keep(self, record: GameRecord, game: Game | None = None) -> None:
        """``record`` was just stored (``game``: the game its state holds)."""
        self._memo.keep(record, game)

    async def abandon(self, record: GameRecord, events: list[EventRow]) -> Outcome:
        """End the lobby or running game of ``record`` without a ranking."""
        ended = await self.store.games.abandon(record.id, record.version, events)
        self._memo.keep(ended, None)
        return Outcome(ended, None)

    async def save(self, record: GameRecord, play: Play, seats: Seats) -> Outcome:
        """Store what ``play`` did, the computer and away seats answering first (see
        :meth:`change_of`); they may think for a while, so off the event loop."""
        change = await asyncio.to_thread(self.change_of, record, play, seats)
        return await self.write(record, play, change)

    async def write(self, record: GameRecord, play: Play, change: GameChange) -> Outcome:
        """Store ``change`` (what ``play`` did to ``record``'s game) by compare-and-set,
        with what its channel shows if that waits to be stored (:meth:`show_later`)."""
        showing = self._showing.get(record.id)
        changed = await self.store.games.change(record, change, showing)
        if showing is not None and self._showing.get(record.id) is showing:
            del self._showing[record.id]
        self._memo.keep(changed.record, play.game)
        return Outcome(
            changed.record,
            play.game,
            play.events,
            play.before,
            stored=list(changed.events),
            since=record.version,
        )

    async def answer(self, moved: Outcome) -> Outcome:
        """The seats nobody clicks for that the game now waits for decide (see
        :meth:`Play.for_the_absent`), on a thread; decided again on the game as it is
        should another writer have moved it meanwhile. The change before is stored
        already: nothing here refuses it. A step that cannot be stored is left to the
        game's timer (the game is due at once while such seats are waited for).
        For a caller holding the game's lock."""
        if not waits_unattended(moved.record, moved.game):
            return moved

        async def decide(current: Outcome) -> Outcome:
            if current.game is None or not waits_unattended(current.record, current.game):
                return replace(current, kind="same")
            return await self.save(current.record, Play(current.game), Seats.of(current.record))

        try:
            answered = await self.attempts(moved.record.id, decide, moved)
        except Exception:  # the store failing, or a computer: the change stays stored
            log.exception("game %d: the computers' answer is left to the timer", moved.record.id)
            return moved
        if not answered.changed:  # another writer answered meanwhile
            since = moved.since if answered.record.version == moved.record.version else None
            return replace(moved, record=answered.record, game=answered.game, since=since)
        return replace(
            answered,
            events=moved.events + answered.events,
            before=moved.before,
            stored=moved.stored + answered.stored,
            since=moved.since if answered.since == moved.record.version else None,
        )

    def change_of(
        self, record: GameRecord, play: Play, seats: Seats, answered: bool = True
    ) -> GameChange:
        """What to store of ``play``, with a fresh clock when a new decision began.

        ``answered``: computer and away seats decide first, so the game then waits for
        people only. Without (a person's move, stored alone), a game left waiting for
        such seats is due at once, so that the timer has them answer should nothing
        else (see :meth:`answer`).
        """
        options = Options.of(record.options)
        if answered:
            fill = options.fill_away and seats.people_present(record.players)
            play.for_the_absent(seats.away, options, fill)
        seats = seats.cover(play.covered)
        game = play.game
        status = "finished" if game.finished else "running"
        if not game.finished and too_few(record, seats, options):
            status = "abandoned"  # too few seats left: the game ends without ranking
            play.events.append(Event("game_over", None, {"reason": "no_seats"}))
        # A finished game's results go in with its end, in the same transaction.
        results = (
            None
            if status != "finished"
            else game_results(
                game,
                counted=options.counted,
                practice=options.solo,
                hints=options.hints,
                stand_in=seats.covered,
            )
        )
        if status == "running":
            decision = game.decision()
            play.unattended = seats.unattended(decision)
            timing = self._timing(record, play, decision, answered)
        else:
            play.unattended, timing = False, NO_TIMING
        presence = None if seats is Seats.of(record) else seats.to_json()  # None: unchanged
        return GameChange(
            play.moves, game.to_json(), status, results, timing, presence, play.event_rows()
        )

    def _timing(
        self, record: GameRecord, play: Play, now: Decision, answered: bool
    ) -> Timing | None:
        """The clock of the running game's pending decision ``now`` (None: the clock runs
        on): fresh when a new decision began. A person's move that leaves the game
        waiting for seats nobody clicks for makes it due at once (the timer has them
        answer, should nothing else); their answer makes it due again when its clock
        says."""
        before = play.before
        fresh = now.turn != before.turn or now.phase != before.phase
        timing = Clock.start(self.clock(), record.turn_time).timing() if fresh else None
        if answered:
            clock = Clock.of(record) if timing is None else None
            return timing if clock is None else clock.timing()
        if not play.unattended:
            return timing
        if timing is not None:
            return replace(timing, next_due=self.clock())
        return Timing(record.stage_started, record.deadline, record.reminders, self.clock())


def too_few(record: GameRecord, seats: Seats, options: Options) -> bool:
    """Whether too few seats are left to play on: with ``fill_away``, no person present;
    else fewer seats than the variant needs (one for solo practice)."""
    if options.fill_away:
        return not seats.people_present(record.players)
    needed = 1 if options.solo else VARIANTS[record.variant].min_players
    return len(record.players) - len(seats.away) < needed


def playing(outcome: Outcome, user: int, turn: int) -> Game:
    """The running game, if ``user`` plays in it and ``turn`` is still current."""
    record, game = outcome.record, outcome.game
    if record.status == "lobby" or game is None:
        raise ServiceError("error.not_started")
    if record.status != "running":
        raise ServiceError("error.game_over")
    if user not in record.players:
        raise ServiceError("error.not_player")
    if turn != game.turn:
        raise ServiceError("error.stale_turn", turn=turn, current=game.turn)
    return game
