"""Games played in no channel: a member's daily attempt and their practice game.

Such a game's ``channel_id`` is a negative number of its own (:func:`no_channel`;
Discord's ids are positive), so no channel's game, limit or message ever meets it. It
is played on its player's private sheet wherever they are, and only they may click it.
"""

from __future__ import annotations

import hashlib

from bot.records.games import GameRecord  # in_no_channel: where the games in no channel are told
from bot.records.games import in_no_channel as in_no_channel

ID_BITS = 62
PRACTICE = "practice"
"""The key of ``record.options`` that marks a practice game against the computers."""


def no_channel(key: str) -> int:
    """A channel id of no channel's, one per ``key``."""
    digest = hashlib.sha256(key.encode()).digest()
    return -1 - (int.from_bytes(digest[:8], "big") >> (64 - ID_BITS))


def practice_channel(user: int) -> int:
    """The channel id of ``user``'s practice game: one per member."""
    return no_channel(f"{PRACTICE}:{user}")


def is_practice(record: GameRecord) -> bool:
    """Whether ``record`` is a practice game against the computers."""
    return PRACTICE in record.options
