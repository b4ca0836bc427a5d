"""What the store hands out and takes in, as plain values, and the errors it raises.

Every layer may import these (the rules excepted, which know nothing of storage): the
store builds them from its rows (:mod:`bot.store`), the service decides on them, and
the channel and the Discord adapter show them, without importing the store itself.
Records are values, shared by every reader of the same row: never changed in place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import orjson

# -- games ---------------------------------------------------------------------------

GameStatus = Literal["lobby", "running", "finished", "abandoned"]

LOBBY: Final = "lobby"
RUNNING: Final = "running"
FINISHED: Final = "finished"
ABANDONED: Final = "abandoned"
STATUSES: Final[tuple[str, ...]] = (LOBBY, RUNNING, FINISHED, ABANDONED)
ACTIVE_STATUSES: Final[tuple[str, ...]] = (LOBBY, RUNNING)
ENDED_STATUSES: Final[tuple[str, ...]] = (FINISHED, ABANDONED)
NO_SERVER: Final = 0
"""The guild id of what belongs to no server the bot is in: a daily attempt or a practice
game begun in a direct message, a group chat or a server that never added the bot."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``games``, with ``options``/``players``/``state`` decoded from JSON.

    Timestamps are unix seconds (floats) from the store's clock. A record the store
    reads or writes keeps ``state`` as its stored text and decodes it at each read of
    the attribute (a new dict each time, see :func:`stored_state`).
    """

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    variant: str
    options: dict[str, Any]
    seed: int
    players: list[int]
    state: dict[str, Any] | None
    status: GameStatus
    version: int
    created_at: float
    updated_at: float
    finished_at: float | None
    turn_time: int = 86400
    """Seconds each decision may take before it resolves as "no cross"."""
    stage_started: float | None = None
    """When the current decision began (None while no decision is pending)."""
    deadline: float | None = None
    reminders: int = 0
    """Reminders already sent for the current decision (0-2)."""
    presence: dict[str, Any] = field(default_factory=dict)
    """Seats the game no longer waits for: ``{"away": [ids], "streak": {id: n}}``."""
    shown_version: int = 0
    """The version the channel shows; below ``version``, the channel lags the store."""
    shown: dict[str, Any] = field(default_factory=dict)
    """What the channel shows, as the publisher left it (turn of ``message_id``, who
    was mentioned in it, whether the end was posted)."""
    behind_since: float | None = None
    """When the channel first could not be brought up to date (a write to Discord failed,
    or a change was made while Discord was away); None while it is in sync, or lags only
    because nothing tried to show the change yet. Cleared by the write that brings the
    channel to ``version``; the catch-up after an outage goes oldest first by it."""

    @property
    def is_active(self) -> bool:
        """True while the game is in the lobby or running."""
        return self.status in ACTIVE_STATUSES


def in_no_channel(record: GameRecord) -> bool:
    """Whether ``record``'s game is played in no channel (a daily attempt, a practice
    game: its ``channel_id`` is a negative number of its own, see :mod:`bot.service.hidden`)."""
    return record.channel_id < 0


class _StateText:
    """A game's state as the JSON text it was stored as (see :func:`stored_state`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


STATE_SLOT: Final = GameRecord.__dict__["state"]
"""Where a record keeps ``state``: a dict or None, or the text it was stored as."""
_load: Final[Callable[[str], Any]] = orjson.loads


def _read_state(record: GameRecord) -> dict[str, Any] | None:
    value = STATE_SLOT.__get__(record, GameRecord)
    state: dict[str, Any] | None = _load(value.text) if type(value) is _StateText else value
    return state


# ``GameRecord.state`` reads through this property; the dataclass's __init__ (and so
# ``replace``, ``==``, ``repr``) still set and read the attribute by its name.
GameRecord.state = property(  # type: ignore[misc, assignment]  # the field's slot read through a property
    _read_state, STATE_SLOT.__set__, doc="The game's state (None in the lobby)."
)


def stored_state(text: str | None) -> Any:
    """The value for :class:`GameRecord`'s ``state`` that keeps ``text`` (stored JSON)
    and decodes it only when the attribute is read: the service plays on its own game
    object and rarely reads a state, and a decoded state is several times the size of
    its text (about 7 KB against 1 KB, for each game kept in memory)."""
    return None if text is None else _StateText(text)


def state_text(record: GameRecord) -> str | None:
    """The text a record's state was stored as, if it keeps one (None otherwise)."""
    value = STATE_SLOT.__get__(record, GameRecord)
    return value.text if type(value) is _StateText else None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One row of ``moves``: the ``seq``-th move of a game."""

    game_id: int
    seq: int
    player_id: int
    move: dict[str, Any]
    created_at: float
    source: str = "player"
    """Who decided: ``player``; ``computer`` for a computer seat; ``stand_in`` for a
    computer playing an away player's seat; or the game for a player (``expired``,
    ``away``)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of ``game_events``: something that happened in ``turn`` of a game."""

    seq: int
    turn: int
    kind: str
    player: int | None
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Timing:
    """The pending decision's clock as stored; ``next_due`` is what the scheduler queries."""

    stage_started: float | None
    deadline: float | None
    reminders: int
    next_due: float | None


