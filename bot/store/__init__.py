"""Persistence: games and what they leave, in SQLite or PostgreSQL (rules-agnostic JSON
payloads): repositories (:mod:`bot.store.store`) on an engine per backend
(:mod:`bot.store.engine`); the values they hand out are :mod:`bot.records`'s.

Usage::

    store = await open_store("qwixx.db")  # or a postgresql:// URL
    game = await store.games.create(guild_id, channel_id, host_id, "qwixx", {}, seed)
"""

from bot.records.errors import (
    ChannelBusy,
    CommitUnknown,
    GameNotFound,
    LockLost,
    StoreError,
    VersionConflict,
    WrongStatus,
)
from bot.records.games import (
    ABANDONED,
    FINISHED,
    LOBBY,
    NO_TIMING,
    RUNNING,
    Changed,
    GameChange,
    GameRecord,
    GameStatus,
    MoveRecord,
    StoredEvent,
    Timing,
)

from .migrations import LATEST_VERSION
from .store import Clock, Store, open_store

__all__ = [
    "ABANDONED",
    "FINISHED",
    "LATEST_VERSION",
    "LOBBY",
    "NO_TIMING",
    "RUNNING",
    "Changed",
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
