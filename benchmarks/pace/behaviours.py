"""How a person plays the bot: a behaviour is what each member sets up before a game and
what a look of theirs does, as the service calls it makes and the taps they cost.

A :class:`Member` is a person at the table as a behaviour sees them: each of its calls
is one Discord interaction (one tap) made through the service with the adapter's own
arguments, and a stored move is one decision taken by hand, with the taps spent on it.
The table (:mod:`benchmarks.pace.table`) calls :meth:`Behaviour.prepare` before the
game starts, :meth:`Behaviour.visit` when a member's look begins, and
:meth:`Behaviour.answer` whenever the game waits on a member who is looking.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.cogs.views import costly
from bot.cogs.writer import TOKEN_LIFETIME
from bot.players import choose
from bot.records.plans import UNLESS_WRITABLE, Step
from bot.rules import PASS, Game, Move
from bot.service.games import GameService
from bot.service.outcome import Outcome, Snapshot
from bot.service.where import Where

from .people import Person
from .recorders import DirectRecorder

DEFAULTS = {
    "others": "ask",
    "timeout": "pass",
    "fallback": "ask",
    "dm": False,
    "quiet": None,
    "zone": "UTC",
    "away_until": None,
    "nudge": False,
}
"""A member's preferences as nobody chose any (:class:`bot.records.prefs.Prefs`)."""


async def current(service: GameService, game_id: int) -> Snapshot:
    """The game as the service keeps it, else as stored (it lets an ended game go)."""
    return service.keeper.kept(game_id) or await service.keeper.read(game_id)


@dataclass(frozen=True)
class Decided:
    """A decision taken by hand."""

    member: int
    at: float
    turn: int
    phase: str
    taps: tuple[str, ...]
    """The interactions it took, in order: ``sheet`` (Open my sheet), ``move``, ``yes``
    (the confirmation of a costly move), ``pass`` (the public Pass)."""
    notified: bool
    """Taken in a look that a notification brought."""


class Member:
    """A person at the table: their service calls, each one tap, and what they decided.

    ``changed`` is the adapter's part after a click (open sheets move on, the channel
    hears of the change: :meth:`benchmarks.pace.table.Table.changed`)."""

    def __init__(
        self,
        person: Person,
        service: GameService,
        game_id: int,
        where: Where,
        changed: Callable[[Outcome], Awaitable[None]],
        direct: DirectRecorder,
        spend: Callable[[float], object],
    ) -> None:
        self.person = person
        self.id = person.member
        self.service = service
        self.game_id = game_id
        self.where = where
        self.changed = changed
        self.direct = direct
        """The bot's direct messages, as the members see them."""
        self.spend = spend
        """Moves the clock on by the seconds given (the time a tap takes)."""
        self.notified = False
        """Whether the current look was brought by a notification (set by the table)."""
        self.decided: list[Decided] = []
        self._taps: list[str] = []
        self._sheet: tuple[int, float] | None = None
        """The turn the member's sheet was last shown for, and when its token was made."""

    @property
    def now(self) -> float:
        return self.service.clock()

    def tap(self, kind: str) -> None:
        """One interaction: it takes its time, and counts for the next decision."""
        self.spend(self.person.model.tap_seconds)
        self._taps.append(kind)

    async def game(self) -> Game:
        """The game as stored now."""
        game = (await current(self.service, self.game_id)).game
        assert game is not None
        return game

    def choice(self, game: Game) -> Move:
        """What the Hard computer player would decide for this member now (both
        behaviours play the same strategy)."""
        phase = game.decision().phase
        rng = random.Random(f"{game.seed}:{game.turn}:{phase}:{self.id}")
        return choose(game, self.id, rng, "hard")

    def letter(self, game: Game) -> bool:
        """Whether a direct message of the bot's offers this member their decision now,
        its buttons one tap from it."""
        return self.direct.letter_for(self.id, game.turn, game.decision().phase)

    def sheet_open(self, turn: int) -> bool:
        """Whether the member's private sheet still follows this turn by itself: shown for
        it, by a click less than the token's 15 minutes ago (see bot/cogs/sheets.py)."""
        sheet = self._sheet
        return sheet is not None and sheet[0] == turn and self.now - sheet[1] < TOKEN_LIFETIME

    async def open_sheet(self, game: Game) -> Outcome:
        """**Open my sheet** on the turn message."""
        self.tap("sheet")
        outcome = await self.service.turns.open_sheet(
            self.game_id, self.id, game.turn, where=self.where
        )
        self._sheet = (game.turn, self.now)
        if outcome.changed:  # back from away: the channel hears of it
            await self.changed(outcome)
        return outcome

    async def move(
        self, game: Game, move: Move, confirmed: bool = False, ahead: tuple[Step, ...] = ()
    ) -> Outcome:
        """A move on the sheet (a costly one is asked about first: kind ``asked``);
        ``ahead``: what the member decides with it for later in the turn."""
        self.tap("yes" if confirmed else "move")
        phase = game.decision().phase
        outcome = await self.service.turns.move(
            self.game_id,
            self.id,
            game.turn,
            phase,
            move,
            where=self.where,
            confirmed=confirmed,
            costly=costly,
            ahead=ahead,
        )
        self._sheet = (game.turn, self.now)  # the sheet is shown again, by this click
        return await self._stored(game, phase, outcome)

    async def plan(self, game: Game, steps: tuple[Step, ...]) -> Outcome:
        """A decision ahead on the sheet (its last step is the one this tap chose)."""
        self.tap("ahead")
        outcome = await self.service.turns.plan(
            self.game_id, self.id, game.turn, steps, where=self.where
        )
        self._sheet = (game.turn, self.now)
        return await self._stored(game, steps[-1].phase, outcome)

    async def pass_publicly(self, game: Game) -> Outcome:
        """The public **Pass** on the turn message (no sheet is shown)."""
        self.tap("pass")
        phase = game.decision().phase
        outcome = await self.service.turns.move(
            self.game_id, self.id, game.turn, phase, PASS, where=self.where
        )
        return await self._stored(game, phase, outcome)

    async def _stored(self, game: Game, phase: str, outcome: Outcome) -> Outcome:
        if outcome.changed:
            self.decided.append(
                Decided(self.id, self.now, game.turn, phase, tuple(self._taps), self.notified)
            )
            self._taps = []
            await self.changed(outcome)
        return outcome


