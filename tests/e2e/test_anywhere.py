"""Through the stand-in: the bot as an app a member installs for themselves. The daily
challenge and practice against the computers played in the bot's direct messages, in a
group chat and in a server that never added the bot, each driven by the member's own
clicks; the day's card shared into the group chat with one tap; the result counted in
the day's standing of everyone; the commands that need a server refused politely
elsewhere."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import QwixxBot
from bot.i18n.words import signed
from bot.records.games import NO_SERVER
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import choices, seeded_policy
from bot.sandbox.records import ChannelRecord, StoredMessage
from bot.service.hidden import practice_channel
from tests.fakes import FakeClock
from tests.truth.checking import check
from tests.truth.facts import facts_of
from tests.truth.reading import read

from .conftest import UNLIMITED
from .daily_play import confirmed, daily_bot, moves_offered, noon, play_daily

TODAY = "2033-05-18"
DONE = re.compile(r"finished with \*\*(−?\d+)\*\*")
STORY_HEADER = re.compile(r"^\*\*Turn (\d+)\*\*")
SHEET_LINE = re.compile(r"^Turn \d+[,:]")
RANKING = re.compile(r"^🏁 \*\*.+\*\* — final scores$", re.M)
PRACTICE_TURNS = 400  # clicks a practice game takes at most


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(noon(TODAY))


@pytest.fixture
def bot(database: Path, clock: FakeClock) -> QwixxBot:
    return daily_bot(database, clock)  # commands synced globally, as Discord offers them


@pytest.fixture
async def sb(bot: QwixxBot) -> AsyncIterator[Sandbox]:
    """Home has the bot; Elsewhere never added it. Ana has installed the app."""
    async with Sandbox(
        **UNLIMITED,
        guilds=[GuildSpec("Home"), GuildSpec("Elsewhere", bot=False)],
        members=["Ana", "Ben", "Cem"],
        settle=0.02,
    ) as sandbox:
        await sandbox.run_bot(bot)
        sandbox.member("Ana").install_app()
        yield sandbox
        assert sandbox.failures == [], sandbox.describe_failures()


def score_of(message: StoredMessage) -> int:
    found = DONE.search(message.content)
    assert found, message.content
    return int(found[1].replace("−", "-"))


@dataclass(frozen=True)
class Seen:
    """One version of a message as the member saw it (the stand-in keeps the newest)."""

    id: int
    content: str
    ephemeral: bool
    custom_ids: tuple[str, ...]


def seen_now(message: StoredMessage) -> Seen:
    ids = tuple(c.custom_id for c in choices(message))
    return Seen(message.id, message.content, message.ephemeral, ids)


async def play_practice(
    member: SimMember, where: ChannelRecord, seed: int, **options: Any
) -> tuple[list[Seen], StoredMessage]:
    """``/qwixx practice`` in ``where``, played to its end with the buttons chosen at
    random: every version of the message the member saw, and the message at the end."""
    policy = seeded_policy(seed)
    message = (await member.slash("qwixx", "practice", in_channel=where, **options)).message
    seen = [seen_now(message)]
    for _ in range(PRACTICE_TURNS):
        offered = moves_offered(message)
        if not offered:
            return seen, message
        message = await confirmed(
            member, await policy(member, offered, message).take(member, message)
        )
        seen.append(seen_now(message))
    raise AssertionError("the practice game did not end")


def turns_told(seen: list[Seen]) -> list[str]:
    """What the messages told of each turn, the newest telling of each (a turn first
    shown open is shown again once over), oldest turn first; then the final ranking."""
    told: dict[int, list[str]] = {}
    for message in seen:
        turn = None
        for line in message.content.splitlines():
            if SHEET_LINE.match(line) or RANKING.match(line):
                break
            if (found := STORY_HEADER.match(line)) is not None:
                turn = int(found[1])
                told[turn] = []
            if turn is not None:
                told[turn].append(line)
    found = RANKING.search(seen[-1].content)
    assert found, seen[-1].content
    ending = seen[-1].content[found.start() :]
    return ["\n".join(lines) for _, lines in sorted(told.items())] + [ending]


async def test_the_daily_anywhere_counts_for_everyone_and_its_card_is_shared_in_one_tap(
    sb: Sandbox, bot: QwixxBot
) -> None:
    assert bot.store is not None
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    dm, group = ana.open_dm(), sb.group_dm(ana, ben, name="Friday")

    # In the bot's direct messages: a plain message (only Ana reads it), edited by her clicks.
    alone, _ = await play_daily(ana, "classic", seed=1, in_channel=dm)
    assert not alone.ephemeral and alone.id in [m.id for m in ana.direct_messages()]
    assert "You are the first to finish these dice." in alone.content
    assert alone.layout and [a.filename for a in alone.attachments] == ["daily.png"]  # a card
    assert "On this server" not in alone.content  # no server: no server's ranking
    attempt = await bot.store.daily.attempt(TODAY, "classic", ana.id)
    assert attempt is not None and attempt.guild_id == NO_SERVER and attempt.score is not None
    assert await bot.store.daily.post(NO_SERVER, TODAY, "classic") is None

    # Cem plays the same dice on Home: Ana's score is in the day's standing of everyone.
    home, _ = await play_daily(cem, "classic", seed=2)
    assert " of the 2 players who finished these dice so far" in home.content
    assert "On this server: **1st** of 1 player" in home.content
    assert (await bot.store.daily.standing(TODAY, "classic", score_of(home))).players == 2

    # In a group chat the bot is not in: private to Ana, then shared with one tap.
    result, _ = await play_daily(ana, "qwinto", seed=3, in_channel=group)
    assert result.ephemeral and not [m for m in ben.messages(group) if m.id == result.id]
    tapped = await ana.click(result, label="Share card")
    card = tapped.message
    assert not card.ephemeral and card.channel_id == group.id
    assert card.id in [m.id for m in ben.messages(group)]  # Ben sees it in the chat
    by, title, *grid = card.content.splitlines()
    assert by == f"Shared by <@{ana.id}>:"
    assert title == f"Qwinto daily {TODAY}: {signed(score_of(result))} 🔥1"
    assert grid and all(set(line) <= set("🟧🟨🟪⬜❌") for line in grid), grid
    [image] = card.attachments
    assert card.layout and result.layout, "the result and the share are cards"
    assert image.filename == "daily-card.png" and image.image().size[0] == 760
    assert image.description and "the crosses without their numbers" in image.description
    assert [m for m in sb.messages(group)] == [m for m in ben.messages(group)] == [card]


async def test_practice_in_a_dm_and_in_a_group_chat_is_played_out_and_counts_for_nothing(
    sb: Sandbox, bot: QwixxBot
) -> None:
    assert bot.store is not None
    ana, ben = sb.member("Ana"), sb.member("Ben")
    dm, group = ana.open_dm(), sb.group_dm(ana, ben, name="Friday")

    seen, last = await play_practice(ana, dm, seed=4, computers=1, level="normal")
    first = seen[0]
    assert first.content.startswith("🎯 **Practice · Qwixx** against 🤖 Computer 1 (Normal)")
    assert "**Turn 1** · 🎲" in first.content and "white sum" in first.content
    assert all(not m.ephemeral and m.id == first.id for m in seen)  # one message, edited
    assert last.id in [m.id for m in ana.direct_messages()]
    assert "🏁 **Qwixx** — final scores" in last.content and not choices(last)
    assert [a.filename for a in last.attachments] == ["scoreboard.png"]
    await claims_hold(sb, bot, last_game(seen), seen)

    qwinto, _ = await play_practice(ana, group, seed=5, variant="qwinto", computers=2, level="hard")
    assert all(m.ephemeral for m in qwinto) and sb.messages(group) == []
    assert not [m for m in ben.messages(group)]
    await claims_hold(sb, bot, last_game(qwinto), qwinto)

    uncounted = await bot.store.stats.uncounted_bests(NO_SERVER, ana.id)
    assert sorted(b.variant for b in uncounted) == ["classic", "qwinto"]
    assert await bot.store.stats.player_totals(NO_SERVER, ana.id) == {}  # nothing counted
    assert sb.messages() == []  # no server channel heard of it either


def last_game(seen: list[Seen]) -> int:
    """The practice game the messages' buttons name (its id rides in them)."""
    ids = {int(custom_id.split(":")[1]) for m in seen for custom_id in m.custom_ids}
    assert len(ids) == 1, ids
    return ids.pop()