NO_TIMING: Final = Timing(None, None, 0, None)

EventRow = tuple[int, str, int | None, dict[str, Any]]
"""An event to store: ``(turn, kind, player, data)``."""


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line of a finished game, as the service hands it to the store."""

    player_id: int
    seat: int  # 0-based seat order
    score: int
    rank: int  # 1 = best; equal scores share a rank
    won: bool
    stand_in: bool = False
    """A computer played the seat for a while (its player away): it counts for nobody."""


@dataclass(frozen=True, slots=True)
class GameResults:
    """What a game's end records (see :mod:`bot.store.stats`).

    ``counted`` is False for a game that ended without a ranking worth counting; it
    is kept in the history but left out of every statistic.
    """

    turns: int
    players: tuple[PlayerResult, ...]
    counted: bool = True
    practice: bool = False  # a solo practice game (its best scores are personal bests)
    hints: bool = False  # a game played with the Hint button


@dataclass(frozen=True, slots=True)
class GameChange:
    """What one step of a running game stores, in one transaction.

    ``moves`` are ``(player_id, move, source)`` in the order they were applied;
    ``source`` says who decided (``player``, ``computer``, or ``expired``/``away`` for
    the game). ``status`` is ``running``, ``finished`` (which sets ``finished_at``) or
    ``abandoned``; ``results`` (only with ``finished``) are recorded with it.
    ``timing`` and ``presence`` replace the game's when given; ``events`` (what the
    moves caused, for the channel) are appended.
    """

    moves: Sequence[tuple[int, dict[str, Any], str]]
    state: dict[str, Any]
    status: str = RUNNING
    results: GameResults | None = None
    timing: Timing | None = None
    presence: dict[str, Any] | None = None
    events: Sequence[EventRow] = ()


@dataclass(frozen=True, slots=True)
class Showing:
    """What a game's channel shows, to be stored with a change of the game: the
    ``version`` shown, in ``message_id``, with ``shown`` as the publisher left it (see
    :attr:`GameRecord.shown`)."""

    version: int
    message_id: int | None
    shown: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Changed:
    """A stored change: the game's record after it, and its events as stored."""

    record: GameRecord
    events: tuple[StoredEvent, ...] = ()


@dataclass(frozen=True)
class InPlay:
    """A lobby or running game, with the people who still play in it: a lobby's
    seats, a running game's seats but those away (they left, or stopped deciding)."""

    game_id: int
    people: frozenset[int]


# -- results and statistics -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Totals:
    """Counted games of one player (in one variant, or all), summed."""

    player_id: int
    games: int
    wins: int
    score_sum: int
    best: int


@dataclass(frozen=True, slots=True)
class RecentScore:
    variant: str
    score: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class HistoryLine:
    player_id: int
    score: int
    rank: int
    won: bool
    stand_in: bool = False


@dataclass(frozen=True, slots=True)
class HistoryGame:
    """A finished game as the history shows it; ``lines`` best first."""

    game_id: int
    channel_id: int
    variant: str
    started_at: float
    finished_at: float
    turns: int
    counted: bool
    lines: tuple[HistoryLine, ...]
    practice: bool = False
    hints: bool = False
    tournament: str | None = None
    """The tournament whose table the game was, and in which round."""
    round: int | None = None

    @property
    def daily(self) -> bool:
        """A daily challenge's game: played in no channel (see bot/service/daily.py)."""
        return self.channel_id < 0


@dataclass(frozen=True, slots=True)
class PracticeBest:
    """A player's solo practice games of one variant: how many, best and last score."""

    variant: str
    games: int
    best: int
    last: int


REVIEW_DUE: Final = "due"
"""``games.shown["review"]`` while a final message waits for the people's accuracies."""


@dataclass(frozen=True, slots=True)
class Accuracy:
    """A person's stored accuracy: in one game, or averaged over ``games`` games."""

    accuracy: float
    games: int = 1


# -- ratings ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A person's rating as stored: ``games`` rated games so far."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatedLine:
    """A person's rating before and after one game."""

    player_id: int
    before: StoredRating
    after: StoredRating


@dataclass(frozen=True, slots=True)
class GameToRate:
    """A counted game not rated yet: its people's lines ``(player, rank, counts)``
    (``counts`` False: a stand-in played the seat), and how many seats it had."""

    game_id: int
    guild_id: int
    variant: str
    finished_at: float
    seats: int
    people: tuple[tuple[int, int, bool], ...]

    @property
    def has_computers(self) -> bool:
        """Whether seats beyond the people's were computers (their ranks are in the game)."""
        return self.seats > len(self.people)


