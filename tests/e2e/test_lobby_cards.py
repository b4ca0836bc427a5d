"""The lobby as a card in the stand-in, from ``/qwixx start`` (in the channel or a
thread) through every change to its close: its text in blocks, its buttons and its
level select in action rows under it, the closed lobby without them; and a lobby posted
as text before cards, which every change edits as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import QwixxBot
from bot.cogs import views
from bot.i18n import LOCALES, using
from bot.sandbox import GuildSpec, Sandbox, SimMember, limits
from bot.sandbox.autoplay import wait_for_turn
from bot.sandbox.records import COMPONENTS_V2, StoredMessage
from bot.sandbox.validation import OpenApiValidator

from .conftest import UNLIMITED, make_bot

BUTTON, SELECT, ROW, TEXT, SEPARATOR, CONTAINER = 2, 3, 1, 10, 14, 17
LABELS = ["Join", "Leave", "Add computer player", "Start", "Cancel"]


def blocks(message: StoredMessage) -> list[str]:
    """A card's text displays, in order (its separators between them)."""
    [container, *_] = message.components
    assert container["type"] == CONTAINER
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [TEXT, *[SEPARATOR, TEXT] * (len(kinds) // 2)], kinds
    return [c["content"] for c in container["components"] if c["type"] == TEXT]


def rows(message: StoredMessage) -> list[list[int]]:
    """The kinds of the controls in each action row under the card."""
    [_, *under] = message.components
    assert all(row["type"] == ROW for row in under)
    return [[c["type"] for c in row["components"]] for row in under]


def players(*names: str) -> str:
    return f"Players ({len(names)}/5): {', '.join(names)}"


def at(member: SimMember) -> str:
    return f"<@{member.id}>"


async def open_lobby(sb: Sandbox, ana: SimMember, **options: Any) -> StoredMessage:
    lobby = (await ana.slash("qwixx", "start", variant="classic", **options)).message
    assert lobby.layout and not lobby.ephemeral
    return lobby


async def test_a_lobby_is_a_card_from_its_opening_to_its_start(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = await open_lobby(sb, ana)
    title = f"🎲 **Qwixx** — lobby (host: {at(ana)})"
    [head, seated, hint] = blocks(lobby)
    assert (head, seated) == (title, players(at(ana)))
    assert hint.startswith("Turn time: 24h · Rules: ") and hint.endswith("Start needs 2 players.")
    assert rows(lobby) == [[BUTTON] * 5] and lobby.labels == LABELS

    await ben.click(lobby, label="Join")
    assert lobby.layout and blocks(lobby)[1] == players(at(ana), at(ben))
    await ana.click(lobby, label="Add computer player")
    assert blocks(lobby)[1] == players(at(ana), at(ben), "🤖 Computer 1 (Easy)")
    assert rows(lobby) == [[BUTTON] * 5, [SELECT]], "the level select in a row of its own"
    await ana.select(lobby, ["-1.hard"], placeholder="Change a computer player's level")
    assert lobby.layout and blocks(lobby)[1] == players(at(ana), at(ben), "🤖 Computer 1 (Hard)")
    assert blocks(lobby)[0] == title and rows(lobby) == [[BUTTON] * 5, [SELECT]]

    await ana.click(lobby, label="Start")
    assert lobby.layout and not list(lobby.interactive()), "its buttons are gone"
    assert blocks(lobby) == [
        f"🎲 **Qwixx** — started with {at(ana)}, {at(ben)}, 🤖 Computer 1 (Hard)."
    ]
    assert (await wait_for_turn(sb)).layout


async def test_a_lobby_for_one_person_says_under_its_start_why_it_does_not_count(
    sb: Sandbox,
) -> None:
    ana = sb.member("Ana")
    lobby = await open_lobby(sb, ana)
    await ana.click(lobby, label="Add computer player")
    await ana.click(lobby, label="Start")
    assert blocks(lobby) == [
        f"🎲 **Qwixx** — started with {at(ana)}, 🤖 Computer 1 (Easy).",
        "📊 Only one person plays, so this game does not count for the leaderboard or the "
        "ratings (that takes two people or more).",
    ]


async def test_a_cancelled_lobby_is_a_card_without_buttons(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = await open_lobby(sb, ana)
    await ben.click(lobby, label="Join")
    await ben.click(lobby, label="Leave")
    assert blocks(lobby)[1] == players(at(ana))
    await ana.click(lobby, label="Cancel")
    assert lobby.layout and not list(lobby.interactive())
    assert blocks(lobby) == [f"🎲 **Qwixx** — the lobby was cancelled by {at(ana)}."]


async def test_leaving_and_abandoning_by_command_keep_the_card(sb: Sandbox) -> None:
    """The edits that answer no click on the lobby: ``/qwixx leave`` and the close of an
    abandoned lobby."""
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = await open_lobby(sb, ana)
    await ben.click(lobby, label="Join")
    await ben.slash("qwixx", "leave")
    await sb.wait_for(
        lambda: players(at(ben)) not in lobby.content and players(at(ana)) in lobby.content
    )
    assert lobby.layout and blocks(lobby)[1] == players(at(ana)) and lobby.labels == LABELS
    asked = (await ana.slash("qwixx", "abandon")).message
    await ana.click(asked, label="Yes")
    closed = f"🎲 **Qwixx** — the lobby was closed by {at(ana)}."
    await sb.wait_for(lambda: lobby.content == closed)
    assert lobby.layout and blocks(lobby) == [closed] and not list(lobby.interactive())


async def test_a_lobby_in_a_thread_of_its_own_is_a_card(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    await ana.slash("qwixx", "start", variant="classic", thread=True)
    thread = await sb.wait_for(
        lambda: next((c for c in sb.server.world.channels.values() if c.is_thread), None)
    )
    lobby = await sb.wait_for(lambda: next(iter(sb.messages(thread)), None))
    assert lobby.layout and blocks(lobby)[:2] == [
        f"🎲 **Qwixx** — lobby (host: {at(ana)})",
        players(at(ana)),
    ]
    await ben.click(lobby, label="Join")
    assert lobby.layout and blocks(lobby)[1] == players(at(ana), at(ben))


async def text_lobby(sb: Sandbox, host: SimMember) -> StoredMessage:
    """A lobby of ``host``'s posted as the bot posted lobbies before cards: its text as
    content, its buttons under it."""
    bot: QwixxBot = sb.bot  # type: ignore[assignment]
    record = await bot.service.lobby.open(sb.guild.id, sb.channel.id, host.id, "classic")
    with using("en-US"):
        sent = await bot.get_partial_messageable(sb.channel.id).send(
            views.lobby_content(record), view=views.lobby_view(record)
        )
    await bot.service.keeper.set_message(record.id, sent.id)
    return sb.server.world.messages[sent.id]


async def test_a_lobby_posted_as_text_before_cards_stays_text(sb: Sandbox) -> None:
    """Posted as the bot posted lobbies before cards (content and buttons), it is edited
    as text by every click, by ``/qwixx leave`` and by its close."""
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    lobby = await text_lobby(sb, ana)
    assert not lobby.layout and lobby.content.startswith(f"🎲 **Qwixx** — lobby (host: {at(ana)})")

    def text(line: str) -> bool:
        return not lobby.layout and line in lobby.content.splitlines()

    await ben.click(lobby, label="Join")
    await cem.click(lobby, label="Join")
    assert text(players(at(ana), at(ben), at(cem))) and lobby.labels == LABELS
    await cem.slash("qwixx", "leave")
    await sb.wait_for(lambda: text(players(at(ana), at(ben))))
    await ana.click(lobby, label="Add computer player")
    assert text(players(at(ana), at(ben), "🤖 Computer 1 (Easy)"))
    await ana.select(lobby, ["-1.hard"], placeholder="Change a computer player's level")
    assert text(players(at(ana), at(ben), "🤖 Computer 1 (Hard)"))
    assert lobby.components[1]["components"][0]["type"] == SELECT
    await ana.click(lobby, label="Start")
    started = f"🎲 **Qwixx** — started with {at(ana)}, {at(ben)}, 🤖 Computer 1 (Hard)."
    assert not lobby.layout and lobby.content == started and not lobby.components
    assert not any(
        isinstance(c.body, dict) and int(c.body.get("flags") or 0) & COMPONENTS_V2
        for c in sb.server.calls
        if str(lobby.id) in c.path
    ), "no edit of it asked for a card"
    assert (await wait_for_turn(sb)).layout, "the game's own messages are cards"


async def test_a_lobby_posted_as_text_is_closed_as_text(sb: Sandbox) -> None:
    ana = sb.member("Ana")
    lobby = await text_lobby(sb, ana)
    asked = (await ana.slash("qwixx", "abandon")).message
    await ana.click(asked, label="Yes")
    closed = f"🎲 **Qwixx** — the lobby was closed by {at(ana)}."
    await sb.wait_for(lambda: lobby.content == closed)
    assert not lobby.layout and not lobby.components


LONG_NAMES = (
    "Zoë Łukasiewicz-Ñúñez 🎲🎲 Ærøskøbing"[:32],
    "李小龍・三毛猫の物語と長い長い名前です・東京都渋谷区の人",
    "👩‍👩‍👧‍👦 Ğüşçöı Ağaoğlu Çelikkıran ✨"[:32],
)


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
async def test_a_full_lobby_of_long_names_is_a_card_discord_takes(
    database: Path, locale: str
) -> None:
    """Qwinto's six seats: three people with display names of Discord's 32 characters
    (accents, CJK, emoji) and three computers at the hardest level, hints and stand-ins
    on, the server in each language: each version of the card is within Discord's
    limits and valid against its description (the stand-in validates every body)."""
    assert all(len(name) <= 32 for name in LONG_NAMES)
    guild = GuildSpec(channels=("general",), locale=locale)
    async with Sandbox(**UNLIMITED, guilds=[guild], members=list(LONG_NAMES), settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        host, *others = (sb.member(name) for name in LONG_NAMES)
        await host.slash(
            "qwixx", "start", variant="qwinto", thread=True, hints=True, fill_away=True
        )
        lobby = await sb.wait_for(
            lambda: next(
                (
                    m
                    for c in sb.server.world.channels.values()
                    if c.is_thread
                    for m in sb.messages(c)
                ),
                None,
            )
        )
        for member in others:
            await member.click(lobby, custom_id="qx:1:lobby:join")
        for _ in range(3):
            await host.click(lobby, custom_id="qx:1:lobby:computer")
        for seat in (-1, -2, -3):
            await host.select(lobby, [f"{seat}.hard"], custom_id="qx:1:lobby:level")
        assert sb.failures == [], sb.describe_failures()
        assert lobby.layout and len(blocks(lobby)) == 4 and rows(lobby) == [[BUTTON] * 5, [SELECT]]
        assert blocks(lobby)[1].count("🤖") == 3 and blocks(lobby)[1].count("<@") == 3
        body = {"flags": lobby.flags, "components": lobby.components}
        assert limits.check_message(body) == [] and len(lobby.content) <= limits.MAX_LAYOUT_TEXT
        validator = OpenApiValidator.load()
        assert validator is not None
        assert (
            validator.validate("PATCH", "/channels/{channel_id}/messages/{message_id}", body)
            is None
        )
