"""Seeded games played through the service and shown through the channel's plan, as the
golden transcripts are made (``tests/cogs/test_plan.py``), with what people do to a
game: let a decision run out, go away, leave, abandon it, and a channel that cannot be
written for a while. What the table did is kept beside the channel (:class:`Played`),
for the facts only the table knows (who left, when the channel was down)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.channel.dice import TEXT, Faces
from bot.channel.plan import Channel, Shown, ending, plan, review_due
from bot.channel.publisher import by_turn
from bot.channel.texts import lobby_closed_content
from bot.i18n import using
from bot.players import choose, is_computer
from bot.records import GameRecord
from bot.rules import Game, Move
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.service.play import Options, Seats
from bot.service.rated import RatingService
from bot.service.ratings import told
from bot.service.review import ReviewKeeper
from bot.store import Store
from tests.cogs.test_plan import FakeChannel, Message
from tests.fakes import FakeClock

GUILD = 7
PEOPLE = (111, 222, 333, 444, 555, 666)
SIZES = {"classic": (2, 5), "longo": (2, 5), "onboard": (2, 4), "qwinto": (2, 6)}
"""Seats a game of each variant takes (the rules' own limits)."""


@dataclass(frozen=True)
class Scenario:
    """One game to play: who sits at the table and what happens to it."""

    variant: str
    seed: int
    people: int
    computers: tuple[str, ...] = ()
    """Each computer seat's level."""
    fill_away: bool = False
    deadline: bool = False
    """A person lets one decision run out."""
    away: bool = False
    """A person lets decisions run out until the game stops waiting for them (and,
    with ``fill_away``, comes back later)."""
    leave: bool = False
    abandon: bool = False
    outage: bool = False
    """The channel cannot be written for a stretch of turns."""
    review: bool = False
    """The people's accuracies are worked out before the end is shown."""

    def describe(self) -> str:
        extras = [
            name
            for name in ("fill_away", "deadline", "away", "leave", "abandon", "outage", "review")
            if getattr(self, name)
        ]
        return (
            f"{self.variant} seed {self.seed}: {self.people} people"
            + (f" + {', '.join(self.computers)}" if self.computers else "")
            + (f" ({', '.join(extras)})" if extras else "")
        )


def scenarios(variant: str, count: int) -> list[Scenario]:
    """``count`` games of ``variant`` that go round every kind of table: people only,
    people with computers of each level, and each mishap, the numbers of seats drawn
    from the game's seed."""
    low, high = SIZES[variant]
    found = []
    for index in range(count):
        seed = 1000 * (list(SIZES).index(variant) + 1) + index
        rng = random.Random(seed)
        kind = index % 12
        seats = rng.randint(low, high)
        levels = ("easy", "normal", "hard")
        if kind in (0, 6):  # people only
            people, computers = seats, ()
        elif kind in (1, 2, 3):  # one person, computers of one level
            people, computers = 1, (levels[kind - 1],) * max(1, seats - 1)
        else:  # people and computers of mixed levels (at most one Hard: it thinks longest)
            people = rng.randint(2, max(2, seats - 1))
            computers = tuple(rng.choice(levels[:2]) for _ in range(max(0, seats - people)))
            if kind == 9 and computers:
                computers = ("hard", *computers[1:])
        found.append(
            Scenario(
                variant,
                seed,
                people,
                computers,
                fill_away=kind in (5, 11),
                deadline=kind in (4, 8, 10),
                away=kind in (5, 7, 11),
                leave=kind in (6, 10) and people >= 2,
                abandon=kind == 8,
                outage=kind in (2, 3, 7, 9),
                review=index % 25 == 0,
            )
        )
    return found


@dataclass
class Played:
    """A game played at the table: its channel and what the table did to it."""

    scenario: Scenario
    game_id: int
    channel: FakeChannel
    left: dict[int, int] = field(default_factory=dict)
    """Player -> the turn they left in."""
    back: dict[int, int] = field(default_factory=dict)
    """Player -> the turn they came back in (their seat played by a computer till then)."""
    abandoned: int | None = None
    """The turn the host abandoned the game in."""
    down: set[int] = field(default_factory=set)
    """Turns begun while the channel could not be written (from a failed write to the
    next one that shows the game)."""

    def texts(self) -> list[str]:
        """The channel's final state: every message's text, oldest first."""
        return [message.content for message in self.channel.messages.values()]


class Table:
    """Games of one server, played one after another in one store (so that wins and
    ratings add up as on a real server)."""

    def __init__(self, store: Store, faces: Faces = TEXT) -> None:
        self.store = store
        self.faces = faces
        """The dice's emojis the channel is shown with (none: the dice as text)."""
        self.clock = FakeClock(1_000_000.0)
        self.seed = 0
        self.service = GameService(store, seeds=lambda: self.seed, clock=self.clock)
        self.ratings = RatingService(store)
        self.played: list[Played] = []

    async def play(self, scenario: Scenario) -> Played:
        self.seed = scenario.seed
        rng = random.Random(scenario.seed)
        host, people = PEOPLE[0], PEOPLE[: scenario.people]
        channel_id = 100 + len(self.played)
        record = await self.service.lobby.open(
            GUILD, channel_id, host, scenario.variant, play=Options(fill_away=scenario.fill_away)
        )
        for person in people[1:]:
            record = await self.service.lobby.join(record.id, person)
        for level in scenario.computers:
            record = await self.service.lobby.add_computer(record.id, host, level)
        played = Played(scenario, record.id, FakeChannel())
        self.played.append(played)
        started = (await self.service.lobby.start(record.id, host)).record
        with using("en-US"):  # the lobby's message, as the Start button leaves it
            played.channel.messages[0] = Message(
                lobby_closed_content(started, "lobby.started", host)
            )
        plot = Plot.of(scenario, rng, people)
        styles = {p: rng.choice(("random", "easy", "easy", "far")) for p in people}
        with using("en-US"):
            shown, behind = 0, False  # the turn the channel shows; a write failed since
            outcome: Outcome | None = None
            for _ in range(10_000):
                if outcome is None:
                    outcome = await self.service.keeper.read(record.id)
                game, record = outcome.game, outcome.record
                assert game is not None
                failing = plot.down(game.turn) and record.status == "running"
                if failing:  # a write fails: the channel stays as it was
                    behind = True
                    await self.service.keeper.mark_behind(record.id)
                if behind:  # the turns it does not show are played while it is down
                    played.down.update(range(shown + 1, game.turn + 1))
                if not failing:
                    await self.sync(played, outcome.record, game)
                    shown, behind = game.turn, False
                if record.status != "running":
                    break
                outcome = await self.mishap(played, plot, record, game) or await self.decide(
                    plot, record, game, styles, rng
                )
            else:
                raise AssertionError(f"{scenario.describe()} did not end")
        return played

    async def decide(
        self, plot: Plot, record: GameRecord, game: Game, styles: dict[int, str], rng: random.Random
    ) -> Outcome | None:
        """The first person the game waits for decides; if only one who lets their
        decision run out is waited for, its time runs out. The game after it."""
        away = Seats.of(record).away
        waiting = [
            p
            for p in sorted(game.decision().waiting)
            if not is_computer(p) and p not in away and not plot.holds_out(p, game.turn)
        ]
        if not waiting:
            assert record.deadline is not None
            self.clock.now = record.deadline + 1
            plot.late_times -= 1
            return await self.service.deadlines.fire(record.id)
        player = waiting[0]
        move = person_move(game, player, styles[player], rng)
        return await self.service.turns.move(
            record.id, player, game.turn, game.decision().phase, move
        )

    async def mishap(
        self, played: Played, plot: Plot, record: GameRecord, game: Game
    ) -> Outcome | None:
        """What the plot has happen now, if anything: the game after it (None: nothing,
        or a change whose game is to be read again)."""
        turn = game.turn
        if plot.abandon_at is not None and turn >= plot.abandon_at:
            await self.service.turns.abandon(record.channel_id, PEOPLE[0], True)
            played.abandoned = turn
            return await self.service.keeper.read(record.id)
        if (
            plot.leaver is not None
            and turn >= (plot.leave_at or 0)
            and plot.leaver not in played.left
        ):
            played.left[plot.leaver] = turn
            return await self.service.turns.leave_game(record.channel_id, plot.leaver)
        if (
            plot.sleeper is not None
            and plot.sleeper in Seats.of(record).away
            and plot.back_at is not None
            and turn >= plot.back_at
        ):
            plot.back_at = None
            back = await self.service.turns.come_back(record.id, plot.sleeper)
            if back is not None:
                played.back[plot.sleeper] = turn
                return back
        return None

    async def sync(self, played: Played, record: GameRecord, game: Game) -> None:
        """What the publisher does, minus Discord: the plan carried out on the channel,
        with the wins, ratings and accuracies the final message tells."""
        service, game_id = self.service, played.game_id
        if record.shown_version >= record.version:
            return
        shown = Shown.of(record)
        events = by_turn(await service.keeper.events(game_id, shown.since or shown.turn or 0))
        wins: dict[int, int] = {}
        ratings: dict[int, tuple[str, int]] = {}
        if ending(record, shown):
            wins = {
                s.player: await service.endings.wins_on_server(record.guild_id, s.player)
                for s in game.ranking()
                if s.rank == 1
            }
            ratings = told(await self.ratings.settle(record))
        accuracies = None
        if review_due(record, shown):
            if played.scenario.review:
                await ReviewKeeper(self.store).keep(record)
            accuracies = await self.store.reviews.of(game_id)
        steps, after = plan(
            Channel(
                record,
                game,
                shown,
                events,
                Seats.of(record).away,
                wins,
                None,
                ratings,
                accuracies,
                self.faces,
            )
        )
        live = played.channel.carry_out(steps, after)
        await service.keeper.show(record, live or record.message_id, after.to_json())


@dataclass
class Plot:
    """When a scenario's mishaps happen, drawn from its seed."""

    late: int | None = None
    """The one person whose decisions run out (``deadline``: once, ``away``: until away)."""
    late_at: int = 0
    late_times: int = 0
    sleeper: int | None = None
    back_at: int | None = None
    leaver: int | None = None
    leave_at: int | None = None
    abandon_at: int | None = None
    down_from: int | None = None
    down_to: int = 0

    @classmethod
    def of(cls, scenario: Scenario, rng: random.Random, people: tuple[int, ...]) -> Plot:
        plot = cls()
        if scenario.deadline or scenario.away:
            plot.late = rng.choice(people)
            plot.late_at = rng.randint(1, 8)
            plot.late_times = 1 if not scenario.away else 3
            if scenario.away:
                plot.sleeper = plot.late
                plot.back_at = plot.late_at + rng.randint(4, 9) if scenario.fill_away else None
        if scenario.leave:
            plot.leaver = rng.choice(people[1:])
            plot.leave_at = rng.randint(2, 12)
        if scenario.abandon:
            plot.abandon_at = rng.randint(3, 15)
        if scenario.outage:
            plot.down_from = rng.randint(2, 10)
            plot.down_to = plot.down_from + rng.choice((2, 4, 8, 13, 20))
        return plot

    def down(self, turn: int) -> bool:
        return self.down_from is not None and self.down_from <= turn < self.down_to

    def holds_out(self, player: int, turn: int) -> bool:
        """Whether ``player`` lets their decision run out now (the others decide first)."""
        return player == self.late and self.late_times > 0 and turn >= self.late_at


def person_move(game: Game, player: int, style: str, rng: random.Random) -> Move:
    """A person's decision: any legal move at random, as an Easy computer would, or
    (``far``) the one leaving the most numbers behind (a sheet soon closed, so that the
    computers play long runs of turns nobody else can write in)."""
    if style == "easy":
        return choose(game, player, rng, "easy")
    moves = game.legal_moves(player)
    if style == "far":
        return max(moves, key=lambda move: (len(game.skipped_by(player, move)), rng.random()))
    return rng.choice(moves)
