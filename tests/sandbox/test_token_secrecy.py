"""The bot token never reaches the log, even at DEBUG: login, play, gateway resume, close."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.__main__ import Redact
from bot.app import QwixxBot
from bot.sandbox import Sandbox

TOKEN = "MTQ0MjE4ODg4ODg4ODg4ODg4.GsEcRt.x7Yq2Lp9Vw3Zk8Rt5Nm1Bc6Hd4Fg0JsQaWeTyUiOp"
SECRET = TOKEN.rsplit(".", 1)[1]


async def test_the_token_is_never_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    with caplog.at_level(logging.DEBUG):
        async with Sandbox(members=["Ana", "Ben"]) as sb:
            sb.server.rest.tokens = {TOKEN}  # only this token is accepted
            bot = QwixxBot(tmp_path / "q.db", dev_guild=sb.guild.id, coalesce=0.05)
            await sb.run_bot(bot, token=TOKEN)
            lobby = (await sb.member("Ana").slash("qwixx", "start", variant="classic")).message
            await sb.member("Ben").click(lobby, label="Join")
            await sb.server.gateway.drop()
            await sb.reconnected(resumes=1)
            await sb.stop_bot()
            assert sb.failures == [], sb.describe_failures()
    logged = "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)
    assert len(caplog.records) > 50 and "IDENTIFY" in logged  # DEBUG really was captured
    printed = capsys.readouterr()
    for text in (logged, caplog.text, printed.out, printed.err):
        assert TOKEN not in text and SECRET not in text


async def test_the_log_filter_masks_interaction_tokens(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py logs request URLs at DEBUG, and those hold interaction tokens."""
    caplog.handler.addFilter(Redact(TOKEN))
    with caplog.at_level(logging.DEBUG):
        async with Sandbox(members=["Ana"]) as sb:
            await sb.run_bot(QwixxBot(tmp_path / "q.db", dev_guild=sb.guild.id), token=TOKEN)
            await sb.member("Ana").slash("qwixx", "start", variant="classic")
            await sb.member("Ana").slash("qwixx", "status")
            await sb.stop_bot()
            tokens = [i.token for i in sb.server.world.interactions.values()]
    assert len(tokens) == 2
    assert "/interactions/" in caplog.text and "<token>" in caplog.text
    for token in tokens:
        assert token not in caplog.text


def test_the_log_filter_masks_the_bot_token_wherever_it_is() -> None:
    record = logging.LogRecord("x", logging.DEBUG, __file__, 1, "headers %s", ({"a": TOKEN},), None)
    assert Redact(TOKEN).filter(record)
    assert TOKEN not in record.getMessage() and "<token>" in record.getMessage()
