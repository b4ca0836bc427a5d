"""Persistence layer: games and their moves in SQLite (rules-agnostic JSON payloads).

Usage::

    async with Store("qwixx.db") as store:
        game = await store.create_game(guild_id, channel_id, host_id, "qwixx", {}, seed)
"""

from .errors import ChannelBusy, GameNotFound, StoreError, VersionConflict, WrongStatus
from .migrations import LATEST_VERSION
from .records import (
    ABANDONED,
    FINISHED,
    LOBBY,
    NO_TIMING,
    RUNNING,
    GameChange,
    GameRecord,
    GameStatus,
    MoveRecord,
    StoredEvent,
    Timing,
)
from .store import Clock, Store

__all__ = [
    "ABANDONED",
    "FINISHED",
    "LATEST_VERSION",
    "LOBBY",
    "NO_TIMING",
    "RUNNING",
    "ChannelBusy",
    "Clock",
    "GameChange",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "MoveRecord",
    "Store",
    "StoreError",
    "StoredEvent",
    "Timing",
    "VersionConflict",
    "WrongStatus",
]
