"""Values and the abstract game shared by every variant.

A game is plain data. ``apply`` never mutates: it returns a new game and the
events that happened, so the service can store the result atomically and the
same seed plus the same moves always replays the same game. The new game copies
only what a move changes: the rules replace a container (dice, chosen moves, closed
rows, pawns) rather than change it in place, and a player's sheet is copied the first
time the move writes to it (:meth:`Game._sheet`); games share every container and
sheet they did not change, so treat a game as immutable outside the rules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import FrozenInstanceError, dataclass
from functools import partial
from typing import Any, ClassVar, NamedTuple, Self

from .dice import DICE_V1, DICE_VERSIONS, throw
from .dice import DICE_VERSION as DICE_VERSION
from .dice import dice_rng as dice_rng  # re-exported: callers import them from here
from .dice import roll as roll


class RuleError(ValueError):
    """A move that the rules do not allow right now."""


@dataclass(frozen=True, slots=True)
class Move:
    """One decision of one player. ``kind`` says what it is; the rest qualifies it."""

    kind: str
    row: str | None = None
    number: int | None = None
    dice: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.row is not None:
            data["row"] = self.row
        if self.number is not None:
            data["number"] = self.number
        if self.dice:
            data["dice"] = list(self.dice)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        return cls(data["kind"], data.get("row"), data.get("number"), tuple(data.get("dice", ())))


PASS = Move("pass")


class _EventFields(NamedTuple):
    kind: str
    player: int | None
    data: dict[str, Any]


class Event(_EventFields):
    """Something worth telling the players, e.g. ``Event("locked", player, {"row": "red"})``.

    An immutable tuple of ``kind``, ``player`` and ``data``: the rules make several events
    a turn, and make them with :data:`make_event`, which builds the tuple in one step.
    """

    __slots__ = ()

    def __new__(
        cls, kind: str, player: int | None = None, data: dict[str, Any] | None = None
    ) -> Event:
        return tuple.__new__(cls, (kind, player, {} if data is None else data))


# ``make_event((kind, player, data))``: an Event, without a Python-level call.
make_event: Callable[[tuple[str, int | None, dict[str, Any]]], Event] = partial(
    tuple.__new__, Event
)


class Decision(NamedTuple):
    """Who the game waits for: ``waiting`` players must decide in ``phase``.

    An immutable tuple, as :class:`Event` (made once per decision asked for)."""

    phase: str
    turn: int
    active: int | None
    waiting: frozenset[int]

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")


new_decision: Callable[[tuple[str, int, int | None, frozenset[int]]], Decision] = partial(
    tuple.__new__, Decision
)


@dataclass(frozen=True)
class Score:
    """A player's score, broken down the way the sheet shows it."""

    player: int
    rows: dict[str, int]
    penalties: int
    penalty_points: int
    bonus: int
    total: int


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    total: int


