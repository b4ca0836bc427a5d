"""``/qwixx tournament`` through the stand-in, one bot on a fake clock: who may open a
tournament and the polite refusals (in the member's language), a sign-up deadline with
a check-in window that drops who did not check in and tells them, the list, a member's
own standings with the image, calling a tournament off, a forged button refused, and a
restart whose first timer pass comes before the server's channels."""

from __future__ import annotations

import copy
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.sandbox import GuildSpec, Sandbox
from bot.sandbox.driver import SimMember
from bot.sandbox.records import ChannelRecord
from tests.fakes import FakeClock

from .conftest import UNLIMITED, fast_budget
from .test_forged_components import REFUSED, forged

MANAGE_GUILD = 1 << 5
EMBED_LINKS = 1 << 14  # a permission of no matter here: the member gets a role of their own
HOUR = 3600


class Cup:
    """A server with a #cup channel, its organiser and a few members, and the bot."""

    def __init__(self, sb: Sandbox, bot: QwixxBot, clock: FakeClock) -> None:
        self.sb, self.bot, self.clock = sb, bot, clock
        self.channel: ChannelRecord = sb.channel_named("cup")
        self.org = sb.member("Org", permissions=MANAGE_GUILD, channel=self.channel)
        self.people = [sb.member(n, channel=self.channel) for n in ("Ana", "Ben", "Cem", "Dan")]

    async def tick(self) -> None:
        await self.bot.timers.tick()
        await self.bot.publisher.drain()


@pytest.fixture
async def cup(tmp_path: Path) -> AsyncIterator[Cup]:
    clock = FakeClock()
    guild = GuildSpec(channels=("general", "cup"))
    async with Sandbox(guilds=[guild], **UNLIMITED, settle=0.02) as sb:
        bot = QwixxBot(
            tmp_path / "qwixx.db", dev_guild=sb.guild.id, clock=clock, coalesce=0.05,
            tick=3600, budget=fast_budget(),
        )  # fmt: skip
        await sb.run_bot(bot)
        yield Cup(sb, bot, clock)
        assert sb.failures == [], sb.describe_failures()


async def create(member: SimMember, **options: object) -> str:
    """The answer to ``/qwixx tournament create`` (public or private)."""
    answer = await member.slash("qwixx", "tournament", "create", **options)
    assert answer.failed is None
    return answer.message.content


async def test_only_organisers_open_one_and_refusals_are_polite(cup: Cup) -> None:
    ana = cup.people[0]
    refused = await ana.slash("qwixx", "tournament", "create", name="Mine")
    assert refused.message.ephemeral and "needs Manage Server" in refused.message.content
    german = cup.sb.member("Gerd", channel=cup.channel, locale="de")
    denied = await german.slash("qwixx", "tournament", "create", name="Meins")
    assert denied.message.ephemeral and "„Server verwalten“" in denied.message.content
    org = cup.org
    assert "couldn't read those points" in await create(org, name="X", points="6 4 x 0")
    assert "at most a full table's 4" in await create(org, name="X", smallest_table=5)
    assert "needs a sign-up deadline" in await create(org, name="X", check_in="1h")
    assert "outside the allowed" in await create(org, name="X", turn_time="9d")
    assert not [m for m in cup.sb.messages(cup.channel) if "🏆" in m.content]
    opened = await create(org, name="Cup One")
    assert "Cup One" in opened and "Nobody has signed up yet" in opened
    busy = await create(org, name="Cup Two")
    assert 'holds the tournament "Cup One" already' in busy


async def test_a_server_names_its_organisers_role(cup: Cup, tmp_path: Path) -> None:
    rolf = cup.sb.member("Rolf", permissions=EMBED_LINKS, channel=cup.channel)
    role = rolf.record.role_ids[0]  # a role of his own
    await cup.sb.stop_bot()  # the bot learns the server's roles as it connects
    cup.bot = cup.bot.__class__(
        tmp_path / "qwixx.db", dev_guild=cup.sb.guild.id, clock=cup.clock, coalesce=0.05,
        tick=3600, budget=fast_budget(),
    )  # fmt: skip
    await cup.sb.run_bot(cup.bot)
    assert "needs Manage Server" in await create(rolf, name="Rolf's Cup")
    refused = await rolf.slash("qwixx", "tournament", "role", role=role)
    assert "needs Manage Server" in refused.message.content
    named = await cup.org.slash("qwixx", "tournament", "role", role=role)
    assert f"Members with <@&{role}> may now organise" in named.message.content
    assert "Rolf's Cup" in await create(rolf, name="Rolf's Cup")
    cleared = await cup.org.slash("qwixx", "tournament", "role")
    assert "Only members with Manage Server" in cleared.message.content
    assert "needs Manage Server (a server" in await create(rolf, name="Another")


