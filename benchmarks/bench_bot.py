"""What does a click cost the bot as a whole, from the interaction to its last request?

The real bot (:class:`bot.app.QwixxBot` over a SQLite file) plays two-player games
through the local Discord stand-in (:mod:`bot.sandbox`), its members clicking as people
do: **Open my sheet** on the turn message, then a move on the sheet (and **Yes** when
the bot asks about a costly one); the sheet's other buttons (its pages, Hint) are left
aside, so that each click counted as a move is one. Every click is followed from the
moment the bot's gateway hands it over (``INTERACTION_CREATE``) until the bot is idle
again: the click's handling has ended, the channel's deferred edit made (the
publisher's pending syncs are run at once, as when the players take longer than its
pause between clicks; quicker players share that edit) and a finished game's review
done. For each click:

* CPU of the bot's every thread (event loop, database threads, image threads): the
  stand-in runs on a thread of its own, whose CPU is left out;
* the images it drew, each timed in CPU on its own thread: budget, CPU per click at most
  the click's own sheet image plus 1 ms;
* SQL statements, every one SQLite runs on any connection, reads included
  (:meth:`bot.store.sqlite.SqliteEngine.watch`): budget, at most 3 a click not counting
  ``BEGIN`` and ``COMMIT``; ``--statements`` lists them by kind;
* HTTP requests the stand-in receives, and the wall time from the interaction to the
  last of them (the stand-in shares the interpreter, so this is only a figure);
  ``--requests`` lists them by endpoint.

A game's last click (its scores, ratings and review) is counted apart, and the first
clicks of the run (fonts and caches loading) are not timed. Resident memory with 1,000
games open and a sheet of each variant drawn is the startup section's
(:mod:`benchmarks.bench_startup`).

``--profile`` also profiles the event loop's thread (its CPU, under :mod:`cProfile`) while
the moves are followed, and prints its share by package: what a move's CPU is spent on
besides its images, which are drawn on other threads.

    python -m benchmarks.bench_bot [--quick] [--statements] [--requests] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import random
import re
import statistics
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import bot.cogs.images
from bot.app import QwixxBot
from bot.channel.budget import WriteBudget
from bot.cogs.discord_private import hasten_ready
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import CONFIRM, OPEN_SHEET, final_message, moves, next_turn
from bot.sandbox.records import ChannelRecord, StoredMessage
from bot.store.sqlite import SqliteEngine

Row = tuple[str, str, str, float]  # what, budget, figure, ratio (0: no budget)
T = TypeVar("T")

IMAGE_SLACK_MS = 1.0  # a click's CPU beyond its own sheet image
STATEMENTS = 3.0
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
WARM_UP = 12  # clicks not timed: the first images load the fonts and fill the caches
SEED = 20261126
TABLES = 20  # channels, a game in each
RENDERING = (bot.cogs.images,)
"""The modules whose ``render_*`` functions draw a click's images."""


class StandIn:
    """The stand-in Discord on a thread and event loop of its own: the process's CPU
    less this thread's is the bot's."""

    def __init__(self, members: list[str]) -> None:
        self._members = members
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="stand-in", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._failed: BaseException | None = None
        self.sb: Sandbox | None = None

    def _serve(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as error:  # told to the benchmark's thread
            self._failed = error
        finally:
            self._started.set()

    async def _main(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        tables = GuildSpec(channels=[f"table-{k}" for k in range(TABLES)])
        async with Sandbox(
            guilds=[tables], members=self._members, write_limit=False, settle=0.02
        ) as sb:
            self.sb = sb
            self._started.set()
            await self._stop.wait()

    async def __aenter__(self) -> Sandbox:
        self._thread.start()
        await asyncio.to_thread(self._started.wait)
        if self.sb is None:
            raise RuntimeError("the stand-in did not start") from self._failed
        return self.sb

    async def __aexit__(self, *_: object) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        await asyncio.to_thread(self._thread.join)

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """``work`` on the stand-in's loop (whatever reads or drives its world)."""
        assert self._loop is not None
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self._loop))

    def cpu(self) -> float:
        """CPU seconds of the stand-in's thread so far."""
        assert self._thread.ident is not None
        return time.clock_gettime(time.pthread_getcpuclockid(self._thread.ident))


