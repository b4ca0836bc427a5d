"""One simulated game, played through the real service and shown by the real publisher,
on a fake clock that jumps from one event to the next.

The events are the people's looks (by themselves, or brought by a notification) and the
game's timer (a reminder or a deadline due: the timer loop's own pass,
:meth:`bot.timers.Timers.tick`, runs at that moment). After each, every member
who is looking and waited on answers (:meth:`Behaviour.answer`), until the game waits
only on people who are not looking: a wait, which lasts until one of them looks or the
game's timer moves it on.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.channel.publisher import Publisher
from bot.channel.story import deciders
from bot.players import is_computer
from bot.records.games import GameRecord
from bot.records.seats import Seats
from bot.rules import Game
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.service.timing import DecisionClock
from bot.service.where import Where
from bot.service.writes import waits_unattended
from bot.timers import Timers
from tests.fakes import FakeClock

from .behaviours import Behaviour, Decided, Member, current
from .people import DAY, Person, asleep_together
from .recorders import ChannelRecorder, DirectRecorder, Inbox, Written

EVENTS = 200_000
"""More events than any game needs: a game still running after them is a bug."""
GUILD = 1
RAN_OUT = ("expired", "timeout_hard")
"""The move log's sources of decisions whose time ran out (no cross, or the Hard
computer's choice for those who chose that)."""


@dataclass
class Look:
    member: int
    start: float
    end: float
    notified: bool
    """Brought by a notification."""


@dataclass
class Wait:
    """The game waiting only on people none of whom is looking."""

    turn: int
    phase: str
    who: str
    """``active``, ``others`` or ``everyone`` (the active player and others)."""
    waiting: frozenset[int]
    start: float
    end: float = 0.0
    ended_by: str = ""
    """``look``, ``notified look`` or ``deadline``."""
    night: float = 0.0
    """Seconds of it during which everyone waited on was asleep."""

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass
class GameLog:
    """What happened in one game."""

    variant: str
    behaviour: str
    game_id: int
    members: list[int]
    status: str
    start: float
    end: float
    waits: list[Wait]
    looks: list[Look]
    decided: list[Decided]
    written: list[Written]
    people: list[Person] = field(repr=False)
    messages: dict[int, int] = field(default_factory=dict)
    notifications: dict[int, int] = field(default_factory=dict)
    expired: dict[int, int] = field(default_factory=dict)
    """Decisions each member let run out, as stored."""

    @property
    def days(self) -> float:
        return (self.end - self.start) / DAY


