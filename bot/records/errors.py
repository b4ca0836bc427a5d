"""The errors the store raises."""

from __future__ import annotations

from collections.abc import Sequence


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
