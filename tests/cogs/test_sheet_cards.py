"""A player's sheet answer and the table view as cards: the same sentences as the text
they were, the images in galleries with their alt texts, the choices in action rows
under the card as the legacy view laid them out; a message posted as text is answered
as text. The largest of each, over whole games of every variant with every seat taken
and long names in several scripts, in every language, is a body Discord takes."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.channel.story import mentions
from bot.cogs import answers, cards, views
from bot.cogs.answers import CARD_LIMIT, MESSAGE_LIMIT, Reply, with_text
from bot.cogs.buttons import MoveButton
from bot.cogs.choice_items import GameChoiceSelect
from bot.cogs.overview import table_answer
from bot.cogs.pages import Page, add_row, choices_button, page
from bot.cogs.sheets import sheet_answer
from bot.i18n import LOCALES, using
from bot.i18n.words import t
from bot.records.games import GameRecord
from bot.render.describe import board_alt, fit, sheet_text, table_alt
from bot.rules import Game, Move, new_game
from bot.sandbox import limits
from bot.sandbox.records import COMPONENTS_V2, EPHEMERAL, layout_text, said
from bot.sandbox.validation import OpenApiValidator
from tests.cogs.records import game_record

ANA, BEN, CEM = 101, 102, 103
CONTAINER, ROW, TEXT, SEPARATOR, GALLERY = 17, 1, 10, 14, 12
FOLLOW_UP = "/webhooks/{webhook_id}/{webhook_token}"
EDIT = FOLLOW_UP + "/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
UPDATE = 7
NAMES = (
    "Zoë 👩‍👩‍👧‍👦 Łukasiewicz-Ørsted Ñúñez Ç",
    "李小龍 ・ 三毛猫の物語 · 🎲🎲 Schmidt-Müller",
    "Ana 🎲🎲 Schmidt-Müller ĞÜŞİÖÇ ğüşıöç Ł",
    "Çağrı Öztürk 🇹🇷 São João d'El-Rei ñ",
    "Małgorzata Żółkiewska-Brzęczyszczyk",
)
"""Display names of Discord's longest (32 characters), in several scripts."""
LONG_NAMES = tuple(name[:32] for name in NAMES)


def running(game: Game, **options: object) -> GameRecord:
    return game_record(list(game.players), status="running", variant=game.variant, **options)


def image(name: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(b"png"), filename=name, description=alt)


