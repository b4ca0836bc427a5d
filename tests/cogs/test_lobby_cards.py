"""The lobby as a card: its text in the parts a reader sees, exactly as the lobby reads
as text; its buttons and its level select in action rows under it; the largest lobby
cards of every variant within Discord's limits, and bodies Discord's description takes,
in every language."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import discord
import pytest

from bot.channel.texts import lobby_closed_card, lobby_closed_content
from bot.cogs import cards, views
from bot.i18n import LOCALES, commands, using
from bot.players import LEVELS
from bot.records.games import GameRecord
from bot.rules import VARIANTS
from bot.sandbox import limits
from bot.sandbox.records import COMPONENTS_V2, layout_text
from bot.sandbox.validation import OpenApiValidator
from tests.cogs.records import game_record

ANA, BEN = 11, 22
BIGGEST_ID = 2**63 - 1
"""The longest snowflake: a person's mention is ``<@`` and these 19 digits."""
LONGEST_TURN = 7 * 86_400 - 60  # written "167h59m"
MESSAGES = "/channels/{channel_id}/messages"
BUTTON, SELECT, ROW, TEXT, SEPARATOR = 2, 3, 1, 10, 14


def lobby(players: list[int], **options: object) -> GameRecord:
    return game_record(players, host=players[0], **options)


def body(view: discord.ui.LayoutView) -> dict[str, Any]:
    return {"flags": COMPONENTS_V2, "components": view.to_components()}


def kinds(view: discord.ui.LayoutView) -> tuple[list[int], list[list[int]]]:
    """The container's children, and each action row's controls."""
    container, *rows = view.to_components()
    assert all(row["type"] == ROW for row in rows)
    return [c["type"] for c in container["components"]], [
        [c["type"] for c in row["components"]] for row in rows
    ]


# --- the card's parts -----------------------------------------------------------------
def test_a_lobby_card_reads_exactly_as_the_lobby_in_its_parts() -> None:
    record = lobby([ANA, BEN, -1], levels={"-1": "hard"}, hints=True, fill_away=True)
    with using("en-US"):
        fields = views.lobby_fields(record, as_card=True)
        text = views.lobby_content(record)
    assert "content" not in fields
    view: discord.ui.LayoutView = fields["view"]
    assert layout_text(view.to_components()) == text
    [container, *_] = view.to_components()
    assert container.get("accent_color") is None, "a lobby is nobody's turn"
    blocks = [c["content"] for c in container["components"] if c["type"] == TEXT]
    assert blocks == [
        f"🎲 **Qwixx** — lobby (host: <@{ANA}>)",
        f"Players (3/5): <@{ANA}>, <@{BEN}>, 🤖 Computer 1 (Hard)",
        text.splitlines()[2] + "\n" + text.splitlines()[3],
        text.splitlines()[4],
    ]
    assert blocks[2].startswith("💡 Hints: ") and blocks[2].splitlines()[1].startswith(
        "🤖 A player"
    )
    assert blocks[3].startswith("Turn time: 24h")
    assert kinds(view) == ([TEXT, SEPARATOR] * 3 + [TEXT], [[BUTTON] * 5, [SELECT]])


def test_a_lobby_without_options_has_three_parts_and_one_row_of_buttons() -> None:
    with using("en-US"):
        view = views.lobby_fields(lobby([ANA]), as_card=True)["view"]
    assert kinds(view) == ([TEXT, SEPARATOR, TEXT, SEPARATOR, TEXT], [[BUTTON] * 5])


def test_a_lobby_posted_before_cards_is_written_as_text_with_its_buttons() -> None:
    record = lobby([ANA, -1])
    with using("en-US"):
        fields = views.lobby_fields(record, as_card=False)
        assert fields["content"] == views.lobby_content(record)
    assert isinstance(fields["view"], discord.ui.View)
    assert not isinstance(fields["view"], discord.ui.LayoutView)
    assert len(fields["view"].children) == 6


def test_a_rematch_card_opens_with_the_people_it_calls_back() -> None:
    record = lobby([ANA, BEN, -1])
    with using("en-US"):
        view = views.rematch_fields(record, [BEN, ANA, -1])["view"]
        text = views.rematch_content(record, [BEN, ANA, -1])
    assert layout_text(view.to_components()) == text
    first = view.to_components()[0]["components"][0]["content"]
    assert first.startswith(f"🔁 Rematch! <@{BEN}>, <@{ANA}>: ")


@pytest.mark.parametrize("as_card", [True, False])
def test_a_closed_lobby_loses_its_buttons_in_its_own_form(as_card: bool) -> None:
    record = lobby([ANA, -1], hints=True)
    with using("en-US"):
        content = lobby_closed_content(record, "lobby.started", ANA)
    fields = views.lobby_message(lobby_closed_card(content), None, as_card)
    if not as_card:
        assert fields == {"content": content, "view": None}
        return
    [container] = fields["view"].to_components()
    blocks = [c["content"] for c in container["components"] if c["type"] == TEXT]
    assert blocks == [
        f"🎲 **Qwixx** — started with <@{ANA}>, 🤖 Computer 1 (Easy).",
        "📊 Only one person plays, so this game does not count for the leaderboard or the "
        "ratings (that takes two people or more).\n"
        "📊 This game is played with hints, so it does not count for the leaderboard or the "
        "ratings.",
    ]