async def test_a_deadline_with_check_in_drops_who_did_not_check_in(cup: Cup) -> None:
    ana, ben, cem, dan = cup.people
    await create(cup.org, name="Night Cup", table_size=3, sign_up_hours=2, check_in="1h")
    signup = cup.sb.messages(cup.channel)[-1]
    assert "Check-in opens" in signup.content and signup.labels == ["Join", "Leave"]
    for member in cup.people:
        await member.click(signup, label="Join")
    early = await ana.click(signup, label="Leave")
    assert "no longer signed up" in early.ephemeral[0].content
    await ana.click(signup, label="Join")
    cup.clock.now += HOUR
    await cup.tick()
    signup = cup.sb.server.world.messages[signup.id]
    assert "Check-in is open" in signup.content and "Check in" in signup.labels
    for member in (ana, ben, cem):
        checked = await member.click(signup, label="Check in")
        assert "checked in" in checked.ephemeral[0].content
    cup.clock.now += HOUR
    await cup.tick()
    round_1 = await cup.sb.wait_for_message(
        lambda m: "**round 1** of 3" in m.content, channel=cup.channel
    )
    assert f"Not checked in, so not playing: <@{dan.id}>" in round_1.content
    assert round_1.content.count("**Table") == 1
    closed = cup.sb.server.world.messages[signup.id]
    assert "Sign-up closed with 3 players" in closed.content and closed.layout
    assert not list(closed.interactive()), "no button left on the card"
    threads = [c for c in cup.sb.server.world.channels.values() if c.parent_id == cup.channel.id]
    assert [c.name for c in threads] == ["Night Cup · round 1 · table 1"]
    turn = await cup.sb.wait_for_message(lambda m: "Turn 1" in m.content, channel=threads[0])
    assert "Open my sheet" in turn.labels and f"<@{dan.id}>" not in turn.content


async def test_list_standings_and_calling_it_off(cup: Cup) -> None:
    ana, ben = cup.people[:2]
    assert (
        "No tournaments on this server yet"
        in (await ana.slash("qwixx", "tournament", "list")).message.content
    )
    await create(cup.org, name="Sunday Cup 🎲")
    signup = cup.sb.messages(cup.channel)[-1]
    await ana.click(signup, label="Join")
    listed = (await ben.slash("qwixx", "tournament", "list")).message
    assert listed.ephemeral and "**Sunday Cup 🎲** · Qwixx" in listed.content
    assert "sign-up open, 1 signed up" in listed.content
    mine = await ana.slash("qwixx", "tournament", "standings")
    assert mine.message.ephemeral and mine.message.attachments
    assert f"<@{ana.id}>" in mine.message.content
    before = copy.deepcopy(signup)  # the message as a client that was not updated shows it
    denied = await ben.slash("qwixx", "tournament", "cancel")
    assert "Only the organiser" in denied.message.content
    await cup.org.slash("qwixx", "tournament", "cancel")
    called_off = cup.sb.server.world.messages[signup.id]
    assert "Called off by its organiser" in called_off.content and called_off.layout
    assert not list(called_off.interactive()), "no button left on the card"
    assert "called off" in (await ben.slash("qwixx", "tournament", "list")).message.content
    late = await ben.click(before, label="Join")
    assert 'Sign-up for "Sunday Cup 🎲" is closed' in late.ephemeral[0].content


async def test_forged_sign_up_buttons_are_refused(cup: Cup) -> None:
    await create(cup.org, name="Cup")
    signup = cup.sb.messages(cup.channel)[-1]
    for custom_id in ("qx:tour:99999999999999999999999:join", "qx:tour:1:teleport"):
        clicked = await cup.people[0].click(forged(signup, "Join", custom_id), custom_id=custom_id)
        assert clicked.failed is None and REFUSED in clicked.ephemeral[0].content
    gone = await cup.people[0].click(forged(signup, "Join", "qx:tour:77:join"), label="Join")
    assert "That tournament no longer exists" in gone.ephemeral[0].content
    assert "Nobody has signed up yet" in cup.sb.server.world.messages[signup.id].content


class PassFirst(QwixxBot):
    """The bot whose timers run one pass, before it connects to the gateway, so before
    the servers and their channels arrive (as a start's first pass may), and no other."""

    async def connect(self, *, reconnect: bool = True) -> None:
        await self.timers.stop()
        await self.timers.tick()
        await super().connect(reconnect=reconnect)


async def test_a_restart_opens_the_round_once_the_server_arrives(
    cup: Cup, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The sign-up deadline passes while the bot is down; the new process's first timer
    pass seats round 1 before the server's channels have arrived. The round opens as soon
    as they arrive (its message posted, its table's thread made), not a timer pass later
    (here none comes), and no channel is called out of reach."""
    await create(cup.org, name="Dawn Cup", table_size=3, sign_up_hours=1)
    signup = cup.sb.messages(cup.channel)[-1]
    for member in cup.people[:3]:
        await member.click(signup, label="Join")
    await cup.sb.stop_bot()
    cup.clock.now += 2 * HOUR
    cup.bot = PassFirst(
        tmp_path / "qwixx.db", dev_guild=cup.sb.guild.id, clock=cup.clock, coalesce=0.05,
        tick=3600, budget=fast_budget(),
    )  # fmt: skip
    with caplog.at_level(logging.INFO, logger="bot.cogs.tournaments"):
        await cup.sb.run_bot(cup.bot)
        round_1 = await cup.sb.wait_for_message(
            lambda m: "**round 1** of 3" in m.content, channel=cup.channel
        )
    assert "waiting for its server to arrive" in caplog.text  # the pass came first
    assert "out of reach" not in caplog.text
    assert round_1.content.count("**Table") == 1
    threads = [c for c in cup.sb.server.world.channels.values() if c.parent_id == cup.channel.id]
    assert [c.name for c in threads] == ["Dawn Cup · round 1 · table 1"]
