"""What the bot writes during a simulated game, and whom each write notifies.

:class:`ChannelRecorder` is the publisher's :class:`~bot.channel.writer.Writer`: it keeps
every post, edit and deletion the channel's real plan asks for. A new message notifies
a member when it mentions them and its allowed mentions (the plan's ``pinged``, which
the Discord writer turns into ``AllowedMentions``) let it ping them; an edit never
notifies (Discord does not notify on edits), nor does a deletion. :class:`DirectRecorder`
is the publisher's :class:`~bot.channel.writer.DirectWriter`: each direct message it
sends notifies its member. Both tell the :class:`Inbox`, which tells the simulation.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal

from bot.channel.direct import Closing, Letter, Place
from bot.channel.plan import Delete, Edit, Post
from bot.channel.story import mention
from bot.records.games import GameRecord
from bot.rules import Game

Kind = Literal["post", "edit", "delete", "direct"]


@dataclass(frozen=True)
class Written:
    """One write of the bot."""

    at: float
    kind: Kind
    message_id: int
    content: str = ""
    pinged: tuple[int, ...] = ()
    """Whom its allowed mentions let it ping."""
    notified: tuple[int, ...] = ()
    """Whom it notified: mentioned, allowed to ping, a new message."""
    to: int | None = None
    """A direct message's member."""


class Inbox:
    """Every write of one game, in order; ``heard(member, when)`` is called for each
    notification, as it is written."""

    def __init__(
        self,
        clock: Callable[[], float],
        members: Collection[int],
        heard: Callable[[int, float], None],
    ) -> None:
        self.clock = clock
        self.members = frozenset(members)
        self.heard = heard
        self.written: list[Written] = []
        self._ids = 0

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    def add(self, written: Written) -> None:
        self.written.append(written)
        for member in written.notified:
            self.heard(member, written.at)

    def messages(self, member: int) -> int:
        """New messages ``member`` could see: the channel's posts and their own direct
        messages."""
        return sum(
            w.kind == "post" or (w.kind == "direct" and w.to == member) for w in self.written
        )

    def notifications(self, member: int) -> int:
        return sum(member in w.notified for w in self.written)


class ChannelRecorder:
    """The channel's :class:`~bot.channel.writer.Writer` for the simulation."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox

    async def post(self, record: GameRecord, game: Game | None, step: Post) -> int:
        inbox = self.inbox
        notified = tuple(
            p for p in step.pinged if p in inbox.members and mention(p) in step.content
        )
        message_id = inbox.next_id()
        inbox.add(Written(inbox.clock(), "post", message_id, step.content, step.pinged, notified))
        return message_id

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        self.inbox.add(Written(self.inbox.clock(), "edit", step.message_id, step.content))

    async def delete(self, record: GameRecord, step: Delete) -> bool:
        self.inbox.add(Written(self.inbox.clock(), "delete", step.message_id))
        return True

    def locale(self, guild_id: int) -> str | None:
        return None


class DirectRecorder:
    """The publisher's :class:`~bot.channel.writer.DirectWriter` for the simulation: each
    new direct message notifies its member; a closing edits it (notifying nobody). It
    keeps each member's direct message whose wait is still open, as the member sees
    it: with its buttons, one tap from a decision."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self.open: dict[int, tuple[int, int, str]] = {}
        """Member -> the turn, message and phase of their direct message with buttons."""

    async def send(self, record: GameRecord, game: Game, letter: Letter) -> tuple[int, int]:
        inbox, member = self.inbox, letter.person
        message_id = inbox.next_id()
        inbox.add(
            Written(
                inbox.clock(), "direct", message_id, letter.content, (member,), (member,), to=member
            )
        )
        self.open[member] = (letter.turn, message_id, letter.phase)
        return DIRECT_CHANNEL, message_id

    async def close(self, record: GameRecord, closing: Closing) -> None:
        """A direct message whose wait ended: an edit, which notifies nobody."""
        member, message_id = closing.person, closing.sent.message_id
        self.inbox.add(Written(self.inbox.clock(), "edit", message_id, closing.content, to=member))
        if self.open.get(member, (0, 0, ""))[1] == message_id:
            del self.open[member]

    def place(self, record: GameRecord) -> Place | None:
        return ("Pace", "games")

    def letter_for(self, member: int, turn: int, phase: str) -> bool:
        """Whether ``member`` has a direct message with buttons for this wait."""
        found = self.open.get(member)
        return found is not None and (found[0], found[2]) == (turn, phase)


DIRECT_CHANNEL = 1
"""The direct messages' channel, as the simulation names it."""