class Behaviour(Protocol):
    """What the simulated members do (see the module)."""

    name: str

    async def prepare(self, members: Sequence[Member]) -> None:
        """Before the game starts: what each member sets up."""
        ...

    async def visit(self, member: Member) -> None:
        """A look of ``member`` begins (whether or not the game waits on them)."""
        ...

    async def answer(self, member: Member) -> None:
        """The game waits on ``member``, who is looking: decide (one decision at least)."""
        ...


class Today:
    """The bot as it is: nothing set up before the game; a look answers a decision on the
    member's sheet — **Open my sheet** unless their sheet still follows the turn, then
    the move, then **Yes** if the move is costly enough to be asked about — or, for a
    pass with no sheet open, with the public **Pass**."""

    name = "today"

    async def prepare(self, members: Sequence[Member]) -> None:
        """Nothing chosen: each member's defaults are the bot's (one store serves both
        behaviours, and members are the same people in both)."""
        for member in members:
            await member.service.members.change(member.id, **DEFAULTS)

    async def visit(self, member: Member) -> None:
        return None

    async def answer(self, member: Member) -> None:
        game = await member.game()
        move = member.choice(game)
        at_hand = member.sheet_open(game.turn) or member.letter(game)
        if move == PASS and not at_hand:
            await member.pass_publicly(game)
            return
        if not at_hand:
            await member.open_sheet(game)
        if (await member.move(game, move)).kind == "asked":
            await member.move(game, move, confirmed=True)


class Planned(Today):
    """The bot as members use what it offers now, each the same way:

    * before the game (:meth:`prepare`), each member sets their defaults once: on other
      people's turns the Hard computer chooses for them — the strategy every decision
      follows in both behaviours, so the games stay the ones today's members play —
      and when their time runs out, the same; direct messages on, their night as
      quiet hours, and reminders soon and again (after 1, 2, 4, 8 and 12 hours of
      a decision open); a decision a direct message offers them is one tap on it;
    * in their own turn (:meth:`answer`), the active player of the Qwixx family decides
      both actions in one visit: the white sum, then the coloured die foreseen (and On
      Board's pawn), each one tap, the Hard computer's choice on the game foreseen;
      Qwinto's active player throws with the re-throw rule "again if I cannot write
      it" (their remembered choice: no tap of its own);
    * anything else that waits for them (a choice ahead that could not be made) they
      answer as today.
    """

    name = "new"
    others = "computer"
    """What the members chose for other people's turns."""

    async def prepare(self, members: Sequence[Member]) -> None:
        for member in members:
            await member.service.members.change(
                member.id,
                others=self.others,
                timeout="computer",
                dm=True,
                quiet=member.person.night(),
                zone="UTC",
                nudge=True,
            )

    async def answer(self, member: Member) -> None:
        game = await member.game()
        decision = game.decision()
        if member.id != decision.active:
            await super().answer(member)
            return
        if decision.phase == "roll":
            if not member.sheet_open(game.turn) and not member.letter(game):
                await member.open_sheet(game)
            rule = (Step("reroll", rule=UNLESS_WRITABLE),)
            await member.move(game, member.choice(game), ahead=rule)
            return
        if decision.phase not in game.simultaneous_phases or game.variant == "qwinto":
            await super().answer(member)
            return
        first = member.choice(game)
        await super().answer(member)
        await self.ahead(member, first)

    async def ahead(self, member: Member, first: Move) -> None:
        """The coloured die (and On Board's pawn) chosen ahead, a tap each, while the
        white sums of the others are awaited."""
        steps: tuple[Step, ...] = ()
        for _ in range(2):
            game = await member.game()
            decision = game.decision()
            if member.id not in decision.waiting or decision.phase not in game.simultaneous_phases:
                return  # everyone chose: what is next waits for the member as a decision
            foreseen = game.foresee(member.id, [first, *(s.move for s in steps if s.move)])
            if foreseen is None or foreseen.turn != game.turn or foreseen.finished:
                return
            options = foreseen.legal_moves(member.id)
            if not options:
                return
            rng = random.Random(f"{game.seed}:{game.turn}:ahead:{len(steps)}:{member.id}")
            choice = choose(foreseen, member.id, rng, "hard")
            steps = (*steps, Step(foreseen.decision().phase, choice))
            await member.plan(game, steps)


class Asking(Planned):
    """As :class:`Planned`, but the members keep deciding on other people's turns
    themselves (``others`` left at "ask me"): what the new behaviour gives a group that
    delegates none of its white sums."""

    name = "asking"
    others = "ask"
