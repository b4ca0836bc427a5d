"""A tournament as the store keeps it: plain values that the store, the service and the
Discord side share, and their JSON shapes (plain dicts and lists; the store encodes them).

A tournament is its :class:`TournamentRecord` (settings, state, the messages that show
it), its entrants, its rounds as seated and its tables, each table an ordinary game once
opened (:class:`TableRecord`: the thread it plays in, the game, the result once it ended).
:class:`Tournament` holds all of it, so that the standings and the next round are the
core's pure functions of one read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .points import SeatResult, TableResult
from .seating import Round, Table
from .settings import TournamentSettings
from .standings import Entrant

Status = Literal["signup", "running", "finished", "cancelled"]
OPEN: tuple[Status, ...] = ("signup", "running")


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One row of ``tournaments``. ``rounds``: how many rounds are seated; ``host_id``:
    the organiser; ``seed``: what seating draws ties from (secret, like a game's);
    ``shown``: what the channel shows (the results the standings message counts, …);
    ``next_due``: when something is owed (a deadline, a round to seat, a message)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    settings: TournamentSettings
    seed: int
    status: Status
    rounds: int
    version: int
    created_at: float
    message_id: int | None = None  # the sign-up message
    standings_id: int | None = None  # the standings message, edited in place
    podium_id: int | None = None
    shown: dict[str, Any] = field(default_factory=dict)
    next_due: float | None = None
    finished_at: float | None = None

    @property
    def name(self) -> str:
        return self.settings.name

    @property
    def is_open(self) -> bool:
        return self.status in OPEN


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """A member signed up: when, whether checked in, and the last round they were seated
    in if they withdrew."""

    player: int
    joined_at: float
    checked_in: bool = False
    withdrawn_after: int | None = None

    @property
    def entrant(self) -> Entrant:
        return Entrant(self.player, self.withdrawn_after)


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Table ``number`` of round ``round``: its people (best first) and computers, the
    thread and game it plays in once opened, its result once the game ended."""

    round: int
    number: int
    players: tuple[int, ...]
    computers: int = 0
    thread_id: int | None = None
    game_id: int | None = None
    result: TableResult | None = None


@dataclass(frozen=True, slots=True)
class Tournament:
    """Everything stored of one tournament."""

    record: TournamentRecord
    entrants: tuple[EntrantRecord, ...] = ()
    seated: tuple[Round, ...] = ()
    round_messages: dict[int, int] = field(default_factory=dict)  # round -> message id
    tables: tuple[TableRecord, ...] = ()

    @property
    def settings(self) -> TournamentSettings:
        return self.record.settings

    @property
    def players(self) -> list[Entrant]:
        return [e.entrant for e in self.entrants]

    @property
    def results(self) -> list[TableResult]:
        return [t.result for t in self.tables if t.result is not None]

    def tables_of(self, round: int) -> list[TableRecord]:
        return [t for t in self.tables if t.round == round]

    def entrant(self, player: int) -> EntrantRecord | None:
        return next((e for e in self.entrants if e.player == player), None)


# --- JSON shapes ----------------------------------------------------------------------
def settings_data(settings: TournamentSettings) -> dict[str, Any]:
    return {
        "name": settings.name,
        "variant": settings.variant,
        "rounds": settings.rounds,
        "table_size": settings.table_size,
        "smallest_table": settings.smallest_table,
        "turn_time": settings.turn_time,
        "points": list(settings.points),
        "avoid_repeats": settings.avoid_repeats,
        "computers": settings.computers,
        "deadline": settings.deadline,
        "check_in": settings.check_in,
    }


def settings_of(data: dict[str, Any]) -> TournamentSettings:
    return TournamentSettings(
        str(data["name"]),
        str(data["variant"]),
        int(data["rounds"]),
        int(data["table_size"]),
        None if data.get("smallest_table") is None else int(data["smallest_table"]),
        int(data["turn_time"]),
        tuple(int(p) for p in data.get("points") or ()),
        bool(data["avoid_repeats"]),
        bool(data["computers"]),
        None if data.get("deadline") is None else int(data["deadline"]),
        None if data.get("check_in") is None else int(data["check_in"]),
    )


def round_data(round_: Round) -> dict[str, Any]:
    return {
        "tables": [[list(t.players), t.computers] for t in round_.tables],
        "byes": list(round_.byes),
        "repeats": round_.repeats,
        "exhaustive": round_.exhaustive,
        "grouped": round_.grouped,
        "at_random": round_.at_random,
    }


def round_of(number: int, data: dict[str, Any]) -> Round:
    """A stored round; one stored before rounds kept how they were seated reads as
    seated by rating (round one) and by an exhaustive search, as its message said."""
    tables = tuple(
        Table(k + 1, tuple(int(p) for p in players), int(computers))
        for k, (players, computers) in enumerate(data["tables"])
    )
    return Round(
        number,
        tables,
        tuple(int(p) for p in data["byes"]),
        int(data["repeats"]),
        bool(data.get("exhaustive", True)),
        bool(data.get("grouped", True)),
        bool(data.get("at_random", False)),
    )


def result_data(result: TableResult) -> list[list[int]]:
    """A table's seats: ``[player, score, rank, computer, away, timeouts]`` each."""
    return [
        [s.player, s.score, s.rank, int(s.computer), int(s.away), s.timeouts] for s in result.seats
    ]


def result_of(round: int, table: int, data: list[list[int]]) -> TableResult:
    seats = tuple(
        SeatResult(int(p), int(score), int(rank), bool(c), bool(a), int(n))
        for p, score, rank, c, a, n in data
    )
    return TableResult(round, table, seats)
