"""Carries a game's direct messages out: what :func:`bot.channel.direct.letters` plans,
through a :class:`~bot.channel.writer.DirectWriter`.

It also keeps the members whose direct messages Discord refuses: each is stored as such
through the source (their games mention them from then on) and, once, told so by the
adapter at their next interaction. The publisher calls it in each sync of a game and
shows again the games those refusals change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from bot.channel.dice import Faces
from bot.channel.direct import (
    Closing,
    Mailbox,
    Sent,
    ended,
    letters,
    storable,
    stored,
    unreached,
)
from bot.channel.outage import Outage
from bot.channel.plan import Events, Shown, by_turn
from bot.channel.source import Change, Source
from bot.channel.writer import DirectWriter, Unreachable
from bot.records.games import GameRecord
from bot.rules import Game

log = logging.getLogger(__name__)


class Courier:
    """Writes the direct messages of the games ``source`` reads, through ``writer``."""

    def __init__(
        self, source: Source, writer: DirectWriter, faces: Callable[[], Faces], outage: Outage
    ) -> None:
        self.source = source
        self.writer = writer
        self.faces = faces
        self.outage = outage
        self.unreached: set[int] = set()
        """Members whose direct messages Discord refuses, not told so yet
        (:meth:`told_unreached`)."""
        self._refused: set[int] = set()
        """Members whose direct message Discord just refused, to be stored as such."""

    async def deliver(
        self, record: GameRecord, game: Game, shown: Shown, events: Events, now: float
    ) -> bool:
        """Bring the game's direct messages up to it (:func:`bot.channel.direct.letters`),
        noting them in ``shown``; whether they only edited. A member whose direct
        messages Discord refuses is sent none any more: their games mention them."""
        self.unreached |= unreached(record)
        events = await self.told_since(record, stored(shown.direct), events)
        box = Mailbox(
            record, game, stored(shown.direct), events, now, self.writer.place(record), self.faces()
        )
        mail, sent = letters(box)
        posted = False
        for item in mail:
            if isinstance(item, Closing):
                await self.writer.close(record, item)
            else:
                try:
                    channel_id, message_id = await self.writer.send(record, game, item)
                except Unreachable as refused:
                    log.info("no direct message to %s: %s", item.person, refused)
                    self._refused.add(item.person)
                    continue
                sent[item.person] = Sent(channel_id, message_id, item.turn, item.phase)
                posted = True
            self.outage.reached()
        shown.direct = storable(sent)
        return not posted

    async def told_since(
        self, record: GameRecord, sent: Mapping[int, Sent], events: Events
    ) -> Events:
        """``events``, or, once the game is over, those from its oldest letter's turn on:
        each letter says again what happened in its wait, with the end."""
        first = min((s.turn for s in sent.values() if s.state != "ended"), default=None)
        if not ended(record) or first is None or first >= min(events, default=first + 1):
            return events
        return by_turn(await self.source.events(record.id, first))

    async def store_refusals(self) -> list[Change]:
        """Store the members whose direct messages Discord just refused: the games that
        changed (they mention them from now on, and are to be shown again). One not
        stored is tried again at the member's next refused message."""
        changed: list[Change] = []
        while self._refused:
            person = self._refused.pop()
            self.unreached.add(person)
            try:
                changed += await self.source.dms_closed(person)
            except Exception as error:
                log.warning("member %s: closed direct messages not stored (%s)", person, error)
        return changed

    async def told_unreached(self, person: int) -> Sequence[Change] | None:
        """If ``person`` is to be told now that Discord refuses their direct messages
        (once: stored as told), the games that changed; else None."""
        if person not in self.unreached:
            return None
        self.unreached.discard(person)
        return await self.source.told_dms_closed(person)
