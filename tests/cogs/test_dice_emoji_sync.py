"""The dice's emojis kept up by the bot: their names, and what one look at the
application's emojis leads to (the Discord side of it is in tests/e2e/test_dice_emojis.py)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, cast

import discord
import pytest

from bot.cogs import emojis as dice_emojis
from bot.cogs.emojis import APPLICATION_LIMIT, DiceEmojis, emoji_name, parse_name
from bot.render.die_emoji import every_face

DISCORD_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
ART = {face: b"png" for face in every_face()}


@dataclass
class Emoji:
    id: int
    name: str
    client: FakeClient

    def __str__(self) -> str:
        return f"<:{self.name}:{self.id}>"

    async def delete(self) -> None:
        self.client.forget(self)


@dataclass
class FakeClient:
    """The application's emojis as discord.py's client reaches them."""

    emojis: list[Emoji] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    refuse: bool = False

    def add(self, name: str) -> None:
        self.emojis.append(Emoji(len(self.emojis) + 1000, name, self))

    def forget(self, emoji: Emoji) -> None:
        self.emojis.remove(emoji)
        self.requests.append(f"DELETE {emoji.name}")

    async def fetch_application_emojis(self) -> list[Emoji]:
        self.requests.append("GET")
        return list(self.emojis)

    async def create_application_emoji(self, *, name: str, image: bytes) -> Emoji:
        self.requests.append(f"POST {name}")
        if self.refuse:
            raise discord.DiscordException("403 Forbidden (error code: 50013)")
        self.add(name)
        return self.emojis[-1]


async def refreshed(client: FakeClient, upload: bool = True) -> DiceEmojis:
    kept = DiceEmojis(upload)
    await kept.sync(cast(discord.Client, client))
    return kept


@pytest.fixture(autouse=True)
def art(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice_emojis, "drawn", lambda: (ART, "1a2b"))


def test_every_faces_name_is_one_discord_takes_and_reads_back() -> None:
    for colour, face in every_face():
        name = emoji_name(colour, face, "1a2b")
        assert DISCORD_NAME.fullmatch(name) and parse_name(name) == (colour, face, "1a2b")
    assert parse_name("party_parrot") is None and parse_name("qx_red6") is None


async def test_an_empty_application_gets_every_face() -> None:
    client = FakeClient()
    kept = await refreshed(client)
    assert client.requests[0] == "GET" and len(client.requests) == 1 + len(ART)
    assert kept.faces()["red6"] == str(next(e for e in client.emojis if e.name == "qx_red6_1a2b"))
    assert len(kept.faces()) == len(ART)


async def test_stale_faces_go_after_their_replacements_and_other_emojis_stay() -> None:
    client = FakeClient()
    client.add("party_parrot")
    for colour, face in every_face():
        client.add(emoji_name(colour, face, "0000"))
    await refreshed(client)
    kinds = [request.split()[0] for request in client.requests]
    assert kinds == ["GET", *["POST"] * len(ART), *["DELETE"] * len(ART)]
    assert "party_parrot" in {e.name for e in client.emojis}
    assert {parse_name(e.name)[2] for e in client.emojis if parse_name(e.name)} == {"1a2b"}


def uploaded(faces: int) -> FakeClient:
    """An application with the emojis of the first ``faces`` faces."""
    client = FakeClient()
    for colour, face in every_face()[:faces]:
        client.add(emoji_name(colour, face, "1a2b"))
    return client


async def test_a_process_that_does_not_upload_uses_what_is_there() -> None:
    assert len((await refreshed(uploaded(len(ART)), upload=False)).faces()) == len(ART)
    some = uploaded(len(ART) - 1)
    assert (await refreshed(some, upload=False)).faces() == {}
    assert some.requests == ["GET"]


async def test_an_application_without_room_keeps_the_dice_as_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = FakeClient()
    for index in range(APPLICATION_LIMIT - len(ART) + 1):
        client.add(f"other{index}")
    kept = await refreshed(client)
    assert kept.faces() == {} and client.requests == ["GET"]
    assert "2000" in caplog.text and "text" in caplog.text


async def test_a_refusal_is_logged_once_and_the_dice_stay_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bot.cogs.emojis")
    client = FakeClient(refuse=True)
    kept = await refreshed(client)
    assert kept.faces() == {} and client.requests == ["GET", "POST qx_white1_1a2b"]
    assert [r.levelname for r in caplog.records] == ["WARNING"]


async def test_any_failure_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(FakeClient):
        async def fetch_application_emojis(self) -> list[Any]:
            raise RuntimeError("the connection dropped")

    kept = await refreshed(Broken())
    assert kept.faces() == {} and len(caplog.records) == 1
