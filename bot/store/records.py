"""Typed records returned by :class:`bot.store.Store` reads, plus JSON helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final, Literal

GameStatus = Literal["lobby", "running", "finished", "abandoned"]

LOBBY: Final = "lobby"
RUNNING: Final = "running"
FINISHED: Final = "finished"
ABANDONED: Final = "abandoned"
STATUSES: Final[tuple[str, ...]] = (LOBBY, RUNNING, FINISHED, ABANDONED)
ACTIVE_STATUSES: Final[tuple[str, ...]] = (LOBBY, RUNNING)
ENDED_STATUSES: Final[tuple[str, ...]] = (FINISHED, ABANDONED)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``games``, with ``options``/``players``/``state`` decoded from JSON.

    Timestamps are unix seconds (floats) from the store's clock.
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

    @property
    def is_active(self) -> bool:
        """True while the game is in the lobby or running."""
        return self.status in ACTIVE_STATUSES


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One row of ``moves``: the ``seq``-th move of a game."""

    game_id: int
    seq: int
    player_id: int
    move: dict[str, Any]
    created_at: float


GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, message_id, host_id, variant, options, seed, players, "
    "state, status, version, created_at, updated_at, finished_at"
)
MOVE_COLUMNS: Final = "game_id, seq, player_id, move, created_at"


def dump_json(value: Any) -> str:
    """Encode strict, compact JSON (NaN/Infinity rejected, so any backend accepts it)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def game_from_row(row: Any) -> GameRecord:
    """Build a :class:`GameRecord` from a row selected with :data:`GAME_COLUMNS`."""
    (gid, guild, channel, message, host, variant, options, seed, players,
     state, status, version, created, updated, finished) = row  # fmt: skip
    return GameRecord(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        message_id=message,
        host_id=host,
        variant=variant,
        options=json.loads(options),
        seed=seed,
        players=json.loads(players),
        state=None if state is None else json.loads(state),
        status=status,
        version=version,
        created_at=created,
        updated_at=updated,
        finished_at=finished,
    )


def move_from_row(row: Any) -> MoveRecord:
    """Build a :class:`MoveRecord` from a row selected with :data:`MOVE_COLUMNS`."""
    game_id, seq, player_id, move, created = row
    return MoveRecord(game_id, seq, player_id, json.loads(move), created)
