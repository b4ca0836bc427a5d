"""A whole tournament through the stand-in: thirteen members sign up for a three-round
Qwixx tournament at tables of four with repeat opponents avoided; one withdraws after
round 1; the bot is killed (SIGKILL, a process of its own) between the last table of
round 1 ending and round 2 being seated, and started again; one player lets a decision
run out in round 2 (a fake clock); the tournament ends.

Then: every round was seated once, as the core seats it from what is stored, and as
its message says (against the standings recounted from the games before it); every
table's thread tells its whole game truly (the channel checker of ``tests/truth`` over
each thread, its ratings and wins recounted game by game); the standings shown at the
end are those recounted from the replayed games through the core's pure functions; the
withdrawal and the decision run out are told; each game counts like any (history,
ratings); and no running table's seed was ever shown. The messages a member reads are
written to ``tmp_path/transcript.txt``."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from benchmarks.bench_tournament import NAMES as WORLD_NAMES
from bot.app import QwixxBot
from bot.players import is_computer
from bot.sandbox import GuildSpec, Sandbox
from bot.sandbox.autoplay import Choice, play_round, play_to_end
from bot.sandbox.driver import ActionOutcome, SimMember
from bot.sandbox.records import ChannelRecord, StoredMessage
from bot.store import Store
from bot.tournament import met_before, next_round, points_text, standings
from bot.tournament.records import Tournament
from tests.fakes import FakeClock
from tests.tournament.claims import check_later_round, met_at
from tests.tournament.helpers import fewest_repeats
from tests.tournament.tables import recount
from tests.truth.checking import check
from tests.truth.facts import Ledger, facts_of
from tests.truth.reading import read

from .conftest import UNLIMITED, fast_budget

ROOT = Path(__file__).resolve().parents[2]
MANAGE_GUILD = 1 << 5
NAMES = (*WORLD_NAMES, "Ana", "Ben", "Łukasz Żółć", "Ἀθηνᾶ", "🦄 Uni")
"""Thirteen members: long, accented, CJK and emoji names among them."""
CUP = "Spring Cup"
PATIENCE = 120.0  # seconds a step may take on a loaded machine (never a speed check)
LINE = re.compile(
    r"(?:🥇|🥈|🥉)? ?(\d+)\. <@(\d+)> — \*\*(.+?) points?\*\* · opponents (\S+) · score (\S+)"
)


def passing(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
    """Pass whatever is asked: the active player takes a penalty each turn, so a table
    of four ends in some thirteen turns."""
    return next((c for c in offered if c.custom_id.split(":")[-1] == "pass"), offered[0])


async def spawn(sb: Sandbox, database: Path, log: Path, *extra: str) -> asyncio.subprocess.Process:
    """The bot in a process of its own (:mod:`tests.e2e.tournament_process`), once it has
    connected and synced its commands."""
    synced = len([c for c in sb.server.calls if "commands" in c.route])
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.e2e.tournament_process",
        sb.server.base_url,
        sb.server.gateway_url,
        str(database),
        str(sb.guild.id),
        *extra,
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=log.open("a"),
        stderr=log.open("a"),
    )
    await sb.wait_for(
        lambda: (
            sb.server.gateway.connected
            and synced < len([c for c in sb.server.calls if "commands" in c.route])
        ),
        timeout=60,
    )
    return process


@contextlib.asynccontextmanager
async def spawned(
    sb: Sandbox, database: Path, log: Path, *extra: str
) -> AsyncIterator[asyncio.subprocess.Process]:
    """:func:`spawn`, and the process killed should the test stop before it ends."""
    process = await spawn(sb, database, log, *extra)
    try:
        yield process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def stored(database: Path) -> Tournament:
    async with Store(database) as store:
        found = await store.tournaments.get(1)
    assert found is not None
    return found


def thread(sb: Sandbox, thread_id: int | None) -> ChannelRecord:
    assert thread_id is not None
    return sb.server.world.channels[thread_id]


async def play_tables(
    sb: Sandbox, t: Tournament, members: dict[int, SimMember], tables: Sequence[int]
) -> None:
    """Play the tables numbered ``tables`` of the round being played, at once."""
    await asyncio.gather(
        *(
            play_to_end(
                sb, [members[p] for p in table.players], passing, thread(sb, table.thread_id)
            )
            for table in t.tables_of(t.record.rounds)
            if table.number in tables
        )
    )


async def answered(sb: Sandbox, member: SimMember, click: ActionOutcome) -> StoredMessage:
    """The private follow-up a click's deferred update promised: it comes after the
    sign-up message's edit, so it may still be on its way when the click settles."""

    def said() -> StoredMessage | None:
        return next(
            (m for m in member.ephemeral_messages() if m.interaction_id == click.interaction.id),
            None,
        )

    return await sb.wait_for(said, timeout=PATIENCE)