# -- the daily challenge ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attempt:
    """A member's attempt at a day's dice of one variant (``score`` None: unfinished)."""

    day: str
    variant: str
    user_id: int
    guild_id: int
    channel_id: int
    game_id: int
    score: int | None
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class Post:
    """A server's ranking message of a day and variant: where it is (``message_id``
    None: not posted yet) and how many finishes it has not shown yet."""

    channel_id: int
    message_id: int | None
    owed: int


@dataclass(frozen=True, slots=True)
class DailySettings:
    """A server's daily settings: the ranking's channel (None: where it is played) and
    the local hour, in ``timezone``, at which its day turns."""

    channel_id: int | None = None
    hour: int = 0
    timezone: str = "UTC"


@dataclass(frozen=True, slots=True)
class DailyBest:
    """A member's finished attempts at one variant, every day and place together."""

    variant: str
    days: int
    best: int
    average: float


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a score stands among everyone's of the same dice: ``above`` scored more,
    ``below`` less, ``players`` finished in all."""

    above: int
    below: int
    players: int

    @property
    def place(self) -> int:
        """The score's place (1 is first; equal scores share one)."""
        return self.above + 1


# -- members' data ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServerData:
    """What one server's games keep about a person."""

    guild_id: int
    name: str | None = None
    """The display name kept for images (None: none)."""
    games: int = 0
    """Games they sat in, any status (lobbies, running, finished, abandoned)."""
    results: int = 0
    """Finished games with their score and rank."""
    counted: int = 0
    """Of those, the ones counted for the leaderboard and statistics."""
    first: float | None = None
    last: float | None = None
    """When their first and last result was recorded."""
    variants: int = 0
    """Variants with all-time totals (leaderboard sums)."""
    ratings: tuple[tuple[str, int], ...] = ()
    """Their ratings: (variant, rated games)."""
    accuracies: int = 0
    """Reviewed games with their accuracy."""
    daily: int = 0
    """Daily challenges they played that count for this server."""
    tournaments: int = 0
    """Tournaments they signed up for (their sign-up, check-in, tables and points)."""
    organised: int = 0
    """Tournaments they organised."""


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a person did: the anonymous id, the names removed, the games
    whose seats now carry it, the rows changed per table."""

    anonymous_id: int
    names: int
    games: int
    rows: dict[str, int]


# -- errors ---------------------------------------------------------------------------


class StoreError(Exception):
    """Base class for every error raised by :mod:`bot.store`.

    Backend errors (e.g. ``sqlite3.Error``) are wrapped in a plain ``StoreError``
    so callers never depend on the database driver.
    """


class ReadFailed(StoreError):
    """A read outside any write transaction failed (nothing was being saved)."""


class GameNotFound(StoreError):
    """No game with the requested id exists."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} not found")
        self.game_id = game_id


class VersionConflict(StoreError):
    """The game changed since the caller read it (compare-and-set failed)."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, found {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or running."""

    def __init__(self, channel_id: int, game_id: int | None = None) -> None:
        super().__init__(f"channel {channel_id} already has an active game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class WrongStatus(StoreError):
    """The operation is not allowed in the game's current status."""

    def __init__(self, game_id: int, status: str, allowed: tuple[str, ...]) -> None:
        super().__init__(f"game {game_id} is {status!r}; expected one of {allowed}")
        self.game_id = game_id
        self.status = status
        self.allowed = allowed


class CommitUnknown(StoreError):
    """The connection broke while a ``COMMIT`` was on its way, and the server could not
    say since whether it was applied (the caller may try again: a compare-and-set then
    refuses what was applied already)."""


class LockLost(StoreError):
    """The connection that held a game's lock broke while the lock was held, which
    freed it: another process may have taken the game since, so what the holder was
    about to store under the lock is refused (nothing of it is stored)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"game {game_id}: its lock was lost with the connection that "
            "held it; nothing was stored"
        )
        self.game_id = game_id


class RatingConflict(StoreError):
    """A person's rating changed between its read and its write (another process rated
    a game of theirs at the same time): nothing was written; rate again."""

    def __init__(self, game_id: int, player_id: int) -> None:
        super().__init__(f"game {game_id}: the rating of {player_id} changed meanwhile")
        self.game_id = game_id
        self.player_id = player_id


class StillPlaying(Exception):
    """A person to forget still sits in lobbies or running games (``games``: their
    ``(guild_id, channel_id, game_id)``)."""

    def __init__(self, games: Sequence[tuple[int, int, int]]) -> None:
        super().__init__(f"still seated in games {[g[2] for g in games]}")
        self.games = tuple(games)
