"""Persistence layer: games and their moves in SQLite or PostgreSQL (rules-agnostic
JSON payloads): a repository of queries (:mod:`bot.store.store`) run by an engine per
backend (:mod:`bot.store.engine`).

Usage::

    store = await open_store("qwixx.db")  # or a postgresql:// URL
    game = await store.create_game(guild_id, channel_id, host_id, "qwixx", {}, seed)
"""

from .errors import (
    ChannelBusy,
    CommitUnknown,
    GameNotFound,
    LockLost,
    StoreError,
    VersionConflict,
    WrongStatus,
)
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
from .store import Clock, Store, open_store

__all__ = [
    "ABANDONED",
    "FINISHED",
    "LATEST_VERSION",
    "LOBBY",
    "NO_TIMING",
    "RUNNING",
    "ChannelBusy",
    "Clock",
    "CommitUnknown",
    "GameChange",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "LockLost",
    "MoveRecord",
    "Store",
    "StoreError",
    "StoredEvent",
    "Timing",
    "VersionConflict",
    "WrongStatus",
    "open_store",
]
