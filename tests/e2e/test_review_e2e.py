"""``/qwixx review`` through the real bot and the local Discord stand-in."""

from __future__ import annotations

from bot.sandbox import Sandbox
from bot.sandbox.autoplay import wait_for_turn

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
