"""Use cases: lobby, start, moves, deadlines and seats, abandon.

This is the only layer that combines the store, the rules and concurrency.
Every refusal is a :class:`ServiceError` whose key names a catalogue message.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from bot.i18n import resolve, supported
from bot.i18n.words import t
from bot.players import DEFAULT_LEVEL, LEVELS, Hint, computer_name, computer_seat, hint, is_computer
from bot.rules import (
    PASS,
    VARIANTS,
    Decision,
    Event,
    Game,
    Move,
    dice_version_of,
    new_game,
)
from bot.rules import replay as replay_game
from bot.service.limits import Limits, Refusal
from bot.service.memo import GameMemo, load_game
from bot.service.play import Options, Play, Seats, event_rows
from bot.service.stats import game_results
from bot.service.timing import DEFAULT_TURN_TIME, Clock, DurationError, parse_duration
from bot.shards import ShardPlan
from bot.store import (
    NO_TIMING,
    ChannelBusy,
    GameChange,
    GameNotFound,
    GameRecord,
    Store,
    StoredEvent,
    Timing,
    VersionConflict,
    WrongStatus,
)
from bot.store.limits import InPlay
from bot.store.locks import KeyedLocks
from bot.store.privacy import is_anonymous
from bot.text import quote

log = logging.getLogger(__name__)

ATTEMPTS = 5  # compare-and-set retries before a click is refused as busy
DUE_BATCH = 50  # due games read per timer pass
T = TypeVar("T")


class ServiceError(Exception):
    """A refusal to show the user: ``key`` and ``values`` fill a catalogue message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def text(self) -> str:
        return t(self.key, **self.values)