class Table:
    """One game of ``people`` playing ``behaviour``, begun at ``start`` by the first of
    them, in a look of theirs."""

    def __init__(
        self,
        service: GameService,
        clock: FakeClock,
        behaviour: Behaviour,
        variant: str,
        people: Sequence[Person],
        channel: int,
        start: float,
    ) -> None:
        self.service = service
        self.clock = clock
        self.behaviour = behaviour
        self.variant = variant
        self.people = list(people)
        self.channel = channel
        self.start = start
        self.inbox = Inbox(clock, [p.member for p in people], self.heard)
        self.direct = DirectRecorder(self.inbox)
        self.publisher = Publisher(
            service.channel, ChannelRecorder(self.inbox), settle=0.0, direct=self.direct
        )
        self.timers = Timers(service, self.publisher, publish=self.changed)
        self.members: dict[int, Member] = {}
        self.looks: list[Look] = []
        self.waits: list[Wait] = []
        self._looking: dict[int, Look] = {}
        self._queue: list[tuple[float, int, int, bool]] = []
        """Looks to come: (when, order, member, brought by a notification)."""
        self._order = 0
        self.game_id = 0

    # --- the adapter's part -------------------------------------------------
    async def changed(self, outcome: Outcome) -> None:
        """As the adapter after a change: the open sheets of players whose new decision
        it opened move on (those players see it there), then the publisher tells the
        channel; its pending syncs run now rather than after its pause."""
        seen: set[int] = set()
        if self.publisher.opened(outcome) and outcome.game is not None:
            game = outcome.game
            seen = {p for p in deciders(game) if self.members[p].sheet_open(game.turn)}
        await self.publisher.publish(outcome, seen)
        await self.publisher.drain()

    # --- people ------------------------------------------------------------------
    def heard(self, member: int, when: float) -> None:
        """A notification reached ``member``: it may bring a look (none while they look)."""
        person = self.members[member].person if member in self.members else None
        if person is None:
            return
        brought = person.notified(when)
        if brought is not None and not self.looking(member, when):
            self._plan(brought, member, notified=True)

    def looking(self, member: int, when: float) -> bool:
        look = self._looking.get(member)
        return look is not None and look.start <= when < look.end

    def _plan(self, when: float, member: int, notified: bool) -> None:
        self._order += 1
        heapq.heappush(self._queue, (when, self._order, member, notified))

    def _look(self, member: int, when: float, notified: bool) -> None:
        """A look begins (one under way lasts on: it keeps how it began)."""
        length = self.members[member].person.model.look_seconds
        look = self._looking.get(member)
        if look is not None and when < look.end:
            look.end = max(look.end, when + length)
            return
        look = Look(member, when, when + length, notified)
        self.looks.append(look)
        self._looking[member] = look
        self.members[member].notified = notified

    # --- the game ----------------------------------------------------------------
    async def read(self) -> tuple[GameRecord, Game | None]:
        found = await current(self.service, self.game_id)
        return found.record, found.game

    def running(self, record: GameRecord) -> bool:
        return record.status == "running"

    async def begin(self) -> None:
        """The lobby, its people and the start, all in the host's look at ``start``."""
        self.clock.now = self.start
        await self.timers.tick()  # as the bot's first pass at its start
        host, *others = (p.member for p in self.people)
        record = await self.service.lobby.open(GUILD, self.channel, host, self.variant)
        self.game_id = record.id
        where = Where(GUILD, self.channel)
        for person in self.people:
            self.members[person.member] = Member(
                person,
                self.service,
                record.id,
                where,
                self.changed,
                self.direct,
                self.clock.tick,
            )
        for member in others:
            await self.service.lobby.join(record.id, member, where=where)
        await self.behaviour.prepare(list(self.members.values()))
        self._look(host, self.start, notified=False)
        for person in self.people:
            self._plan(person.next_look(self.start), person.member, notified=False)
        await self.changed(await self.service.lobby.start(record.id, host, where=where))

    async def answer(self) -> None:
        """Every member who is looking and waited on decides, until none is."""
        for _ in range(EVENTS):
            record, game = await self.read()
            if not self.running(record) or game is None:
                return
            decision = game.decision()
            here = sorted(p for p in decision.waiting if self.looking(p, self.clock.now))
            if not here:
                return
            await self.behaviour.answer(self.members[here[0]])
            _, after = await self.read()
            if after is not None and after.decision() == decision:
                raise RuntimeError(f"{self.behaviour.name} left {here[0]}'s decision open")
        raise RuntimeError("the members never stopped deciding")

    def due(self, record: GameRecord, game: Game | None) -> float | None:
        """When the game's timer next has something to do (None: never)."""
        if not self.running(record):
            return None
        if waits_unattended(record, game, self.clock.now):
            return self.clock.now
        clock = DecisionClock.of(record, Seats.of(record).timed)  # quiet hours and nudges too
        return None if clock is None else clock.next_due()

    async def track(self, ended_by: str, at: float) -> None:
        """Open or close the wait the game is in after an event that happened ``at`` (a
        wait ends as the event begins: the look, or the deadline; see :class:`Wait`)."""
        record, game = await self.read()
        waiting: frozenset[int] = frozenset()
        if self.running(record) and game is not None:
            waiting = frozenset(p for p in game.decision().waiting if not is_computer(p))
        now = self.clock.now
        wait = self.waits[-1] if self.waits and not self.waits[-1].ended_by else None
        if wait is not None:
            assert game is not None
            if (wait.turn, wait.phase, wait.waiting) == (
                game.turn,
                game.decision().phase,
                waiting,
            ):
                return
            wait.end, wait.ended_by = at, ended_by
            wait.night = asleep_together(
                [self.members[p].person for p in wait.waiting], wait.start, at
            )
        if waiting and game is not None and not any(self.looking(p, now) for p in waiting):
            active = game.active
            who = (
                "active" if waiting == {active} else ("everyone" if active in waiting else "others")
            )
            self.waits.append(Wait(game.turn, game.decision().phase, who, waiting, now))

    async def play(self) -> GameLog:
        """The whole game; what happened in it."""
        await self.begin()
        await self.answer()
        await self.track("", self.clock.now)
        for _ in range(EVENTS):
            record, game = await self.read()
            if not self.running(record):
                break
            due = self.due(record, game)
            if due is not None and due <= self._queue[0][0]:
                at = self.clock.now = max(self.clock.now, due)
                before = game.decision() if game is not None else None
                await self.timers.tick()
                await self.publisher.drain()
                after = (await self.read())[1]
                moved = after is None or after.decision() != before
                ended_by = "deadline" if moved else "timer"
            else:
                when, _, member, notified = heapq.heappop(self._queue)
                at = self.clock.now = max(self.clock.now, when)  # later if taps ran past it
                if not notified:
                    self._plan(self.members[member].person.next_look(when), member, False)
                self._look(member, when, notified)
                await self.behaviour.visit(self.members[member])
                ended_by = "notified look" if self._looking[member].notified else "look"
            await self.answer()
            await self.track(ended_by, at)
        else:
            raise RuntimeError(f"game {self.game_id} still runs after {EVENTS} events")
        await self.publisher.drain()
        await self.publisher.reviewed()
        return await self.log()

    async def log(self) -> GameLog:
        record, _ = await self.read()
        end = record.finished_at if record.finished_at is not None else self.clock.now
        members = [p.member for p in self.people]
        decided = [d for m in self.members.values() for d in m.decided]
        decided.sort(key=lambda d: (d.at, d.member))
        moves = await self.service.store.games.moves(self.game_id)
        expired = Counter(m.player_id for m in moves if m.source in RAN_OUT)
        return GameLog(
            self.variant,
            self.behaviour.name,
            self.game_id,
            members,
            record.status,
            self.start,
            end,
            self.waits,
            self.looks,
            decided,
            list(self.inbox.written),
            self.people,
            {m: self.inbox.messages(m) for m in members},
            {m: self.inbox.notifications(m) for m in members},
            {m: expired[m] for m in members},
        )