async def round_message(sb: Sandbox, cup: ChannelRecord, number: int) -> StoredMessage:
    return await sb.wait_for_message(
        lambda m: f"**round {number}** of 3" in m.content, channel=cup, timeout=PATIENCE
    )


async def test_thirteen_play_a_tournament_through_a_kill_and_a_decision_run_out(
    tmp_path: Path,
) -> None:
    database = tmp_path / "qwixx.db"
    log = tmp_path / "bot.log"
    guild = GuildSpec(channels=("general", "cup"))
    async with Sandbox(guilds=[guild], **UNLIMITED, settle=0.02, timeout=30) as sb:
        cup = sb.channel_named("cup")
        org = sb.member("Org", permissions=MANAGE_GUILD, channel=cup)
        people = [sb.member(name, channel=cup) for name in NAMES]
        members = {m.id: m for m in people}

        # --- round 1, in a process killed before it seats round 2 -------------------
        async with spawned(sb, database, log, "--die-before-seating", "2") as first:
            created = await org.slash(
                "qwixx", "tournament", "create", name=CUP, rounds=3, table_size=4, turn_time="1h"
            )
            signup = created.message
            assert not signup.ephemeral and "Nobody has signed up yet" in signup.content
            for member in people:
                joined = await member.click(signup, label="Join")
                assert joined.failed is None
                assert CUP in (await answered(sb, member, joined)).content
            await org.click(signup, label="Start")
            await round_message(sb, cup, 1)
            t = await stored(database)
            assert [len(x.players) for x in t.tables_of(1)] == [4, 3, 3, 3]
            withdrawer = t.tables_of(1)[0].players[-1]
            await play_tables(sb, t, members, [1, 2, 3])
            withdrew = await members[withdrawer].slash("qwixx", "tournament", "withdraw")
            assert "withdrawn from" in withdrew.message.content
            await play_tables(sb, t, members, [4])
            assert first.stdin is not None
            first.stdin.write(b"die\n")  # once it is about to seat round 2
            await first.stdin.drain()
            assert await asyncio.wait_for(first.wait(), PATIENCE) == -9  # killed before seating
        t = await stored(database)
        assert t.record.rounds == 1 and len(t.results) == 4
        assert t.entrant(withdrawer) is not None and t.entrant(withdrawer).withdrawn_after == 1  # type: ignore[union-attr]

        # --- rounds 2 and 3, after the restart, on a fake clock -------------------------
        clock = FakeClock(time.time())
        bot = QwixxBot(
            database, dev_guild=sb.guild.id, clock=clock, coalesce=0.05, tick=0.5,
            budget=fast_budget(),
        )  # fmt: skip
        await sb.run_bot(bot)
        await round_message(sb, cup, 2)
        t = await stored(database)
        assert withdrawer not in t.seated[1].players and len(t.seated[1].tables) == 3
        await play_tables(
            sb, t, members, [2, 3]
        )  # the clock moves for every table: these end first
        late_table = t.tables_of(2)[0]
        late = members[late_table.players[0]]
        table_channel = thread(sb, late_table.thread_id)
        others = [members[p] for p in late_table.players if p != late.id]
        await play_round(sb, others, passing, table_channel)  # they decide, the late one not
        assert bot.store is not None
        waiting = await bot.store.games.in_channel(table_channel.id)
        assert waiting is not None and waiting.deadline is not None
        clock.now = waiting.deadline + 1  # the decision runs out; the timer makes it
        await sb.wait_for_message(
            lambda m: "Time ran out" in m.content, channel=table_channel, timeout=PATIENCE
        )
        await play_tables(sb, t, members, [1])
        await round_message(sb, cup, 3)
        t = await stored(database)
        await play_tables(sb, t, members, [1, 2, 3])
        podium = await sb.wait_for_message(
            lambda m: f"**{CUP}** is over" in m.content, channel=cup, timeout=PATIENCE
        )
        await bot.publisher.drain()
        t = await stored(database)
        assert t.record.status == "finished"

        # --- every round seated once, as the core seats it ----------------------------
        headers = [m for m in sb.messages(cup) if re.search(r"\*\*round \d\*\* of 3", m.content)]
        assert [re.search(r"round (\d)", m.content)[1] for m in headers] == ["1", "2", "3"]  # type: ignore[index]
        for number in (2, 3):
            earlier = [r for r in t.results if r.round < number]
            again = next_round(
                t.settings, t.players, t.seated[: number - 1], earlier, t.record.seed
            )
            assert again == t.seated[number - 1]
            seated = t.seated[number - 1]
            sizes = [len(table.players) for table in seated.tables]
            met = met_before(t.seated[: number - 1])
            assert seated.repeats == fewest_repeats(seated.players, sizes, met)  # as few as can be

        # --- the standings shown are the recount of the replayed games --------------------
        async with Store(database) as store:
            for number, header in zip((2, 3), headers[1:], strict=True):  # as each round says
                places = {s.player: s.place for s in await recount(store, t, number - 1)}
                sat = [await store.games.get(x.game_id or 0) for x in t.tables if x.round < number]
                met = met_at([[p for p in g.players if not is_computer(p)] for g in sat if g])
                check_later_round(header.content, places, met)
            recounted = await recount(store, t)
            shown = next(m for m in sb.messages(cup) if "final standings" in m.content)
            lines = [m.groups() for m in map(LINE.match, shown.content.splitlines()) if m]
            assert [(int(p), int(u)) for p, u, *_ in lines] == [
                (s.place, s.player) for s in recounted
            ]
            assert [(pts, opp, score) for _, _, pts, opp, score in lines] == [
                (points_text(s.points), points_text(s.opponents), str(s.score).replace("-", "−"))
                for s in recounted
            ]
            assert standings(t.settings, t.players, t.seated, t.results) == recounted
            text = {int(u): line for line in shown.content.splitlines() if (u := _player(line))}
            assert "withdrew after round 1" in text[withdrawer]
            assert "1 decision ran out" in text[late.id]
            assert [u for u, line in text.items() if "ran out" in line] == [late.id]
            assert podium.content.count("🥇") >= 1 and f"<@{recounted[0].player}>" in podium.content

            # --- every table's thread tells its game truly, counted like any game ----------
            ledger = Ledger()
            emojis = {e.id: e.name for e in sb.server.world.emojis.values()}
            games = sorted(
                [await store.games.get(x.game_id or 0) for x in t.tables],
                key=lambda r: (r.finished_at, r.id) if r else (0, 0),
            )
            secret = set()
            for record in games:
                assert record is not None and record.status == "finished"
                moves = await store.games.moves(record.id)
                facts = facts_of(record, moves)
                facts.ratings, facts.wins = ledger.add(record, facts.game, facts.covered)
                texts = [m.content for m in sb.messages(thread(sb, record.channel_id))]
                verdicts = check(read(texts, emojis), facts)  # dice shown as emojis or text
                assert [v for v in verdicts if not v.ok] == [], f"game {record.id}"
                told = {v.kind for v in verdicts}  # every turn once, the end once: none missing
                assert {"told.turn", "told.game_over"} <= told and len(verdicts) > 30
                assert await store.ratings.is_rated(record.id)
                if record.seed > 10**9:  # the restarted bot's games drew theirs at random
                    secret.add(str(record.seed))
            history = await store.stats.history(t.record.guild_id, limit=20)
            assert len(history) == 10 and all(game.counted for game in history)
        history = (await late.slash("qwixx", "history", user=late)).message
        lines = history.embeds[0]["description"].splitlines()  # newest first
        assert [line.rsplit("(🏆 ", 1)[-1] for line in lines] == [
            f"{CUP}, round {n})" for n in (3, 2, 1)
        ]
        everything = [m.content for m in sb.server.world.messages.values()]
        assert len(secret) == 6 and not [s for s in secret if any(s in c for c in everything)]
        write_transcript(tmp_path / "transcript.txt", sb, cup, t)
        assert sb.failures == [], sb.describe_failures()
        await sb.stop_bot()


def _player(line: str) -> int | None:
    found = LINE.match(line)
    return int(found[2]) if found else None


def write_transcript(path: Path, sb: Sandbox, cup: ChannelRecord, t: Tournament) -> None:
    """What a member coming back reads in the tournament's channel (the standings image
    beside it), and one table's thread."""
    parts = [f"--- #{cup.name} ---"]
    for message in sb.messages(cup):
        parts.append(message.content + "".join(f"\n[{a}]" for a in message.labels))
        for image in message.attachments:
            path.with_name(image.filename).write_bytes(image.data)
            parts[-1] += f"\n[{image.filename}: {image.description}]"
    first = thread(sb, t.tables[0].thread_id)
    parts += [f"--- #{first.name} ---", *(m.content for m in sb.messages(first))]
    path.write_text("\n\n".join(parts), encoding="utf-8")
