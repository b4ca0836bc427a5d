"""Moves made in one go and stored together, and the seats a game stops waiting for."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.players import DEFAULT_LEVEL, LEVELS, choose, is_computer
from bot.records import GameRecord
from bot.rules import PASS, Decision, Event, Game, Move
from bot.rules.base import dice_rng, score_of
from bot.service.memo import IdentityMemo

STAND_IN_LEVEL = "normal"  # who plays an away seat of a game started with fill_away


@dataclass(frozen=True)
class Options:
    """How a game is played beyond its rules, as stored in ``record.options``.

    ``levels``: each computer seat's level; ``solo``: a one-person practice game;
    ``hints``: sheets carry a Hint button; ``fill_away``: a computer plays away seats.
    """

    levels: Mapping[int, str] = field(default_factory=dict)
    solo: bool = False
    hints: bool = False
    fill_away: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Options:
        """A record's options, read once per ``options`` object (twice a click)."""
        return _OPTIONS(options)

    @classmethod
    def read(cls, options: Mapping[str, Any]) -> Options:
        levels = {int(p): str(v) for p, v in options.get("levels", {}).items() if v in LEVELS}
        return cls(
            levels,
            bool(options.get("solo")),
            bool(options.get("hints")),
            bool(options.get("fill_away")),
        )

    def level(self, player: int) -> str:
        """The level a computer plays ``player``'s seat at."""
        return self.levels.get(player, DEFAULT_LEVEL) if is_computer(player) else STAND_IN_LEVEL

    @property
    def counted(self) -> bool:
        """Whether the game may count for the leaderboard at all."""
        return not (self.solo or self.hints)


class Play:
    """Moves applied to a game, kept to be stored together in one transaction."""

    LIMIT = 10_000  # moves the game may make for absent players in one go

    def __init__(self, game: Game, before: Decision | None = None) -> None:
        """``before``: ``game``'s pending decision, if known already."""
        self.game = game
        self.before = game.decision() if before is None else before
        self.moves: list[tuple[int, dict[str, Any], str]] = []
        self.events: list[Event] = []
        self.covered: set[int] = set()  # people whose seat a computer played here
        self.unattended = True
        """Whether the game may wait for seats nobody clicks for once stored (found out
        when the change is made, :func:`bot.service.writes.change_of`)."""

    def apply(self, player: int, move: Move, source: str) -> None:
        before = self.game
        self.game, events = before.apply(player, move)
        self.moves.append((player, move.to_json(), source))
        self.events += with_scores(self.game, told_choices(before, events))

    def event_rows(self) -> list[tuple[int, str, int | None, dict[str, Any]]]:
        """The events to store, each with the turn it belongs to."""
        return event_rows(self.before.turn, self.events)

    def settle(self, players: Collection[int], source: str, this_turn: bool = False) -> None:
        """Make the fallback move for each of ``players`` the game waits for, until it
        waits for none of them (within this turn only, if ``this_turn``)."""
        turn = self.game.turn
        for _ in range(self.LIMIT):
            if self.game.finished or (this_turn and self.game.turn != turn):
                return
            absent = sorted(self.game.decision().waiting & set(players))
            if not absent:
                return
            self.apply(absent[0], self.game.fallback_move(absent[0]), source)

    def for_the_absent(
        self, away: Collection[int], options: Options | None = None, fill: bool = False
    ) -> None:
        """Computer seats choose at their level; away seats make the fallback move or,
        if ``fill``, are played by a computer; until the game waits for a present
        human (or ends)."""
        for _ in range(self.LIMIT):
            if self.game.finished:
                return
            waiting = self.game.decision().waiting
            computer = sorted(p for p in waiting if is_computer(p))
            filled = sorted(waiting & set(away)) if fill else []
            if computer or filled:
                self.choose_for((computer or filled)[0], options or Options())
            elif waiting & set(away):
                self.settle(away, "away")
            else:
                return

    def choose_for(self, player: int, options: Options) -> None:
        """A computer decides for ``player`` (a computer seat, or an away one it fills)."""
        rng = dice_rng(
            self.game.seed, "computer", self.game.turn, self.game.decision().phase, player
        )
        move = choose(self.game, player, rng, options.level(player))
        if is_computer(player):
            self.apply(player, move, "computer")
        else:
            self.apply(player, move, "stand_in")
            self.covered.add(player)


