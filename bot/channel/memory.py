"""What this process remembers of what each channel shows, so a sync after a click needs
no read: what it last stored as a channel's ``shown`` (or left to store with the game's
next change), the events of each live message's earlier turns, the text each message
was last written with, and the channels that fell behind (read afresh at their next sync).

What is kept is a cache of the store's record: a game whose record says otherwise, or
that fell behind, is read again; a game that ended, or whose sync failed, is let go.
"""

from __future__ import annotations

from typing import Any

from bot.records.games import GameRecord, StoredEvent

KEPT = 1024
"""Games whose live message's events are kept; when full, they are read again."""

Stored = tuple[int, int | None, dict[str, Any]]
"""A channel's shown version, its live message and its ``shown``, as stored."""
Written = tuple[str, str, bool]
"""A message's text, its images' signature, and whether it has buttons."""


class Memory:
    """What each channel shows, as this process last wrote it (see the module)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._stored: dict[int, Stored] = {}
        self._events: dict[int, tuple[int, int, list[StoredEvent]]] = {}
        """Each game's events from the first turn its live message tells: (the version
        they are complete up to, that turn, the events)."""
        self._written: dict[int, Written] = {}
        self._stale: set[int] = set()

    # --- a channel's shown --------------------------------------------------------
    def remember(self, game_id: int, stored: Stored) -> None:
        """``stored`` is what the channel of ``game_id`` shows, now or with the next change."""
        self._stored[game_id] = stored

    def last(self, game_id: int) -> Stored | None:
        """What this process last stored of the channel of ``game_id``, if anything."""
        return self._stored.get(game_id)

    def agrees(self, record: GameRecord) -> bool:
        """Whether ``record`` says what this process last stored of its channel (or
        nothing is remembered): no other writer has shown the game since."""
        mine = self._stored.get(record.id)
        return mine is None or mine == (record.shown_version, record.message_id, record.shown)

    # --- channels behind ------------------------------------------------------------
    def fell_behind(self, game_id: int) -> None:
        """The channel of ``game_id`` could not be updated: read it afresh next time."""
        self._stale.add(game_id)

    def caught_up(self, game_id: int) -> None:
        self._stale.discard(game_id)

    def behind(self, game_id: int) -> bool:
        return game_id in self._stale

    # --- the live message's events ----------------------------------------------------
    def events(
        self, game_id: int, first_turn: int, since: int | None, fresh: list[StoredEvent]
    ) -> list[StoredEvent] | None:
        """The events from ``first_turn`` on as kept, with ``fresh`` (stored from version
        ``since`` on) added, when they follow on; None when they are to be read."""
        kept = self._events.get(game_id)
        if since is None or kept is None or kept[0] != since or kept[1] > first_turn:
            return None
        known = {e.seq for e in kept[2]}
        events = [*kept[2], *(e for e in fresh if e.seq not in known)]
        return [e for e in events if e.turn >= first_turn]

    def keep_events(self, record: GameRecord, first_turn: int, events: list[StoredEvent]) -> None:
        """The events the next plan of ``record``'s game needs, complete up to its version
        (when :attr:`kept` games are kept already, the others are let go)."""
        if len(self._events) >= self.kept and record.id not in self._events:
            self._events.clear()
        self._events[record.id] = (
            record.version,
            first_turn,
            [e for e in events if e.turn >= first_turn],
        )

    # --- what each message shows ------------------------------------------------------
    def shows(self, message_id: int, written: Written) -> bool:
        """Whether message ``message_id`` was last written with ``written``."""
        return self._written.get(message_id) == written

    def wrote(self, message_id: int, written: Written, final: bool = False) -> None:
        """Message ``message_id`` now shows ``written`` (``final``: it is not written
        again, so nothing is kept of it)."""
        if final:
            self._written.pop(message_id, None)
        else:
            self._written[message_id] = written

    # --- letting go -------------------------------------------------------------------
    def forget(self, game_id: int) -> None:
        """Let go of what is kept of a game that ended, or whose sync failed."""
        self._stored.pop(game_id, None)
        self._events.pop(game_id, None)
