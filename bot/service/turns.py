"""What players do in a running game: moves and passes, hints, coming back, leaving,
abandoning.

A click's checks (where it came from, whose turn and phase it is, whether the move is
legal, whether it is costly enough to be asked about first) are made once, on the one
record the change is decided on (see :mod:`bot.service.keeper`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.players import Hint, hint
from bot.records.options import Options
from bot.records.plans import Plan, Step
from bot.records.prefs import PrefsError
from bot.records.seats import Seats
from bot.rules import PASS, Decision, Event, Game, Move
from bot.service.ahead import checked_plan
from bot.service.errors import ServiceError
from bot.service.keeper import GameKeeper
from bot.service.lobby import Lobby
from bot.service.outcome import Outcome, Snapshot
from bot.service.play import Play
from bot.service.where import Where
from bot.service.writes import Abandon, Answer, Played, Tell, Write

Costly = Callable[[Game, int, Move], bool]
"""Whether a legal move costs so much that its player is asked first."""


class Turns:
    """The players' decisions and seats in running games."""

    def __init__(self, keeper: GameKeeper, lobby: Lobby) -> None:
        self.keeper = keeper
        self.lobby = lobby

    async def move(
        self,
        game_id: int,
        user: int,
        turn: int,
        phase: str | None,
        move: Move,
        *,
        where: Where | None = None,
        confirmed: bool = False,
        costly: Costly | None = None,
        ahead: tuple[Step, ...] = (),
    ) -> Outcome:
        """``user``'s ``move`` if it is still legal on ``turn`` (and ``phase``; None: the
        public Pass buttons made before phases were named on them, whatever the player
        decides now). Unless ``confirmed``, a move ``costly`` says so is not made but
        asked about (kind ``asked``); a confirmation of the move chosen already is kind
        ``chosen``; the choice made already, kind ``same``. ``ahead``: what the active
        player decides with it for later in the turn (Qwinto's re-throw rule with the
        throw); a new white-sum choice of the active player ends a plan made after the
        one before.

        The computer and away seats the game then waits for answer at once (see
        :class:`~bot.service.writes.Played`); the outcome tells both."""

        async def decide(current: Snapshot) -> Write:
            record, game = current.record, current.game
            if confirmed and game is not None and game.chosen_move(user) == move:
                return Tell("chosen")
            if not confirmed and asks(current, user, turn, phase, move, costly):
                return Tell("asked")
            game, legal, decision = checked_turn(current, user, turn, phase)
            if move not in legal:
                raise ServiceError("error.illegal")
            if game.chosen.get(user) == move:  # a double tap: the choice is already made
                return Answer(decision)
            play = Play(game, decision)
            seats = Seats.of(record)
            if user in seats.away and Options.of(record.options).fill_away:
                play.events.append(Event("away", user, {"reason": "back"}))
            seats = replanned(seats.back(user), game, decision, user, ahead)
            play.apply(user, move, "player")
            return Played(play, seats, alone=True)

        return await self.keeper.change(game_id, decide, where, user)

    async def plan(
        self,
        game_id: int,
        user: int,
        turn: int,
        steps: tuple[Step, ...],
        *,
        where: Where | None = None,
    ) -> Outcome:
        """``user`` decides ahead: ``steps`` for ``turn``, each checked against what the
        rules will allow as foreseen now (:func:`~bot.service.ahead.checked_plan`), in
        place of a plan made before. A first step whose moment has come already is made
        as a move (the game moved on while the member chose), the steps after it kept
        as the plan (checked at their moment, which may be at once)."""

        async def decide(current: Snapshot) -> Write:
            record = current.record
            game = playing(current, user, current.game.turn if current.game else turn)
            decision = game.decision()
            step = steps[0] if steps else None
            if (
                step is not None
                and step.move is not None
                and turn == decision.turn
                and step.phase == decision.phase
                and user in decision.waiting
            ):
                return await self._now(current, user, steps, decision)
            plan = checked_plan(game, user, turn, steps)
            seats = Seats.of(record)
            return Played(Play(game), seats.planning({**seats.plans, user: plan}), alone=True)

        return await self.keeper.change(game_id, decide, where, user)

    async def _now(
        self, current: Snapshot, user: int, steps: tuple[Step, ...], decision: Decision
    ) -> Write:
        """A plan whose first step's moment has come: that step made as any move, the
        steps after it ``user``'s plan in place of the one before."""
        assert current.game is not None and steps[0].move is not None
        move = steps[0].move
        if move not in current.game.legal_moves(user):
            raise ServiceError("error.illegal")
        play = Play(current.game, decision)
        play.apply(user, move, "player")
        seats = Seats.of(current.record).back(user)
        plans = {p: v for p, v in seats.plans.items() if p != user}
        if steps[1:]:
            plans[user] = Plan(decision.turn, steps[1:])
        return Played(play, seats.planning(plans), alone=True)

    async def unplan(self, game_id: int, user: int, *, where: Where | None = None) -> Outcome:
        """``user`` decides later after all: their plan is over, and the game asks them
        when its moment comes (kind ``same`` if they had none)."""

        async def decide(current: Snapshot) -> Write:
            game = playing(current, user, current.game.turn if current.game else 0)
            seats = Seats.of(current.record)
            if user not in seats.plans:
                return Tell()
            plans = {p: v for p, v in seats.plans.items() if p != user}
            return Played(Play(game), seats.planning(plans))

        return await self.keeper.change(game_id, decide, where, user)

    async def choose_for_game(
        self, game_id: int, user: int, *, where: Where | None = None, **choices: str
    ) -> Outcome:
        """``user``'s ``choices`` for this game only (see :data:`bot.records.prefs.GAME_ONLY`),
        in force at once: a standing choice may answer what waits for them now."""

        async def decide(current: Snapshot) -> Write:
            record, game = current.record, current.game
            if record.status != "running" or game is None:
                raise ServiceError("error.game_over")
            if user not in record.players:
                raise ServiceError("error.not_player")
            seats = Seats.of(record)
            try:
                prefs = seats.prefs_of(user).for_this_game(**choices)
            except PrefsError as refused:
                raise ServiceError(refused.key, **refused.values) from None
            return Played(Play(game), seats.with_prefs(user, prefs))

        return await self.keeper.change(game_id, decide, where, user)

    async def waiting_anywhere(self, user: int) -> list[Snapshot]:
        """The running games on every server that wait for ``user``'s decision (one
        with a real choice), the one waiting since the latest first: their inbox."""
        found = [
            snapshot
            for snapshot in await self.keeper.seated(user)
            if snapshot.game is not None and asks_of(snapshot.game, user)
        ]
        return sorted(found, key=lambda s: -(s.record.stage_started or 0.0))

    async def open_sheet(
        self, game_id: int, user: int, turn: int, *, where: Where | None = None
    ) -> Outcome:
        """**Open my sheet**: the game as stored now, if ``user`` plays in it on ``turn``;
        a player whose seat a computer plays is back (kind ``changed``: the channel is
        to hear of it)."""
        current = await self.keeper.read(game_id, where, user)
        playing(current, user, turn)
        return await self._back(current, user) or Outcome(current.record, current.game, kind="same")

    async def come_back(self, game_id: int, user: int) -> Outcome | None:
        """A player whose seat a computer plays (``fill_away``) opened their sheet: the
        game waits for them again from their next decision. None if nothing changed."""
        return await self._back(await self.keeper.read(game_id), user)

    async def _back(self, current: Snapshot, user: int) -> Outcome | None:
        if not away_filled(current, user):
            return None

        async def decide(current: Snapshot) -> Write:
            record, game = current.record, current.game
            if game is None or not away_filled(current, user):
                return Tell()
            play = Play(game)
            play.events.append(Event("away", user, {"reason": "back"}))
            return Played(play, Seats.of(record).back(user))

        back = await self.keeper.change(current.record.id, decide)
        return back if back.changed else None

    async def hint(
        self, game_id: int, user: int, turn: int, *, where: Where | None = None
    ) -> tuple[Game, Hint]:
        """What ``hard`` would do for ``user`` now, in a game started with hints."""
        current = await self.keeper.read(game_id, where, user)
        if not Options.of(current.record.options).hints:
            raise ServiceError("error.no_hints")
        game = playing(current, user, turn)
        if not game.legal_moves(user):
            raise ServiceError("error.nothing_to_hint")
        return game, await asyncio.to_thread(hint, game, user)

    async def leave_game(self, channel_id: int, user: int) -> Outcome:
        """``/qwixx leave``: out of a lobby, or give up a seat in a running game."""
        found = await self.keeper.in_channel(channel_id)
        if found.record.status == "lobby":
            return Outcome(await self.lobby.leave(found.record.id, user), None)

        async def decide(current: Snapshot) -> Write:
            record, game = current.record, current.game
            if record.status != "running" or game is None:
                raise ServiceError("error.game_over")
            seats = Seats.of(record)
            if user not in record.players or user in seats.away:
                raise ServiceError("error.not_player")
            play = Play(game)
            seats = seats.leave(user, play.events)
            return Played(play, seats)

        return await self.keeper.change(found.record.id, decide)

    async def abandon(self, channel_id: int, user: int, can_manage: bool) -> Outcome:
        """``/qwixx abandon`` by the host or a moderator: the channel's game ends unranked."""
        found = await self.keeper.in_channel(channel_id)

        async def decide(current: Snapshot) -> Write:
            record, game = current.record, current.game
            if not record.is_active:
                raise ServiceError("error.no_game")
            if user != record.host_id and not can_manage:
                raise ServiceError("error.abandon_denied")
            event = (
                (0, "lobby_closed", user, {"reason": "abandoned"})
                if game is None
                else (game.turn, "game_over", user, {"reason": "abandoned"})
            )
            return Abandon([event])

        return await self.keeper.change(found.record.id, decide)

    async def waiting_for(self, guild_id: int, user: int) -> list[Snapshot]:
        """The running games of a server that wait for ``user``'s decision."""
        return [
            found
            for found in await self.keeper.running(guild_id)
            if found.game is not None and user in found.game.decision().waiting
        ]


