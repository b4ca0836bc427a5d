"""The application's emojis in the stand-in: listed, created, renamed and deleted through
discord.py's public API, within Discord's limits, and refused where the stand-in is told
the application may have none."""

from __future__ import annotations

import discord
import pytest

from bot.sandbox import Sandbox
from bot.sandbox.api_emojis import MAX_EMOJIS, MAX_IMAGE
from bot.sandbox.records import EmojiRecord

from .demo_bot import DemoBot, png_bytes


def kinds(sb: Sandbox) -> list[str]:
    return [failure.kind for failure in sb.failures]


async def test_an_emoji_is_created_listed_renamed_and_deleted(sb: Sandbox, bot: DemoBot) -> None:
    made = await bot.create_application_emoji(name="qx_red6_1a2b", image=png_bytes())
    assert made.is_application_owned() and str(made) == f"<:qx_red6_1a2b:{made.id}>"
    assert sb.server.world.emojis[made.id].image == png_bytes()
    listed = await bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(made.id, "qx_red6_1a2b")]
    renamed = await made.edit(name="qx_red6_beef")
    assert renamed.name == "qx_red6_beef" == sb.server.world.emojis[made.id].name
    await made.delete()
    assert await bot.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound) as gone:
        await made.delete()
    assert gone.value.code == 10014
    assert kinds(sb) == ["not_found"]


@pytest.mark.parametrize("name", ["qx-red6", "qx red6", "würfel"])
async def test_a_name_of_other_characters_is_refused(sb: Sandbox, bot: DemoBot, name: str) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name=name, image=png_bytes())
    assert refused.value.status == 400 and refused.value.code == 50035
    assert kinds(sb) == ["limit"] and sb.server.world.emojis == {}


@pytest.mark.openapi
@pytest.mark.parametrize("name", ["x", "q" * 33])
async def test_a_name_of_the_wrong_length_breaks_the_description(
    sb: Sandbox, bot: DemoBot, name: str
) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name=name, image=png_bytes())
    assert refused.value.status == 400
    assert kinds(sb) == ["schema"] and sb.server.world.emojis == {}


async def test_a_name_already_taken_is_refused(sb: Sandbox, bot: DemoBot) -> None:
    await bot.create_application_emoji(name="qx_red6_1a2b", image=png_bytes())
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name="qx_red6_1a2b", image=png_bytes())
    assert refused.value.code == 50035 and "taken" in str(refused.value)
    assert kinds(sb) == ["limit"] and len(sb.server.world.emojis) == 1


async def test_an_image_over_256_kib_is_refused(sb: Sandbox, bot: DemoBot) -> None:
    image = png_bytes() + b"\0" * (MAX_IMAGE + 1 - len(png_bytes()))
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name="qx_big", image=image)
    assert refused.value.code == 50035
    assert kinds(sb) == ["limit"] and sb.server.world.emojis == {}
    fits = image[:MAX_IMAGE]
    await bot.create_application_emoji(name="qx_big", image=fits)  # exactly the limit
    assert len(sb.server.world.emojis) == 1


async def test_an_application_has_at_most_2000_emojis(sb: Sandbox, bot: DemoBot) -> None:
    world = sb.server.world
    for index in range(MAX_EMOJIS):
        emoji_id = world.ids.next()
        world.emojis[emoji_id] = EmojiRecord(emoji_id, f"e{index}", b"")
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name="qx_one_more", image=png_bytes())
    assert refused.value.code == 30056 and len(world.emojis) == MAX_EMOJIS
    assert kinds(sb) == ["limit"]


async def test_a_stand_in_without_emojis_refuses_them() -> None:
    async with Sandbox(members=["Ana"], emojis=False) as sb:
        bot = DemoBot()
        await sb.run_bot(bot)
        with pytest.raises(discord.Forbidden):
            await bot.create_application_emoji(name="qx_red6_1a2b", image=png_bytes())
        assert await bot.fetch_application_emojis() == []
        assert sb.failures == []  # Discord's own answer, not a mistake of the bot's
