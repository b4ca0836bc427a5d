"""The dice's emojis through the stand-in: uploaded once by the first start, none by a
restart, replaced when their art changes, the text form when Discord refuses them, and a
whole game's channel showing its dice as the emojis Discord has."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bot.cogs import emojis as dice_emojis
from bot.render.die_emoji import every_face
from bot.sandbox import Sandbox
from bot.sandbox.autoplay import final_message, wait_for_turn
from bot.sandbox.records import Call
from tests.e2e.conftest import UNLIMITED, make_bot, started
from tests.truth.test_stand_in_truth import held_to_the_game, play

EMOJIS = "/applications/{application_id}/emojis"
FACES = len(every_face())
MARKUP = re.compile(r"<:(qx_[a-z]+\d+_[0-9a-f]{4}):(\d+)>")
ROLL = re.compile(r"🎲 (.*) · white sum")


def calls(sb: Sandbox, method: str, since: int = 0) -> list[Call]:
    """The requests of ``method`` on the application's emojis, after the first ``since``."""
    return [c for c in sb.server.calls[since:] if c.method == method and c.route.startswith(EMOJIS)]


def names(sb: Sandbox) -> set[str]:
    return {e.name for e in sb.server.world.emojis.values()}


async def test_the_first_start_uploads_every_face_and_a_restart_none(database: Path) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana"]) as sb:
        bot = await started(sb, database)
        version = dice_emojis.drawn()[1]
        assert names(sb) == {dice_emojis.emoji_name(c, f, version) for c, f in every_face()}
        assert len(calls(sb, "GET")) == 1 and len(calls(sb, "POST")) == FACES
        assert len(bot.dice_emojis.faces()) == FACES
        await sb.stop_bot()
        before = len(sb.server.calls)
        again = await started(sb, database)
        assert len(calls(sb, "GET", before)) == 1  # one look, nothing to upload
        assert calls(sb, "POST", before) == calls(sb, "DELETE", before) == []
        assert again.dice_emojis.faces() == bot.dice_emojis.faces()
        assert sb.failures == [], sb.describe_failures()


async def test_a_changed_art_replaces_the_emojis_once_every_replacement_exists(
    database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana"]) as sb:
        await started(sb, database)
        old = names(sb)
        await sb.stop_bot()
        art = dice_emojis.drawn()[0]
        monkeypatch.setattr(dice_emojis, "drawn", lambda: (art, "beef"))
        before = len(sb.server.calls)
        bot = await started(sb, database)
        posts, deletes = calls(sb, "POST", before), calls(sb, "DELETE", before)
        assert len(posts) == len(deletes) == FACES
        assert max(c.at for c in posts) <= min(c.at for c in deletes)
        assert names(sb) == {dice_emojis.emoji_name(c, f, "beef") for c, f in every_face()}
        assert not names(sb) & old
        assert all("_beef:" in markup for markup in bot.dice_emojis.faces().values())
        assert sb.failures == [], sb.describe_failures()


async def test_a_restart_half_way_uploads_only_what_is_missing(database: Path) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana"]) as sb:
        bot = make_bot(database, sb)
        await sb.run_bot(bot)
        await sb.wait_for(lambda: len(sb.server.world.emojis) >= 10)
        await sb.stop_bot()  # the uploads are cut off
        assert not bot.dice_emojis.faces()
        kept = len(sb.server.world.emojis)
        assert 10 <= kept < FACES
        before = len(sb.server.calls)
        again = await started(sb, database)
        assert len(calls(sb, "POST", before)) == FACES - kept
        assert len(sb.server.world.emojis) == FACES and len(again.dice_emojis.faces()) == FACES
        assert sb.failures == [], sb.describe_failures()


async def test_uploads_wait_out_discords_rate_limit(database: Path) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana"]) as sb:
        sb.server.inject(429, method="POST", route=EMOJIS, retry_after=0.05)
        bot = await started(sb, database)
        assert [c.status for c in calls(sb, "POST")].count(429) == 1
        assert len(bot.dice_emojis.faces()) == len(sb.server.world.emojis) == FACES


async def test_refused_emojis_leave_the_dice_as_text_and_say_so_once(
    database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.cogs.emojis")
    async with Sandbox(**UNLIMITED, members=["Ana"], settle=0.02, emojis=False) as sb:
        bot = await started(sb, database)
        assert bot.dice_emojis.faces() == {} and sb.server.world.emojis == {}
        assert [c.status for c in calls(sb, "POST")] == [403]  # no second try
        warnings = [r for r in caplog.records if r.name == "bot.cogs.emojis"]
        assert len(warnings) == 1 and "shown as text" in warnings[0].getMessage()
        ana = sb.member("Ana")
        lobby = (await ana.slash("qwixx", "start", variant="classic")).message
        await ana.click(lobby, label="Add computer player")
        await ana.click(lobby, label="Start")
        turn = await wait_for_turn(sb)
        assert "<:" not in turn.content
        status = await ana.slash("qwixx", "status")
        assert re.search(r"🎲 ⚪\d ⚪\d 🟥\d 🟨\d 🟩\d 🟦\d · white sum", status.message.content)
        assert "<:" not in status.message.content


async def test_the_turn_message_and_the_status_show_the_dice_as_emojis(database: Path) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana"], settle=0.02) as sb:
        await started(sb, database)
        ana = sb.member("Ana")
        lobby = (await ana.slash("qwixx", "start", variant="classic")).message
        await ana.click(lobby, label="Add computer player")
        await ana.click(lobby, label="Start")
        turn = await wait_for_turn(sb)
        status = (await ana.slash("qwixx", "status")).message
        roll = ROLL.search(status.content)
        assert roll is not None and len(MARKUP.findall(roll[1])) == 6, status.content
        # The open turn's card shows its dice once, as its image (the line comes back
        # when the turn is over and the card is compact, without it).
        assert ROLL.search(turn.content) is None and [a.filename for a in turn.attachments] == [
            "dice.png"
        ]
        assert sb.failures == [], sb.describe_failures()


@pytest.mark.parametrize("variant", ["longo", "qwinto"])
async def test_a_whole_games_channel_shows_its_dice_as_emojis(tmp_path: Path, variant: str) -> None:
    database, seed = tmp_path / "qwixx.db", 7
    async with Sandbox(**UNLIMITED, members=["Ana"], settle=0.02) as sb:
        await started(sb, database)
        await play(sb, variant, ["Ana"], 2, seed)
        await sb.wait_for(lambda: (final := final_message(sb)) and "🎯" in final.content)
        texts = [m.content for m in sb.messages()]
        listed = {e.id: e.name for e in sb.server.world.emojis.values()}
        assert sb.failures == [], sb.describe_failures()
    shown = [found for text in texts for found in MARKUP.findall(text)]
    assert len(shown) > 20
    assert all(listed.get(int(emoji_id)) == name for name, emoji_id in shown)
    lines = "\n".join(texts)
    assert not re.search(r"[⚪🟥🟨🟩🟦🟧🟪]\d", lines)  # no die written as text
    if variant == "longo":
        rolls = ROLL.findall(lines)
        assert rolls and all(len(MARKUP.findall(roll)) == len(roll.split()) for roll in rolls)
    verdicts = await held_to_the_game(database, texts, listed)
    false = [f"turn {v.turn}: [{v.kind}] {v.line}\n    {v.why}" for v in verdicts if not v.ok]
    assert not false, "\n".join(false)
    assert any(v.kind in ("dice", "rolled") for v in verdicts)
