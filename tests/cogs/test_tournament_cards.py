"""A tournament's messages as cards: the largest of each kind (a sign-up of as many as
may sign up, a round and the standings of the largest tournament, the podium, names
as long as Discord's in several scripts) is a body Discord takes, in every language,
and says how many it leaves out."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.channel.tournament_texts import podium_card, round_card, standings_card, standings_table
from bot.cogs import cards
from bot.cogs.tournaments import signup_message
from bot.i18n import LOCALES, using
from bot.render.standings_lines import standings_alt
from bot.sandbox import limits
from bot.sandbox.records import COMPONENTS_V2, layout_text
from bot.sandbox.validation import OpenApiValidator
from bot.tournament import standings
from bot.tournament.records import Tournament
from bot.tournament.settings import MOST_PLAYERS
from tests.tournament.test_tournament_texts import SNOWFLAKE, tournament

MESSAGES = "/channels/{channel_id}/messages"
NAME = "Ünïcode Cup 🏆🎲 杯 · Łódź–São Paulo–İstanbul Spring Open 2027!"
"""A tournament's name as long as it may be (60 characters), in several scripts."""
DISPLAY_NAMES = (
    "Zoë 👩‍👩‍👧‍👦 Łukasiewicz-Ñúñez ßä",
    "李小龍・三毛猫の物語と東京の夜の長い名前です、よろしくお願いしま",
    "🎲🎲🎲 Ana Schmidt-Müller 🎲🎲🎲 xyzwv",
)
"""Display names of Discord's longest (32 characters)."""
ROUNDS = 3


def largest(**settings: Any) -> Tournament:
    """A tournament of :data:`MOST_PLAYERS`, ids and thread ids as long as Discord's,
    ``ROUNDS - 1`` rounds played and the last one playing."""
    found = tournament(MOST_PLAYERS, ROUNDS, first=SNOWFLAKE, name=NAME, rounds=ROUNDS, **settings)
    threads = tuple(replace(x, thread_id=SNOWFLAKE + k) for k, x in enumerate(found.tables))
    return replace(found, tables=threads)


def body(view: discord.ui.LayoutView) -> dict[str, Any]:
    return {"flags": COMPONENTS_V2, "components": view.to_components()}


def taken(view: discord.ui.LayoutView) -> str:
    """The card's text, once Discord's limits and description accept its body."""
    sent = body(view)
    assert limits.check_message(sent) == []
    validator = OpenApiValidator.load()
    assert validator is not None
    assert validator.validate("POST", MESSAGES, sent) is None
    assert validator.validate("PATCH", MESSAGES + "/{message_id}", sent) is None
    return layout_text(sent["components"])


def left_out(text: str, pattern: str) -> int:
    found = re.search(pattern, text)
    assert found is not None, text
    return int(found[1])


def test_names_and_title_are_as_long_as_discord_allows() -> None:
    assert len(NAME) == 60 and all(len(name) == 32 for name in DISPLAY_NAMES)


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
def test_the_largest_sign_up_is_a_card_discord_takes(locale: str) -> None:
    """Everyone who may sign up, checked in: as many named as the card holds, the rest
    counted; its buttons under it."""
    played = largest()
    settings = replace(played.settings, deadline=10_000, check_in=3_600)
    entrants = tuple(replace(e, checked_in=True) for e in played.entrants)
    opening = replace(
        played, record=replace(played.record, status="signup", rounds=0, settings=settings)
    )
    opening = replace(opening, entrants=entrants, seated=(), tables=())
    with using(locale):
        view = signup_message(opening, 7_000, card=True)["view"]
    text = taken(view)
    named = len(re.findall(r"<@\d+> ✅", text))
    assert named > 100 and named + left_out(text, r"(\d+)\D*$") == MOST_PLAYERS
    assert len(list(view.walk_children())) <= limits.MAX_LAYOUT_COMPONENTS
    assert [c["type"] for c in body(view)["components"]] == [17, 1]  # the card, its buttons


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", [2, 5])
def test_a_round_of_the_largest_tournament_is_a_card_discord_takes(locale: str, size: int) -> None:
    """Tables of two (the most tables) with computers, or of five: as many tables as the
    card holds, the rest counted."""
    played = largest(table_size=size, computers=True)
    tables = len(played.seated[-1].tables)
    with using(locale):
        text = taken(cards.layout(round_card(played, ROUNDS), [], None))
    listed = len(re.findall(r"<#\d+>", text))
    assert listed + left_out(text, r"… ?\D*?(\d+)") == tables


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
def test_round_one_after_a_check_in_that_dropped_nearly_everyone_fits(locale: str) -> None:
    """All but a table's worth who signed up did not check in: those dropped are named
    as far as a quarter of the card holds them, the rest counted."""
    played = tournament(4, 1, first=SNOWFLAKE, name=NAME, table_size=4)
    dropped = list(range(SNOWFLAKE + 10, SNOWFLAKE + 10 + MOST_PLAYERS - 4))
    with using(locale):
        text = taken(cards.layout(round_card(played, 1, dropped), [], None))
    [line] = [line for line in text.splitlines() if f"<@{dropped[0]}>" in line]
    named = len(re.findall(r"<@\d+>", line))
    assert named > 20 and named + left_out(line, r"(\d+)\D*$") == len(dropped)


def standings_image(played: Tournament, locale: str) -> discord.File:
    """The standings image's file as the cog makes it, its alt text naming everyone by
    their display name (the image itself is not drawn)."""
    lines = standings(played.settings, played.players, played.seated, played.results)
    names = {s.player: DISPLAY_NAMES[k % 3] for k, s in enumerate(lines)}
    with using(locale):
        alt = standings_alt(standings_table(played, lines, names))
    return discord.File(io.BytesIO(b"png"), filename="standings.png", description=alt)


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("status", ["running", "finished"])
def test_the_standings_of_the_largest_tournament_are_a_card_discord_takes(
    locale: str, status: str
) -> None:
    """Every place with its notes (withdrawn, decisions run out, away): as many as the
    card holds (4,000 characters), the rest counted and sent to the command; the image
    under the title with its alt text; and the podium."""
    played = largest()
    played = replace(played, record=replace(played.record, status=status))
    lines = standings(played.settings, played.players, played.seated, played.results)
    image = standings_image(played, locale)
    with using(locale):
        view = cards.layout(standings_card(played, lines), [image], None)
        podium = cards.layout(podium_card(played, lines), [], None)
    text = taken(view)
    shown = len(re.findall(r"<@\d+>", text))
    assert shown + left_out(text, r"… ?\D*?(\d+)") == MOST_PLAYERS
    [container] = body(view)["components"]
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 12, 10, 14, 10], "title, the image, the places, a rule, the points"
    [item] = container["components"][1]["items"]
    assert item["description"] == image.description and DISPLAY_NAMES[1] in item["description"]
    assert "🥇" in taken(podium)
