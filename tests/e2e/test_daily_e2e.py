"""Through the stand-in: the daily challenge. Members of two servers play the
same day's dice privately, one attempt each; each server's ranking message, the
percentile across servers, par and the share text once finished, the streak across a
simulated midnight."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.i18n.words import signed
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import choices
from bot.sandbox.demo import ImageSaver, Transcript
from bot.sandbox.page import TranscriptPage
from bot.sandbox.permissions import Perm
from bot.sandbox.records import StoredMessage
from bot.service.daily import hidden_channel, over_everywhere
from tests.fakes import FakeClock

from .conftest import UNLIMITED
from .daily_play import daily_bot, play_daily, shared, two_servers

DAY = 86400.0
NOON = 2_000_000_000.0 - 2_000_000_000.0 % DAY + DAY / 2  # 12:00 UTC
TODAY = "2033-05-18"  # NOON's date
MANAGE_GUILD = 1 << 5
DONE = re.compile(r"finished with \*\*(−?\d+)\*\*")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOON)


@pytest.fixture
def bot(database: Path, clock: FakeClock) -> QwixxBot:
    return daily_bot(database, clock)


@pytest.fixture
async def sb(bot: QwixxBot) -> AsyncIterator[Sandbox]:
    async with two_servers(bot) as sandbox:
        yield sandbox


def score_of(message: StoredMessage) -> int:
    found = DONE.search(message.content)
    assert found, message.content
    return int(found[1].replace("−", "-"))


async def dice_of(bot: QwixxBot, game_id: int) -> list[dict[str, int]]:
    """The dice thrown at each turn of a stored game."""
    assert bot.store is not None
    events = await bot.store.games.events(game_id)
    return [e.data["dice"] for e in events if e.kind == "turn" and "dice" in e.data]


async def attempt_game(bot: QwixxBot, day: str, member: SimMember, variant: str = "classic") -> int:
    assert bot.store is not None
    attempt = await bot.store.daily.attempt(day, variant, member.id)
    assert attempt is not None
    return attempt.game_id


async def test_two_servers_play_the_same_dice_once_each_and_are_ranked(
    sb: Sandbox, bot: QwixxBot, clock: FakeClock
) -> None:
    alpha, beta = sb.guilds
    ana, cem = sb.member("Ana", guild=alpha), sb.member("Cem", guild=alpha)
    ben = sb.member("Ben", guild=beta)

    first, seen = await play_daily(ana, seed=1)
    assert all("Par" not in text and "share" not in text for text in seen)
    assert "only you see this" in seen[0] and "May 18, 2033" in seen[0]
    assert "only you see this" not in seen[1] and "Daily Qwixx · May 18, 2033" in seen[1]
    ana_score = score_of(first)
    assert "⛳ Par" in first.content and "text to share is the next message" in first.content
    assert "first to finish these dice" in first.content
    assert "Streak: **1 day** in a row" in first.content
    # The text to share is a message of its own: copying it copies no number of the sheet.
    share = await shared(sb, ana, first)
    assert not share.attachments and not choices(share)
    title, *grid = share.content.splitlines()
    assert title == f"Qwixx daily {TODAY}: {signed(ana_score)} 🔥1"
    assert grid and all(set(line) <= set("🟥🟨🟩🟦⬜🔒❌ ") for line in grid), grid

    again = (await ana.slash("qwixx", "daily", variant="classic")).message
    assert "already" in again.content and f"**{signed(ana_score)}**" in again.content
    # nothing to play: the attempt is over; only its card to share
    assert [c.text for c in choices(again)] == ["Share card"]

    other, _ = await play_daily(ben, seed=2)
    ben_score = score_of(other)
    place = "2nd" if ben_score < ana_score else "1st"  # a tie shares the first place
    assert f"🌍 **{place}** of the 2 players who finished these dice so far\n" in other.content
    assert "%" not in other.content  # among two, the place says it all
    assert "On this server: **1st** of 1 player" in other.content
    ana_dice = await dice_of(bot, await attempt_game(bot, TODAY, ana))
    ben_dice = await dice_of(bot, await attempt_game(bot, TODAY, ben))
    # The same throws, turn by turn, while both have every die in play (once a row
    # closes on one sheet only, its die leaves that game and the others' faces follow
    # the dice still in play).
    turns = 0
    while (
        turns < min(len(ana_dice), len(ben_dice))
        and len(ana_dice[turns]) == len(ben_dice[turns]) == 6
    ):
        turns += 1
    assert turns >= 3 and ana_dice[:turns] == ben_dice[:turns]

    await play_daily(cem, seed=3)
    board = await sb.wait_for_message(
        lambda m: "this server's ranking" in m.content and m.content.count("<@") == 2
    )
    ranking = [int(n) for n in re.findall(r"<@(\d+)>", board.content)]
    assert set(ranking) == {ana.id, cem.id}
    assert ben.id not in ranking  # another server's member is ranked there, not here
    boards = [m for m in sb.messages() if "this server's ranking" in m.content]
    assert len(boards) == 2  # one per server: the second finish edited the first post
    beta_board = [
        m
        for m in sb.messages()
        if "this server's ranking" in m.content and f"<@{ben.id}>" in m.content
    ]
    assert len(beta_board) == 1

    clock.now += DAY  # midnight passes: a new day, new dice, the streak goes on
    tomorrow, _ = await play_daily(ana, seed=4)
    assert "Streak: **2 days** in a row" in tomorrow.content
    next_dice = await dice_of(bot, await attempt_game(bot, "2033-05-19", ana))
    assert next_dice[:5] != ana_dice[:5]
    clock.now += 2 * DAY  # a day without playing breaks it
    broken, _ = await play_daily(ana, seed=5)
    assert "Streak: **1 day** in a row" in broken.content


async def test_an_attempt_is_resumed_where_it_was_left_and_is_no_one_elses(
    sb: Sandbox, bot: QwixxBot
) -> None:
    ana, cem = sb.member("Ana"), sb.member("Cem")
    begun = (await ana.slash("qwixx", "daily", variant="qwinto")).message
    offered = choices(begun)
    moved = await offered[0].take(ana, begun)
    assert "Daily Qwinto" in moved.content
    resumed = (await ana.slash("qwixx", "daily", variant="qwinto")).message
    assert [c.text for c in choices(resumed)] == [c.text for c in choices(moved)]
    copied = dataclasses.replace(resumed, visible_to=cem.id)  # its buttons' ids, forged
    refused = await cem.click(copied, custom_id=choices(resumed)[0].custom_id)
    assert "another member's daily challenge" in refused.message.content
    assert bot.store is not None
    record = await bot.store.games.in_channel(hidden_channel(TODAY, "qwinto", ana.id))
    assert record is not None and record.status == "running"
    assert not [m for m in sb.messages() if "Qwinto" in m.content]  # nothing public yet


async def test_the_server_chooses_the_ranking_channel_and_when_its_day_turns(
    sb: Sandbox, bot: QwixxBot, clock: FakeClock
) -> None:
    admin = sb.member("Admin", permissions=MANAGE_GUILD)
    ana = sb.member("Ana")
    shown = await ana.slash("qwixx", "settings")
    lines = shown.message.content.splitlines()
    assert "**24h**" in lines[0] and "played live" in lines[1] and "**10m**" in lines[1]
    assert "English" in lines[2]
    assert "**00:00** (UTC)" in lines[3] and "where it is first played" in lines[3]
    denied = await ana.slash("qwixx", "settings", timezone="Europe/Berlin")
    assert "Manage Server" in denied.message.content
    wrong = await admin.slash("qwixx", "settings", turn_time="3h", timezone="Europe/Berln")
    assert "do not know the time zone “Europe/Berln”" in wrong.message.content
    assert "**24h**" in (await ana.slash("qwixx", "settings")).message.content  # nothing saved
    games = sb.channel_named("daily")
    saved = await admin.slash(
        "qwixx", "settings", daily_channel=games, daily_hour=6, timezone="Asia/Tokyo"
    )
    assert "**06:00** (Asia/Tokyo)" in saved.message.content
    assert f"<#{games.id}>" in saved.message.content
    # 12:00 UTC is 21:00 in Tokyo: the day there is the 18th; at 22:00 UTC (07:00 in
    # Tokyo the next morning, past 06:00) it is the 19th.
    await play_daily(ana)
    board = await sb.wait_for_message(lambda m: "this server's ranking" in m.content, channel=games)
    assert "May 18, 2033" in board.content
    clock.now += 10 * 3600
    mine = (await ana.slash("qwixx", "daily")).message
    assert "May 19, 2033" in mine.content
    listed = (await ana.slash("qwixx", "mygames")).message
    assert "Daily Qwixx of May 19, 2033 — turn 1" in listed.content


async def test_the_sheets_buttons_outlive_a_restart(
    sb: Sandbox, bot: QwixxBot, clock: FakeClock, database: Path
) -> None:
    ana = sb.member("Ana")
    begun = (await ana.slash("qwixx", "daily", variant="longo")).message
    await sb.stop_bot()
    await sb.run_bot(daily_bot(database, clock))
    offered = choices(begun)
    moved = await offered[-1].take(ana, begun)  # the old message's button, the new process
    assert "Daily Qwixx Longo" in moved.content and choices(moved)
    assert bot.store is None  # the first process is gone: the second one answered


async def test_a_daily_games_sheets_and_review_wait_until_its_day_is_over_everywhere(
    sb: Sandbox, clock: FakeClock
) -> None:
    ana, cem = sb.member("Ana"), sb.member("Cem")
    await play_daily(ana, "onboard")
    history = (await cem.slash("qwixx", "history")).message
    assert history.embeds[0]["description"].endswith("(daily challenge)")
    hidden = (await cem.click(history, label="Sheets 1")).message
    assert "its sheets show once its day is over everywhere" in hidden.content
    assert not hidden.attachments
    later = (await ana.slash("qwixx", "review", game=1)).message
    over = int(over_everywhere(TODAY))
    assert "its review opens once its day is over everywhere" in later.content
    assert f"<t:{over}:R>" in later.content
    clock.now = over
    shown = (await cem.click(history, label="Sheets 1")).message
    assert shown.attachments and "final sheets" in shown.content
    review = (await ana.slash("qwixx", "review", game=1)).message
    assert "Review of the Qwixx On Board game" in review.content


async def test_a_ranking_owed_when_the_bot_died_is_written_after_the_restart(
    database: Path, clock: FakeClock
) -> None:
    """The finish marks the server's ranking as owing it in the store: a bot that stops
    before its timers' next tick writes it once it runs again."""
    slow = daily_bot(database, clock, tick=3600.0)
    async with Sandbox(
        **UNLIMITED, guilds=[GuildSpec("Alpha")], members=["Ana"], settle=0.02
    ) as sb:
        await sb.run_bot(slow)
        ana = sb.member("Ana")
        final, _ = await play_daily(ana)  # after the slow timers' first tick, long before
        await sb.stop_bot()  # their next
        assert not [m for m in sb.messages() if "this server's ranking" in m.content]
        await sb.run_bot(daily_bot(database, clock))
        board = await sb.wait_for_message(lambda m: "this server's ranking" in m.content)
        assert f"<@{ana.id}> — **{signed(score_of(final))}**" in board.content
        assert sb.failures == [], sb.describe_failures()