class Unchanged(Exception):
    """Nothing to store: the game stays as ``outcome`` shows it."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("unchanged")
        self.outcome = outcome


@dataclass(slots=True)
class Outcome:
    """A game after a change, with what happened and the decision before it."""

    record: GameRecord
    game: Game | None
    events: list[Event] = field(default_factory=list)
    before: Decision | None = None


def shard_ids(plan: ShardPlan | None) -> tuple[tuple[int, ...], int] | None:
    """A shard plan as the store filters by it."""
    return None if plan is None else (plan.ids, plan.count)


def opening(game: Game) -> list[Event]:
    """The first turn's opening, as later turns are opened by the rules' "turn" event."""
    dice = game.dice_on_table()
    return [Event("turn", game.active, {"turn": game.turn, **({"dice": dice} if dice else {})})]


class GameService:
    def __init__(
        self,
        store: Store,
        seeds: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        """How many lobbies and running games a member and a server may have at once."""
        self.seeds = seeds or self.random_seed
        self.clock = clock
        self._locks = KeyedLocks()  # a game's lock only while a writer holds or awaits it
        self._games = GameMemo()

    @staticmethod
    def random_seed() -> int:
        return secrets.randbits(62)

    # --- reading ---------------------------------------------------------
    async def get(self, game_id: int) -> Outcome:
        record = await self.store.get_game(game_id)
        if record is None:
            raise ServiceError("error.game_gone")
        return Outcome(record, self._games.game(record))

    async def in_channel(self, channel_id: int) -> Outcome:
        record = await self.store.game_in_channel(channel_id)
        if record is None:
            raise ServiceError("error.no_game")
        return Outcome(record, self._games.game(record))

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self.store.set_message(game_id, message_id)

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with service.game_lock(game_id):`` the one publisher of a game's
        channel at a time, in this process and (on PostgreSQL) in every other. Not
        re-entrant. Moves do not take it: they are ordered by compare-and-set."""
        return self.store.game_lock(game_id)

    # --- what the channel shows --------------------------------------------
    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        return await self.store.events(game_id, first_turn)

    async def lagging(self, shards: ShardPlan | None = None, limit: int = 50) -> list[int]:
        """At most ``limit`` games whose channel shows less than the store holds, the one
        behind longest first (with ``shards``: in the guilds this process serves)."""
        return await self.store.lagging_games(limit, shards=shard_ids(shards))

    async def mark_behind(self, game_id: int) -> None:
        """The channel of ``game_id`` could not be updated now (see
        :attr:`GameRecord.behind_since`)."""
        await self.store.mark_behind(game_id, self.clock())

    async def mark_left_behind(self, started: float, shards: ShardPlan | None = None) -> int:
        """The games (with ``shards``: of the guilds this process serves) whose channel
        lags a change made before ``started``, this process's start, could not be
        updated: the process before stopped, or was killed, before showing it."""
        return await self.store.mark_left_behind(started, self.clock(), shard_ids(shards))

    async def set_shown(
        self, game_id: int, version: int, message_id: int | None, shown: dict[str, Any]
    ) -> None:
        await self.store.set_shown(game_id, version, message_id, shown)

    async def remember_name(self, guild_id: int, user: int, name: str) -> None:
        await self.store.remember_name(guild_id, user, name)

    async def names(self, guild_id: int, users: list[int]) -> dict[int, str]:
        """Display names for images; a player never seen gets a neutral label."""
        known = await self.store.names(guild_id, [u for u in users if not is_computer(u)])
        return {
            u: computer_name(u) if is_computer(u) else known.get(u, t("describe.player", number=i))
            for i, u in enumerate(users, 1)
        }

    async def wins_on_server(self, guild_id: int, player: int) -> int:
        """Counted wins of ``player`` on this server, every variant together."""
        totals = await self.store.player_totals(guild_id, player)
        return sum(t.wins for t in totals.values())

    async def personal_best(
        self, guild_id: int, player: int, variant: str, game_id: int
    ) -> int | None:
        """``player``'s best solo score of ``variant`` here before ``game_id`` (None: none)."""
        return await self.store.practice_best(guild_id, player, variant, game_id)

    async def replay(self, game_id: int) -> Game:
        """The game rebuilt from its seed and move log (the audit trail)."""
        record = (await self.get(game_id)).record
        moves = [(m.player_id, Move.from_json(m.move)) for m in await self.store.moves(game_id)]
        return replay_game(
            record.variant,
            record.players,
            record.seed,
            record.options.get("rules", {}),
            moves,
            solo=Options.of(record.options).solo,
            dice_version=dice_version_of(record.state or {}),
        )

    # --- the lobby -------------------------------------------------------
    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        board: str | None = None,
        turn_time: int = DEFAULT_TURN_TIME,
        play: Options | None = None,
    ) -> GameRecord:
        """A lobby; ``play``'s flags (solo, hints, fill_away) hold for its game."""
        play = play or Options()
        if variant not in VARIANTS:
            raise ServiceError("error.unknown_variant", variant=variant)
        if board is not None and variant != "onboard":
            raise ServiceError("error.board_only_onboard")
        rules = {"board": board} if board else {}
        flags = {name: True for name in ("solo", "hints", "fill_away") if getattr(play, name)}
        await self._within_limits(guild_id, lambda games: self.limits.to_open(games, host_id))
        try:
            return await self.store.create_game(
                guild_id,
                channel_id,
                host_id,
                variant,
                {"rules": rules, **flags},
                self.seeds(),
                turn_time,
                expires=self.clock() + turn_time,
            )
        except ChannelBusy:
            raise ServiceError("error.channel_busy") from None

    async def rematch(self, game_id: int, user: int) -> GameRecord:
        """**Rematch**: a new lobby where ``game_id`` was played, for the same game: the
        same host, people and computers (at their levels), options and turn time. Any
        player of that game may ask for it."""
        old = (await self.get(game_id)).record
        if user not in old.players and user != old.host_id:
            raise ServiceError("error.rematch_not_player")
        board = old.options.get("rules", {}).get("board")
        # A forgotten person's seat is not taken again; whoever asks hosts in their place.
        host = user if is_anonymous(old.host_id) else old.host_id
        players = [p for p in old.players if not is_anonymous(p)]
        players = players if host in players else [host, *players]
        try:
            record = await self.open_lobby(
                old.guild_id,
                old.channel_id,
                host,
                old.variant,
                board,
                old.turn_time,
                Options.of(old.options),
            )
        except ServiceError as error:  # the host is over the limit, not the one who asks
            if error.key == "error.limit_you" and host != user:
                raise ServiceError("error.limit_host", **error.values) from None
            raise
        levels = {
            seat: level
            for seat, level in old.options.get("levels", {}).items()
            if int(seat) in old.players
        }
        options = {**record.options, "levels": levels} if levels else record.options
        return await self.store.update_lobby_seats(record.id, record.version, players, options)

    async def join(self, game_id: int, user: int) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            if user in record.players:
                raise ServiceError("error.already_joined")
            if Options.of(record.options).solo:
                raise ServiceError("error.solo_only")
            cls = VARIANTS[record.variant]
            if len(record.players) >= cls.max_players:
                raise ServiceError("error.lobby_full", max=cls.max_players)
            await self._within_limits(
                record.guild_id, lambda games: self.limits.to_join(games, record.id, user)
            )
            return await self.store.update_lobby(record.id, record.version, [*record.players, user])

        return await self._lobby_change(game_id, change)

    async def leave(self, game_id: int, user: int) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            if user == record.host_id:
                raise ServiceError("error.host_leaves")
            if user not in record.players:
                raise ServiceError("error.not_joined")
            players = [p for p in record.players if p != user]
            return await self.store.update_lobby(record.id, record.version, players)

        return await self._lobby_change(game_id, change)

    async def cancel(self, game_id: int, user: int) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            self._require_host(record, user)
            return await self.store.abandon(
                record.id, record.version, [(0, "lobby_closed", user, {"reason": "cancelled"})]
            )

        return await self._lobby_change(game_id, change)

    async def start(self, game_id: int, user: int) -> Outcome:
        async def change(record: GameRecord) -> GameRecord:
            self._require_host(record, user)
            cls = VARIANTS[record.variant]
            solo = Options.of(record.options).solo
            if not solo and len(record.players) < cls.min_players:
                raise ServiceError("error.need_players", title=cls.title, min=cls.min_players)
            await self._within_limits(
                record.guild_id,
                lambda games: self.limits.to_start(games, record.id, record.players, user),
            )
            game = new_game(
                record.variant,
                record.players,
                record.seed,
                record.options.get("rules", {}),
                solo=solo,
            )
            clock = Clock.start(self.clock(), record.turn_time)
            return await self.store.start_game(
                record.id,
                record.version,
                game.to_json(),
                clock.timing(),
                event_rows(1, opening(game)),
            )

        record = await self._lobby_change(game_id, change)
        return await self._computers_first(record.id, Event("started", user))

    async def _computers_first(self, game_id: int, started: Event) -> Outcome:
        """Computer seats make their first decisions right after the start."""

        async def attempt() -> Outcome:
            outcome = await self.get(game_id)
            assert outcome.game is not None
            play = Play(outcome.game)
            play.events.append(started)
            if not any(is_computer(p) for p in outcome.game.decision().waiting):
                return Outcome(outcome.record, outcome.game, play.events, play.before)
            return await self._save(outcome.record, play, Seats.of(outcome.record))

        return await self._retrying(game_id, attempt)

    async def add_computer(self, game_id: int, user: int, level: str = DEFAULT_LEVEL) -> GameRecord:
        """The host seats a computer player at ``level`` in the lobby."""

        async def change(record: GameRecord) -> GameRecord:
            self._require_host(record, user)
            cls = VARIANTS[record.variant]
            if Options.of(record.options).solo:
                raise ServiceError("error.solo_only")
            if len(record.players) >= cls.max_players:
                raise ServiceError("error.lobby_full", max=cls.max_players)
            seat = computer_seat(sum(is_computer(p) for p in record.players) + 1)
            return await self._seat_level(record, [*record.players, seat], seat, level)

        return await self._lobby_change(game_id, change)

    async def set_level(self, game_id: int, user: int, seat: int, level: str) -> GameRecord:
        """The host changes the level of a computer seat in the lobby."""

        async def change(record: GameRecord) -> GameRecord:
            self._require_host(record, user)
            if seat not in record.players or not is_computer(seat):
                raise ServiceError("error.no_such_computer")
            return await self._seat_level(record, record.players, seat, level)

        return await self._lobby_change(game_id, change)

    async def _seat_level(
        self, record: GameRecord, players: list[int], seat: int, level: str
    ) -> GameRecord:
        if level not in LEVELS:
            raise ServiceError("error.unknown_level", level=quote(level))
        levels = {**record.options.get("levels", {}), str(seat): level}
        return await self.store.update_lobby_seats(
            record.id, record.version, players, {**record.options, "levels": levels}
        )

    async def _within_limits(
        self, guild_id: int, check: Callable[[list[InPlay]], Refusal | None]
    ) -> None:
        """Refuse what ``check`` refuses, given the server's lobbies and running games
        (read only when something is limited)."""
        if not self.limits.any:
            return
        refusal = check(await self.store.games_in_play(guild_id))
        if refusal is not None:
            raise ServiceError(refusal.key, **refusal.values)

    @staticmethod
    def _require_host(record: GameRecord, user: int) -> None:
        if user != record.host_id:
            raise ServiceError("error.host_only", host=f"<@{record.host_id}>")

    async def _lobby_change(
        self, game_id: int, change: Callable[[GameRecord], Awaitable[GameRecord]]
    ) -> GameRecord:
        async def attempt() -> GameRecord:
            record = (await self.get(game_id)).record
            if record.status == "running":
                raise ServiceError("error.already_started")
            if record.status != "lobby":
                raise ServiceError("error.game_over")
            return await change(record)

        return await self._retrying(game_id, attempt)

    # --- playing ---------------------------------------------------------
    async def act(
        self, game_id: int, user: int, turn: int, phase: str | None, move: Move
    ) -> Outcome:
        """Apply ``move`` for ``user`` if it is still legal on ``turn`` (and ``phase``).

        One transaction for the person's move alone: the rules decide on the record read
        inside it, so no other writer can come between the read and the write, and
        nothing slow runs inside it. The computer (and away) seats the game then waits
        for answer at once, each step decided outside any transaction and stored by
        compare-and-set (see :meth:`_answer`); the outcome tells both.
        """

        def decide(record: GameRecord) -> tuple[GameChange, Play]:
            game, legal, decision = self._check_turn(
                record, self._games.game(record), user, turn, phase
            )
            if move not in legal:
                raise ServiceError("error.illegal")
            if game.chosen.get(user) == move:  # a double tap: the choice is already made
                raise Unchanged(Outcome(record, game, [], decision))
            play = Play(game, decision)
            seats = Seats.of(record)
            if user in seats.away and Options.of(record.options).fill_away:
                play.events.append(Event("away", user, {"reason": "back"}))
            play.apply(user, move, "player")
            return self._change(record, play, seats.back(user), absent=False), play

        async def attempt() -> tuple[Outcome, bool]:
            """The outcome, and whether it may wait for seats nobody clicks for."""
            try:
                record, play = await self.store.change_game(game_id, decide)
            except GameNotFound:
                raise ServiceError("error.game_gone") from None
            except Unchanged as same:
                return same.outcome, True
            self._games.keep(record, play.game)
            return Outcome(record, play.game, play.events, play.before), play.absent_waited

        async with self._lock(game_id):
            moved, absent_waited = await self._attempts(game_id, attempt)
            # The game waits for no computer or away seat: nothing to answer for.
            return await self._answer(moved) if absent_waited else moved

    async def _answer(self, moved: Outcome) -> Outcome:
        """The seats the game now waits for that nobody has to click for (computers,
        and away seats) decide, on a thread and outside any transaction; their moves
        are stored with compare-and-set, and decided again on the game as it is should
        another writer have moved it meanwhile. The person's move before is stored
        already: nothing here refuses it. A step that cannot be stored is left to the
        game's timer (the game is due at once while such seats are waited for)."""
        record, game, events = moved.record, moved.game, list(moved.events)
        for _ in range(ATTEMPTS):
            if game is None or not self._absent_waited_for(record, game):
                break
            try:
                answered = await self._save(record, Play(game), Seats.of(record))
            except (VersionConflict, WrongStatus):
                log.info("game %d changed before its computers answered; again", record.id)
                current = await self.store.get_game(record.id)
                if current is None:
                    break
                record, game = current, self._games.game(current)
                continue
            except Exception:  # the store failing, or a computer: the move stays stored
                log.exception("game %d: the computers' answer is left to the timer", record.id)
                break
            return Outcome(answered.record, answered.game, events + answered.events, moved.before)
        return Outcome(record, game, events, moved.before)

    @staticmethod
    def _absent_waited_for(record: GameRecord, game: Game) -> bool:
        """Whether the running game waits for a computer seat or an away one (which
        :meth:`Play.for_the_absent` decides for)."""
        return record.status == "running" and GameService._waits_for_absent(game, Seats.of(record))

    async def _save(self, record: GameRecord, play: Play, seats: Seats) -> Outcome:
        """Store what ``play`` did (see :meth:`_change`), compare-and-set.

        Computers may think for a while there, so it runs off the event loop.
        """
        change = await asyncio.to_thread(self._change, record, play, seats)
        record = await self.store.record_change(record.id, record.version, change)
        self._games.keep(record, play.game)
        return Outcome(record, play.game, play.events, play.before)

    def _change(
        self, record: GameRecord, play: Play, seats: Seats, absent: bool = True
    ) -> GameChange:
        """What to store of ``play``, with a fresh clock when a new decision began.

        ``absent``: computer and away seats decide first, so the game then waits for
        people only. Without (a person's move, stored alone), a game left waiting for
        such seats is due at once, so that the timer has them answer should nothing
        else (see :meth:`_answer`).
        """
        options = Options.of(record.options)
        if absent:
            fill = options.fill_away and seats.people_present(record.players)
            play.for_the_absent(seats.away, options, fill)
        seats = seats.cover(play.covered)
        game = play.game
        status = "finished" if game.finished else "running"
        if not game.finished and self._too_few(record, seats, options):
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
            play.absent_waited = self._waits_for(decision, seats)
            timing = self._due_for_absent(
                record, play.absent_waited, self._timing(record, play, decision), absent
            )
        else:
            play.absent_waited, timing = False, NO_TIMING
        presence = None if seats is Seats.of(record) else seats.to_json()  # None: unchanged
        return GameChange(
            play.moves, game.to_json(), status, results, timing, presence, play.event_rows()
        )

    def _due_for_absent(
        self, record: GameRecord, waits: bool, timing: Timing | None, absent: bool
    ) -> Timing | None:
        """A person's move that leaves the game waiting (``waits``) for computer or away
        seats makes it due at once (the timer has them answer, should nothing else);
        their answer makes it due again when its clock says."""
        if not absent:
            if not waits:
                return timing
            now = self.clock()
            return (
                replace(timing, next_due=now)
                if timing is not None
                else Timing(record.stage_started, record.deadline, record.reminders, now)
            )
        clock = Clock.of(record) if timing is None else None
        return timing if clock is None else clock.timing()

    @staticmethod
    def _waits_for_absent(game: Game, seats: Seats) -> bool:
        return not game.finished and GameService._waits_for(game.decision(), seats)

    @staticmethod
    def _waits_for(decision: Decision, seats: Seats) -> bool:
        """Whether ``decision`` waits for a computer seat or an away one."""
        waiting = decision.waiting
        return any(map(is_computer, waiting)) or not waiting.isdisjoint(seats.away)

    @staticmethod
    def _too_few(record: GameRecord, seats: Seats, options: Options) -> bool:
        """Whether too few seats are left to play on: with ``fill_away``, no person
        present; else fewer seats than the variant needs (one for solo practice)."""
        if options.fill_away:
            return not seats.people_present(record.players)
        needed = 1 if options.solo else VARIANTS[record.variant].min_players
        return len(record.players) - len(seats.away) < needed

    def _timing(self, record: GameRecord, play: Play, now: Decision) -> Timing | None:
        """The clock of the running game's pending decision ``now``: None if it is the
        one pending before ``play``, whose clock runs on."""
        before = play.before
        if now.turn == before.turn and now.phase == before.phase:
            return None
        return Clock.start(self.clock(), record.turn_time).timing()

    # --- deadlines -------------------------------------------------------
    async def due(self, shards: ShardPlan | None = None) -> list[int]:
        """Games with a reminder or a deadline due now, most overdue first; with
        ``shards``, only those in the guilds this process serves (others fire the rest)."""
        records = await self.store.due_games(
            self.clock(), limit=DUE_BATCH, shards=shard_ids(shards)
        )
        return [r.id for r in records]

    async def fire(self, game_id: int) -> Outcome | None:
        """Send the due reminder or resolve the expired decision; None if nothing is due.

        Compare-and-set makes this safe to call twice (or from two processes):
        what fired once is not due any more.
        """

        async def attempt() -> Outcome | None:
            outcome = await self.get(game_id)
            record, game, clock = outcome.record, outcome.game, Clock.of(outcome.record)
            if record.status == "lobby":
                return await self._expire_lobby(record)
            if record.status != "running" or game is None:
                return None
            if self._absent_waited_for(record, game):  # their answer was never stored
                return await self._save(record, Play(game), Seats.of(record))
            if clock is None:
                return None
            due = clock.due(self.clock())
            if due == "remind":
                return await self._remind(record, game, clock)
            if due == "expire":
                return await self._expire(record, game)
            return None

        return await self._retrying(game_id, attempt)

    async def _expire_lobby(self, record: GameRecord) -> Outcome | None:
        """A lobby nobody started within the turn time closes, freeing the channel."""
        if self.clock() < record.created_at + record.turn_time:
            return None
        closed = Event("lobby_closed", None, {"reason": "expired"})
        record = await self.store.abandon(
            record.id, record.version, [(0, closed.kind, None, closed.data)]
        )
        return Outcome(record, None, [closed])

    async def _remind(self, record: GameRecord, game: Game, clock: Clock) -> Outcome:
        waiting = sorted(game.decision().waiting - Seats.of(record).away)
        record = await self.store.set_timing(record.id, record.version, clock.reminded().timing())
        event = Event("reminder", None, {"players": waiting, "deadline": clock.deadline})
        return Outcome(record, game, [event], game.decision())

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
        return await self._save(record, play, seats)

    async def leave_game(self, channel_id: int, user: int) -> Outcome:
        """``/qwixx leave``: out of a lobby, or give up a seat in a running game."""
        found = await self.in_channel(channel_id)
        if found.record.status == "lobby":
            return Outcome(await self.leave(found.record.id, user), None)

        async def attempt() -> Outcome:
            outcome = await self.get(found.record.id)
            record, game = outcome.record, outcome.game
            if record.status != "running" or game is None:
                raise ServiceError("error.game_over")
            seats = Seats.of(record)
            if user not in record.players or user in seats.away:
                raise ServiceError("error.not_player")
            play = Play(game)
            seats = seats.leave(user, play.events)
            return await self._save(record, play, seats)

        return await self._retrying(found.record.id, attempt)

    async def come_back(self, game_id: int, user: int) -> Outcome | None:
        """A player whose seat a computer plays (``fill_away``) opened their sheet: the
        game waits for them again from their next decision. None if nothing changed."""

        async def attempt() -> Outcome | None:
            outcome = await self.get(game_id)
            record, game = outcome.record, outcome.game
            seats = Seats.of(record)
            if (
                record.status != "running"
                or game is None
                or user not in seats.away
                or not Options.of(record.options).fill_away
            ):
                return None
            play = Play(game)
            play.events.append(Event("away", user, {"reason": "back"}))
            return await self._save(record, play, seats.back(user))

        return await self._retrying(game_id, attempt)

    async def hint(self, game_id: int, user: int, turn: int) -> tuple[Game, Hint]:
        """What ``hard`` would do for ``user`` now, in a game started with hints."""
        outcome = await self.get(game_id)
        if not Options.of(outcome.record.options).hints:
            raise ServiceError("error.no_hints")
        game = self.check_player(outcome, user, turn)
        if not game.legal_moves(user):
            raise ServiceError("error.nothing_to_hint")
        return game, await asyncio.to_thread(hint, game, user)

    async def waiting_for(self, guild_id: int, user: int) -> list[Outcome]:
        """The running games of a server that wait for ``user``'s decision."""
        found = []
        for record in await self.store.running_games(guild_id):
            game = load_game(record)
            if game is not None and user in game.decision().waiting:
                found.append(Outcome(record, game))
        return found

    # --- server settings -------------------------------------------------
    async def turn_time(self, guild_id: int, requested: str | None) -> int:
        """The turn time for a new game: as asked, else the server's default, else 24h."""
        if requested:
            try:
                return parse_duration(requested)
            except DurationError as error:
                raise ServiceError("error.duration", problem=str(error)) from None
        return await self.store.guild_turn_time(guild_id) or DEFAULT_TURN_TIME

    async def set_turn_time(self, guild_id: int, requested: str) -> int:
        seconds = await self.turn_time(guild_id, requested)
        await self.store.set_guild_turn_time(guild_id, seconds)
        return seconds

    async def pass_turn(
        self, game_id: int, user: int, turn: int, phase: str | None = None
    ) -> Outcome:
        """The public Pass button: pass what ``user`` has to decide in ``phase`` (buttons
        made before phases were named on them: whatever they decide now)."""
        return await self.act(game_id, user, turn, phase, PASS)

    @staticmethod
    def check_player(outcome: Outcome, user: int, turn: int) -> Game:
        """The running game, if ``user`` plays in it and ``turn`` is still current."""
        return GameService._playing(outcome.record, outcome.game, user, turn)

    @staticmethod
    def _playing(record: GameRecord, game: Game | None, user: int, turn: int) -> Game:
        """:meth:`check_player` of ``record`` and its ``game``."""
        if record.status == "lobby" or game is None:
            raise ServiceError("error.not_started")
        if record.status != "running":
            raise ServiceError("error.game_over")
        if user not in record.players:
            raise ServiceError("error.not_player")
        if turn != game.turn:
            raise ServiceError("error.stale_turn", turn=turn, current=game.turn)
        return game

    def _check_turn(
        self, record: GameRecord, game: Game | None, user: int, turn: int, phase: str | None
    ) -> tuple[Game, list[Move], Decision]:
        """The game of ``record``, ``user``'s legal moves in it (there are some, or a
        refusal) and the decision pending."""
        game = self._playing(record, game, user, turn)
        decision = game.decision()
        if phase is not None and phase != decision.phase:
            raise ServiceError("error.stale_phase")
        legal = game.legal_moves(user)
        if not legal:
            names = ", ".join(f"<@{p}>" for p in sorted(decision.waiting))
            raise ServiceError("error.not_your_decision", names=names)
        return game, legal, decision

    async def abandon(self, channel_id: int, user: int, can_manage: bool) -> GameRecord:
        async def attempt() -> GameRecord:
            found = await self.in_channel(channel_id)
            record, game = found.record, found.game
            if user != record.host_id and not can_manage:
                raise ServiceError("error.abandon_denied")
            event = (
                (0, "lobby_closed", user, {"reason": "abandoned"})
                if game is None
                else (game.turn, "game_over", user, {"reason": "abandoned"})
            )
            return await self.store.abandon(record.id, record.version, [event])

        return await self._retrying(None, attempt)

    async def _retrying(self, game_id: int | None, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` under the game's lock, again when another writer won the race."""
        async with self._lock(game_id):
            return await self._attempts(game_id, attempt)

    def _lock(self, game_id: int | None) -> AbstractAsyncContextManager[None]:
        """This process's writers of one game take turns (a new lock for no game)."""
        return self._locks.hold(game_id) if game_id is not None else asyncio.Lock()

    @staticmethod
    async def _attempts(game_id: int | None, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt``, again when another writer won the race; refused as busy after
        :data:`ATTEMPTS`."""
        for _ in range(ATTEMPTS):
            try:
                return await attempt()
            except (VersionConflict, WrongStatus):
                log.info("game %s changed concurrently; retrying", game_id)
        raise ServiceError("error.busy")

    # --- the server's language ---------------------------------
    async def guild_language(self, guild_id: int, preferred: object = None) -> str:
        """The language of a server's public messages and images: its choice, else its
        Discord preferred locale (``preferred``) when we speak it, else English."""
        chosen = await self.store.guild_language(guild_id)
        return resolve(chosen or preferred)

    async def set_guild_language(self, guild_id: int, language: str) -> str:
        """Choose a server's language (one of :data:`bot.i18n.LOCALES`)."""
        code = supported(language)
        if code is None:
            raise ServiceError("error.unknown_language", language=quote(language))
        await self.store.set_guild_language(guild_id, code)
        return code