@dataclass
class Click:
    """One click as the bot handled it."""

    kind: str  # "open" (Open my sheet), "move" (applied), "asked" (a costly move, asked about)
    cpu: float = 0.0  # seconds, every thread of the bot
    last_request: float = 0.0  # seconds after its arrival
    statements: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    images: list[tuple[str, bool, float]] = field(default_factory=list)
    """(render function, whether it is the clicker's own sheet, CPU seconds)."""
    last: bool = False  # the game's last click
    profile: cProfile.Profile | None = None  # the event loop's thread meanwhile (--profile)

    @property
    def own_sheet(self) -> float:
        return sum(cpu for _, own, cpu in self.images if own)

    @property
    def queries(self) -> list[str]:
        return [sql for sql in self.statements if not sql.startswith(CONTROL)]


class Probe:
    """What the bot does meanwhile: interactions arriving, statements, images."""

    def __init__(self, stand_in: StandIn) -> None:
        self.stand_in = stand_in
        self.statements: list[str] = []
        self.images: list[tuple[str, int | None, float]] = []
        self.arrivals: list[tuple[float, float]] = []  # (monotonic, bot CPU)

    def bot_cpu(self) -> float:
        return time.process_time() - self.stand_in.cpu()

    def heard(self, sql: str) -> None:
        self.statements.append(sql)

    async def install(self, qwixx: QwixxBot) -> None:
        """Listen in on ``qwixx`` (logged in: an interaction arrives as its gate hands it on)."""
        assert qwixx.store is not None and isinstance(qwixx.store.engine, SqliteEngine)
        await qwixx.store.engine.watch(self.heard)
        gate = qwixx.gate
        assert gate is not None
        parse = gate._parse  # what the gate hands an interaction on to: it arrives there

        def arrived(data: Any) -> None:
            self.arrivals.append((time.monotonic(), self.bot_cpu()))
            parse(data)

        gate._parse = arrived

    @contextmanager
    def drawing(self) -> Iterator[None]:
        """Time every image the click path draws, in CPU on the thread that draws it."""
        patched: list[tuple[ModuleType, str, Any]] = []
        for module in RENDERING:
            for name in [n for n in vars(module) if n.startswith("render_")]:
                render = getattr(module, name)
                patched.append((module, name, render))
                setattr(module, name, self._timed(name, render))
        try:
            yield
        finally:
            for module, name, render in patched:
                setattr(module, name, render)

    def _timed(self, name: str, render: Callable[..., bytes]) -> Callable[..., bytes]:
        def drawn(*args: Any) -> bytes:
            start = time.thread_time()
            try:
                return render(*args)
            finally:
                player = args[1] if name == "render_sheet" else None
                self.images.append((name, player, time.thread_time() - start))

        return drawn


@contextmanager
def profiling(profile: cProfile.Profile | None) -> Iterator[None]:
    """``profile`` enabled meanwhile, on this thread (the event loop's), if there is one."""
    if profile is not None:
        profile.enable()
    try:
        yield
    finally:
        if profile is not None:
            profile.disable()


def by_package(clicks: list[Click]) -> list[str]:
    """The event loop's CPU a click of ``clicks``, by where it was spent, most first."""
    spent: Counter[str] = Counter()
    for click in clicks:
        assert click.profile is not None, "run with --profile"
        click.profile.create_stats()
        stats: dict[Any, Any] = click.profile.stats
        for (path, _, name), (_, _, own, _, _) in stats.items():
            spent[package_of(path, name)] += own
    total, count = sum(spent.values()), max(len(clicks), 1)
    return [
        f"{seconds / count * 1000:6.2f} ms {seconds / total:6.1%}  {where}"
        for where, seconds in spent.most_common()
        if seconds / total >= 0.005
    ] + [f"{total / count * 1000:6.2f} ms   in all, the event loop's thread a click"]


