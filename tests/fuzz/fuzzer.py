"""Random member actions through the Discord stand-in, and the invariants checked after each.

The same :class:`Fuzzer` serves the bounded property test (choices drawn by
hypothesis, so failures shrink) and ``benchmarks/soak.py`` (choices drawn from a
seeded ``random.Random``). A :class:`Chooser` is all either has to provide.

Actions: click a component a member sees (players, the host, and a member who is
not playing), pick a select option, forge a component (a real id altered, or one
that is not on the clicked message), pick a select value that was not offered,
run a slash command with random options (choices, free text, members) or with a
value outside its choices, click the same thing twice at once, and let time pass so
that reminders, deadlines and lobby expiry fire.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bot.app import QwixxBot
from bot.channel.budget import WriteBudget
from bot.rules import Game, Move, game_from_json, new_game
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.commands import (
    BOOLEAN,
    CHANNEL,
    GROUP,
    INTEGER,
    NUMBER,
    ROLE,
    STRING,
    SUBCOMMAND,
    USER,
    command_data,
    registered,
)
from bot.sandbox.driver import BUTTON, COMMAND, COMPONENT, STRING_SELECT, ActionOutcome
from bot.sandbox.records import InteractionRecord, StoredMessage
from tests.fakes import FakeClock

VARIANTS = ("classic", "longo", "onboard", "qwinto")
MEMBERS = ("Ana", "Ben", "Cem", "Eve")
"""Eve never joins a game: her clicks on players' buttons must change nothing."""
CHANGEABLE = ("action1", "place")
"""Simultaneous phases (Qwixx action 1, Qwinto's place): a player may change the
choice until everyone has decided, so a choice taken again is no double."""
TEXTS = (
    "1h",
    "5m",
    "7d",
    "soon",
    "٣h",
    "５m",
    "1m" * 40,
    "x" * 3000,
    "",
    "-1h",
    "0",
    "99999999999999999999d",
)


class Chooser(Protocol):
    """Where the fuzzer's decisions come from."""

    def index(self, size: int) -> int:
        """A number in ``range(size)`` (``size`` ≥ 1)."""

    def text(self) -> str:
        """Some text a member might type."""


@dataclass
class Figures:
    """What a run did, for the soak's report."""

    actions: Counter[str] = field(default_factory=Counter)
    interactions: int = 0
    games: set[int] = field(default_factory=set)
    finished: set[int] = field(default_factory=set)
    max_ack: float = 0.0


