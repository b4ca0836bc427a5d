"""Through the stand-in: each member reads their own language, the channel the server's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.i18n import using
from bot.i18n.words import t
from bot.render import render_scoreboard, render_sheet
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.commands import registered
from bot.sandbox.records import StoredMessage
from tests.e2e.conftest import UNLIMITED, make_bot

MANAGE_GUILD = 1 << 5


def said(locale: str, key: str, **values: object) -> str:
    with using(locale):
        return t(key, **values)


def final(sb: Sandbox) -> StoredMessage | None:
    ended = said("tr", "end.title", title="Qwixx")
    return next((m for m in sb.messages() if ended in m.content), None)


def turn(sb: Sandbox) -> StoredMessage | None:
    """The newest public message with the Turkish "Pass" button."""
    return next((m for m in reversed(sb.messages()) if said("tr", "button.pass") in m.labels), None)


async def pass_to_the_end(sb: Sandbox, ana: SimMember) -> list[str]:
    """Ana passes every decision from the turn message; her private answers."""
    answers = []
    for _ in range(200):
        await sb.wait_for(lambda: final(sb) or turn(sb), timeout=30)
        message = turn(sb)
        if final(sb) is not None or message is None:
            return answers
        before = message.content
        outcome = await ana.click(message, label=said("tr", "button.pass"))
        answers += [m.content for m in outcome.ephemeral]
        await sb.wait_for(
            lambda m=message, b=before: final(sb) or turn(sb) is not m or turn(sb).content != b,
            timeout=30,
        )  # type: ignore[union-attr]
    raise AssertionError("the game did not end")


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "qwixx.db"


async def test_a_polish_member_plays_in_a_turkish_server(database: Path) -> None:
    guild = GuildSpec(channels=("general",), locale="tr")
    async with Sandbox(**UNLIMITED, guilds=[guild], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        ana = sb.member("Ana", locale="pl")
        lobby = (await ana.slash("qwixx", "start", variant="classic")).message
        assert said("tr", "lobby.title", title="Qwixx", host=f"<@{ana.id}>") in lobby.content
        await ana.click(lobby, label=said("tr", "button.computer"))
        await ana.click(lobby, label=said("tr", "button.start"))
        first = await sb.wait_for(lambda: turn(sb), timeout=30)
        opened = await ana.click(first, label=said("tr", "button.sheet"))
        sheet = opened.message
        assert sheet.ephemeral and sheet.content.startswith("Tura ")  # Polish "turn"
        image = next(a for a in sheet.attachments if a.filename == "sheet.png")
        assert image.description and image.description.startswith("Kartka gracza Ana")
        bot: QwixxBot = sb.bot  # type: ignore[assignment]
        game = (await bot.service.keeper.read(1)).game
        assert game is not None
        with using("pl"):  # the image Ana got is the Polish one
            assert image.data == render_sheet(game, ana.id, "Ana", game.legal_moves(ana.id))
        assert said("pl", "button.pass") in sheet.labels

        answers = await pass_to_the_end(sb, ana)
        assert answers, "Ana was never asked"
        polish = [said("pl", "you.passed"), "Tura ", "Teraz nie masz nic", "Ten przycisk"]
        assert all(any(p in a for p in polish) for a in answers), answers

        public = [m for m in sb.messages() if m.author.bot]
        turns = [m for m in public if "**Tur " in m.content]
        assert turns and all("Turn " not in m.content for m in public)
        assert said("tr", "event.penalty", name=f"<@{ana.id}>", count=1, limit=4) in "\n".join(
            m.content for m in turns
        )
        ending = final(sb)
        assert ending is not None
        assert (
            said("tr", "end.verb.one") in ending.content
            or said("tr", "end.verb.other") in ending.content
        )
        board = next(a for a in ending.attachments if a.filename == "scoreboard.png")
        outcome = await bot.service.keeper.read(1)
        assert outcome.game is not None
        with using("tr"):  # the computer player is "Bilgisayar 1" there
            names = await bot.service.names.of(outcome.record.guild_id, outcome.record.players)
            assert board.data == render_scoreboard(outcome.game, names)
        with using("en-US"):
            assert board.data != render_scoreboard(outcome.game, names)
        assert sb.failures == [], sb.describe_failures()


async def test_slash_commands_carry_translated_names(database: Path) -> None:
    async with Sandbox(**UNLIMITED, settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        qwixx = next(c for c in registered(sb.server.world, sb.guild.id) if c["name"] == "qwixx")
        assert qwixx["description_localizations"]["pl"] == "Graj w Qwixx"
        commands = {o["name"]: o for o in qwixx["options"]}
        assert commands["leave"]["name_localizations"]["pl"] == "wyjdź"
        assert commands["leave"]["name_localizations"]["tr"] == "ayrıl"
        assert commands["start"]["name_localizations"]["de"] == "start"
        assert commands["rules"]["name_localizations"]["pt-BR"] == "regras"
        options = {o["name"]: o for o in commands["start"]["options"]}
        assert options["board"]["name_localizations"]["fr"] == "plateau"
        boards = {c["value"]: c for c in options["board"]["choices"]}
        assert boards["A"]["name_localizations"]["tr"] == "Yüz A"
        stats = {o["name"]: o for o in commands["leaderboard"]["options"]}
        period = {c["value"]: c for c in stats["period"]["choices"]}
        assert period["week"]["name_localizations"]["de"] == "Diese Woche"
        assert (
            commands["leaderboard"]["description_localizations"]["tr"]
            == "Bu sunucunun en iyi oyuncuları"
        )
        # every command and option is named in every language we speak
        for command in qwixx["options"]:
            for node in [command, *(command.get("options") or [])]:
                assert {"de", "fr", "pl", "pt-BR", "tr"} <= set(node["name_localizations"]), node


async def test_the_server_language_is_chosen_with_manage_server(database: Path) -> None:
    async with Sandbox(**UNLIMITED, settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        boss = sb.member("Boss", permissions=MANAGE_GUILD)
        ana = sb.member("Ana", locale="pl")
        await ana.slash("qwixx", "settings")  # both settings: two answers, one after the other
        await sb.wait_for(
            lambda: any(
                "**angielski**" in m.content  # English, said in Polish
                for m in ana.ephemeral_messages()
            )
        )
        refused = (await ana.slash("qwixx", "settings", language="de")).message
        assert refused.content == said("pl", "error.settings_denied")
        saved = (await boss.slash("qwixx", "settings", language="de")).message
        assert saved.ephemeral and saved.content == said(
            "en-US", "settings.language_saved", language="German"
        )
        lobby = (await ana.slash("qwixx", "start", variant="qwinto")).message
        assert not lobby.ephemeral and "Lobby (Gastgeber: " in lobby.content
        assert said("de", "button.join") in lobby.labels
        busy = (await ana.slash("qwixx", "start", variant="classic")).message
        assert busy.ephemeral and busy.content == said("pl", "error.channel_busy")
        unknown = sb.member("Kenji", locale="ja")  # a language we do not speak: English
        rules = (await unknown.slash("qwixx", "rules", variant="longo")).message
        assert rules.content.startswith("**Qwixx Longo** (2-5 players)")
        assert sb.failures == [], sb.describe_failures()


async def test_a_view_shared_with_the_channel_speaks_the_servers_language(database: Path) -> None:
    guild = GuildSpec(channels=("general",), locale="tr")
    async with Sandbox(**UNLIMITED, guilds=[guild], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        ola = sb.member("Ola", locale="pl")
        lobby = (await ola.slash("qwixx", "start", variant="classic")).message
        lobby = (await ola.click(lobby, label=said("tr", "button.computer"))).message
        await ola.click(lobby, label=said("tr", "button.start"))
        await pass_to_the_end(sb, ola)  # a short game: one finished game in the history
        private = (await ola.slash("qwixx", "history")).message
        assert private.ephemeral and said("pl", "button.share") in private.labels
        clicked = await ola.click(private, label=said("pl", "button.share"))
        # the click's own answer: the final message's accuracy edit may land meanwhile
        shared = [m for m in (clicked.response, *clicked.followups) if m and not m.ephemeral]
        assert len(shared) == 1
        assert said("tr", "share.by", name=f"<@{ola.id}>") in shared[0].content
        assert sb.failures == [], sb.describe_failures()
