"""Whole games of every variant with members and servers of different languages.

The stand-in checks every request against Discord's API and limits, so translated
labels, select options and messages that Discord would refuse fail these games.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import using
from bot.i18n.words import t, text
from bot.rules import VARIANTS
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import moves, seeded_policy
from bot.sandbox.records import StoredMessage
from tests.e2e.conftest import UNLIMITED, make_bot

WAIT = 30.0  # however busy the machine


def said(locale: str, key: str, **values: object) -> str:
    with using(locale):
        return t(key, **values)


def turn_number(locale: str, reply: str) -> int | None:
    """The turn a private reply in ``locale`` speaks of ("Tura 3, akcja 1 ...")."""
    before = text("sheet.nothing", locale).split("{turn}")[0]
    found = re.search(re.escape(before) + r"(\d+)", reply)
    return int(found[1]) if found else None


class Table:
    """The channel as the server's language shows it."""

    def __init__(self, sb: Sandbox, locale: str, title: str) -> None:
        self.sb, self.locale = sb, locale
        self.sheet_button = said(locale, "button.sheet")
        self.ended = said(locale, "end.title", title=title)
        self.header = text("story.header", locale).split("{turn}")[0]

    def final(self) -> StoredMessage | None:
        return next((m for m in self.sb.messages() if self.ended in m.content), None)

    def turn(self) -> StoredMessage | None:
        return next(
            (m for m in reversed(self.sb.messages()) if self.sheet_button in m.labels), None
        )

    def shows(self, number: int | None) -> bool:
        turn = self.turn()
        if self.final() is not None:
            return True
        wanted = f"{self.header}{number}**" if number is not None else ""
        return turn is not None and wanted in turn.content


async def play_round(table: Table, members: list[SimMember], seed: int) -> bool:
    """Every member decides once on the newest turn message; False once it is over."""
    policy = seeded_policy(seed)
    for member in members:
        await table.sb.wait_for(lambda: table.final() or table.turn(), timeout=WAIT)
        turn = table.turn()
        if table.final() is not None or turn is None:
            return False
        sheet = (await member.click(turn, label=table.sheet_button)).message
        mine = member.record.user.locale
        offered = moves(sheet)
        if not offered or said(mine, "sheet.changed") in sheet.content:
            continue
        after = await policy(member, offered, sheet).take(member, sheet)
        if said(mine, "button.yes") in after.labels:  # a costly move asks first
            after = (await member.click(after, label=said(mine, "button.yes"))).message
        number = turn_number(mine, after.content)
        await table.sb.wait_for(lambda n=number: table.shows(n), timeout=WAIT)
    return table.final() is None


GAMES = [
    ("classic", "de", ("pl", "fr")),
    ("longo", "tr", ("pt-BR", "de")),
    ("onboard", "pl", ("tr", "en-GB")),
    ("qwinto", "pt-BR", ("fr", "pl")),
]


@pytest.mark.parametrize(("variant", "server", "players"), GAMES)
async def test_a_whole_game_in_every_language(
    tmp_path: Path, variant: str, server: str, players: tuple[str, str]
) -> None:
    guild = GuildSpec(channels=("general",), locale=server)
    async with Sandbox(**UNLIMITED, guilds=[guild], settle=0.02) as sb:
        await sb.run_bot(make_bot(tmp_path / "qwixx.db", sb))
        members = [
            sb.member(name, locale=loc) for name, loc in zip(("Ana", "Ben"), players, strict=True)
        ]
        lobby = (await members[0].slash("qwixx", "start", variant=variant)).message
        await members[1].click(lobby, label=said(server, "button.join"))
        await members[0].click(lobby, label=said(server, "button.start"))
        table = Table(sb, server, VARIANTS[variant].title)
        for _ in range(400):
            if not await play_round(table, members, seed=7):
                break
        assert table.final() is not None, "no final scoreboard"
        assert sb.failures == [], sb.describe_failures()
