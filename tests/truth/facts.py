"""What happened in a game, turn by turn, recomputed from its seed and stored move log
through the rules: the facts the channel's lines are held to.

The rules play some turns inside one move (a turn nobody can write in ends at once, and
the next begins): the replay watches the rules at each turn's end and at each decision
(:func:`watched`), so a turn played inside another's move still has its own scores and
the options everyone had. Nothing here reads the channel's code: the facts come from
the rules, the move log's sources, the ratings' pure functions and what the table did.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import log, sqrt
from typing import Any

from bot.players import is_computer
from bot.records.games import GameRecord, MoveRecord
from bot.records.options import Options
from bot.rules import PASS, VARIANTS, Event, Game, Move, dice_version_of, game_from_json
from bot.service.ratings import Rating, match_of, rate

Snapshot = Callable[[str, Game, Any], None]
"""Told by a watched game: what (``end``: a turn ended, the detail its number; ``dice``:
a turn's dice are thrown; ``options``: everyone's decision opens, the detail its phase;
``active``: the active player's does, the detail their options), and the game then."""


RULED = (
    "standing_safe",
    "standing_hard",
    "away_until",
    "timeout_hard",
    "ahead",
    "ahead_fallback",
)
"""The move log's sources of decisions a rule made for a person: their standing choice,
their absence until a day, their choice for a time run out, their choice made ahead
(made, or a pass in its place)."""


@dataclass(frozen=True)
class Made:
    """A stored move as the game stood when it was made."""

    source: str
    move: Move
    legal: list[Move]
    """Everything the player could do then (a pass included)."""
    closed: tuple[str, ...]
    """The rows closed then."""
    before: Game | None
    """The game just before it, for a decision a rule made (:data:`RULED`): a copy the
    replay does not watch (what a computer tries out on it tells the facts nothing)."""


@dataclass(frozen=True)
class Moment:
    """The game after some of its moves: whose decision with a real choice is open, and
    since when (the move that opened the decision, or the game's start)."""

    waiting: frozenset[int]
    opened: float
    running: bool


@dataclass
class Turn:
    """One turn as the rules played it."""

    number: int
    active: int
    dice: dict[str, int] = field(default_factory=dict)
    """The Qwixx family's dice as thrown at the turn's start (every die in play)."""
    events: list[Event] = field(default_factory=list)
    """The rules' events of the turn, in order (its opening "turn" event included)."""
    options: dict[str, dict[int, list[Move]]] = field(default_factory=dict)
    """Phase -> player -> the moves besides passing the player could make in it."""
    scores: dict[int, int] | None = None
    """Everyone's total at the turn's end (None: it never ended)."""
    sources: dict[int, set[str]] = field(default_factory=dict)
    """Player -> who made their moves this turn (the move log's ``source``)."""
    away: set[int] = field(default_factory=set)
    """The people who were away at some moment of the turn."""
    expired: set[int] = field(default_factory=set)
    """The people whose decision ran out this turn."""
    went_away: set[int] = field(default_factory=set)
    """The people away from this turn on: their third decision in a row ran out."""
    left: set[int] = field(default_factory=set)
    back: set[int] = field(default_factory=set)
    """The people who came back this turn (from away, or after leaving)."""
    timed_out: set[int] = field(default_factory=set)
    """The people whose decision ran out this turn and the Hard computer made it."""
    made: dict[tuple[str, int], Made] = field(default_factory=dict)
    """(phase, player) -> the move they made in that phase of the turn."""

    def of(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e.kind in kinds]

    def movers(self) -> set[int]:
        """Who had a move besides passing in some decision of the turn."""
        return {p for by_player in self.options.values() for p, moves in by_player.items() if moves}

    def asked(self) -> set[int]:
        """The people the game waited for this turn (they decided, or let it run out)."""
        return {
            p
            for p, sources in self.sources.items()
            if not is_computer(p) and sources & {"player", "expired", "timeout_hard"}
        }


@dataclass
class Facts:
    """A whole game's facts."""

    record: GameRecord
    game: Game
    """The game as the replay ended it."""
    turns: dict[int, Turn]
    moves: list[MoveRecord]
    move_turns: dict[int, int]
    """Each stored move's ``seq`` -> the turn it was made in."""
    left: dict[int, int] = field(default_factory=dict)
    """Person -> the turn they left in (what the table did)."""
    back: dict[int, int] = field(default_factory=dict)
    """Person -> the turn they came back in, their seat played by a computer till then."""
    abandoned: int | None = None
    down: set[int] = field(default_factory=set)
    """Turns begun while the channel could not be written."""
    ratings: dict[int, tuple[int, bool, int]] = field(default_factory=dict)
    """Person -> (rating after the game as read, whether provisional, its change), if the
    game was rated."""
    wins: dict[int, int] = field(default_factory=dict)
    """Person -> counted wins on the server, this game included."""
    covered: set[int] = field(default_factory=set)
    """People whose seat a computer played at some moment (stand-in)."""
    started: float = 0.0
    """When the game started (what the table did)."""
    moments: list[Moment] = field(default_factory=list)
    """The game after none, one, two... of its stored moves."""

    @property
    def players(self) -> tuple[int, ...]:
        return self.game.players

    @property
    def finished(self) -> bool:
        return self.record.status == "finished"

    def level(self, computer: int) -> str:
        return Options.of(self.record.options).level(computer)

    def decided_by_person(self) -> set[int]:
        """The people with a decision of their own in the move log (reviewed ones)."""
        return {
            m.player_id for m in self.moves if m.source == "player" and not is_computer(m.player_id)
        }


def watched(cls: type[Game], watcher: Snapshot) -> type[Game]:
    """``cls`` with the rules' own steps told to ``watcher``: a turn's end (the next one
    starting), its dice thrown, and the options of each decision as it opens. Nothing
    the rules do changes."""

    class Watched(cls):  # type: ignore[valid-type, misc]
        def _start_turn(self, events: list[Event]) -> None:
            if self.turn > 1:
                watcher("end", self, self.turn - 1)
            super()._start_turn(events)

        def _resolve(self) -> list[Event]:  # Qwinto's writing, everyone's at once
            watcher("options", self, "place")
            return super()._resolve()  # type: ignore[no-any-return]

        def _without_white_choice(self, total: int) -> dict[int, Move]:
            watcher("dice", self, None)
            return super()._without_white_choice(total)  # type: ignore[no-any-return]

        def _resolve_action1(self, events: list[Event] | None = None) -> list[Event]:
            watcher("options", self, "action1")
            return super()._resolve_action1(events)  # type: ignore[no-any-return]

        def _active_options(self, player: int) -> tuple[Move, ...]:
            options = super()._active_options(player)
            watcher("active", self, options)
            return options  # type: ignore[no-any-return]

    return Watched


class Replay:
    """The rules replaying a stored game, move by move, into :class:`Turn` facts."""

    def __init__(self, record: GameRecord, started: float = 0.0) -> None:
        self.record = record
        self.started = started
        self.turns: dict[int, Turn] = {}
        self.move_turn: dict[int, int] = {}
        """Each stored move's ``seq`` -> the turn it was made in."""
        self.moments: list[Moment] = []

    def turn(self, number: int, game: Game) -> Turn:
        if number not in self.turns:
            self.turns[number] = Turn(number, game.players[(number - 1) % len(game.players)])
        return self.turns[number]

    def watch(self, what: str, game: Game, detail: Any) -> None:
        if what == "end":
            self.turn(detail, game).scores = {p: s.total for p, s in game.scores().items()}
        elif what == "dice":
            self.turn(game.turn, game).dice = game.dice_on_table()
        elif what == "options":
            by_player = self.turn(game.turn, game).options.setdefault(detail, {})
            for player in game.players:
                by_player.setdefault(player, [m for m in game.legal_moves(player) if m != PASS])
        elif what == "active":
            phase = game.decision().phase
            by_player = self.turn(game.turn, game).options.setdefault(phase, {})
            by_player.setdefault(game.active, list(detail))

    def play(self, moves: Sequence[MoveRecord]) -> Game:
        record = self.record
        game: Game = watched(VARIANTS[record.variant], self.watch)(
            record.players,
            record.seed,
            record.options.get("rules", {}),
            dice_version_of(record.state or {}),
        )
        self.turn(1, game)
        self.moments.append(moment(game, self.started))
        for stored in moves:
            number, phase = game.turn, game.decision().phase
            player, move = stored.player_id, Move.from_json(stored.move)
            self.move_turn[stored.seq] = number
            legal = game.legal_moves(player)
            by_player = self.turn(number, game).options.setdefault(phase, {})
            by_player.setdefault(player, [m for m in legal if m != PASS])
            self.turn(number, game).sources.setdefault(player, set()).add(stored.source)
            self.turn(number, game).made[phase, player] = Made(
                stored.source,
                move,
                legal,
                game.closed_rows(),
                game_from_json(game.to_json()) if stored.source in RULED else None,
            )
            before = game
            game, events = game.apply(player, move)
            for event in events:  # a "turn" event opens the next turn
                if event.kind == "turn":
                    number = int(event.data["turn"])
                self.turn(number, game).events.append(event)
            decision, then = game.decision(), before.decision()
            opened = (decision.turn, decision.phase) != (then.turn, then.phase)
            self.moments.append(
                moment(game, stored.created_at if opened else self.moments[-1].opened)
            )
        if game.finished:
            self.turn(game.turn, game).scores = {p: s.total for p, s in game.scores().items()}
        return game


def moment(game: Game, opened: float) -> Moment:
    """``game`` as a moment: the people with a real choice it waits for (a move besides
    passing), since ``opened``."""
    waiting = frozenset(
        p for p in game.decision().waiting if game.legal_moves(p) not in ([PASS], [])
    )
    return Moment(waiting, opened, not game.finished)


def facts_of(record: GameRecord, moves: Sequence[MoveRecord], **known: Any) -> Facts:
    """The facts of the stored game ``record`` with its move log ``moves``; ``known``:
    what the table did and the ledger's figures (see :class:`Facts`)."""
    replay = Replay(record, known.get("started", record.created_at))
    game = replay.play(moves)
    facts = Facts(record, game, replay.turns, list(moves), replay.move_turn, **known)
    facts.moments = replay.moments
    facts.covered = {m.player_id for m in moves if m.source == "stand_in"}
    mark_away(facts)
    return facts


def mark_away(facts: Facts) -> None:
    """Who was away in each turn, who went away (three decisions in a row ran out),
    left, or came back in it: from the move log's sources and what the table did."""
    away: set[int] = set()
    streak: dict[int, int] = {}
    by_turn: dict[int, list[MoveRecord]] = {}
    for stored in facts.moves:
        if not is_computer(stored.player_id):
            by_turn.setdefault(facts.move_turns[stored.seq], []).append(stored)
    for number in sorted(facts.turns):
        turn = facts.turns[number]
        turn.away |= away
        turn.left = {p for p, at in facts.left.items() if at == number}
        turn.back = {p for p, at in facts.back.items() if at == number}
        away |= turn.left
        turn.away |= turn.left
        for stored in by_turn.get(number, []):
            player = stored.player_id
            if stored.source in ("away", "stand_in", "away_until"):
                turn.away.add(player)
            elif stored.source == "player":
                streak[player] = 0
                away.discard(player)
                if player in turn.away:
                    turn.back.add(player)
        moved = by_turn.get(number, [])
        turn.expired = {m.player_id for m in moved if m.source == "expired"}
        turn.timed_out = {m.player_id for m in moved if m.source == "timeout_hard"}
        for player in turn.expired | turn.timed_out:  # their time ran out, either way
            streak[player] = streak.get(player, 0) + 1
            if streak[player] == 3:
                turn.went_away.add(player)
                away.add(player)
                turn.away.add(player)
        away -= turn.back


def read_as(rating: Rating) -> tuple[int, bool]:
    """A rating as people read it (docs/playing.md, Ratings): 1500 at the model's start
    (mu 25), 400 points for odds of 10 to 1 between two settled players (a gap in mu of
    ln 10 times sqrt(2) beta, beta 25/6), whole; provisional for the first 5 games."""
    return round(1500 + (rating.mu - 25) * 400 / (log(10) * sqrt(2) * 25 / 6)), rating.games < 5


class Ledger:
    """A server's counted games in the order they finished: each person's wins and
    ratings, recomputed from the games' rankings with the ratings' pure functions and
    read on the scale the documentation gives."""

    def __init__(self) -> None:
        self.ratings: dict[int, Rating] = {}
        self.wins: dict[int, int] = {}

    def add(
        self, record: GameRecord, game: Game, covered: set[int]
    ) -> tuple[dict[int, tuple[int, bool, int]], dict[int, int]]:
        """Count a game that ended; the people's (rating, provisional, change) and wins
        after it."""
        options = Options.of(record.options)
        ranking = game.ranking()
        people = [s for s in ranking if not is_computer(s.player)]
        counted = record.status == "finished" and options.counted and len(people) >= 2
        if not counted:
            return {}, dict(self.wins)
        for s in people:
            if s.rank == 1 and s.player not in covered:
                self.wins[s.player] = self.wins.get(s.player, 0) + 1
        match = match_of(
            [(s.player, s.rank, s.player not in covered) for s in people],
            [(options.level(s.player), s.rank) for s in ranking if is_computer(s.player)],
        )
        changes = rate(match, self.ratings)
        for change in changes:
            self.ratings[change.player] = change.after
        told = {}
        for c in changes:
            (after, provisional), (before, _) = read_as(c.after), read_as(c.before)
            told[c.player] = (after, provisional, after - before)
        return told, dict(self.wins)