class Game(ABC):
    """The public API that every variant implements.

    A game's state lives in ``__slots__`` (each variant adds its own): the rules read it
    on every move, and a slot reads several times faster than an instance dict.
    """

    # "__dict__": callers (tests, say) may still set attributes of their own on a game.
    __slots__ = (
        "__dict__",
        "_own",
        "dice_version",
        "end_reason",
        "options",
        "players",
        "seed",
        "turn",
    )
    variant: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Phases in which every player decides at once (choices collect in ``chosen`` and
    # apply together); in every other phase only the active player decides.
    simultaneous_phases: ClassVar[tuple[str, ...]]
    # What the variant has besides sheets and dice (see the questions below).
    has_board: ClassVar[bool] = False  # a track with pawns (On Board): pawn_positions()
    has_lucky_numbers: ClassVar[bool] = False  # lucky numbers per sheet (Longo)
    phase: str
    chosen: dict[int, Move]
    sheets: dict[int, Any]

    def __init__(
        self,
        players: Sequence[int],
        seed: int,
        options: dict[str, Any],
        dice_version: int = DICE_VERSION,
    ) -> None:
        self.players: tuple[int, ...] = tuple(players)
        self.seed = seed
        self.options = dict(options)
        self.turn = 1
        self.end_reason: str | None = None
        if dice_version not in DICE_VERSIONS:
            raise RuleError(f"unknown dice version {dice_version!r}")
        self.dice_version = dice_version  # how this game derives its dice (see .dice)
        # Sheets this game may write to; None: it shares the parent's dict of sheets too.
        self._own: set[int] | None = set(self.players)

    # --- decisions -------------------------------------------------------
    def decision(self) -> Decision:
        """The current phase and the players the game waits for."""
        if self.end_reason is not None:
            return new_decision(("finished", self.turn, None, frozenset()))
        players, phase = self.players, self.phase
        active = players[(self.turn - 1) % len(players)]  # self.active, without the call
        if phase in self.simultaneous_phases:
            chosen = self.chosen  # most often empty: one set made, not two
            waiting = frozenset(players).difference(chosen) if chosen else frozenset(players)
        else:
            waiting = frozenset((active,))
        return new_decision((phase, self.turn, active, waiting))

    @abstractmethod
    def legal_moves(self, player: int) -> list[Move]:
        """Every move ``player`` may make now (empty when it is not their decision)."""

    @abstractmethod
    def _apply(self, player: int, move: Move) -> list[Event]:
        """Apply a legal move to this (already copied) game."""

    @abstractmethod
    def scores(self) -> dict[int, Score]:
        """Each player's score as it stands."""

    def apply(self, player: int, move: Move) -> tuple[Self, list[Event]]:
        """Return the game after ``player`` made ``move``, and what happened."""
        if self.end_reason is not None:
            raise RuleError("the game is over")
        if player not in self.players:
            raise RuleError(f"player {player} is not in this game")
        if not self._allows(player, move):
            raise RuleError(f"{move} is not a legal move for player {player} now")
        game = self._copy()
        return game, game._apply(player, move)

    def _allows(self, player: int, move: Move) -> bool:
        """Whether ``move`` is one of ``legal_moves(player)``; variants may answer faster."""
        return offered(move, self.legal_moves(player))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Each class its own copier, written for its slots (an attribute, not a method):
        cls._copy = state_copier(cls)  # type: ignore[method-assign, assignment]

    def _copy(self) -> Self:
        """A game to apply a move to: shares everything until it replaces it (each
        variant gets its own, from :func:`state_copier`)."""
        raise NotImplementedError

    def _sheet(self, player: int) -> Any:
        """``player``'s sheet, ready to be written: copied first if another game shares it."""
        own = self._own
        if own is None:
            self.sheets = self.sheets.copy()
            own = self._own = set()
        if player not in own:
            self.sheets[player] = self.sheets[player].copy()
            own.add(player)
        return self.sheets[player]

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    @property
    def active(self) -> int:
        return self.players[(self.turn - 1) % len(self.players)]

    def fallback_move(self, player: int) -> Move:
        """What ``player`` does when they do not decide in time: nothing, where the rules
        allow it (so an active player takes whatever penalty the rules give)."""
        moves = self.legal_moves(player)
        if not moves:
            raise RuleError(f"player {player} has nothing to decide")
        return PASS if PASS in moves else moves[0]

    def foresee(self, player: int, moves: Sequence[Move]) -> Game | None:
        """The game as the active ``player`` will find it after ``moves``, the first their
        choice in this turn's simultaneous phase and each later one made in the active
        phase after it, should nobody else do anything this turn: what they may decide
        ahead, in one visit, is ``legal_moves`` of the game foreseen before it. None where
        the variant has no such decisions, when it is not ``player``'s turn and phase for
        them, or when a move would not be legal at its moment."""
        return None

    # --- questions the interface asks ------------------------------------
    # Read-only answers, the same in every variant (a variant without the feature gives
    # the default), so callers need not probe a game's attributes. Each returns a copy
    # or an immutable value: writing into it changes no game.
    def dice_on_table(self) -> dict[str, int]:
        """The dice showing now, die -> face: every die in play (Qwixx family), the dice
        thrown this turn (Qwinto); {} when none are (Qwinto before the roll)."""
        return {}

    def dice_total(self) -> int | None:
        """The number everyone may use now: the white sum (Qwixx family), the throw's
        total (Qwinto); None while no dice are on the table."""
        return None

    def chosen_move(self, player: int) -> Move | None:
        """``player``'s choice in a simultaneous phase, while it waits for the others
        (secret from them until applied); None when they have not chosen."""
        return self.chosen.get(player)

    def closed_rows(self) -> tuple[str, ...]:
        """The rows closed for everyone, in the order they closed (Qwixx family)."""
        return ()

    def lucky_numbers(self, player: int) -> tuple[int, ...]:
        """``player``'s lucky numbers (Longo); () in a variant without them."""
        return ()

    def pawn_positions(self) -> dict[int, int]:
        """Player -> their pawn's position on the track, 0 the start (On Board); {}
        without a board."""
        return {}

    def last_turn(self) -> int | None:
        """The last turn to be played, once the end is announced (On Board's final
        round); None while it is not (and in variants without one)."""
        return None

    def skipped_by(self, player: int, move: Move) -> list[int]:
        """The numbers ``move`` would leave behind for good on ``player``'s sheet
        (Qwixx family); [] where a variant skips nothing."""
        return []

    def passing_costs_penalty(self, player: int) -> bool:
        """Whether a pass by ``player`` now costs them a penalty (or Qwinto's failed
        throw): the active player's last chance this turn to write something."""
        return False

    def ranking(self) -> list[Standing]:
        """Players by total, best first; equal totals share a rank."""
        totals = sorted(((s.total, p) for p, s in self.scores().items()), key=lambda t: -t[0])
        standings: list[Standing] = []
        for index, (total, player) in enumerate(totals):
            tied = standings and standings[-1].total == total
            rank = standings[-1].rank if tied else index + 1
            standings.append(Standing(rank, player, total))
        return standings

    # --- serialisation ---------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = {"variant": self.variant, **self._state_json()}
        data.update(
            players=list(self.players),
            seed=self.seed,
            options=self.options,
            turn=self.turn,
            end_reason=self.end_reason,
        )
        if self.dice_version != DICE_V1:  # a version-1 game keeps its JSON as it was
            data["dice_version"] = self.dice_version
        return data

    @abstractmethod
    def _state_json(self) -> dict[str, Any]:
        """The variant's own part of the state, JSON-ready."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        game = cls.__new__(cls)
        Game.__init__(game, data["players"], data["seed"], data["options"])
        game.turn = data["turn"]
        game.end_reason = data["end_reason"]
        game.dice_version = dice_version_of(data)
        game._load_state(data)
        return game

    def _throw(
        self, dice: Sequence[str], faces: int, *salt: object, among: Sequence[str]
    ) -> dict[str, int]:
        """The faces of ``dice`` (of the variant's every die, ``among``) at the position
        ``salt`` names, by this game's derivation."""
        return throw(self.dice_version, dice, faces, self.seed, *salt, among=among)

    @abstractmethod
    def _load_state(self, data: dict[str, Any]) -> None:
        """Restore the variant's own part of the state from ``_state_json`` output."""


def state_copier(cls: type[Game]) -> Callable[[Game], Game]:
    """A function that copies a game of ``cls`` attribute by attribute (its slots, and its
    instance dict if a class without slots keeps state there), sharing every value, with
    ``_own`` None. Attributes a caller set on a game of a fully slotted class stay with
    that game. Written out once per class, as dataclasses write their ``__init__``: a
    loop of ``setattr`` would cost four times as much on every move."""
    names = [
        name
        for klass in reversed(cls.__mro__)
        for name in klass.__dict__.get("__slots__", ())
        if name not in ("_own", "__dict__")
    ]
    lines = [f"    game.{name} = self.{name}" for name in names]
    if any("__slots__" not in klass.__dict__ for klass in cls.__mro__[:-1]):
        lines.append("    game.__dict__.update(self.__dict__)")  # its state may live there
    source = "\n".join(
        [
            "def copy(self):",
            "    game = new(cls)",
            *lines,
            "    game._own = None",
            "    return game",
        ]
    )
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(source, namespace)  # the source holds nothing but the class's slot names
    # exec's namespace holds Any: the function it defined is the copier.
    return namespace["copy"]  # type: ignore[no-any-return]


def offered(move: Move, moves: Sequence[Move]) -> bool:
    """``move in moves``, asking the moves the rules hand out (shared objects) by
    identity first: ``in`` alone calls the dataclass's ``__eq__`` on every other move."""
    for candidate in moves:
        if candidate is move:
            return True
    return move in moves


def dice_version_of(state: dict[str, Any]) -> int:
    """The dice derivation of a stored game (version 1 when the JSON does not say)."""
    version = state.get("dice_version", DICE_V1)
    if version not in DICE_VERSIONS:
        raise RuleError(f"unknown dice version {version!r}")
    return int(version)


def score_of(player: int, rows: dict[str, int], penalties: int, bonus: int = 0) -> Score:
    penalty_points = -5 * penalties
    return Score(
        player, rows, penalties, penalty_points, bonus, sum(rows.values()) + penalty_points + bonus
    )
