"""What a decision asks the games' keeper to store (:mod:`bot.service.keeper`).

A service decides a change on the game as kept (a :class:`~bot.service.outcome.Snapshot`)
and returns one of these values; the keeper stores it by compare-and-set and keeps what
it stored. :func:`change_of` works out what a :class:`Played` stores.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.records.games import NO_TIMING, EventRow, GameChange, GameRecord, Timing
from bot.records.options import Options
from bot.records.seats import Seats
from bot.rules import VARIANTS, Decision, Event, Game
from bot.service.outcome import Kind, Snapshot
from bot.service.play import Play
from bot.service.results import game_results
from bot.service.timing import DecisionClock


@dataclass(frozen=True, slots=True)
class Seat:
    """The lobby's players in seat order, and its options when given (a computer seat
    and its level)."""

    players: Sequence[int]
    options: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """The lobby's ``game`` begins, the clock of its first decision running from now;
    ``seats``: with the people's preferences, as they are at the start."""

    game: Game
    seats: Seats | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """What ``play`` did to the running game, ``seats`` as they are after it, stored
    with the answers of the seats nobody clicks for (computers', away players'), worked
    out on a thread. ``alone``: a person's move, stored alone; those seats then answer
    in a write of their own."""

    play: Play
    seats: Seats
    alone: bool = False


@dataclass(frozen=True, slots=True)
class Retime:
    """The running game's decision clock alone (a reminder went out); ``told``: what
    the outcome tells of it."""

    timing: Timing
    told: Sequence[Event] = ()


@dataclass(frozen=True, slots=True)
class Repace:
    """The running game is played at another pace: ``turn_time`` a decision from now
    on (the pending one's clock starts again), its ``options`` and ``seats`` as they
    then are, storing ``events`` (of the turn under way)."""

    turn_time: int
    options: dict[str, Any]
    seats: Seats
    events: Sequence[Event] = ()


@dataclass(frozen=True, slots=True)
class Abandon:
    """The lobby or running game ends without a ranking, storing ``events``; ``told``:
    what the outcome tells of it."""

    events: Sequence[EventRow]
    told: Sequence[Event] = ()


@dataclass(frozen=True, slots=True)
class Tell:
    """Nothing to store: the outcome is of ``kind`` (see
    :attr:`~bot.service.outcome.Outcome.kind`), telling ``events``, the decision
    ``before`` them."""

    kind: Kind = "same"
    events: Sequence[Event] = ()
    before: Decision | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """Nothing of the click to store (a double tap on decision ``before``): the seats
    nobody clicks for answer, should the game wait for them."""

    before: Decision


Write = Seat | Start | Played | Retime | Repace | Abandon | Tell | Answer
Decide = Callable[[Snapshot], Awaitable[Write]]
"""A change: decided on the game as kept (else as read), what to store."""


def opening(game: Game) -> list[Event]:
    """The first turn's opening, as later turns are opened by the rules' "turn" event."""
    dice = game.dice_on_table()
    return [Event("turn", game.active, {"turn": game.turn, **({"dice": dice} if dice else {})})]


def waits_unattended(record: GameRecord, game: Game | None, now: float) -> bool:
    """Whether the running game waits for a seat whose decision is known at ``now``:
    a computer's, an away player's, or one a member's absence, plan or standing choice
    answers (which :meth:`Play.answer` decides for)."""
    return (
        record.status == "running"
        and game is not None
        and not game.finished
        and Seats.of(record).answered(game, now)
    )


def change_of(
    record: GameRecord,
    play: Play,
    seats: Seats,
    clock: Callable[[], float],
    answered: bool = True,
) -> GameChange:
    """What to store of ``play``, with a fresh clock when a new decision began.

    ``answered``: computer and away seats decide first, so the game then waits for
    people only. Without (a person's move, stored alone), a game left waiting for
    such seats is due at once, so that the timer has them answer should nothing
    else.
    """
    options = Options.of(record.options)
    now = clock()
    if answered:
        fill = options.fill_away and seats.people_present(record.players)
        seats = play.answer(seats, options, now, fill)
    else:
        seats = seats.planning(play.close_plans(seats.plans))
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
        play.unattended = seats.answered(game, now)
        timing = timing_of(record, play, decision, clock, answered, seats)
    else:
        play.unattended, timing = False, NO_TIMING
    presence = None if seats is Seats.of(record) else seats.to_json()  # None: unchanged
    return GameChange(
        play.moves, game.to_json(), status, results, timing, presence, play.event_rows()
    )


def timing_of(
    record: GameRecord,
    play: Play,
    now: Decision,
    clock: Callable[[], float],
    answered: bool,
    seats: Seats | None = None,
) -> Timing | None:
    """The clock of the running game's pending decision ``now`` (None: the clock runs
    on): fresh when a new decision began, timed by ``seats``' people (quiet hours,
    reminders soon and again). A
    person's move that leaves the game waiting for seats nobody clicks for makes it
    due at once (the timer has them answer, should nothing else); their answer makes
    it due again when its clock says."""
    before = play.before
    people = () if seats is None else seats.timed
    fresh = now.turn != before.turn or now.phase != before.phase
    timing = DecisionClock.start(clock(), record.turn_time, people).timing() if fresh else None
    if answered:
        kept = DecisionClock.of(record, people) if timing is None else None
        return timing if kept is None else kept.timing()
    if not play.unattended:
        return timing
    if timing is not None:
        return replace(timing, next_due=clock())
    return Timing(record.stage_started, record.deadline, record.reminders, clock())


def too_few(record: GameRecord, seats: Seats, options: Options) -> bool:
    """Whether too few seats are left to play on: with ``fill_away``, no person present;
    else fewer seats than the variant needs (one for solo practice)."""
    if options.fill_away:
        return not seats.people_present(record.players)
    needed = 1 if options.solo else VARIANTS[record.variant].min_players
    return len(record.players) - len(seats.away) < needed