def with_scores(game: Game, events: list[Event]) -> list[Event]:
    """``events`` (of one move, ``game`` the game after it), with everyone's totals told
    at the end of each turn that ended in them, and at the end if the game did.

    One move may end several turns: the rules play out at once the turns in which nobody
    has a decision, and those change the sheets by their penalties (Qwinto: failed
    throws) alone. So the totals at an earlier turn's end are the last ones without the
    penalties taken after it."""
    ends = [i for i, event in enumerate(events) if event.kind == "turn"]
    if game.finished:
        ends.append(len(events))
    if not ends:
        return events
    scores = game.scores()
    told = list(events)
    for end in reversed(ends):  # inserting from the back keeps the earlier places
        later = Counter(e.player for e in events[end:] if e.kind in PENALTIES)
        totals = {
            str(p): score_of(p, s.rows, s.penalties - later[p], s.bonus).total
            for p, s in scores.items()
        }
        told.insert(end, Event("scores", None, {"totals": totals}))
    return told


PENALTIES = ("penalty", "failed_throw")
"""The events of a turn nobody had a decision in that change a score."""


def told_choices(before: Game, events: list[Event]) -> list[Event]:
    """``events`` of a move made in ``before``, each pass of the decision it settled
    marked ``had_move`` when that player could have done something else: the story tells
    a computer's pass apart from having nothing to do. The passes of turns played out
    after it are the rules' own (nobody there had a move)."""
    marked = events
    for i, event in enumerate(events):
        if event.kind == "turn":
            break
        if (
            event.kind == "passed"
            and event.data.get("phase") == before.phase
            and event.player is not None
            and before.legal_moves(event.player) != [PASS]
        ):
            marked = marked if marked is not events else list(events)
            marked[i] = Event("passed", event.player, {**event.data, "had_move": True})
    return marked


def event_rows(turn: int, events: list[Event]) -> list[tuple[int, str, int | None, dict[str, Any]]]:
    """Events as stored: ``(turn, kind, player, data)``; a "turn" event opens its turn."""
    rows = []
    for event in events:
        if event.kind == "turn":
            turn = int(event.data["turn"])
        rows.append((turn, event.kind, event.player, event.data))
    return rows


@dataclass(frozen=True)
class Seats:
    """Who the game stops waiting for: players away (three decisions in a row let
    expire, or left), each player's current run of expired decisions, and the people
    whose seat a computer played at some point (``covered``: their result counts for
    nobody)."""

    away: frozenset[int] = frozenset()
    streak: dict[int, int] = field(default_factory=dict)
    covered: frozenset[int] = frozenset()

    AWAY_AFTER = 3

    @classmethod
    def of(cls, record: GameRecord) -> Seats:
        """A record's seats, read once per ``presence`` object (once a click)."""
        return _SEATS(record.presence)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Seats:
        return cls(
            frozenset(data.get("away", [])),
            {int(p): n for p, n in data.get("streak", {}).items()},
            frozenset(data.get("covered", [])),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "away": sorted(self.away),
            "streak": {str(p): n for p, n in self.streak.items()},
        }
        if self.covered:
            data["covered"] = sorted(self.covered)
        return data

    def back(self, player: int) -> Seats:
        """A player who decides is here again (these very seats if nothing changes, as
        on most clicks: then nothing of them is written)."""
        if player not in self.away and self.streak.get(player, -1) == 0:
            return self
        return Seats(self.away - {player}, {**self.streak, player: 0}, self.covered)

    def cover(self, players: Collection[int]) -> Seats:
        """``players``' seats were played by a computer."""
        if self.covered.issuperset(players):
            return self
        return Seats(self.away, self.streak, self.covered | frozenset(players))

    def unattended(self, decision: Decision) -> bool:
        """Whether ``decision`` waits for a seat nobody clicks for: a computer's, or an
        away player's."""
        waiting = decision.waiting
        return any(map(is_computer, waiting)) or not waiting.isdisjoint(self.away)

    def people_present(self, players: Collection[int]) -> bool:
        return any(not is_computer(p) and p not in self.away for p in players)

    def expired(self, late: Collection[int], events: list[Event], reason: str = "expired") -> Seats:
        """``reason``: "stand_in" when a computer will play the seats that go away."""
        streak = {**self.streak, **{p: self.streak.get(p, 0) + 1 for p in late}}
        gone = {p for p in late if streak[p] >= self.AWAY_AFTER and p not in self.away}
        events += [Event("away", p, {"reason": reason}) for p in sorted(gone)]
        return Seats(self.away | gone, streak, self.covered)

    def leave(self, player: int, events: list[Event]) -> Seats:
        events.append(Event("away", player, {"reason": "left"}))
        return Seats(self.away | {player}, self.streak, self.covered)


_OPTIONS: IdentityMemo[Mapping[str, Any], Options] = IdentityMemo(Options.read)
_SEATS: IdentityMemo[Mapping[str, Any], Seats] = IdentityMemo(Seats.read)
