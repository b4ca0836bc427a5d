"""The games as this process keeps them: the one way a game is read, changed and shown.

:class:`GameKeeper` alone holds the store's games. Every write of a game goes through
it — a lobby opened and seated, a game started, played, reminded, abandoned, what its
channel shows — and each keeps what it stored: the record this process last saw of
each game (its memo, see :mod:`bot.service.memo`) is right by construction, not by a
caller remembering to update it (``tests/service/test_one_keeper.py`` checks that no
other service reaches the store's games).

**A change** is decided by its service — lobby, turns, deadlines, daily challenge,
tournaments — as a function of the game as kept (a
:class:`~bot.service.outcome.Snapshot`) that returns what to store, one of the values
of :mod:`bot.service.writes`; :meth:`GameKeeper.change` runs it, on the event loop, and
stores its answer by a compare-and-set that reads nothing: the record's version checks
that nobody changed the game meanwhile. Should somebody have, the game is read afresh
and the change decided again (:mod:`bot.service.retry`, the one retry policy). What a
change decided on the memo refuses, or leaves unstored, is decided again on a fresh
read when the game turns out to have moved on: a stale memo never refuses anyone.
Where a click came from (its :class:`~bot.service.where.Where`) is checked on the
record each decision is made on.

**A new kind of change** is a new decide-function in its service returning one of the
writes there are (a person's standing choice is a :class:`~bot.service.writes.Played`
whose seats carry it, with or without moves); a new kind of write is a value in
:mod:`bot.service.writes` and its case in :meth:`GameKeeper._stored`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, Protocol

from bot.records.errors import VersionConflict, WrongStatus
from bot.records.games import GameChange, GameRecord, InPlay, MoveRecord, Showing, StoredEvent
from bot.records.options import Options
from bot.records.seats import Seats
from bot.rules import Game, Move, dice_version_of
from bot.rules import replay as replay_game
from bot.service.errors import ServiceError
from bot.service.memo import GameMemo, load_game
from bot.service.outcome import Outcome, Snapshot
from bot.service.play import Play, event_rows
from bot.service.retry import retry
from bot.service.timing import DecisionClock
from bot.service.writes import (
    Abandon,
    Answer,
    Decide,
    Played,
    Repace,
    Retime,
    Seat,
    Start,
    Tell,
    Write,
    change_of,
    opening,
    waits_unattended,
)
from bot.shards import ShardPlan
from bot.store import Store
from bot.store.locks import KeyedLocks

log = logging.getLogger(__name__)


class Stale(Exception):
    """A decision made on the game as kept refused or stored nothing, and the game
    had moved on meanwhile: it is decided again on the game as stored."""


class Origin(Protocol):
    """Where a click came from (:class:`bot.service.where.Where`, which knows the daily
    attempts, whose service stands on this module)."""

    def check(self, record: GameRecord, user: int, now: float) -> None: ...


def shard_ids(plan: ShardPlan | None) -> tuple[tuple[int, ...], int] | None:
    """A shard plan as the store filters by it."""
    return None if plan is None else (plan.ids, plan.count)


async def stored_record(store: Store, game_id: int) -> GameRecord | None:
    """A game's record as stored, for those who look back at ended games (results,
    ratings): read, never kept (the keeper keeps the lobbies and running games)."""
    return await store.games.get(game_id)


async def stored_moves(store: Store, game_id: int) -> list[MoveRecord]:
    """A game's moves as stored, in order (its audit trail: replays, reviews)."""
    return await store.games.moves(game_id)


def people_of(record: GameRecord) -> list[int]:
    """The people seated in ``record``'s game, for finding it on every server (a daily
    attempt, which no channel shows, has none)."""
    return [p for p in record.players if p > 0] if record.channel_id > 0 else []


