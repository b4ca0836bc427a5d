"""``/qwixx review`` through the real bot and the local Discord stand-in."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import cast

from bot.app import QwixxBot
from bot.records.games import GameRecord
from bot.sandbox import Sandbox
from bot.sandbox.autoplay import play_to_end, seeded_policy, wait_for_turn
from bot.service.review import ReviewKeeper
from bot.store import Store

from .conftest import make_bot
from .test_stats_e2e import quick_game


async def test_a_finished_game_is_reviewed_only_to_the_asker(sb: Sandbox) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    general, games = sb.channel_named("general"), sb.channel_named("games")

    lobby = (await ana.slash("qwixx", "start", variant="classic", in_channel=general)).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb, general)
    running = (await ana.slash("qwixx", "review", in_channel=general)).message
    assert running.ephemeral
    assert running.content == "This game is still running; its review opens when it ends."

    final = await quick_game(sb, cem, ben, games)  # everyone passes: a penalty every turn
    review = (await cem.slash("qwixx", "review", game=1, in_channel=games)).message
    assert review.ephemeral
    assert "🔍 **Review of the Qwixx game**" in review.content
    assert f"<@{cem.id}>: accuracy **" in review.content
    assert f"<@{ben.id}>: accuracy **" in review.content
    assert "Your costliest decisions:" in review.content
    assert "Accuracy: 100% minus" in review.content
    names = [a.filename for a in review.attachments]
    assert names and names == [f"review-{k}.png" for k in range(1, len(names) + 1)]
    assert all(a.image().format == "PNG" for a in review.attachments)
    assert "Hard's move outlined" in (review.attachments[0].description or "")

    elsewhere = (await cem.slash("qwixx", "review", game=1, in_channel=general)).message
    assert elsewhere.content == f"That game was played in <#{games.id}>; ask for its review there."
    unknown = (await cem.slash("qwixx", "review", game=7, in_channel=games)).message
    assert unknown.content.startswith("There is no game 7 in this server's history")

    assert final.labels == ["Rematch", "Review"]
    clicked = await ben.click(final, label="Review")
    [mine] = clicked.ephemeral
    assert "Your costliest decisions:" in mine.content and mine.attachments
    dan = sb.member("Dan")  # a spectator: each person's costliest decision
    [seen] = (await dan.click(final, label="Review")).ephemeral
    assert "Each player's costliest decision:" in seen.content
    assert len(seen.attachments) == 2


ACCURACY = "🎯 Accuracy against the Hard computer player's choices: "


def accuracy_line(sb: Sandbox, message_id: int) -> str | None:
    """The accuracy line of a message as the channel shows it now (None: none yet)."""
    content = sb.server.world.messages[message_id].content
    return next((line for line in content.splitlines() if line.startswith(ACCURACY)), None)


def edits(sb: Sandbox, message_id: int) -> int:
    return sb.server.world.log.count(("edit", message_id))


def people_in(line: str) -> dict[str, str]:
    """``<@id>`` → percentage, from an accuracy line."""
    found = re.findall(r"(<@\d+>) (\d{1,3}%)", line.removeprefix(ACCURACY))
    return dict(found)


async def test_the_final_scoreboard_gains_each_persons_accuracy_once_reviewed(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    games = sb.channel_named("games")
    final = await quick_game(sb, ana, ben, games, reviewed=False)
    assert "🏁 **Qwixx** — final scores" in final.content
    line = await sb.wait_for(lambda: accuracy_line(sb, final.id))
    assert set(people_in(line)) == {f"<@{ana.id}>", f"<@{ben.id}>"}
    bot = cast(QwixxBot, sb.bot)
    await bot.publisher.reviewed()
    assert edits(sb, final.id) == 1  # posted without waiting for the review, edited once
    shown = sb.server.world.messages[final.id]
    assert [a.filename for a in shown.attachments] == ["scoreboard.png"]
    assert [c.get("label") for c in shown.interactive()] == ["Rematch", "Review"]
    assert "🏆" in shown.content  # the rest of the message as it was


async def test_games_with_computers_and_solo_games_show_the_peoples_accuracy(sb: Sandbox) -> None:
    ana, cem = sb.member("Ana"), sb.member("Cem")
    general, games = sb.channel_named("general"), sb.channel_named("games")
    lobby = (await ana.slash("qwixx", "start", variant="classic", in_channel=general)).message
    lobby = (await ana.click(lobby, label="Add computer player")).message
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb, general)
    final = await play_to_end(sb, [ana], seeded_policy(9), general)
    line = await sb.wait_for(lambda: accuracy_line(sb, final.id))
    assert list(people_in(line)) == [f"<@{ana.id}>"] and "Computer" not in line

    solo = (
        await cem.slash("qwixx", "start", variant="classic", solo=True, in_channel=games)
    ).message
    await cem.click(solo, label="Start")
    await wait_for_turn(sb, games)
    alone = await play_to_end(sb, [cem], seeded_policy(4), games)
    line = await sb.wait_for(lambda: accuracy_line(sb, alone.id))
    assert list(people_in(line)) == [f"<@{cem.id}>"]


class Stalled(ReviewKeeper):
    """Reviews that never finish: the bot stops before any is stored."""

    async def keep(self, record: GameRecord) -> dict[int, float] | None:
        await asyncio.Event().wait()
        return None


async def test_a_review_cut_short_by_a_stop_is_done_and_shown_after_the_restart(
    sb: Sandbox, database: Path
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    games = sb.channel_named("games")
    bot = cast(QwixxBot, sb.bot)
    bot.service.endings.reviews = Stalled(bot.service.store)
    final = await quick_game(sb, ana, ben, games, reviewed=False)
    assert accuracy_line(sb, final.id) is None
    await sb.stop_bot()
    store = await Store.open(database)
    try:
        assert await store.reviews.of(1) is None  # nothing stored before the stop
    finally:
        await store.close()

    await sb.run_bot(make_bot(database, sb))  # reviews what is left, then edits
    line = await sb.wait_for(lambda: accuracy_line(sb, final.id))
    assert set(people_in(line)) == {f"<@{ana.id}>", f"<@{ben.id}>"}
    assert edits(sb, final.id) == 1