class ErrorLog(logging.Handler):
    """Collects ERROR records of the bot and of discord.py (unhandled exceptions)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> ErrorLog:
        for name in ("bot", "discord"):
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for name in ("bot", "discord"):
            logging.getLogger(name).removeHandler(self)


def new_bot(database: Path, sb: Sandbox, clock: FakeClock) -> QwixxBot:
    return QwixxBot(
        database,
        dev_guild=sb.guild.id,
        clock=clock,
        coalesce=0.05,
        tick=3600,
        budget=WriteBudget(10_000, 1.0),
    )


def sandbox() -> Sandbox:
    return Sandbox(
        guilds=[GuildSpec(channels=("general",))], members=MEMBERS, write_limit=False, settle=0.01
    )


class Fuzzer:
    """Drives members at random and checks the invariants after every action."""

    def __init__(
        self, sb: Sandbox, bot: QwixxBot, clock: FakeClock, choose: Chooser, errors: ErrorLog
    ) -> None:
        self.sb, self.bot, self.clock, self.choose, self.errors = sb, bot, clock, choose, errors
        self.members = [sb.member(name) for name in MEMBERS]
        self.figures = Figures()

    # --- choosing ----------------------------------------------------------------
    def pick(self, items: Sequence[Any]) -> Any:
        return items[self.choose.index(len(items))]

    def member(self) -> SimMember:
        return self.pick(self.members)

    def usable(self, member: SimMember) -> list[tuple[StoredMessage, dict[str, Any]]]:
        """(message, component) pairs the member can use, newest messages first."""
        found = []
        for message in reversed(member.messages()[-12:]):
            found += [
                (message, c)
                for c in message.interactive()
                if not c.get("disabled")
                and c.get("type") in (BUTTON, STRING_SELECT)
                and c.get("custom_id")
            ]
        return found

    # --- the actions -------------------------------------------------------------
    async def step(self) -> None:
        """One random action, then the invariants."""
        kinds = (
            "click",
            "click",
            "click",
            "click",
            "start",
            "slash",
            "forge",
            "stray",
            "bad_value",
            "twice",
            "time",
        )
        kind = self.pick(kinds)
        self.figures.actions[kind] += 1
        outcomes = await getattr(self, f"do_{kind}")()
        for outcome in outcomes:
            self.figures.interactions += 1
            record = outcome.interaction
            self.figures.max_ack = max(self.figures.max_ack, record_ack(record))
        await self.check(kind)

    async def do_click(self) -> list[ActionOutcome]:
        member = self.member()
        options = self.usable(member)
        if not options:
            return await self.do_start()
        message, component = self.pick(options)
        return [await self.use(member, message, component)]

    async def use(
        self, member: SimMember, message: StoredMessage, component: dict[str, Any]
    ) -> ActionOutcome:
        if component["type"] == BUTTON:
            return await member.click(message, custom_id=component["custom_id"])
        value = self.pick([o["value"] for o in component.get("options") or []])
        return await member.select(message, [value], custom_id=component["custom_id"])

    async def do_start(self) -> list[ActionOutcome]:
        host = self.pick(self.members[:3])
        variant = self.pick(VARIANTS)
        return [await host.slash("qwixx", "start", variant=variant, turn_time="1h")]

    async def do_slash(self) -> list[ActionOutcome]:
        member = self.member()
        path, options = self.command(member)
        data = command_data(self.sb.server.world, member.record, path, options)
        if self.choose.index(4) == 0:
            self.outside_choices(data)
        return [await member._act(COMMAND, member.channel, data, None)]

    def command(self, member: SimMember) -> tuple[list[str], dict[str, Any]]:
        """A random registered command path with random values for random options."""
        node = self.pick(registered(self.sb.server.world, self.sb.guild.id))
        path = [node["name"]]
        while subs := [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]:
            node = self.pick(subs)
            path.append(node["name"])
        options = {}
        for option in node.get("options") or []:
            if option.get("required") or self.choose.index(2):
                options[option["name"]] = self.value(option)
        return path, options

    def value(self, option: dict[str, Any]) -> Any:
        if option.get("choices"):
            return self.pick(option["choices"])["value"]
        kind = option["type"]
        if kind == STRING:
            return self.choose.text()
        if kind == BOOLEAN:
            return bool(self.choose.index(2))
        if kind in (INTEGER, NUMBER):
            return self.choose.index(100)
        if kind == USER:
            return self.member().record
        if kind == CHANNEL:
            return self.member().channel
        if kind == ROLE:  # one of the server's roles, or an id it never had
            roles = self.sb.guild.roles
            return (
                self.pick(roles).id
                if roles and self.choose.index(4)
                else 1 + self.choose.index(100)
            )
        raise NotImplementedError(option)

    def outside_choices(self, data: dict[str, Any]) -> None:
        """Replace one option value by text that is no choice (a tampered client)."""
        options = data["options"]
        while options and options[0].get("type") in (SUBCOMMAND, GROUP):
            options = options[0].get("options") or []
        if options:
            self.pick(options)["value"] = self.choose.text()

    async def do_forge(self) -> list[ActionOutcome]:
        """A real custom_id altered, on a copy of the message that carries it."""
        member = self.member()
        options = self.usable(member)
        if not options:
            return []
        message, component = self.pick(options)
        parts = component["custom_id"].split(":")
        parts[1 + self.choose.index(len(parts) - 1)] = self.pick(  # keep the "qx" prefix
            [self.choose.text(), "9" * 25, "0", str(2**63), "٣", "lobby", "cross.red.x"]
        )
        custom_id = ":".join(parts)[:100]
        forged = copy.deepcopy(message)
        forged.find_component(custom_id=component["custom_id"])["custom_id"] = custom_id
        data = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == STRING_SELECT:
            data["values"] = [self.pick(component["options"])["value"]]
        return [await member._act(COMPONENT, member._channel_of(message), data, forged)]

    async def do_stray(self) -> list[ActionOutcome]:
        """A ``qx:`` id that is not on the clicked message (one of another message)."""
        member = self.member()
        seen = member.messages()
        options = self.usable(member)
        if not seen or not options:
            return []
        _, component = self.pick(options)
        message = self.pick(seen)
        if component in list(message.interactive()):
            return []
        data = {
            "custom_id": component["custom_id"],
            "component_type": component["type"],
            "values": [o["value"] for o in component.get("options") or []][:1],
        }
        return [await member._act(COMPONENT, member._channel_of(message), data, message)]

    async def do_bad_value(self) -> list[ActionOutcome]:
        member = self.member()
        menus = [(m, c) for m, c in self.usable(member) if c["type"] == STRING_SELECT]
        if not menus:
            return []
        message, menu = self.pick(menus)
        data = {
            "custom_id": menu["custom_id"],
            "component_type": STRING_SELECT,
            "values": [self.pick(["cross.red.5", "pass", self.choose.text(), "place.x.1"])],
        }
        return [await member._act(COMPONENT, member._channel_of(message), data, message)]

    async def do_twice(self) -> list[ActionOutcome]:
        """The same click twice at once (a double tap)."""
        member = self.member()
        options = self.usable(member)
        if not options:
            return []
        message, component = self.pick(options)
        if component["type"] != BUTTON:
            return []
        game = component["custom_id"].split(":")[1]
        phase = await self.phase(int(game)) if game.isdigit() else None
        before = await self.player_moves(member.id)
        both = await asyncio.gather(
            self.use(member, message, component), self.use(member, message, component)
        )
        added = await self.player_moves(member.id) - before
        # An action-1 choice may be picked again until everyone has decided: the same
        # choice twice is stored twice but changes nothing. Any other double is a bug.
        limit = 2 if phase in CHANGEABLE else 1
        assert added <= limit, f"a double tap applied twice: {component['custom_id']}"
        return list(both)

    async def phase(self, game_id: int) -> str | None:
        store = self.bot.store
        assert store is not None
        record = await store.games.get(game_id)
        return game_from_json(record.state).decision().phase if record and record.state else None

    async def player_moves(self, user: int) -> int:
        """Moves ``user`` made themselves, over every game of the channel."""
        store = self.bot.store
        assert store is not None
        games = await store.games.of_channel(self.sb.channel.id, limit=1000)
        logs = [await store.games.moves(g.id) for g in games]
        return sum(1 for log in logs for m in log if m.player_id == user and m.source == "player")

    async def do_time(self) -> list[ActionOutcome]:
        self.clock.now += self.pick([60, 1800, 3000, 3700, 7300])
        await self.bot.timers.tick()
        return []

    # --- the invariants ------------------------------------------------------------
    async def check(self, after: str) -> None:
        where = f"after {after} ({sum(self.figures.actions.values())} actions)"
        unanswered = [
            str(r.data)[:300] for r in self.sb.server.world.interactions.values() if r.failed
        ]
        assert self.sb.failures == [], f"{where}: {self.sb.describe_failures()} {unanswered}"
        errors = [
            r.getMessage()
            + (logging.Formatter().formatException(r.exc_info)[-600:] if r.exc_info else "")
            for r in self.errors.records
        ]
        assert not errors, f"{where}: unhandled errors logged: {errors}"
        store = self.bot.store
        assert store is not None
        for record in await store.games.of_channel(self.sb.channel.id, limit=1000):
            self.figures.games.add(record.id)
            if record.status == "finished":
                self.figures.finished.add(record.id)
            if record.state is None:
                continue
            await self.check_game(
                record.id,
                record.variant,
                record.players,
                record.seed,
                record.options.get("rules", {}),
                record.state,
                where,
            )

    async def check_game(
        self,
        game_id: int,
        variant: str,
        players: list[int],
        seed: int,
        rules: dict[str, Any],
        state: dict[str, Any],
        where: str,
    ) -> None:
        """Stored state = replay of seed + log; one move per decision; players only."""
        store = self.bot.store
        assert store is not None
        log = await store.games.moves(game_id)
        moves = [(m.player_id, Move.from_json(m.move), m.source) for m in log]
        assert all(p in players for p, _, _ in moves), f"{where}: a move by a non-player"
        game, twice = audit(variant, players, seed, rules, [(p, m) for p, m, _ in moves])
        assert not twice, f"{where}: game {game_id} applied a decision twice: {twice}"
        assert game.to_json() == state, f"{where}: game {game_id} differs from its replay"


def audit(
    variant: str,
    players: list[int],
    seed: int,
    rules: dict[str, Any],
    moves: list[tuple[int, Move]],
) -> tuple[Game, list[tuple[int, int, str]]]:
    """The replayed game and the (player, turn, phase) decisions taken more than once
    (outside the :data:`CHANGEABLE` phases)."""
    game = new_game(variant, players, seed, rules)
    decided: Counter[tuple[int, int, str]] = Counter()
    for player, move in moves:
        decision = game.decision()
        if decision.phase not in CHANGEABLE:
            decided[(player, decision.turn, decision.phase)] += 1
        game, _ = game.apply(player, move)
    return game, [key for key, count in decided.items() if count > 1]


def record_ack(record: InteractionRecord) -> float:
    """Seconds from the interaction to its answer (as the stand-in saw it)."""
    answered = record.acknowledged_at
    return 0.0 if answered is None else answered - record.created_at


async def run(database: Path, choose: Chooser, actions: int) -> Figures:
    """``actions`` random actions against a fresh bot, invariants checked after each."""
    clock = FakeClock()
    with ErrorLog() as errors:
        async with sandbox() as sb:
            bot = new_bot(database, sb, clock)
            await sb.run_bot(bot)
            fuzzer = Fuzzer(sb, bot, clock, choose, errors)
            for _ in range(actions):
                await fuzzer.step()
            return fuzzer.figures
