"""Tournaments: created, signed up for, started, seated round by round, their tables
played as ordinary games, their results kept, ended.

The core (:mod:`bot.tournament`) says what settings allow, how a round is seated and
what the standings are; this service keeps a tournament in the store and moves it on:

* **Sign-up** (:meth:`Tournaments.create`, :meth:`~Tournaments.join`, ``leave``,
  ``check_in``, ``start``, ``cancel``): each a compare-and-set on the tournament's
  version, so the limits (:data:`MOST_OPEN`, :data:`MOST_ENTERED`, and a tournament's
  own :data:`~bot.tournament.settings.MOST_PLAYERS`) hold however many members click
  at once.
* **Settling** (:meth:`Tournaments.settle`, what the timer does for every tournament
  :meth:`Tournaments.due` finds): the results of tables whose game ended are kept,
  once each; a sign-up whose deadline passed starts; a round whose tables have all
  finished is followed by the next, seated by :func:`bot.tournament.next_round` from
  what is stored and kept by a compare-and-set on ``tournaments.rounds`` (the round's
  primary key stands behind it), so a round is seated once whatever restarts or other
  processes do; after the last round the tournament ends.
* **Tables** (:meth:`Tournaments.open_table`): each an ordinary game in its own thread,
  its players the seated ones (Hard computers filling, when the settings say so), its
  seed drawn like any game's and as secret; it is started at once, by the lobby's own
  start. A computer plays an away seat (``fill_away``), so a table always finishes:
  someone who withdraws gives up their seat, which plays on without them.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import replace
from typing import Final

from bot.players import computer_seat, is_computer
from bot.records.seats import Seats
from bot.rules import Game
from bot.service.errors import ServiceError
from bot.service.keeper import GameKeeper, shard_ids
from bot.service.lobby import Lobby
from bot.service.outcome import Outcome
from bot.service.ratings import Rating
from bot.service.retry import retry
from bot.service.turns import Turns
from bot.shards import ShardPlan
from bot.store import GameRecord, Store
from bot.store.locks import KeyedLocks
from bot.store.privacy import is_anonymous
from bot.store.tournaments import TournamentBusy, TournamentChanged, TournamentRepository
from bot.text import quote
from bot.tournament import (
    SeatResult,
    SettingsRefusal,
    TableResult,
    TournamentSettings,
    TournamentStanding,
    complete,
    next_round,
    standings,
    validate,
)
from bot.tournament.records import EntrantRecord, TableRecord, Tournament, TournamentRecord
from bot.tournament.seating import seeded
from bot.tournament.settings import MOST_PLAYERS, check_sign_ups

log = logging.getLogger(__name__)

MOST_OPEN: Final = 3
"""Open tournaments (signing up or playing) a server may have at once."""
MOST_ENTERED: Final = 3
"""Open tournaments of one server a member may be in at once."""
COMPUTER_LEVEL: Final = "hard"
MADE_FOR: Final = ("away", "stand_in")
"""Who made a move for a person: the game (an away seat's fallback) or a computer."""


def refused(refusal: SettingsRefusal) -> ServiceError:
    """The core's refusal of settings, as the service's."""
    return ServiceError(refusal.key, **refusal.values)


class Tournaments:
    """The tournaments of one store (see the module)."""

    def __init__(
        self,
        store: Store,
        games: GameKeeper,
        lobby: Lobby,
        turns: Turns,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.games = games
        self.lobby = lobby
        self.turns = turns
        self.clock = clock
        self._locks = KeyedLocks()

    @property
    def repository(self) -> TournamentRepository:
        return self.store.tournaments

    # --- reads ---------------------------------------------------------------------
    async def read(self, tournament_id: int) -> Tournament:
        found = await self.repository.get(tournament_id)
        if found is None:
            raise ServiceError("tournament.error.gone")
        return found

    async def of_guild(self, guild_id: int) -> list[TournamentRecord]:
        """A server's open tournaments, then its newest ended ones."""
        return await self.repository.of_guild(guild_id)

    async def find(
        self, guild_id: int, channel_id: int | None, name: str | None = None
    ) -> Tournament:
        """The tournament named ``name`` (any case), else the open one of ``channel_id``,
        else the server's newest."""
        listed = await self.of_guild(guild_id)
        if name:
            wanted = name.strip().casefold()
            found = next((r for r in listed if r.name.casefold() == wanted), None)
            if found is None:
                raise ServiceError("tournament.error.unknown", name=quote(name))
        else:
            here = [r for r in listed if r.channel_id == channel_id and r.is_open]
            found = here[0] if here else max(listed, key=lambda r: r.id, default=None)
            if found is None:
                raise ServiceError("tournament.error.none")
        return await self.read(found.id)

    async def organiser_role(self, guild_id: int) -> int | None:
        """The role a server names for organisers, besides Manage Server."""
        return await self.repository.role(guild_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        await self.repository.set_role(guild_id, role_id)

    def standings(self, tournament: Tournament) -> list[TournamentStanding]:
        """Everyone's place so far (:func:`bot.tournament.standings`)."""
        return standings(
            tournament.settings, tournament.players, tournament.seated, tournament.results
        )

    # --- sign-up -------------------------------------------------------------------
    async def create(
        self, guild_id: int, channel_id: int, host_id: int, settings: TournamentSettings
    ) -> TournamentRecord:
        """A tournament open for sign-up in ``channel_id``, organised by ``host_id``
        (whose right to is the caller's to check)."""
        now = self.clock()
        try:
            validate(settings, int(now))
        except SettingsRefusal as refusal:
            raise refused(refusal) from None
        if await self.repository.open_count(guild_id) >= MOST_OPEN:
            raise ServiceError("tournament.error.limit_server", most=MOST_OPEN)
        due = settings.check_in_opens or settings.deadline
        try:
            return await self.repository.create(
                guild_id, channel_id, host_id, settings, self.lobby.seeds(), now, due
            )
        except TournamentBusy as busy:
            raise ServiceError("tournament.error.channel_busy", name=quote(busy.name)) from None

    async def join(self, tournament_id: int, user: int) -> Tournament:
        async def step(t: Tournament) -> None:
            signing_up(t)
            if t.entrant(user) is not None:
                raise ServiceError("tournament.error.already", name=quote(t.record.name))
            if len(t.entrants) >= MOST_PLAYERS:
                raise ServiceError(
                    "tournament.error.full", name=quote(t.record.name), most=MOST_PLAYERS
                )
            entered = await self.repository.entered(t.record.guild_id, user)
            if len(entered) >= MOST_ENTERED:
                raise ServiceError("tournament.error.limit_member", most=MOST_ENTERED)
            await self.repository.join(t.record, user, self.clock())

        return await self._change(tournament_id, step)

    async def leave(self, tournament_id: int, user: int) -> Tournament:
        async def step(t: Tournament) -> None:
            signing_up(t)
            entered(t, user)
            await self.repository.leave(t.record, user, self.clock())

        return await self._change(tournament_id, step)

    async def check_in(self, tournament_id: int, user: int) -> Tournament:
        async def step(t: Tournament) -> None:
            signing_up(t)
            opens = t.settings.check_in_opens
            if opens is None or self.clock() < opens:
                raise ServiceError("tournament.error.check_in_closed", name=quote(t.record.name))
            if entered(t, user).checked_in:
                raise ServiceError("tournament.error.checked_in")
            await self.repository.check_in(t.record, user, self.clock())

        return await self._change(tournament_id, step)

    async def start(self, tournament_id: int, user: int, can_manage: bool) -> Tournament:
        """The organiser (or a member who may manage the server) closes the sign-up;
        the first round is seated by :meth:`settle`."""

        async def step(t: Tournament) -> None:
            signing_up(t)
            organiser(t.record, user, can_manage)
            try:
                check_sign_ups(t.settings, len(t.entrants), MOST_PLAYERS)
            except SettingsRefusal as refusal:
                raise refused(refusal) from None
            await self.repository.start(t.record, [], self.clock())

        return await self._change(tournament_id, step)

    async def cancel(self, tournament_id: int, user: int, can_manage: bool) -> Tournament:
        """The organiser (or a manager) calls a tournament off before it starts."""

        async def step(t: Tournament) -> None:
            if t.record.status != "signup":
                raise ServiceError("tournament.error.cancel_started", name=quote(t.record.name))
            organiser(t.record, user, can_manage)
            await self.repository.end(t.record, "cancelled", self.clock())

        return await self._change(tournament_id, step)

    async def withdraw(
        self, guild_id: int, user: int, name: str | None = None
    ) -> tuple[Tournament, Outcome | None]:
        """``user`` leaves a tournament of the server (the one named ``name`` if they
        are in several): before the start, their sign-up goes; after it, they are seated
        in no later round, and the game they are playing plays on without them (a
        computer takes their seat). The tournament, and the change of that game."""
        entered_in = await self.repository.entered(guild_id, user)
        if name:
            entered_in = [r for r in entered_in if r.name.casefold() == name.strip().casefold()]
        if not entered_in:
            raise ServiceError("tournament.error.not_in_any")
        if len(entered_in) > 1:
            names = ", ".join(quote(r.name) for r in entered_in)
            raise ServiceError("tournament.error.which", names=names)
        record = entered_in[0]
        if record.status == "signup":
            return await self.leave(record.id, user), None

        async def step(t: Tournament) -> None:
            if t.record.status != "running":
                raise ServiceError("tournament.error.over", name=quote(t.record.name))
            if entered(t, user).withdrawn_after is not None:
                raise ServiceError("tournament.error.withdrawn")
            await self.repository.withdraw(t.record, user, t.record.rounds, self.clock())

        tournament = await self._change(record.id, step)
        playing = next(
            (
                table.thread_id
                for table in tournament.tables_of(tournament.record.rounds)
                if user in table.players and table.result is None and table.thread_id
            ),
            None,
        )
        left = None
        if playing is not None:
            with contextlib.suppress(ServiceError):  # the game ended meanwhile, or they left it
                left = await self.turns.leave_game(playing, user)
        return tournament, left

    async def _change(
        self, tournament_id: int, step: Callable[[Tournament], Awaitable[None]]
    ) -> Tournament:
        """``step`` on the tournament as stored, again on a fresh read should another
        change come first (:class:`TournamentChanged`); the tournament after it. Beaten
        every time (another process changing it too), the refusal names the tournament."""
        name = ""

        async def attempt() -> Tournament:
            nonlocal name
            current = await self.read(tournament_id)
            name = current.record.name
            await step(current)
            return await self.read(tournament_id)

        def busy() -> ServiceError:
            return ServiceError("tournament.error.busy", name=quote(name))

        async with self._locks.hold(tournament_id):
            return await retry(attempt, TournamentChanged, f"tournament {tournament_id}", busy)

    # --- the timer's part ----------------------------------------------------------
    async def due(self, shards: ShardPlan | None = None) -> list[int]:
        """Tournaments with something owed now (see :meth:`settle`)."""
        return await self.repository.due(self.clock(), shard_ids(shards))

    async def settle(self, tournament_id: int) -> Tournament:
        """Everything the store owes a tournament now: its ended tables' results, its
        start at the sign-up deadline, its next round once every table of the round has
        finished, its end after the last. Safe to repeat, here or in another process:
        each step is stored once."""
        async with self._locks.hold(tournament_id):
            t = await self.read(tournament_id)
            if t.record.status == "running":
                await self._keep_results(t)  # or another process kept them: read them all
                t = await self.read(tournament_id)
            if t.record.status == "signup" and self._deadline_passed(t.record):
                await self._begin(t)
                t = await self.read(tournament_id)
            if t.record.status == "running":
                await self._next(t)
            return await self.read(tournament_id)

    def _deadline_passed(self, record: TournamentRecord) -> bool:
        deadline = record.settings.deadline
        return deadline is not None and self.clock() >= deadline

    async def _begin(self, t: Tournament) -> None:
        """The sign-up deadline passed: who did not check in (when asked to) is dropped;
        too few left, and the tournament is called off."""
        checking = t.settings.check_in is not None
        dropped = [e.player for e in t.entrants if checking and not e.checked_in]
        try:
            check_sign_ups(t.settings, len(t.entrants) - len(dropped), MOST_PLAYERS)
        except SettingsRefusal:
            await self._stored(self.repository.end(t.record, "cancelled", self.clock()))
            return
        await self._stored(self.repository.start(t.record, dropped, self.clock()))

    async def _next(self, t: Tournament) -> None:
        """Seat the next round once the last is complete, or end after the last."""
        settings, number = t.settings, t.record.rounds
        if number and not complete(t.seated[number - 1], t.results):
            return
        if number >= settings.rounds:
            await self._stored(self.repository.end(t.record, "finished", self.clock()))
            return
        entrants = [
            replace(e, withdrawn_after=number)
            if is_anonymous(e.player) and e.withdrawn_after is None
            else e
            for e in t.players
        ]
        ratings = await self._ratings(t) if number == 0 else None
        round_ = next_round(settings, entrants, t.seated, t.results, t.record.seed, ratings)
        await self._stored(self.repository.seat(t.record, round_, self.clock()))
        log.info(
            "tournament %d: round %d seated (%d tables, %d byes, %d repeats)",
            t.record.id,
            round_.number,
            len(round_.tables),
            len(round_.byes),
            round_.repeats,
        )

    async def _stored(self, write: Awaitable[None]) -> None:
        """A step of :meth:`settle`; one another process made first is left as it made it."""
        try:
            await write
        except TournamentChanged:
            log.info("a tournament step was made elsewhere first")

    async def _ratings(self, t: Tournament) -> dict[int, int]:
        """The entrants' ratings on the server in the tournament's game, as people read
        them (:attr:`Rating.points`, the leaderboard's number), which round 1's message
        says it seats by; someone never rated in it has none."""
        rated = await self.store.ratings.of_variant(t.record.guild_id, t.settings.variant)
        return {p: Rating(r.mu, r.sigma, r.games).points for p, r in rated.items()}

    async def _keep_results(self, t: Tournament) -> None:
        """Store the result of every table whose game has ended."""
        for table in t.tables:
            if table.result is not None or table.game_id is None:
                continue
            ended = await self.games.read(table.game_id)
            if ended.record.is_active:
                continue
            moves = await self.games.moves(table.game_id)
            made_for = {m.player_id for m in moves if m.source in MADE_FOR}
            events = await self.games.events(table.game_id)
            ran_out = Counter(p for e in events if e.kind == "expired" for p in e.data["players"])
            result = table_result(table, ended.record, ended.game, made_for, ran_out)
            await self.repository.set_result(t.record.id, result, self.clock())

    async def settled(self, t: Tournament) -> None:
        """The channel shows everything of ``t``: nothing is owed until the next
        deadline (unless the tournament changed meanwhile: then it stays owed)."""
        record = t.record
        due = None
        if record.status == "signup":
            opens, deadline = record.settings.check_in_opens, record.settings.deadline
            due = opens if opens is not None and self.clock() < opens else deadline
        if due != record.next_due:
            await self.repository.set_due(record, due, self.clock())

    async def show(self, t: Tournament, shown: dict[str, object], **messages: int) -> None:
        """What the channel shows of ``t`` now (see :meth:`TournamentRepository.set_shown`)."""
        await self.repository.set_shown(t.record.id, shown, **messages)

    async def show_round(self, t: Tournament, round: int, message_id: int) -> None:
        await self.repository.set_round_message(t.record.id, round, message_id)

    # --- tables --------------------------------------------------------------------
    async def claim_thread(self, t: Tournament, table: TableRecord, thread_id: int) -> int:
        """The thread ``table`` plays in: ``thread_id``, unless another was claimed for
        it first (then that one; ``thread_id`` is the caller's to remove)."""
        return await self.repository.set_thread(t.record.id, table.round, table.number, thread_id)

    async def open_table(self, t: Tournament, table: TableRecord) -> list[Outcome]:
        """The table's game in its thread, started, and left at once by whoever withdrew
        since the round was seated: the changes to publish (none if it was started
        already, here or elsewhere)."""
        thread = table.thread_id
        if thread is None:
            raise ValueError(f"table {table.round}.{table.number} has no thread yet")
        record = await self._seated(t, table, thread)
        game_id = await self.repository.set_game(t.record.id, table.round, table.number, record.id)
        if game_id != record.id or record.status != "lobby":
            return []
        changes = [await self.lobby.begin(record.id, t.record.host_id)]
        gone = [e.player for e in t.entrants if e.withdrawn_after is not None]
        for player in (p for p in table.players if p in gone):
            changes.append(await self.turns.leave_game(thread, player))
        return changes

    async def _seated(self, t: Tournament, table: TableRecord, thread_id: int) -> GameRecord:
        """The table's game in ``thread_id``, its seats taken (opened now unless a try
        before opened it)."""
        try:
            return (await self.games.in_channel(thread_id)).record
        except ServiceError:
            pass
        seats, options = table_seats(t, table)
        return await self.lobby.open_seated(
            t.record.guild_id,
            thread_id,
            t.record.host_id,
            t.settings.variant,
            seats,
            options,
            t.settings.turn_time,
        )


def table_seats(t: Tournament, table: TableRecord) -> tuple[list[int], dict[str, object]]:
    """A table's seats, in an order drawn from the tournament's secret seed (who starts
    is chance, as at any table), and the options of its game."""
    computers = [computer_seat(k) for k in range(1, table.computers + 1)]
    seats = sorted(
        [*table.players, *computers], key=lambda p: seeded(t.record.seed, table.round, p)
    )
    options: dict[str, object] = {
        "rules": {},
        "fill_away": True,
        "tournament": {"id": t.record.id, "round": table.round, "table": table.number},
    }
    if computers:
        options["levels"] = {str(p): COMPUTER_LEVEL for p in computers}
    return seats, options


def table_result(
    table: TableRecord,
    record: GameRecord,
    game: Game | None,
    made_for: Collection[int],
    ran_out: Mapping[int, int],
) -> TableResult:
    """A table's result from its ended game: places as the game ranks them; played for
    a person when the game or a computer made a move of theirs (``made_for``), or their
    seat was away at the end; each person's decisions that ran out (``ran_out``: the
    deadlines that passed them by). A game ended without ranking (abandoned) is a draw:
    everyone at the table shares the places."""
    away = set(made_for) | set(Seats.of(record).away)
    computers = {p for p in record.players if is_computer(p)}
    if record.status == "finished" and game is not None:
        return TableResult.of(table.round, table.number, game.ranking(), computers, away, ran_out)
    totals = {p: s.total for p, s in game.scores().items()} if game is not None else {}
    return TableResult(
        table.round,
        table.number,
        tuple(
            SeatResult(p, totals.get(p, 0), 1, p in computers, p in away, ran_out.get(p, 0))
            for p in record.players
        ),
    )


def signing_up(t: Tournament) -> None:
    if t.record.status != "signup":
        raise ServiceError("tournament.error.closed", name=quote(t.record.name))


def entered(t: Tournament, user: int) -> EntrantRecord:
    found = t.entrant(user)
    if found is None:
        raise ServiceError("tournament.error.not_entered", name=quote(t.record.name))
    return found


def organiser(record: TournamentRecord, user: int, can_manage: bool) -> None:
    if user != record.host_id and not can_manage:
        raise ServiceError("tournament.error.organiser_only", host=f"<@{record.host_id}>")


__all__ = ["MOST_ENTERED", "MOST_OPEN", "Tournaments", "table_result"]