async def claims_hold(sb: Sandbox, bot: QwixxBot, game_id: int, seen: list[Seen]) -> None:
    """Every turn the messages told, and the ranking, held to the game replayed (the
    dice read from the application's emojis as Discord lists them)."""
    assert bot.store is not None
    record = await bot.store.games.get(game_id)
    assert record is not None and record.status == "finished"
    assert record.guild_id == NO_SERVER and record.channel_id == practice_channel(record.host_id)
    facts = facts_of(record, await bot.store.games.moves(game_id))
    emojis = {e.id: e.name for e in sb.server.world.emojis.values()}
    verdicts = check(read(turns_told(seen), emojis), facts)
    wrong = [v for v in verdicts if not v.ok]
    assert verdicts and not wrong, wrong[:5]


async def test_a_practice_game_is_resumed_anywhere_and_a_new_one_ends_it(
    sb: Sandbox, bot: QwixxBot
) -> None:
    assert bot.store is not None
    ana, ben = sb.member("Ana"), sb.member("Ben")
    dm, group = ana.open_dm(), sb.group_dm(ana, ben)
    begun = (await ana.slash("qwixx", "practice", in_channel=dm)).message
    moved = await confirmed(ana, await moves_offered(begun)[0].take(ana, begun))
    resumed = (await ana.slash("qwixx", "practice", in_channel=group)).message
    assert "Your game goes on." in resumed.content and resumed.ephemeral
    assert [c.custom_id for c in choices(resumed)] == [c.custom_id for c in choices(moved)]
    old = last_game([seen_now(resumed)])

    fresh = (await ana.slash("qwixx", "practice", in_channel=group, variant="longo")).message
    assert fresh.content.startswith("🎯 **Practice · Qwixx Longo** against 🤖 Computer 1 (Easy)")
    ended = await bot.store.games.get(old)
    assert ended is not None and ended.status == "abandoned"
    refused = await ana.click(resumed, custom_id=choices(resumed)[0].custom_id)
    assert "over" in refused.message.content  # the old game's buttons answer, change nothing


