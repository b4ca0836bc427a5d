"""What the channel reads of the games, as the service hands it over.

The publisher writes through a :class:`~bot.channel.writer.Writer` and reads through a
:class:`Source`: a game's record and rules object, its stored events, the facts its
final message tells, the language of its server, and where it notes what its channel
shows. :class:`bot.service.channel_source.ChannelSource` is the one the bot uses; a test may
hand the publisher a source of its own. Nothing here knows the service's classes: a
change, a read game and a final message's facts are described by what the channel
reads of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.records.games import GameRecord, StoredEvent
from bot.rules import Decision, Event, Game
from bot.shards import ShardPlan

Shows = Callable[[int], Awaitable[None]]
"""Brings a game's channel up to its stored version (:meth:`Publisher.sync`)."""


class Read(Protocol):
    """A game at one version (:class:`bot.service.outcome.Snapshot`)."""

    @property
    def record(self) -> GameRecord: ...

    @property
    def game(self) -> Game | None:
        """Its rules object (None for a lobby)."""
        ...


class Change(Read, Protocol):
    """A game as a change left it (:class:`bot.service.outcome.Outcome`)."""

    @property
    def events(self) -> list[Event]:
        """What happened (a reminder's: its one event)."""
        ...

    @property
    def before(self) -> Decision | None:
        """The decision the game waited for before the change."""
        ...

    @property
    def stored(self) -> list[StoredEvent]:
        """The events the change stored, as stored."""
        ...

    @property
    def since(self) -> int | None:
        """The version the change began from, when :attr:`stored` holds every event
        stored since then (None: the events since are to be read)."""
        ...


class Facts(Protocol):
    """What a final message tells beyond the game (:class:`bot.service.endings.Ending`)."""

    @property
    def wins(self) -> Mapping[int, int]: ...

    @property
    def best(self) -> int | None: ...

    @property
    def ratings(self) -> Mapping[int, tuple[str, int]]: ...

    @property
    def accuracies(self) -> Mapping[int, float] | None:
        """None: the game is not reviewed yet."""
        ...


class Source(Protocol):
    """The games as the channel reads them, and where it notes what it shows."""

    def clock(self) -> float:
        """Now, in unix seconds."""
        ...

    # --- a game -------------------------------------------------------------
    def channel_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with``: the one writer of the game's channel at a time."""
        ...

    async def read(self, game_id: int) -> Read:
        """The game as stored now."""
        ...

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """Its stored events from ``first_turn`` on, in order."""
        ...

    async def ending(
        self, record: GameRecord, game: Game, *, final: bool, review: bool, then: Shows
    ) -> Facts:
        """What the final message tells (``final``: wins, best, ratings; ``review``:
        the accuracies stored). A game not reviewed yet is reviewed in the background,
        and ``then`` shows its accuracies once they are stored."""
        ...

    async def reviewed(self) -> None:
        """Wait for the reviews under way, and for what ``then`` showed of them."""
        ...

    async def language(self, guild_id: int, preferred: str | None) -> str:
        """The language of the server's public messages (``preferred``: Discord's)."""
        ...

    # --- what the channel shows ----------------------------------------------
    async def show(
        self, record: GameRecord, message_id: int | None, shown: dict[str, Any]
    ) -> GameRecord:
        """Store that the channel shows ``record``'s version, as ``shown`` tells."""
        ...

    def show_later(self, record: GameRecord, message_id: int | None, shown: dict[str, Any]) -> None:
        """As :meth:`show`, stored with the game's next change."""
        ...

    async def mark_behind(self, game_id: int) -> None:
        """The game's channel could not be updated now."""
        ...

    async def mark_left_behind(self, started: float, shards: ShardPlan | None) -> int:
        """The channels the process before left behind (it started at ``started``)."""
        ...

    async def lagging(self, shards: ShardPlan | None, limit: int) -> list[int]:
        """The games whose channel lags the store, the longest behind first."""
        ...

    # --- direct messages ------------------------------------------------------
    async def dms_closed(self, person: int) -> Sequence[Change]:
        """Discord refused ``person`` a direct message: the games that changed."""
        ...

    async def told_dms_closed(self, person: int) -> Sequence[Change] | None:
        """``person`` is told so now: the games that changed (None: nothing to tell)."""
        ...