def package_of(path: str, name: str) -> str:
    """Where a profiled function lives: the bot's package, a library, the standard library."""
    if path == "~":
        return "built-ins (sockets, JSON, SQLite and Pillow calls)"
    if "site-packages/" in path:
        return path.split("site-packages/")[1].split("/")[0]
    if "/bot/" in path:
        return "bot." + path.split("/bot/")[1].split("/")[0].removesuffix(".py")
    if "/benchmarks/" in path:
        return "this benchmark's probe"
    return "the standard library" + (" (asyncio)" if "/asyncio/" in path else "")


class Players:
    """The members at one table of the stand-in, clicking through the bot."""

    def __init__(
        self,
        stand_in: StandIn,
        sb: Sandbox,
        qwixx: QwixxBot,
        probe: Probe,
        names: list[str],
        rng: random.Random,
        profiled: bool = False,
    ) -> None:
        self.stand_in, self.sb, self.qwixx, self.probe = stand_in, sb, qwixx, probe
        self.profiled = profiled
        self.members = [sb.member(name) for name in names]
        self.rng = rng
        self.clicks: list[Click] = []

    async def idle(self) -> None:
        """Until the bot has finished what its clicks started (see the module)."""
        gate, publisher = self.qwixx.gate, self.qwixx.publisher
        assert gate is not None
        while True:
            await gate.settle(30.0)
            await publisher.drain()
            await publisher.reviewed()
            if not gate.in_flight and publisher.debounce.idle:
                return

    async def click(
        self, kind: str, member: SimMember, message: StoredMessage, **which: str
    ) -> StoredMessage:
        """One click, followed until the bot is idle again; what the member sees then."""
        probe, calls = self.probe, self.sb.server.calls
        statements, images, requests = len(probe.statements), len(probe.images), len(calls)
        arrivals = len(probe.arrivals)
        profile = cProfile.Profile(time.thread_time) if self.profiled else None
        with profiling(profile):
            answer = await self.stand_in.run(member.click(message, **which))
            await self.idle()
        cpu = probe.bot_cpu()
        assert len(probe.arrivals) == arrivals + 1, "one interaction a click"
        arrived, before = probe.arrivals[-1]
        sent = calls[requests:]
        click = Click(
            kind,
            cpu - before,
            max((c.at for c in sent), default=arrived) - arrived,
            probe.statements[statements:],
            [c.endpoint for c in sent],
            [
                (name, player == member.id, seconds)
                for name, player, seconds in probe.images[images:]
            ],
            profile=profile,
        )
        self.clicks.append(click)
        return answer.message

    async def look(self, see: Callable[[Sandbox], T]) -> T:
        """What ``see`` finds in the stand-in's world (read on its thread)."""

        async def seen() -> T:
            return see(self.sb)

        return await self.stand_in.run(seen())

    async def game(self, variant: str, channel: ChannelRecord) -> None:
        """Open, start and play one game to its end in ``channel``."""
        host, *others = self.members
        await self.stand_in.run(host.slash("qwixx", "start", variant=variant, in_channel=channel))

        def lobby(sb: Sandbox) -> StoredMessage:
            return next(m for m in sb.messages(channel) if "Join" in m.labels)

        for member in others:
            await self.stand_in.run(member.click(await self.look(lobby), label="Join"))
        await self.stand_in.run(host.click(await self.look(lobby), label="Start"))
        await self.idle()
        while await self.round(channel):
            pass
        self.clicks[-1].last = True

    async def round(self, channel: ChannelRecord) -> bool:
        """Each member decides once on the newest turn message; False once it is over."""
        for member in self.members:
            turn = await self.stand_in.run(next_turn(self.sb, channel))
            if turn is None:
                return False
            sheet = await self.click("open", member, turn, label=OPEN_SHEET)
            offered = [move for move in moves(sheet) if move.value is None]  # its buttons
            if not offered or "change your choice" in sheet.content:
                continue
            after = await self.click(
                "move", member, sheet, custom_id=self.rng.choice(offered).custom_id
            )
            if CONFIRM in after.labels:  # a costly move: asked, then applied by [Yes]
                self.clicks[-1].kind = "asked"
                await self.click("move", member, after, label=CONFIRM)
        return await self.look(lambda sb: final_message(sb, channel)) is None