def playing(current: Snapshot, user: int, turn: int) -> Game:
    """The running game, if ``user`` plays in it and ``turn`` is still current."""
    record, game = current.record, current.game
    if record.status == "lobby" or game is None:
        raise ServiceError("error.not_started")
    if record.status != "running":
        raise ServiceError("error.game_over")
    if user not in record.players:
        raise ServiceError("error.not_player")
    if turn != game.turn:
        raise ServiceError("error.stale_turn", turn=turn, current=game.turn)
    return game


def checked_turn(
    current: Snapshot, user: int, turn: int, phase: str | None
) -> tuple[Game, list[Move], Decision]:
    """The game, ``user``'s legal moves in it (there are some, or a refusal) and the
    decision pending."""
    game = playing(current, user, turn)
    decision = game.decision()
    if phase is not None and phase != decision.phase:
        raise ServiceError("error.stale_phase")
    legal = game.legal_moves(user)
    if not legal:
        names = ", ".join(f"<@{p}>" for p in sorted(decision.waiting))
        raise ServiceError("error.not_your_decision", names=names)
    return game, legal, decision


def asks(
    current: Snapshot, user: int, turn: int, phase: str | None, move: Move, costly: Costly | None
) -> bool:
    """Whether ``move`` is a legal move of the current decision that ``costly`` says to
    ask about first."""
    game = current.game
    return not (
        costly is None
        or game is None
        or current.record.status != "running"
        or game.turn != turn
        or game.decision().phase != phase
        or move not in game.legal_moves(user)
        or not costly(game, user, move)
    )


def away_filled(current: Snapshot, user: int) -> bool:
    """Whether a computer plays ``user``'s seat in the running game."""
    record = current.record
    return (
        record.status == "running"
        and current.game is not None
        and user in Seats.of(record).away
        and Options.of(record.options).fill_away
    )


def asks_of(game: Game, user: int) -> bool:
    """Whether ``game`` waits for a decision of ``user``'s with a real choice."""
    return user in game.decision().waiting and game.legal_moves(user) not in ([PASS], [])


def replanned(
    seats: Seats, game: Game, decision: Decision, user: int, ahead: tuple[Step, ...]
) -> Seats:
    """The seats once ``user`` decided in ``decision``: ``ahead`` planned with it (checked
    as any plan), or, for the active player's new white-sum choice, the plan made after
    the choice before over."""
    if ahead:
        return seats.planning({**seats.plans, user: checked_plan(game, user, decision.turn, ahead)})
    plan = seats.plans.get(user)
    if (
        plan is not None
        and plan.turn == decision.turn
        and user == decision.active
        and decision.phase in game.simultaneous_phases
    ):
        return seats.planning({p: v for p, v in seats.plans.items() if p != user})
    return seats