async def test_commands_that_need_a_server_say_so_politely_elsewhere(
    sb: Sandbox, bot: QwixxBot
) -> None:
    assert bot.store is not None
    ana, ben = sb.member("Ana"), sb.member("Ben")
    away = sb.join(ana, sb.guilds[1])
    [qwixx] = [c for c in sb.server.world.commands[None] if c["name"] == "qwixx"]
    assert (qwixx["contexts"], qwixx["integration_types"]) == ([0, 1, 2], [0, 1])

    for where in (ana.open_dm(), sb.group_dm(ana, ben)):
        refused = (await ana.slash("qwixx", "start", in_channel=where)).message
        assert refused.ephemeral
        assert refused.content.startswith("</qwixx start:")  # the command, as a mention
        assert "works on a server where the bot is. Here you can play </qwixx daily:" in (
            refused.content
        )
    for path in (("leaderboard",), ("tournament", "list"), ("settings",)):
        refused = (await away.slash("qwixx", *path)).message
        assert refused.ephemeral and "works on a server where the bot is" in refused.content
    assert await bot.store.games.in_channel(sb.channel.id) is None  # nothing was opened

    # On Home the bot is there: the same command opens a lobby; practice stays private.
    opened = await ana.slash("qwixx", "start")
    assert not opened.message.ephemeral and "Join" in opened.message.labels
    practice = (await ana.slash("qwixx", "practice", computers=1)).message
    assert practice.ephemeral and sb.messages() == [opened.message]


async def test_a_server_without_the_bot_plays_the_daily_and_shows_ones_own_stats(
    sb: Sandbox, bot: QwixxBot
) -> None:
    assert bot.store is not None
    ana = sb.member("Ana")
    away = sb.join(ana, sb.guilds[1])
    bob = sb.member("Bob", guild=sb.guilds[1])
    result, _ = await play_daily(away, "longo", seed=6)
    assert result.ephemeral and "On this server" not in result.content
    attempt = await bot.store.daily.attempt(TODAY, "longo", ana.id)
    assert attempt is not None and attempt.guild_id == NO_SERVER

    stats = (await away.slash("qwixx", "stats")).message
    [embed] = stats.embeds
    assert embed["title"] == "📊 Ana: your own figures"
    [daily] = [f for f in embed["fields"] if f["name"] == "📅 Daily challenge"]
    score = signed(score_of(result))
    assert f"Qwixx Longo: 1 day · best **{score}** · average **{score}.0**" in daily["value"]
    assert "🔥 Streak: **1 day** in a row" in daily["value"]
    other = (await away.slash("qwixx", "stats", user=bob)).message
    assert other.ephemeral and other.content.startswith("Here I show only your own figures")