async def test_a_ranking_the_channel_refuses_is_not_tried_again_and_again(
    sb: Sandbox, bot: QwixxBot
) -> None:
    """Discord's 403 cannot be helped by trying again: the ranking owes nothing more
    (the next finish tries again), and the member's result is shown all the same."""
    bot_member = sb.server.world.members[(sb.guild.id, sb.server.world.bot.id)]
    bot_member.permissions &= ~int(Perm.SEND_MESSAGES)  # a moderator changed the channel
    final, _ = await play_daily(sb.member("Ana"))
    assert "⛳ Par" in final.content
    await sb.wait_for(lambda: sb.failures)
    await bot.timers.tick()
    assert await bot.handlers.daily.service.owed() == []  # given up on, not retried each tick
    assert [f.kind for f in sb.failures] == ["forbidden"]
    sb.server.world.failures.clear()


async def test_the_result_and_its_share_are_cards_with_their_images(
    sb: Sandbox, tmp_path: Path
) -> None:
    """The result replaces the sheet as a card: its lines, the sheet under them with
    its alt text, how to share, the sheet in words, **Share card** under it; the text
    to share stays plain text (copying it copies it alone); the share is a card with
    the day's card under its text. The cards as the demo draws them are written to
    ``tmp_path/transcript.txt``, and as a page to ``transcript.html``."""
    ana = sb.member("Ana")
    final, _ = await play_daily(ana, "qwinto", seed=6)
    assert final.layout and final.labels == ["Share card"]
    [box, row] = final.components
    kinds = [c["type"] for c in box["components"]]
    assert kinds == [10, 12, 10, 14, 10] and row["type"] == 1
    first, sheet_alt = box["components"][0]["content"], box["components"][1]["items"][0]
    assert "⛳ Par" in first and "Streak" in first.splitlines()[-1]
    [sheet] = final.attachments
    assert sheet.filename == "daily.png" and sheet_alt["description"] == sheet.description
    assert "Qwinto" in (sheet.description or "")
    share = await shared(sb, ana, final)
    assert not share.layout and share.content.startswith("Qwinto daily")
    tapped = (await ana.click(final, label="Share card")).message
    assert tapped.layout and not tapped.ephemeral
    [text, gallery] = tapped.components[0]["components"]
    assert text["content"] == tapped.content and tapped.content.splitlines()[1:] == (
        share.content.splitlines()
    )
    [card] = tapped.attachments
    assert gallery["items"][0]["description"] == card.description and card.description
    lines: list[str] = []
    images = ImageSaver(sb, tmp_path / "images")
    page = TranscriptPage("daily", images.emojis)
    reader = Transcript(sb, {ana.id: "Ana"}, lines.append, images, page)
    for message in (final, share, tapped):
        reader.show(message)
    (tmp_path / "transcript.txt").write_text("\n".join(lines), encoding="utf-8")
    page.write(tmp_path / "transcript.html")