async def play(variant: str, clicks: int, seed: int = SEED, profiled: bool = False) -> list[Click]:
    """Games of ``variant`` until ``clicks`` clicks past the warm-up were followed."""
    names = ["Ana", "Ben"]
    with tempfile.TemporaryDirectory() as folder:
        stand_in = StandIn(names)
        probe = Probe(stand_in)
        async with stand_in as sb:
            qwixx = QwixxBot(
                Path(folder) / "bench.db",
                dev_guild=sb.guild.id,
                seeds=itertools.count(seed).__next__,  # each game its own dice
                tick=3_600.0,
                budget=WriteBudget(writes=10_000, window=1.0),
            )
            hasten_ready(qwixx, 0.05)
            running = asyncio.create_task(qwixx.start("sandbox-token"))
            try:
                while not qwixx.is_ready():
                    if running.done():
                        running.result()
                    await asyncio.sleep(0.01)
                await probe.install(qwixx)
                table = Players(stand_in, sb, qwixx, probe, names, random.Random(seed), profiled)
                with probe.drawing():
                    for k in range(TABLES):
                        if len(table.clicks) >= WARM_UP + clicks:
                            break
                        await table.game(variant, sb.channel_named(f"table-{k}"))
                assert sb.failures == [], sb.describe_failures()
            finally:
                await qwixx.close()
                await asyncio.gather(running, return_exceptions=True)
    return table.clicks[WARM_UP:]


