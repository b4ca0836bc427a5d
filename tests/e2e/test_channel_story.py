"""The channel after a whole game, read as a player coming back reads it: every turn
and every penalty, lock and failed throw that any message ever showed is still there,
a finished turn is a few lines of text, and nothing still counts down or asks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.channel import story
from bot.i18n import using
from bot.sandbox import Sandbox
from bot.sandbox.autoplay import play_to_end, seeded_policy, wait_for_turn
from bot.sandbox.records import EPHEMERAL, StoredMessage, said
from bot.store import Store

from .conftest import UNLIMITED, make_bot

HEADER = re.compile(r"\*\*Turn (\d+)\*\*")
TOLD = re.compile(r"❌ [^\n·]*?\(\d+/\d+\)|🔒 [^\n·]*? \*\*\w+\*\*")
DONE_HEADER = re.compile(r"^\*\*Turn (\d+)\*\* · .* was active$")
COUNTDOWN = re.compile(r"<t:\d+:R>")
# Ceilings for a finished turn's own message (see the note): no image, the
# header, the roll, two actions, a lock or a penalty or two, the scores.
MAX_IMAGES_PER_FINISHED_TURN = 0
MAX_LINES_PER_FINISHED_TURN = 8


def public_versions(sb: Sandbox) -> list[str]:
    """Every content any public message ever had, from the bodies the bot sent."""
    texts = []
    for call in sb.server.calls:
        body = call.body if isinstance(call.body, dict) else {}
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        flags = int(data.get("flags") or 0)
        if call.method in ("POST", "PATCH") and said(data) and not flags & EPHEMERAL:
            texts.append(said(data))
    return texts


async def play_with_computers(sb: Sandbox, variant: str, seed: int) -> None:
    ana = sb.member("Ana")
    lobby = (await ana.slash("qwixx", "start", variant=variant)).message
    for _ in range(2):
        lobby = (await ana.click(lobby, label="Add computer player")).message
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb)
    await play_to_end(sb, [ana], seeded_policy(seed))


async def stored_lines(database: Path, variant: str) -> list[str]:
    """The English line of every stored penalty, lock and failed throw."""
    store = await Store.open(database)
    try:
        events = await store.games.events(1)
    finally:
        await store.close()
    with using("en-US"):
        return [
            line
            for e in events
            if e.kind in ("penalty", "locked", "failed_throw")
            for line in story.event_lines(e, [], variant)
        ]


def finished_turns(messages: list[StoredMessage]) -> list[tuple[list[str], StoredMessage]]:
    """Each finished turn's own lines (from its header on) with its message."""
    found = []
    for message in messages:
        lines = message.content.splitlines()
        starts = [i for i, line in enumerate(lines) if DONE_HEADER.match(line)]
        found += [(lines[start:], message) for start in starts]
    return found


@pytest.mark.parametrize("seed", [1, 5])
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_the_channel_keeps_the_whole_story_after_the_game(
    database: Path, variant: str, seed: int, record_property: Any
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb, seed))
        await play_with_computers(sb, variant, seed)
        await sb.wait_for(lambda: not any(COUNTDOWN.search(m.content) for m in sb.messages()))
        final = sb.messages()
        text = "\n".join(m.content for m in final)
        ever = public_versions(sb)
        assert sb.failures == [], sb.describe_failures()

    last = max(int(n) for n in HEADER.findall("\n".join(ever)))
    assert sorted({int(n) for n in HEADER.findall(text)}) == list(range(1, last + 1))
    shown_once = {found for version in ever for found in TOLD.findall(version)}
    assert shown_once, "a game with computers shows some penalty or lock"
    assert [found for found in shown_once if found not in text] == []
    assert [
        line for line in await stored_lines(database, variant) if line.split(" — ")[0] not in text
    ] == []

    turns = finished_turns(final)
    assert turns
    images = max(len(message.attachments) for _, message in turns)
    lines = max(len(own) for own, _ in turns)
    record_property("finished_turn_images_max", images)
    record_property("finished_turn_lines_max", lines)
    assert images <= MAX_IMAGES_PER_FINISHED_TURN
    assert lines <= MAX_LINES_PER_FINISHED_TURN
    assert not any(m.labels for m in final[:-1]), "only the final scoreboard has a button"
