"""Messages of layout components (cards) in the stand-in: Discord's totals, no content
beside them, every ``attachment://`` naming a file of the message, a flag that stays;
their text read from their text displays, and their media returned as the files'
addresses."""

from __future__ import annotations

from typing import Any

import pytest

from bot.sandbox.clock import SandboxClock
from bot.sandbox.limits import MAX_LAYOUT_COMPONENTS, MAX_LAYOUT_TEXT, check_message
from bot.sandbox.messages import Messages
from bot.sandbox.records import COMPONENTS_V2, StoredMessage
from bot.sandbox.rest import ApiError, UploadedFile
from bot.sandbox.world import World

V2 = COMPONENTS_V2


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def gallery(name: str) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"}, "description": "alt"}]}


def codes(body: dict[str, Any]) -> set[str]:
    return {code for _, code, _ in check_message(body)}


def test_a_card_holds_at_most_40_components_at_every_depth() -> None:
    inner = [text(str(i)) for i in range(MAX_LAYOUT_COMPONENTS - 1)]
    fits = {"flags": V2, "components": [{"type": 17, "components": inner}]}
    over = {"flags": V2, "components": [{"type": 17, "components": [*inner, text("one more")]}]}
    assert check_message(fits) == []
    assert codes(over) == {"BASE_TYPE_MAX_LENGTH"}


def test_a_cards_text_displays_hold_4000_characters_together() -> None:
    half = MAX_LAYOUT_TEXT // 2
    fits = {"flags": V2, "components": [text("a" * half), text("b" * half)]}
    over = {"flags": V2, "components": [text("a" * half), text("b" * (half + 1))]}
    assert check_message(fits) == []
    assert codes(over) == {"MAX_TEXT_DISPLAY_CONTENT_LENGTH_EXCEEDED"}


def test_a_card_has_no_content_nor_embeds() -> None:
    body = {"flags": V2, "content": "hi", "embeds": [{"title": "t"}], "components": [text("x")]}
    assert [where for where, _, _ in check_message(body)] == [("content",), ("embeds",)]
    assert check_message({"content": "hi", "components": []}) == []


@pytest.fixture
def place() -> tuple[Messages, int]:
    world = World(SandboxClock())
    guild = world.add_guild("Table", ["games"])

    async def dispatch(event: str, data: dict[str, Any]) -> None:
        return None

    return Messages(world, dispatch, lambda: "http://stand-in"), guild.channel_ids[0]


def dice(index: int = 0) -> UploadedFile:
    return UploadedFile(index, "dice.png", b"png", "image/png")


async def test_a_card_reads_as_its_text_displays_and_returns_its_media_as_addresses(
    place: tuple[Messages, int],
) -> None:
    messages, channel = place
    body = {
        "flags": V2,
        "components": [{"type": 17, "components": [text("one"), gallery("dice.png"), text("two")]}],
        "attachments": [{"id": 0, "filename": "dice.png"}],
    }
    message = await messages.create(channel, body, [dice()])
    assert message.layout and message.content == "one\ntwo"
    payload = messages.payload(message)
    [item] = payload["components"][0]["components"][1]["items"]
    assert payload["content"] == "" and item["media"]["url"] == message.attachments[0].url
    assert message.components[0]["components"][1]["items"][0]["media"]["url"] == (
        "attachment://dice.png"
    ), "the stored body is left as sent"


async def test_a_card_may_show_only_its_own_files(place: tuple[Messages, int]) -> None:
    messages, channel = place
    body = {"flags": V2, "components": [text("one"), gallery("board.png")]}
    with pytest.raises(ApiError):
        await messages.create(channel, body, [dice()])
    assert messages.world.messages == {}


async def test_an_edit_keeps_a_cards_flag_and_a_refused_edit_changes_nothing(
    place: tuple[Messages, int],
) -> None:
    messages, channel = place
    message: StoredMessage = await messages.create(
        channel, {"flags": V2, "components": [text("one")]}, []
    )
    with pytest.raises(ApiError):
        await messages.edit(message, {"flags": 0, "components": [text("two")]}, [])
    with pytest.raises(ApiError):
        await messages.edit(message, {"flags": V2, "components": [gallery("dice.png")]}, [])
    assert message.content == "one" and message.components == [{**text("one"), "id": 1}]
    await messages.edit(message, {"flags": V2, "components": [text("two")]}, [])
    assert message.content == "two" and message.layout


async def test_a_message_made_a_card_by_an_edit_empties_its_content_and_embeds(
    place: tuple[Messages, int],
) -> None:
    messages, channel = place
    message = await messages.create(channel, {"content": "sheet", "embeds": [{"title": "t"}]}, [])
    for kept in ({}, {"content": None}, {"embeds": []}):
        with pytest.raises(ApiError):
            await messages.edit(message, {"flags": V2, "components": [text("card")], **kept}, [])
        assert message.content == "sheet" and not message.layout
    cleared = {"flags": V2, "components": [text("card")], "content": None, "embeds": []}
    await messages.edit(message, cleared, [])
    assert message.layout and message.content == "card" and message.embeds == []