def every(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        found += [component, *every(component.get("components") or [])]
    return found


def body(fields: dict[str, Any]) -> dict[str, Any]:
    """What discord.py sends for an answer's fields: a card's flags and components, its
    files named in its attachments."""
    view = fields["view"]
    files: list[discord.File] = fields.get("attachments") or []
    return {
        "flags": COMPONENTS_V2 | EPHEMERAL,
        "components": view.to_components(),
        "attachments": [
            {"id": i, "filename": f.filename, "description": f.description}
            for i, f in enumerate(files)
        ],
    }


def sheet_files(game: Game, shown: Page, text: str) -> list[discord.File]:
    """The images of a sheet's answer as the adapter names them (not drawn); ``text``:
    the sheet in words."""
    assert shown.drawn is not None
    files = [image("sheet.png", fit(text))]
    if any(m.kind == "pawn" for m in shown.marked):
        names = dict(zip(game.players, LONG_NAMES, strict=False))
        files.append(image("board.png", board_alt(shown.drawn, names)))
    return files


def answered(
    game: Game, player: int, record: GameRecord, header: str = "", mode: str = "", card: bool = True
) -> dict[str, Any]:
    """``player``'s sheet answer as the adapter makes it (a card, or text)."""
    shown = page(record, game, player, header, mode)
    name = LONG_NAMES[game.players.index(player) % len(LONG_NAMES)]
    if shown.drawn is None:
        return sheet_answer(shown, "", [], game.players.index(player) if card else None)
    text = sheet_text(shown.drawn, player, name)
    files = sheet_files(game, shown, text)
    return sheet_answer(shown, text, files, game.players.index(player) if card else None)


def white_sum_turn() -> Game:
    return new_game("classic", [ANA, BEN, CEM], seed=4, options={})


# --- the sheet's answer, card and text ------------------------------------------------
def test_the_sheets_card_says_what_its_text_said_its_image_under_it_its_choices_below() -> None:
    game, record = white_sum_turn(), running(white_sum_turn(), hints=True)
    with using("en-US"):
        as_text = answered(game, BEN, record, "Crossed 🟥 Red 7.", card=False)
        as_card_ = answered(game, BEN, record, "Crossed 🟥 Red 7.")
        legacy = page(record, game, BEN, "Crossed 🟥 Red 7.").view
    assert legacy is not None
    container, *rows = as_card_["view"].to_components()
    assert "content" not in as_card_ and container["type"] == CONTAINER
    assert container["accent_color"] == cards.SEAT_COLOURS[1], "Ben's seat's colour"
    assert [c["type"] for c in container["components"]] == [TEXT, SEPARATOR, TEXT, GALLERY]
    assert layout_text([container]).splitlines() == as_text["content"].splitlines()
    first, words = (c["content"] for c in container["components"] if c["type"] == TEXT)
    assert first.splitlines()[0] == "Crossed 🟥 Red 7."
    assert words.startswith(t("describe.sheet", name=LONG_NAMES[1], title="Qwixx"))
    [item] = container["components"][3]["items"]
    assert item["media"]["url"] == "attachment://sheet.png" and item["description"] == fit(words)
    assert [r["type"] for r in rows] == [ROW] * len(rows)
    assert [[b["label"] for b in r["components"]] for r in rows] == [
        [b["label"] for b in r["components"]] for r in legacy.to_components()
    ], "the choices in the rows the legacy view laid them out in"
    assert rows[0]["components"][0]["label"] == t("button.hint")


def test_a_cards_choices_stand_in_the_rows_their_view_lays_them_in() -> None:
    """⚙ joins the last row where there is room, as on the sheet in text; a button
    added after a select fills the first row with room."""
    game = white_sum_turn()
    record = running(game)
    view = discord.ui.View(timeout=None)
    for number in (2, 3, 4):
        move = Move("cross", "red", number)
        view.add_item(MoveButton(record.id, 1, "action1", move, f"🟥 Red {number}"))
    with using("en-US"):
        add_row(view, choices_button(record, game), join=True)
        view.add_item(GameChoiceSelect(record.id, 1, "timeout", [("pass", "Pass")], "pass"))
        view.add_item(MoveButton(record.id, 1, "action1", Move("cross", "red", 5), "🟥 Red 5"))
    legacy = [[c.get("label") for c in row["components"]] for row in view.to_components()]
    fields = answers.as_card({"content": "Turn 1.", "attachments": [], "view": view})
    _, *rows = fields["view"].to_components()
    assert [[c.get("label") for c in row["components"]] for row in rows] == legacy
    assert legacy == [["🟥 Red 2", "🟥 Red 3", "🟥 Red 4", "⚙ My choices", "🟥 Red 5"], [None]]


def test_a_sheet_in_text_is_todays_message() -> None:
    game = white_sum_turn()
    record = running(game)
    with using("en-US"):
        shown = page(record, game, BEN)
        fields = answered(game, BEN, record, card=False)
        text = sheet_text(game, BEN, LONG_NAMES[1])
    assert fields["content"] == f"{shown.content}\n{text}"
    assert shown.view is not None and isinstance(fields["view"], discord.ui.View)
    assert fields["view"].to_components() == shown.view.to_components()
    assert [f.filename for f in fields["attachments"]] == ["sheet.png"]


def test_a_page_without_an_image_is_a_card_of_its_text_and_its_choices() -> None:
    game = white_sum_turn()
    with using("en-US"):
        fields = answered(game, BEN, running(game), mode="choices")
    container, *rows = fields["view"].to_components()
    assert [c["type"] for c in container["components"]] == [TEXT]
    assert container["components"][0]["content"].splitlines()[0] == t("choices.title")
    assert [r["components"][0]["type"] for r in rows] == [3, 3, 2], "two selects, ↩ the sheet"
    assert fields["attachments"] == []


def test_the_text_of_a_sheets_card_is_cut_to_fit_4000_characters() -> None:
    game = white_sum_turn()
    header = "\n".join(f"Turn {n}: a long story of what happened meanwhile." for n in range(120))
    with using("en-US"):
        fields = answered(game, BEN, running(game), header)
        text = answered(game, BEN, running(game), header, card=False)["content"]
    shown = every(fields["view"].to_components())
    assert sum(len(c["content"]) for c in shown if c["type"] == TEXT) <= CARD_LIMIT
    assert len(text) <= MESSAGE_LIMIT and limits.check_message(body(fields)) == []
    assert layout_text(fields["view"].to_components()).startswith(header[:3000])


def test_with_text_keeps_todays_cut_and_fits_a_cards_limit() -> None:
    assert with_text("head", "sheet") == "head\nsheet"
    assert len(with_text("h" * 1900, "s" * 500)) == MESSAGE_LIMIT
    assert with_text("h" * 1990, "sheet") == "h" * 1990, "no room left: the header alone"
    cut = with_text("h" * 1900, "s" * 5000, CARD_LIMIT)
    assert len(cut) == CARD_LIMIT and cut.endswith("…")


def test_the_most_choices_a_message_holds_fit_a_card_with_two_images() -> None:
    """25 buttons in 5 rows (the legacy view's most), On Board's sheet and board: 36
    components of Discord's 40."""
    game = white_sum_turn()
    record = running(game)
    view = discord.ui.View(timeout=None)
    for number in range(25):
        move = Move("cross", "red", number + 2)
        view.add_item(MoveButton(record.id, 1, "action1", move, f"🟥 Red {number + 2}"))
    shown = Page("Turn 1: choose.", view, game)
    files = [image("sheet.png", "a sheet"), image("board.png", "a board")]
    fields = sheet_answer(shown, "Ana's sheet", files, 0)
    components = every(fields["view"].to_components())
    assert len(components) == 36 <= limits.MAX_LAYOUT_COMPONENTS
    assert limits.check_message(body(fields)) == []


def test_plain_fields_become_a_card_of_one_text_display_however_many_paragraphs() -> None:
    """A practice game's end, a daily result: told in many paragraphs, edited onto a
    card, stay far within Discord's 40 components."""
    told = "\n\n".join(f"Turn {n}: what happened." for n in range(60))
    files = [image("scoreboard.png", "the scores")]
    laid_out = answers.as_card({"content": told, "attachments": files, "view": None})
    [container] = laid_out["view"].to_components()
    assert [c["type"] for c in container["components"]] == [TEXT, GALLERY]
    assert layout_text([container]) == told and "content" not in laid_out
    assert laid_out["attachments"] == files
    assert answers.as_card(laid_out) is laid_out, "a card already: left as it is"


# --- Reply and follow-ups answer in the clicked message's own form ---------------------
class Message:
    """A clicked message: a card in Ben's colour, or text."""

    def __init__(self, card: bool) -> None:
        self.flags = discord.MessageFlags(components_v2=card)
        box = {"type": CONTAINER, "accent_color": cards.SEAT_COLOURS[1], "components": []}
        self.components = [discord.Container(box, None)] if card else []  # type: ignore[arg-type]


@dataclass
class Response:
    sent: list[dict[str, Any]] = field(default_factory=list)

    def is_done(self) -> bool:
        return bool(self.sent)

    async def edit_message(self, **fields: Any) -> None:
        self.sent.append(fields)


@dataclass
class Clicked:
    message: Message | None
    response: Response = field(default_factory=Response)


@pytest.mark.parametrize("card", [True, False])
async def test_a_click_edits_its_message_in_that_messages_form(card: bool) -> None:
    game = white_sum_turn()
    clicked = Clicked(Message(card))
    interaction: Any = clicked
    async with Reply(interaction, in_time=3600) as reply:
        await reply.edit(
            content=views.confirm_content(game, BEN, Move("cross", "red", 9)),
            attachments=[],
            view=views.confirm_view(running(game), game, Move("cross", "red", 9)),
        )
    [sent] = clicked.response.sent
    if card:
        assert "content" not in sent and isinstance(sent["view"], discord.ui.LayoutView)
        container, row = sent["view"].to_components()
        assert layout_text([container]).startswith("Cross Red 9 and skip")
        assert container["accent_color"] == cards.SEAT_COLOURS[1], "the card keeps its colour"
        assert [b["label"] for b in row["components"]] == ["Yes", "Back"]
    else:
        assert sent["content"].startswith("Cross Red 9 and skip")
        assert isinstance(sent["view"], discord.ui.View)


def test_which_answers_are_cards() -> None:
    async def edit(**fields: Any) -> None:
        return None

    def clicked(message: Message | None) -> Any:
        return Clicked(message)

    assert answers.writes_card(clicked(Message(False)), None), "a new answer is a card"
    assert answers.writes_card(clicked(None), edit), "a command's own answer becomes one"
    assert answers.writes_card(clicked(Message(True)), edit)
    assert not answers.writes_card(clicked(Message(False)), edit), "posted before cards"
    assert not answers.writes_card(clicked(Message(True)), answers.FollowUp(edit, card=False))
    assert answers.writes_card(clicked(Message(False)), answers.FollowUp(edit, card=True))


async def test_a_follow_up_posted_as_a_card_is_edited_as_one() -> None:
    edits: list[dict[str, Any]] = []

    async def edit(**fields: Any) -> None:
        edits.append(fields)

    await answers.FollowUp(edit, card=True)(content="Saved.", view=None)
    await answers.FollowUp(edit, card=False)(content="Saved.", view=None)
    assert layout_text(edits[0]["view"].to_components()) == "Saved." and "content" not in edits[0]
    assert edits[1] == {"content": "Saved.", "view": None}


# --- the table view ------------------------------------------------------------------
def test_the_table_is_a_card_its_image_under_its_title_then_the_summary() -> None:
    game = white_sum_turn()
    names = dict(zip(game.players, LONG_NAMES, strict=False))
    with using("en-US"):
        alt = table_alt(game, names)
        as_card_ = table_answer(game, names, image("table.png", alt), True)
        as_text = table_answer(game, names, image("table.png", alt), False)
    [container] = as_card_["view"].to_components()
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [TEXT, GALLERY, TEXT] and container.get("accent_color") is None
    assert layout_text([container]).splitlines() == as_text["content"].splitlines()
    assert container["components"][0]["content"].startswith("**Qwixx**, turn 1: everyone's")
    [item] = container["components"][1]["items"]
    assert item["media"] == {"url": "attachment://table.png"} and item["description"] == alt
    assert said(body(as_card_)) == as_text["content"]


# --- Discord's limits, on the largest answers of whole games -------------------------
@dataclass
class Largest:
    """The largest answers seen, by components and by text."""

    by_count: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    by_text: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)

    def see(self, kind: str, fields: dict[str, Any]) -> None:
        shown = every(fields["view"].to_components())
        count = len(shown)
        text = sum(len(c["content"]) for c in shown if c["type"] == TEXT)
        if count > self.by_count.get(kind, (-1, {}))[0]:
            self.by_count[kind] = (count, fields)
        if text > self.by_text.get(kind, (-1, {}))[0]:
            self.by_text[kind] = (text, fields)

    def answers(self) -> list[tuple[str, dict[str, Any]]]:
        return [
            (kind, fields)
            for seen in (self.by_count, self.by_text)
            for kind, (_, fields) in seen.items()
        ]