class GameKeeper:
    """The games of one store: read, kept, changed and shown (see the module)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._games = store.games
        self.clock = clock
        self._locks = KeyedLocks()  # a game's lock only while a writer holds or awaits it
        self._memo = GameMemo()
        self._showing: dict[int, Showing] = {}
        """What channels show, to be stored with their game's next change."""

    # --- reading ---------------------------------------------------------
    async def read(self, game_id: int, where: Origin | None = None, user: int = 0) -> Snapshot:
        """The game as stored now (one read; its rules object from the memo); with
        ``where``, only if played where ``user``'s click came from."""
        record = await self._games.get(game_id)
        if record is None:
            raise ServiceError("error.game_gone")
        if where is not None:
            where.check(record, user, self.clock())
        return Snapshot(record, self._memo.game(record))

    async def in_channel(self, channel_id: int) -> Snapshot:
        """The lobby or running game of a channel, as stored now."""
        record = await self._games.in_channel(channel_id)
        if record is None:
            raise ServiceError("error.no_game")
        return Snapshot(record, self._memo.game(record))

    def kept(self, game_id: int) -> Snapshot | None:
        """The game as this process last saw it, if it keeps it (no read)."""
        held = self._memo.held(game_id)
        return None if held is None else Snapshot(*held)

    async def running(self, guild_id: int) -> list[Snapshot]:
        """The running games of a server, as stored now, oldest first."""
        return [Snapshot(r, load_game(r)) for r in await self._games.running(guild_id)]

    async def seated(self, user: int) -> list[Snapshot]:
        """The running games ``user`` sits in, on every server, as stored now."""
        return [Snapshot(r, self._memo.game(r)) for r in await self._games.seated(user)]

    async def in_play(self, guild_id: int) -> list[InPlay]:
        """The lobbies and running games of a server, with who plays in them."""
        return await self._games.in_play(guild_id)

    async def due(self, shards: ShardPlan | None = None, limit: int = 50) -> list[int]:
        """At most ``limit`` games with a reminder or a deadline due now, most overdue
        first (with ``shards``: in the guilds this process serves)."""
        records = await self._games.due(self.clock(), limit=limit, shards=shard_ids(shards))
        return [r.id for r in records]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The moves of ``game_id`` as stored, in order."""
        return await self._games.moves(game_id)

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """The stored events of ``game_id`` from ``first_turn`` on, in order (a change
        returns its own: read these only for turns the channel does not hold)."""
        return await self._games.events(game_id, first_turn)

    async def replay(self, game_id: int) -> Game:
        """The game rebuilt from its seed and move log (the audit trail)."""
        record = (await self.read(game_id)).record
        moves = [(m.player_id, Move.from_json(m.move)) for m in await self.moves(game_id)]
        return replay_game(
            record.variant,
            record.players,
            record.seed,
            record.options.get("rules", {}),
            moves,
            solo=Options.of(record.options).solo,
            dice_version=dice_version_of(record.state or {}),
        )

    # --- creating ----------------------------------------------------------
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        seed: int,
        turn_time: int,
        expires: float | None = None,
        players: Sequence[int] | None = None,
    ) -> GameRecord:
        """A lobby, its host seated (``players``: these seats taken at once); raises
        :class:`~bot.records.errors.ChannelBusy` if the channel has a lobby or running game."""
        record = await self._games.create(
            guild_id, channel_id, host_id, variant, options, seed, turn_time, expires
        )
        if players is not None:
            record = await self._games.set_players(record.id, record.version, players)
        self._memo.keep(record, None)
        return record

    # --- changing --------------------------------------------------------
    async def change(
        self, game_id: int, decide: Decide, where: Origin | None = None, user: int = 0
    ) -> Outcome:
        """Store what ``decide`` answers on the game as kept (else as read), under the
        game's lock in this process; decided again on the game read afresh when another
        writer won the race (refused as busy after :data:`~bot.service.retry.ATTEMPTS`), and when a
        decision on the kept game refused or stored nothing while the game had moved
        on. With ``where``, each decision is made only on a game played where
        ``user``'s click came from."""
        async with self._locks.hold(game_id):
            return await self._attempts(game_id, decide, self.kept(game_id), where, user)

    async def _attempts(
        self,
        game_id: int,
        decide: Decide,
        kept: Snapshot | None,
        where: Origin | None = None,
        user: int = 0,
    ) -> Outcome:
        """:meth:`change`'s policy, for a caller holding the game's lock."""
        fresh = kept  # the game to decide on next (None: read it)

        async def attempt() -> Outcome:
            nonlocal fresh
            current, fresh = fresh or await self.read(game_id), None
            try:
                if where is not None:
                    where.check(current.record, user, self.clock())
                done = await self._stored(current, await decide(current))
            except ServiceError:
                if current is kept:
                    fresh = await self._fresher(current)
                if fresh is None:
                    raise
                raise Stale(game_id) from None
            if current is kept and not done.changed:
                fresh = await self._fresher(current)
            if fresh is not None:
                raise Stale(game_id)
            return done

        return await retry(attempt, (VersionConflict, WrongStatus, Stale), f"game {game_id}")

    async def _fresher(self, kept: Snapshot) -> Snapshot | None:
        """The game as stored, if in another version than ``kept`` (one read)."""
        record = await self._games.get(kept.record.id)
        if record is None:
            return None
        game = self._memo.game(record)  # the row as read: the freshest record of its version
        return None if record.version == kept.record.version else Snapshot(record, game)

    async def _stored(self, current: Snapshot, write: Write) -> Outcome:
        """Store ``write``, decided on ``current``, and keep what it stored."""
        record, game = current.record, current.game
        match write:
            case Played(play, seats, alone):
                if not alone:  # the computers may think for a while: off the event loop
                    change = await asyncio.to_thread(change_of, record, play, seats, self.clock)
                    return await self._write(record, play, change)
                moved = await self._write(
                    record, play, change_of(record, play, seats, self.clock, answered=False)
                )
                return await self._answer(moved) if play.unattended else moved
            case Answer(before):
                return await self._answer(Outcome(record, game, [], before, kind="same"))
            case Tell(kind, events, before):
                return Outcome(record, game, list(events), before, kind=kind)
            case Seat(players, options):
                seated = await self._games.set_players(record.id, record.version, players, options)
                self._memo.keep(seated, None)
                return Outcome(seated, None)
            case Start(new, seats):
                people = () if seats is None else seats.timed
                clock = DecisionClock.start(self.clock(), record.turn_time, people)
                events = event_rows(1, opening(new))
                started = await self._games.start(
                    record.id,
                    record.version,
                    new.to_json(),
                    clock.timing(),
                    events,
                    presence=None if seats is None else seats.to_json(),
                    people=people_of(record),
                )
                self._memo.keep(started, new)
                return Outcome(started, new)
            case Retime(timing, told):
                assert game is not None
                retimed = await self._games.set_timing(record.id, record.version, timing)
                self._memo.keep(retimed, game)
                return Outcome(retimed, game, list(told), game.decision())
            case Repace(turn_time, options, seats, told):
                assert game is not None
                clock = DecisionClock.start(self.clock(), turn_time, seats.timed)
                repaced = await self._games.set_pace(
                    record.id,
                    record.version,
                    turn_time,
                    options,
                    seats.to_json(),
                    clock.timing(),
                    event_rows(game.turn, list(told)),
                )
                self._memo.keep(repaced, game)
                return Outcome(repaced, game, list(told), game.decision())
            case Abandon(events, told):
                ended = await self._games.abandon(record.id, record.version, events)
                self._memo.keep(ended, None)
                return Outcome(ended, None, list(told))

    async def _write(self, record: GameRecord, play: Play, change: GameChange) -> Outcome:
        """Store ``change`` (what ``play`` did to ``record``'s game) by compare-and-set,
        with what its channel shows if that waits to be stored (:meth:`show_later`)."""
        showing = self._showing.get(record.id)
        changed = await self._games.change(record, change, showing)
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

    async def _answer(self, moved: Outcome) -> Outcome:
        """The seats nobody clicks for that the game now waits for decide (see
        :meth:`Play.answer`), on a thread; decided again on the game as it is
        should another writer have moved it meanwhile. The change before is stored
        already: nothing here refuses it. A step that cannot be stored is left to the
        game's timer (the game is due at once while such seats are waited for).
        For a caller holding the game's lock."""
        if not waits_unattended(moved.record, moved.game, self.clock()):
            return moved

        async def decide(current: Snapshot) -> Write:
            game, now = current.game, self.clock()
            if game is None or not waits_unattended(current.record, game, now):
                return Tell()
            return Played(Play(game), Seats.of(current.record))

        try:
            answered = await self._attempts(moved.record.id, decide, moved)
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

    # --- what the channel shows ---------------------------------------------
    def channel_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with keeper.channel_lock(game_id):`` the one writer of a game's
        channel at a time, in this process and (on PostgreSQL) in every other. Not
        re-entrant. Changes do not take it: they are ordered by compare-and-set."""
        return self._store.game_lock(game_id)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """The lobby's message: where its channel shows it."""
        await self._games.set_message(game_id, message_id)

    async def lagging(self, shards: ShardPlan | None = None, limit: int = 50) -> list[int]:
        """At most ``limit`` games whose channel shows less than the store holds, the one
        behind longest first (with ``shards``: in the guilds this process serves)."""
        return await self._games.lagging(limit, shards=shard_ids(shards))

    async def mark_behind(self, game_id: int) -> None:
        """The channel of ``game_id`` could not be updated now (see
        :attr:`~bot.records.games.GameRecord.behind_since`)."""
        await self._games.mark_behind(game_id, self.clock())

    async def mark_left_behind(self, started: float, shards: ShardPlan | None = None) -> int:
        """The games (with ``shards``: of the guilds this process serves) whose channel
        lags a change made before ``started``, this process's start, could not be
        updated: the process before stopped, or was killed, before showing it."""
        return await self._games.mark_left_behind(started, self.clock(), shard_ids(shards))

    async def show(
        self, record: GameRecord, message_id: int | None, shown: dict[str, Any]
    ) -> GameRecord:
        """The channel of ``record``'s game shows its version, in ``message_id``, as
        ``shown`` tells (stored now; the record with it as stored)."""
        showing = self._showing.get(record.id)
        if showing is not None and showing.version <= record.version:
            del self._showing[record.id]
        return await self._games.set_shown(record, message_id, shown)

    def show_later(self, record: GameRecord, message_id: int | None, shown: dict[str, Any]) -> None:
        """As :meth:`show`, stored with the game's next change rather than now, for a
        channel whose update is harmless to repeat (edits only): meanwhile the game
        looks behind to the catch-up, which stores it at its next pass."""
        self._showing[record.id] = Showing(record.version, message_id, shown)
