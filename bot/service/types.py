"""What the Discord side knows of games, events and errors: taken from here, never
from :mod:`bot.store`, so the cogs depend on the service alone.

The values are the store's (a record is what a read returns, an event what the
channel's story is told from); the service hands them out and takes them back.
:func:`open_store` and :class:`Store` are for the one place that wires the bot
(:mod:`bot.app`): it opens the store and gives it to the services.
"""

from __future__ import annotations

from bot.records import (
    Attempt,
    ChannelBusy,
    CommitUnknown,
    DailySettings,
    GameNotFound,
    GameRecord,
    GameStatus,
    HistoryGame,
    HistoryLine,
    LockLost,
    MoveRecord,
    PracticeBest,
    RecentScore,
    StoredEvent,
    StoreError,
    Totals,
    VersionConflict,
    WrongStatus,
)
from bot.store import Store, open_store

__all__ = [
    "Attempt",
    "ChannelBusy",
    "CommitUnknown",
    "DailySettings",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "HistoryGame",
    "HistoryLine",
    "LockLost",
    "MoveRecord",
    "PracticeBest",
    "RecentScore",
    "Store",
    "StoreError",
    "StoredEvent",
    "Totals",
    "VersionConflict",
    "WrongStatus",
    "open_store",
]