LITERAL = re.compile(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b")


def kind_of(sql: str) -> str:
    """A statement as a kind: what it does to which table, its values left out."""
    text = LITERAL.sub("?", " ".join(sql.split()))
    if text.startswith("UPDATE"):
        table, _, rest = text[len("UPDATE ") :].partition(" SET ")
        columns = [part.split("=")[0].strip() for part in rest.split(" WHERE ")[0].split(", ")]
        return f"UPDATE {table} SET {', '.join(columns)}"
    if text.startswith("INSERT"):
        return " ".join(text.split()[:3])
    if text.startswith("SELECT"):
        found = re.match(r"SELECT (.*?) FROM (\w+)(?: WHERE (.*?))?(?: ORDER| LIMIT|$)", text)
        if found:
            what = found[1] if len(found[1]) < 30 else found[1][:27] + "..."
            return f"SELECT {what} FROM {found[2]}" + (f" WHERE {found[3]}" if found[3] else "")
    return text[:80]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def summary(clicks: list[Click], what: str) -> list[Row]:
    """The rows of one kind of click."""
    if not clicks:
        return []
    count = len(clicks)
    cpu = statistics.fmean(c.cpu for c in clicks)
    own = statistics.fmean(c.own_sheet for c in clicks)
    drawn = statistics.fmean(sum(s for _, _, s in c.images) for c in clicks)
    queries = statistics.fmean(len(c.queries) for c in clicks)
    everything = statistics.fmean(len(c.statements) for c in clicks)
    requests = statistics.fmean(len(c.requests) for c in clicks)
    wall = statistics.median(c.last_request for c in clicks)
    budget = own + IMAGE_SLACK_MS / 1000
    return [
        (
            f"bot: {what}, CPU per click ({count} clicks)",
            f"<= own sheet + {IMAGE_SLACK_MS:g} ms",
            f"{ms(cpu)} (sheet {ms(own)})",
            cpu / budget,
        ),
        (
            f"  (median {ms(statistics.median(c.cpu for c in clicks))}; every image drawn "
            f"{ms(drawn)}, the rest {ms(cpu - drawn)})",
            "",
            "",
            0.0,
        ),
        (
            f"bot: {what}, SQL statements per click",
            f"<= {STATEMENTS:g}",
            f"{queries:.1f} (+{everything - queries:.1f} BEGIN/COMMIT)",
            queries / STATEMENTS,
        ),
        (f"bot: {what}, HTTP requests per click", "", f"{requests:.1f}", 0.0),
        (f"bot: {what}, interaction to last request, median", "", ms(wall), 0.0),
    ]


def images(clicks: list[Click]) -> str:
    """The images a click draws, on average: how many of each, and their CPU."""
    drawn: Counter[str] = Counter()
    cpu: dict[str, float] = defaultdict(float)
    for click in clicks:
        for name, _, seconds in click.images:
            drawn[name] += 1
            cpu[name] += seconds
    return ", ".join(
        f"{name.removeprefix('render_')} {drawn[name] / len(clicks):.2f} x "
        f"{ms(cpu[name] / drawn[name])}"
        for name in sorted(drawn)
    )


def statement_lines(clicks: list[Click]) -> list[str]:
    """Each kind of statement with how many a click runs, most first."""
    kinds: Counter[str] = Counter(kind_of(sql) for c in clicks for sql in c.statements)
    return [f"{count / len(clicks):5.2f}  {kind}" for kind, count in kinds.most_common()]


def request_lines(clicks: list[Click]) -> list[str]:
    """Each endpoint with how many requests a click sends it, most first."""
    endpoints: Counter[str] = Counter(e for c in clicks for e in c.requests)
    return [f"{count / len(clicks):5.2f}  {what}" for what, count in endpoints.most_common()]


def clicks_of(quick: bool, profiled: bool = False) -> list[Click]:
    return asyncio.run(play("classic", 60 if quick else 240, profiled=profiled))


def rows(quick: bool = False) -> list[Row]:
    return rows_of(clicks_of(quick))


def rows_of(clicks: list[Click]) -> list[Row]:
    """(what, budget, figure, ratio) lines for the one table."""
    found: list[Row] = []
    playing = [c for c in clicks if not c.last]
    for kind, what in (
        ("move", "a move"),
        ("open", "Open my sheet"),
        ("asked", "a costly move asked about"),
    ):
        chosen = [c for c in playing if c.kind == kind]
        found += summary(chosen, what)
        if any(c.images for c in chosen):
            found.append((f"  (images a click: {images(chosen)})", "", "", 0.0))
    ends = [c for c in clicks if c.last]
    if ends:
        cpu = statistics.fmean(c.cpu for c in ends)
        found.append(
            (
                f"bot: a game's last click ({len(ends)}: scores, ratings, review)",
                "",
                f"{ms(cpu)}, {statistics.fmean(len(c.queries) for c in ends):.0f} SQL",
                0.0,
            )
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer clicks")
    parser.add_argument(
        "--statements", action="store_true", help="list each kind of click's statements"
    )
    parser.add_argument(
        "--requests", action="store_true", help="list each kind of click's requests by endpoint"
    )
    parser.add_argument(
        "--profile", action="store_true", help="the event loop's CPU during the moves, by package"
    )
    args = parser.parse_args()
    clicks = clicks_of(args.quick, args.profile)
    for what, budget, figure, ratio in rows_of(clicks):
        print(f"{what:<64} {budget:>22} {figure:>28} " + (f"{ratio:6.2f}" if ratio else ""))
    for wanted, lines, said in (
        (args.statements, statement_lines, "statements"),
        (args.requests, request_lines, "requests"),
    ):
        for kind in ("move", "open", "asked") if wanted else ():
            chosen = [c for c in clicks if c.kind == kind and not c.last]
            if chosen:
                print(f"--- {kind} ({len(chosen)} clicks): {said} a click")
                print("\n".join(lines(chosen)))
    if args.profile:
        moves = [c for c in clicks if c.kind == "move" and not c.last]
        print(f"--- move ({len(moves)} clicks): the event loop's thread, CPU under cProfile")
        print("\n".join(by_package(moves)))


if __name__ == "__main__":
    main()