def header_of(game: Game, player: int) -> str:
    """The longest header a sheet opens with: a move told, everyone else waited for."""
    others = [p for p in game.players if p != player]
    return t("sheet.done", what=views.you_did(Move("cross", "red", 12)), names=mentions(others))


def largest_answers(variant: str) -> Largest:
    """The sheet answers (every seat, every page) and table views of a whole game of as
    many seats as ``variant`` takes, hints on, played at random."""
    seats = type(new_game(variant, [1, 2], 1, {})).max_players
    players = [1_000_000_000_000_000_000 + n for n in range(seats)]
    game, rng = new_game(variant, players, seed=11, options={}), random.Random(11)
    record = running(game, hints=True)
    names = dict(zip(players, LONG_NAMES, strict=False))
    largest = Largest()
    while not game.finished:
        for player in game.players:
            chose = game.chosen_move(player) is not None  # else "first" is the page itself
            for mode in ("", "first", "colour", "choices") if chose else ("", "choices"):
                largest.see("sheet", answered(game, player, record, header_of(game, player), mode))
        largest.see(
            "table", table_answer(game, names, image("table.png", table_alt(game, names)), True)
        )
        player = rng.choice(sorted(game.decision().waiting))
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    return largest


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_the_largest_sheet_and_table_cards_are_within_discords_limits(
    variant: str, locale: str
) -> None:
    """Every seat taken, 32-character names in several scripts (the alt texts and the
    sheet in words name them), hints on, in each language: the largest sheet answer
    and table view, by components and by text, is a body Discord takes, posted as a
    follow-up, edited, or as a click's update."""
    with using(locale):
        largest = largest_answers(variant)
    validator = OpenApiValidator.load()
    assert validator is not None
    assert set(largest.by_count) == {"sheet", "table"}
    for kind, fields in largest.answers():
        sent = body(fields)
        assert limits.check_message(sent) == [], kind
        assert validator.validate("POST", FOLLOW_UP, sent) is None, kind
        assert validator.validate("PATCH", EDIT, sent) is None, kind
        update = {"type": UPDATE, "data": sent}
        assert validator.validate("POST", CALLBACK, update) is None, kind
    assert largest.by_count["sheet"][0] <= limits.MAX_LAYOUT_COMPONENTS
    assert largest.by_text["sheet"][0] <= limits.MAX_LAYOUT_TEXT
    assert largest.by_text["table"][0] <= limits.MAX_LAYOUT_TEXT
