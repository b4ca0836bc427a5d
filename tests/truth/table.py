"""Seeded games played through the service and shown through the channel's plan, as the
golden transcripts are made (``tests/cogs/test_plan.py``), with what people do to a
game: let a decision run out, go away, leave, abandon it, and a channel that cannot be
written for a while. What the table did is kept beside the channel (:class:`Played`),
for the facts only the table knows (who left, when the channel was down)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.channel.dice import TEXT, Faces
from bot.channel.plan import Channel, Shown, by_turn, ending, plan, review_due
from bot.channel.texts import lobby_closed_content
from bot.i18n import using
from bot.players import choose, is_computer
from bot.records.games import GameRecord
from bot.records.options import Options
from bot.records.plans import RETHROW_RULES, Step
from bot.records.seats import Seats
from bot.rules import PASS, Game, Move
from bot.rules.qwinto import ROLL_MOVES
from bot.service.ahead import next_turn_of
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.service.rated import RatingService
from bot.service.ratings import told
from bot.service.review import ReviewKeeper
from bot.store import Store
from tests.cogs.test_plan import FakeChannel, Message
from tests.fakes import FakeClock
from tests.truth.locks import LockPlot, lock_plot, lock_seed

GUILD = 7
DAY = 86400.0
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
    standing: bool = False
    """Most people let a standing choice answer their decisions on other people's turns
    (only what skips nothing, or the Hard computer)."""
    ahead: bool = False
    """The active person decides ahead what comes after their first decision of the turn
    (the coloured die, On Board's pawn; Qwinto: the re-throw rule, their next throw),
    and chooses what happens should it no longer be possible (a pass, or being asked);
    someone asked in action 1 locks the row planned, when they can."""
    vacation: bool = False
    """A person is away until a day for a stretch of turns, then back."""
    hard_timeout: bool = False
    """The person whose decisions run out chose the Hard computer's move for that."""

    def describe(self) -> str:
        extras = [
            name
            for name in (
                "fill_away",
                "deadline",
                "away",
                "leave",
                "abandon",
                "outage",
                "review",
                "standing",
                "ahead",
                "vacation",
                "hard_timeout",
            )
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
        kind = index % 12
        seed = 1000 * (list(SIZES).index(variant) + 1) + index
        if kind == 0 and variant != "qwinto":  # people only: a plan ahead meets a lock
            seed = lock_seed(variant, seed, lambda s: PEOPLE[: random.Random(s).randint(low, high)])
        rng = random.Random(seed)
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
                standing=index % 4 in (1, 2) and (kind != 1 or index // 12 % 4 == 1),
                ahead=kind in (0, 3, 4, 6, 9, 10),
                vacation=index % 6 == 3,
                hard_timeout=kind == 10 or (kind == 4 and index // 12 % 2 == 1),
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
    started: float = 0.0
    """When the game started (its first decision opened)."""
    live: list[tuple[str, int]] = field(default_factory=list)
    """The live turn message each time the channel showed a new version of the running
    game: its text, and how many moves the store held then."""

    def texts(self) -> list[str]:
        """The channel's final state: every message's text, oldest first."""
        return [message.content for message in self.channel.messages.values()]


class Table:
    """Games of one server, played one after another in one store (so that wins and
    ratings add up as on a real server)."""

    def __init__(self, store: Store, faces: Faces = TEXT, clock: FakeClock | None = None) -> None:
        self.store = store
        self.faces = faces
        """The dice's emojis the channel is shown with (none: the dice as text)."""
        self.clock = clock or FakeClock(1_000_000.0)
        """The service's clock (the store's too, when the store was opened with it)."""
        self.seed = 0
        self.targets: dict[tuple[int, int], str] = {}
        """(game, turn) -> the row the active person planned to cross in action 2."""
        self.planned: set[tuple[int, int]] = set()
        """(game, turn): the active person considered a plan."""
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
        played = Played(scenario, record.id, FakeChannel(), started=self.clock.now)
        self.played.append(played)
        started = (await self.service.lobby.start(record.id, host)).record
        with using("en-US"):  # the lobby's message, as the Start button leaves it
            played.channel.messages[0] = Message(
                lobby_closed_content(started, "lobby.started", host)
            )
        plot = Plot.of(scenario, rng, people)
        styles = {p: rng.choice(("random", "easy", "easy", "far")) for p in people}
        await self.choose(record.id, scenario, plot, people)
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
        if plot.on_vacation and plot.vacationer is not None:  # they play the next games too
            await self.service.members.change(plot.vacationer, away_until=None)
        return played

    async def choose(
        self, game_id: int, scenario: Scenario, plot: Plot, people: tuple[int, ...]
    ) -> None:
        """What the people choose for this game once it started: standing choices, what
        happens to a choice ahead that can no longer be made, the Hard computer's move
        when their time runs out."""
        for person in people:
            choices: dict[str, str] = {}
            if scenario.standing and plot.pace.random() < 0.75:
                choices["others"] = plot.pace.choice(("safe", "computer"))
            if scenario.ahead:
                choices["fallback"] = plot.pace.choice(("ask", "pass"))
            if plot.lock is not None and person == plot.lock.planner:  # both, game by game
                choices["fallback"] = ("ask", "pass")[plot.lock.turn % 2]
            if scenario.hard_timeout and person == plot.late:
                choices["timeout"] = "computer"
            if choices:
                await self.service.turns.choose_for_game(game_id, person, **choices)

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
        if plot.scenario.ahead:  # the active person first, so that they may plan ahead
            waiting.sort(key=lambda p: p != game.active)
        if not waiting:
            assert record.deadline is not None
            self.clock.now = record.deadline + 1
            plot.late_times -= 1
            return await self.service.deadlines.fire(record.id)
        decision = game.decision()
        active = decision.active
        if (
            plot.scenario.ahead
            and decision.phase == "action1"
            and active not in decision.waiting
            and not is_computer(active)
            and active not in away
            and (record.id, game.turn) not in self.planned
        ):  # the active player had no white sum to choose: they plan right away
            planned = await self.plan_turn(record.id, game, active, plot)
            if planned is not None:
                return planned
        player = waiting[0]
        move = self.locking(record.id, game, player) or person_move(
            game, player, styles[player], rng
        )
        if plot.lock is not None:
            move = plot.lock.move(game, player, move)
        ahead: tuple[Step, ...] = ()
        if plot.scenario.ahead and decision.phase == "roll":
            ahead = (Step("reroll", rule=plot.pace.choice(RETHROW_RULES)),)
        outcome = await self.service.turns.move(
            record.id, player, game.turn, decision.phase, move, ahead=ahead
        )
        if plot.scenario.ahead and outcome.game is not None and player not in away:
            if decision.phase == "action1" and player == decision.active:
                return await self.plan_turn(record.id, outcome.game, player, plot) or outcome
            if decision.phase == "place" and player != decision.active:
                return await self.plan_throw(record.id, outcome.game, player, plot) or outcome
        return outcome

    def locking(self, game_id: int, game: Game, player: int) -> Move | None:
        """In action 1, the cross that locks the row the active player planned to cross
        in action 2, if ``player`` may make it (so that a plan meets a lock)."""
        row = self.targets.get((game_id, game.turn))
        if row is None or game.decision().phase != "action1" or player == game.active:
            return None
        last = set(game.lock_numbers(row))
        return next(
            (m for m in game.legal_moves(player) if m.row == row and m.number in last), None
        )

    async def plan_turn(self, game_id: int, game: Game, player: int, plot: Plot) -> Outcome | None:
        """The active person, their white sum chosen, decides ahead the coloured die (and
        On Board's pawn): a row someone asked could lock, when there is one."""
        first = game.chosen_move(player)
        self.planned.add((game_id, game.turn))
        if first is None or game.decision().phase != "action1":
            return None
        steps: tuple[Step, ...] = ()
        for _ in range(2 if game.variant == "onboard" else 1):
            foreseen = game.foresee(player, [first, *(s.move for s in steps if s.move)])
            if foreseen is None or foreseen.turn != game.turn or foreseen.finished:
                break
            options = foreseen.legal_moves(player)
            if plot.lock is not None and game.turn < plot.lock.turn:
                options = [m for m in options if m.row not in plot.lock.kept(game, player)]
            if not options:
                break
            lockable = [m for m in options if m.kind == "cross" and self.lockable(game, m.row)]
            crosses = [m for m in options if m != PASS]
            move = (
                plot.pace.choice(lockable)
                if lockable and not steps
                else plot.pace.choice(crosses or options)
                if plot.pace.random() < 0.8
                else plot.pace.choice(options)
            )
            steps = (*steps, Step(foreseen.decision().phase, move))
        if not steps:
            return None
        if steps[0].move is not None and steps[0].move.row is not None:
            self.targets[(game_id, game.turn)] = steps[0].move.row
        return await self.service.turns.plan(game_id, player, game.turn, steps)

    def lockable(self, game: Game, row: str | None) -> bool:
        """Whether ``row`` will be locked in action 1 (so a plan to cross in it meets the
        lock): someone the game waits for may lock it now (and will), or someone chose to
        already (the table sees the choices the players do not)."""
        if row is None:
            return False
        last = set(game.lock_numbers(row))
        chosen = [game.chosen_move(p) for p in game.players if p != game.active]
        waiting = [
            m for p in game.decision().waiting if not is_computer(p) for m in game.legal_moves(p)
        ]
        return any(m is not None and m.row == row and m.number in last for m in [*chosen, *waiting])

    async def plan_throw(self, game_id: int, game: Game, player: int, plot: Plot) -> Outcome | None:
        """A Qwinto person decides their next turn's throw and re-throw rule ahead, now
        and then (a plan the game's end may leave unmet)."""
        if plot.pace.random() < 0.5 or game.finished:
            return None
        turn = next_turn_of(game, player)
        steps = (
            Step("roll", plot.pace.choice(ROLL_MOVES)),
            Step("reroll", rule=plot.pace.choice(RETHROW_RULES)),
        )
        try:
            return await self.service.turns.plan(game_id, player, turn, steps)
        except ServiceError:  # the turn moved on meanwhile
            return None

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
        if plot.vacationer is not None and plot.vacation_from <= turn and not plot.on_vacation:
            plot.on_vacation = True
            await self.service.members.change(plot.vacationer, away_until=self.clock.now + 30 * DAY)
            return await self.service.keeper.read(record.id)
        if plot.on_vacation and turn >= plot.vacation_to and plot.vacationer is not None:
            await self.service.members.change(plot.vacationer, away_until=None)
            plot.on_vacation, plot.vacationer = False, None
            return await self.service.keeper.read(record.id)
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
        shown_id = live or record.message_id
        if record.status == "running" and shown_id in played.channel.messages:
            text = played.channel.messages[shown_id].content
            if not played.live or played.live[-1][0] != text:
                rows = await self.store.engine.fetch(
                    "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)
                )
                played.live.append((text, int(rows[0][0])))


@dataclass
class Plot:
    """When a scenario's mishaps happen, drawn from its seed."""

    scenario: Scenario
    pace: random.Random
    """What the people choose to be asked less, drawn apart from the rest (so that a
    scenario without it plays as it did before it was added)."""
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
    lock: LockPlot | None = None
    """A plan ahead that is to meet a lock (:mod:`tests.truth.locks`)."""
    vacationer: int | None = None
    vacation_from: int = 0
    vacation_to: int = 0
    on_vacation: bool = False

    @classmethod
    def of(cls, scenario: Scenario, rng: random.Random, people: tuple[int, ...]) -> Plot:
        plot = cls(scenario, random.Random(f"{scenario.seed}:pace"))
        if scenario.ahead and not scenario.computers and not scenario.leave:
            plot.lock = lock_plot(scenario.variant, scenario.seed, people)
        if scenario.vacation:
            plot.vacationer = plot.pace.choice(people)
            plot.vacation_from = plot.pace.randint(2, 8)
            plot.vacation_to = plot.vacation_from + plot.pace.randint(3, 8)
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
