"""Members' preferences: read, changed, and carried into the games they play.

A member's defaults are kept in the store (:mod:`bot.store.members`); each running game
keeps its own copy with its seats (:class:`~bot.records.seats.Seats`), made when the game
starts and brought up to date here whenever the member changes a default, so that every
decision is made on the one record its change reads. A choice made for one game only
stays with that game (:meth:`Prefs.with_defaults`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from bot.records.prefs import DEFAULT, Prefs, PrefsError, checked
from bot.records.seats import Seats
from bot.service.errors import ServiceError
from bot.service.keeper import GameKeeper
from bot.service.outcome import Outcome, Snapshot
from bot.service.play import Play
from bot.service.writes import Played, Tell, Write
from bot.store import Store

log = logging.getLogger(__name__)

MEMBER_CHOICES = (
    "others",
    "timeout",
    "fallback",
    "dm",
    "quiet",
    "zone",
    "away_until",
    "nudge",
    "rethrow",
)
"""What a member may change of their defaults."""


class Members:
    """Members' preferences in one store."""

    def __init__(self, store: Store, keeper: GameKeeper, clock: Callable[[], float]) -> None:
        self._members = store.members
        self.keeper = keeper
        self.clock = clock

    async def prefs(self, user: int) -> Prefs:
        """The member's defaults (the bot's when they chose nothing)."""
        return Prefs.from_json(await self._members.prefs(user))

    async def of(self, users: Iterable[int]) -> dict[int, Prefs]:
        """The defaults of the people among ``users`` who chose something."""
        found = {}
        for user in users:
            if user > 0 and (prefs := await self.prefs(user)) != DEFAULT:
                found[user] = prefs
        return found

    async def change(self, user: int, **changes: Any) -> Prefs:
        """Change the member's defaults (names of :data:`MEMBER_CHOICES`), then every
        running game they sit in, on every server; the defaults as they are now.
        A value that cannot be is refused by name before anything is stored."""
        unknown = set(changes) - set(MEMBER_CHOICES)
        if unknown:
            raise ServiceError("prefs.unknown_choice", name=sorted(unknown)[0], value="")
        try:
            new = replace(await self.prefs(user), **checked(changes))
        except PrefsError as refused:
            raise ServiceError(refused.key, **refused.values) from None
        if changes.get("dm"):  # turned on again: their DMs may be open now
            new = replace(new, dm_blocked=False, dm_blocked_told=False)
        await self._store(user, new)
        return new

    async def dms_closed(self, user: int) -> list[Outcome]:
        """Discord refused a direct message to ``user`` (their DMs are closed): their
        games mention them instead, until they turn DMs on again; the games that
        changed. Nothing changes for a member already known so."""
        prefs = await self.prefs(user)
        if prefs.dm_blocked:
            return []
        return await self._store(user, replace(prefs, dm_blocked=True, dm_blocked_told=False))

    async def told_dms_closed(self, user: int) -> list[Outcome] | None:
        """``user`` is told now that their DMs are closed (once); the games that changed,
        or None when there is nothing to tell (told already, or DMs turned on again)."""
        prefs = await self.prefs(user)
        if not prefs.dm_blocked or prefs.dm_blocked_told:
            return None
        return await self._store(user, replace(prefs, dm_blocked_told=True))

    async def _store(self, user: int, prefs: Prefs) -> list[Outcome]:
        """``prefs`` are the member's defaults now, in each of their running games too."""
        await self._members.set_prefs(user, prefs.to_json(), self.clock())
        return await self.spread(user, prefs)

    async def spread(self, user: int, defaults: Prefs) -> list[Outcome]:
        """Carry ``defaults`` into each running game ``user`` sits in (their choices for
        one game stay); the games that changed. A game that cannot be changed now keeps
        what it had, logged: the member's next change, or the game's end, settles it."""
        changed = []
        for game in await self.keeper.seated(user):
            try:
                outcome = await self.keeper.change(game.record.id, with_defaults(user, defaults))
            except ServiceError as error:
                log.warning("game %d keeps %d's preferences (%s)", game.record.id, user, error)
                continue
            if outcome.changed:
                changed.append(outcome)
        return changed


def with_defaults(user: int, defaults: Prefs) -> Callable[[Snapshot], Any]:
    """A change: ``user``'s seat in the game takes ``defaults`` (but its own choices)."""

    async def decide(current: Snapshot) -> Write:
        record, game = current.record, current.game
        if record.status != "running" or game is None or user not in record.players:
            return Tell()
        seats = Seats.of(record)
        prefs = seats.prefs_of(user).with_defaults(defaults)
        if prefs == seats.prefs_of(user) and prefs.own == seats.prefs_of(user).own:
            return Tell()
        return Played(Play(game), seats.with_prefs(user, prefs))

    return decide
