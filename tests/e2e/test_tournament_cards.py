"""A tournament's messages as cards, through the stand-in: the sign-up message, each
round's message and the standings (with their image and its alt text) are cards that
say what the text said and ping as it did; a sign-up message or standings posted as
text before cards are edited as text. The channel, as the demo's transcript draws it,
is written to ``tmp_path/transcript.txt``, and as a page to ``transcript.html``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord

from bot.channel.tournament_texts import signup_content, standings_content
from bot.cogs.tournaments import signup_view
from bot.sandbox.demo import ImageSaver, Transcript
from bot.sandbox.page import TranscriptPage
from bot.sandbox.records import COMPONENTS_V2, StoredMessage

from . import test_tournament_commands as commands
from .test_tournament_commands import Cup, create

POST = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
cup = commands.cup
"""The server with a #cup channel of ``/qwixx tournament``'s tests."""


def bodies(cup: Cup, endpoint: str) -> list[dict[str, Any]]:
    """The bodies of the bot's requests to ``endpoint``, in order."""
    return [c.body for c in cup.sb.server.calls if c.endpoint == endpoint and c.body]


def transcript(cup: Cup, path: Path) -> str:
    names = {m.id: m.name for m in [cup.org, *cup.people]}
    lines: list[str] = []
    images = ImageSaver(cup.sb, path.parent / "images")
    page = TranscriptPage("#cup", images.emojis)
    reader = Transcript(cup.sb, names, lines.append, images, page)
    for message in cup.sb.messages(cup.channel):
        reader.show(message)
    path.write_text("\n".join(lines), encoding="utf-8")
    page.write(path.with_suffix(".html"))
    return "\n".join(lines)


async def test_sign_up_rounds_and_standings_are_cards(cup: Cup, tmp_path: Path) -> None:
    opened = await create(cup.org, name="Card Cup 🎲", table_size=3)
    signup = cup.sb.messages(cup.channel)[-1]
    assert (
        signup.layout and opened == signup.content and signup.labels == ["Join", "Leave", "Start"]
    )
    assert "Nobody has signed up yet" in signup.content
    for member in cup.people:
        joined = await member.click(signup, label="Join")
        assert joined.failed is None
    signup = cup.sb.server.world.messages[signup.id]
    assert signup.layout and all(f"<@{m.id}>" in signup.content for m in cup.people)
    await cup.org.click(signup, label="Start")
    await cup.tick()
    round_1 = await cup.sb.wait_for_message(
        lambda m: "**round 1** of 3" in m.content, channel=cup.channel
    )
    standings = await cup.sb.wait_for_message(
        lambda m: "Standings" in m.content or "standings" in m.content, channel=cup.channel
    )
    assert round_1.layout and standings.layout
    assert round_1.content.count("**Table") == 2
    seated = re.findall(r"<@(\d+)>", round_1.content)
    assert sorted(map(int, seated)) == sorted(m.id for m in cup.people)
    [image] = standings.attachments
    [gallery] = [c for c in standings.components[0]["components"] if c["type"] == 12]
    assert gallery["items"][0]["media"]["url"] == "attachment://standings.png"
    assert image.description and gallery["items"][0]["description"] == image.description
    closed = cup.sb.server.world.messages[signup.id]
    assert closed.layout and "Sign-up closed with 4 players" in closed.content
    assert not closed.labels
    # Pings as before: the round notifies whom it mentions; sign-up and standings no one.
    posts = {b["nonce"]: b for b in bodies(cup, POST) if "nonce" in b}
    assert posts["qxT1r1"]["allowed_mentions"] == {"parse": ["users"]}
    assert posts["qxT1s"]["allowed_mentions"] == {"parse": []}
    [created] = [b["data"] for b in bodies(cup, CALLBACK) if "Card Cup" in str(b)]
    assert created["allowed_mentions"] == {"parse": []} and created["flags"] & COMPONENTS_V2
    read = transcript(cup, tmp_path / "transcript.txt")
    assert "╭─ card" in read and "🖼 standings.png" in read and "@Ana" in read


def edited(cup: Cup, message_id: int) -> StoredMessage | None:
    message = cup.sb.server.world.messages[message_id]
    return message if message.edited_timestamp else None


async def text_message(cup: Cup, content: str, **extra: Any) -> StoredMessage:
    """A message the bot posted as text, as before cards."""
    channel = cup.bot.get_channel(cup.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(content, allowed_mentions=discord.AllowedMentions.none(), **extra)
    return cup.sb.server.world.messages[sent.id]


async def test_a_sign_up_and_standings_posted_as_text_are_edited_as_text(cup: Cup) -> None:
    dan = cup.people[-1]
    await create(cup.org, name="Old Cup", table_size=4)
    store = cup.bot.store
    assert store is not None
    tournaments = cup.bot.service.tournaments
    before = await tournaments.read(1)
    old = await text_message(
        cup, signup_content(before, cup.clock.now), view=signup_view(before, cup.clock.now)
    )
    await store.tournaments.set_shown(1, {"signup": "signup"}, message_id=old.id)
    for member in cup.people:
        assert (await member.click(old, label="Join")).failed is None
    old = cup.sb.server.world.messages[old.id]
    assert not old.layout and all(f"<@{m.id}>" in old.content for m in cup.people)
    assert old.labels == ["Join", "Leave", "Start"], "its buttons, as text's"
    await cup.org.click(old, label="Start")
    await cup.tick()
    old = cup.sb.server.world.messages[old.id]
    assert not old.layout and "Sign-up closed with 4 players" in old.content and not old.labels
    new = await cup.sb.wait_for_message(lambda m: m.layout and "**round 1**" in m.content)
    assert new.channel_id == cup.channel.id  # new messages are cards

    # The standings, as if posted as text before cards: edited as text when they change.
    running = await tournaments.read(1)
    lines = tournaments.standings(running)
    text = await text_message(cup, standings_content(running, lines))
    shown = {k: v for k, v in running.record.shown.items() if k != "forms"}
    await store.tournaments.set_shown(1, shown, standings_id=text.id)
    withdrew = await dan.slash("qwixx", "tournament", "withdraw")
    assert "withdrawn from" in withdrew.message.content
    await cup.tick()
    text = await cup.sb.wait_for(lambda: edited(cup, text.id))
    assert not text.layout and text.attachments
    [line] = [line for line in text.content.splitlines() if f"<@{dan.id}>" in line]
    assert "withdrew after round 1" in line