# --- action rows ------------------------------------------------------------------------
def test_a_select_gets_an_action_row_of_its_own_and_buttons_five_a_row() -> None:
    view = discord.ui.View(timeout=None)
    for index in range(7):
        view.add_item(discord.ui.Button(label=str(index), custom_id=f"b{index}"))
    view.add_item(discord.ui.Select(custom_id="s", options=[discord.SelectOption(label="x")]))
    view.add_item(discord.ui.Button(label="last", custom_id="b7"))
    drawn = cards.layout(cards.Card(("text",)), [], view)
    assert kinds(drawn)[1] == [[BUTTON] * 5, [BUTTON] * 2, [SELECT], [BUTTON]]
    assert limits.check_message(body(drawn)) == []


def test_children_given_rows_keep_them_apart() -> None:
    view = discord.ui.View(timeout=None)
    for index, row in enumerate((0, 0, 1, 2, 2)):
        view.add_item(discord.ui.Button(label=str(index), custom_id=f"b{index}", row=row))
    drawn = cards.layout(cards.Card(("text",)), [], view)
    rows = drawn.to_components()[1:]
    assert [[b["label"] for b in row["components"]] for row in rows] == [
        ["0", "1"],
        ["2"],
        ["3", "4"],
    ]


# --- Discord's limits on the largest lobby cards ------------------------------------
@dataclass(frozen=True)
class MentionCommand:
    """The ``/qwixx`` command as synced, with the longest id: each citation of it in a
    lobby is written as a mention that long."""

    name: str = "qwixx"
    id: int = BIGGEST_ID


def largest_lobbies(variant: str) -> list[tuple[str, discord.ui.LayoutView]]:
    """Every seat taken, by people of the longest ids and computers at every level, every
    option a lobby of them shows, the longest turn time: each lobby card a full table
    can show — open, a rematch, started — in the language in use."""
    seats = VARIANTS[variant].max_players
    drawn: list[tuple[str, discord.ui.LayoutView]] = []
    for computers in range(seats):
        people = [BIGGEST_ID - n for n in range(seats - computers)]
        players = people + [-(n + 1) for n in range(computers)]
        for level in LEVELS:
            record = replace(
                game_record(
                    players,
                    variant=variant,
                    host=people[0],
                    levels={str(p): level for p in players if p < 0},
                    hints=True,
                    fill_away=True,
                ),
                turn_time=LONGEST_TURN,
            )
            closed = lobby_closed_content(record, "lobby.started", people[0])
            drawn += [
                (f"{computers} at {level}", views.lobby_fields(record, True)["view"]),
                ("rematch", views.rematch_fields(record, players)["view"]),
                ("started", views.lobby_message(lobby_closed_card(closed), None, True)["view"]),
            ]
    solo = replace(
        game_record([BIGGEST_ID], variant=variant, solo=True, hints=True, fill_away=True),
        turn_time=LONGEST_TURN,
    )
    return [*drawn, ("solo", views.lobby_fields(solo, True)["view"])]


def text_size(view: discord.ui.LayoutView) -> int:
    return len(layout_text(view.to_components()))


def count(components: list[dict[str, Any]]) -> int:
    return sum(1 + count(c.get("components") or []) for c in components)


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
def test_the_largest_lobby_cards_are_within_discords_limits(locale: str) -> None:
    """A lobby names people by mention (their display names, up to 32 characters, are
    drawn by each reader's Discord, so no name makes a card longer): the longest ids,
    computers at the level with the longest name, every option, the rules command as
    a mention with the longest id."""
    validator = OpenApiValidator.load()
    assert validator is not None
    commands.learn([MentionCommand()])
    try:
        with using(locale):
            drawn = [d for variant in VARIANTS for d in largest_lobbies(variant)]
    finally:
        commands.forget()
    assert any(f"</qwixx rules:{BIGGEST_ID}>" in layout_text(v.to_components()) for _, v in drawn)
    for what, view in drawn:
        assert limits.check_message(body(view)) == [], what
        assert text_size(view) <= limits.MAX_LAYOUT_TEXT, what
        assert count(view.to_components()) <= limits.MAX_LAYOUT_COMPONENTS, what
    every = [view for _, view in drawn]
    largest = (max(every, key=text_size), max(every, key=lambda v: count(v.to_components())))
    for view in largest:
        assert validator.validate("POST", MESSAGES, body(view)) is None
        assert validator.validate("PATCH", MESSAGES + "/{message_id}", body(view)) is None
