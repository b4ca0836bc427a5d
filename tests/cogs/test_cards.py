"""Turn messages as cards: the plan lays each turn out (its text in blocks, the dice under
what they are thrown for, the active player's colour), a message posted before cards
keeps its form, and the adapter draws the card as Discord's layout components within
Discord's limits, checked on the largest cards of whole games in every language."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.channel.cards import FORM, Card, card
from bot.channel.plan import DUE, Channel, Edit, Post, Shown, plan, turn_card
from bot.channel.publisher import Publisher
from bot.cogs import cards, views
from bot.i18n import LOCALES, using
from bot.records.games import GameRecord, StoredEvent
from bot.render.describe import board_alt, dice_alt, scoreboard_alt
from bot.rules import Game, new_game
from bot.sandbox import limits
from bot.sandbox.records import COMPONENTS_V2, layout_text
from bot.sandbox.validation import OpenApiValidator
from bot.service.games import GameService
from bot.store import Store
from tests.cogs.moving import random_move
from tests.cogs.records import game_record

ANA, BEN, CEM = 101, 102, 103
ASKED = 1_700_000_000.0
MESSAGES = "/channels/{channel_id}/messages"


def running(game: Game, **fields: Any) -> GameRecord:
    record = game_record(game.players, status="running", variant=game.variant)
    return replace(record, **{"stage_started": ASKED, "deadline": ASKED + 86_400, **fields})


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# --- the card as data ----------------------------------------------------------
def test_a_card_splits_its_text_at_blank_lines_and_before_its_tail() -> None:
    laid_out = card("earlier\n\nheader\nask\nstatus\nscores", accent=2, tail=2)
    assert laid_out.blocks == ("earlier", "header\nask", "status\nscores")
    assert laid_out.images_after == 1 and laid_out.accent == 2
    assert laid_out.text.splitlines() == lines("earlier\n\nheader\nask\nstatus\nscores")


def test_a_card_without_a_tail_shows_its_images_after_its_last_block() -> None:
    assert card("one\n\ntwo") == Card(("one", "two"), None, 1)
    assert card("all of it", tail=5) == Card(("all of it",), None, 0)


# --- the plan ---------------------------------------------------------------------
def test_a_turn_is_posted_as_a_card_in_its_active_players_colour() -> None:
    game = new_game("classic", [ANA, BEN, CEM], seed=4, options={})
    with using("en-US"):
        steps, shown = plan(Channel(running(game, message_id=None), game, Shown(), {}))
    post = steps[-1]
    assert isinstance(post, Post) and post.card is not None and post.live
    assert post.card.accent == game.players.index(game.active)
    assert post.card.text.splitlines() == lines(post.content)
    asks, tail = post.card.blocks[post.card.images_after], post.card.blocks[-1]
    assert "White sum" in asks and post.images == ("dice",)
    assert tail.splitlines()[0].startswith("Scores: ")  # everyone waited for: named below
    assert tail.splitlines()[-1] == (
        f"⏳ Waiting for <@{ANA}>, <@{BEN}>, <@{CEM}> — asked <t:{int(ASKED)}:R>, "
        f"decide <t:{int(ASKED + 86_400)}:R>."
    )
    assert shown.form == FORM


def test_a_message_posted_before_cards_is_edited_and_finished_as_text() -> None:
    game = new_game("classic", [ANA, BEN, CEM], seed=4, options={})
    before = Shown(turn=1, since=1, files="old")
    with using("en-US"):
        steps, shown = plan(Channel(running(game), game, before, {}))
        edit = steps[0]
        assert isinstance(edit, Edit) and edit.card is None and edit.images is not None
        later = game
        while later.turn == 1:
            later, _ = later.apply(later.decision().active, later.legal_moves(later.active)[-1])
            for player in sorted(later.decision().waiting):
                later, _ = later.apply(player, later.legal_moves(player)[-1])
        steps, shown = plan(Channel(running(later), later, Shown(turn=1, since=1), {}))
    finished, post = steps[0], steps[-1]
    assert isinstance(finished, Edit) and finished.final and finished.card is None
    assert isinstance(post, Post) and post.card is not None and shown.form == FORM


def test_a_card_is_edited_whole_and_finished_compact_without_its_image() -> None:
    game = new_game("classic", [ANA, BEN, CEM], seed=4, options={})
    with using("en-US"):
        steps, _ = plan(Channel(running(game), game, Shown(turn=1, since=1, form=FORM), {}))
        edit = steps[0]
        assert isinstance(edit, Edit) and edit.card is not None
        assert edit.images == ("dice",), "its gallery names its image: sent with it"
        later = game
        while later.turn == 1:
            player = min(later.decision().waiting)
            later, _ = later.apply(player, later.legal_moves(player)[-1])
        steps, _ = plan(Channel(running(later), later, Shown(turn=1, since=1, form=FORM), {}))
    finished = steps[0]
    assert isinstance(finished, Edit) and finished.final and finished.card is not None
    assert finished.images == () and finished.buttons is None
    assert finished.card.accent == 0 and finished.card.text.splitlines() == lines(finished.content)


def finished(variant: str = "classic") -> Game:
    game, rng = new_game(variant, [ANA, BEN, CEM], seed=4, options={}), random.Random(4)
    while not game.finished:
        player = min(game.decision().waiting)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    return game


def test_the_final_message_is_a_card_with_the_scoreboard_first() -> None:
    game = finished()
    shown = Shown(turn=game.turn, since=game.turn, form=FORM)
    with using("en-US"):
        steps, after = plan(
            Channel(running(game, status="finished"), game, shown, {}, wins={}, accuracies={})
        )
    post = steps[-1]
    assert isinstance(post, Post) and post.card is not None and post.images == ("scoreboard",)
    blocks, at = post.card.blocks, post.card.images_after
    assert blocks[at].splitlines()[-1] == "🏁 **Qwixx** — final scores"
    assert blocks[at + 1].startswith("1. ") and post.card.text.splitlines() == lines(post.content)
    assert post.card.accent == game.players.index(game.ranking()[0].player)
    assert after.form == FORM


@pytest.mark.parametrize("form", [FORM, ""])
def test_the_final_messages_accuracies_are_shown_in_its_own_form(form: str) -> None:
    game = finished()
    shown = Shown(game.turn, [], "", True, game.turn, review=DUE, end={}, form=form)
    with using("en-US"):
        steps, _ = plan(
            Channel(running(game, status="finished"), game, shown, {}, accuracies={ANA: 0.5})
        )
    [edit] = steps
    assert isinstance(edit, Edit) and "🎯" in edit.content
    if form:
        assert edit.card is not None and edit.images == ("scoreboard",)
        assert edit.card.text.splitlines() == lines(edit.content)
    else:
        assert edit.card is None and edit.images is None, "posted before cards: as text"


# --- the adapter --------------------------------------------------------------------
def image(name: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(b"png"), filename=name, description=alt)


def body(view: discord.ui.LayoutView) -> dict[str, Any]:
    return {"flags": COMPONENTS_V2, "components": view.to_components()}


def every(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components:
        found += [component, *every(component.get("components") or [])]
    return found


def test_each_image_of_a_card_stands_at_the_cards_width() -> None:
    """On Board's dice and board, one under the other (side by side, a phone would show
    each at half its width)."""
    game = new_game("onboard", [ANA, BEN, CEM], seed=4, options={})
    names = dict.fromkeys(game.players, "Ana")
    files = [image("dice.png", "the dice"), image("board.png", board_alt(game, names))]
    [container] = cards.layout(card("header\nask\nstatus", 0, 1), files, None).to_components()
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 12, 12, 10]
    shown = [c["items"] for c in container["components"] if c["type"] == 12]
    assert [[i["media"]["url"] for i in items] for items in shown] == [
        ["attachment://dice.png"],
        ["attachment://board.png"],
    ]


def test_the_adapter_draws_a_card_as_layout_components() -> None:
    game = new_game("classic", [ANA, BEN, CEM], seed=4, options={})
    laid_out = card("earlier\n\nheader\nask\nstatus", accent=1, tail=1)
    alt = dice_alt(game.dice_on_table())
    view = cards.layout(laid_out, [image("dice.png", alt)], views.turn_view(running(game), game))
    container, row = view.to_components()
    assert container["type"] == 17 and container["accent_color"] == cards.SEAT_COLOURS[1]
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 14, 10, 12, 10], "text, rule, text, the dice, text"
    [item] = container["components"][3]["items"]
    assert item["media"] == {"url": "attachment://dice.png"} and item["description"] == alt
    assert layout_text([container]).splitlines() == laid_out.text.splitlines()
    assert row["type"] == 1 and [b["label"] for b in row["components"]] == [
        "Open my sheet",
        "Pass",
        "Table",
    ]


# --- Discord's limits, on the largest cards of whole games --------------------------
LONG_NAMES = ("Ana 🎲🎲 Schmidt-Müller", "李小龍 ・ 三毛猫の物語", "Zoë 👩‍👩‍👧‍👦 Łukasiewicz")


@dataclass
class Cards:
    """A writer that keeps every card a game's channel is written with, drawn by the
    adapter with its images' alt texts (the images themselves are not drawn)."""

    names: dict[int, str]
    language: str
    """The server's language (as its Discord settings prefer it)."""
    drawn: dict[str, list[discord.ui.LayoutView]] = field(default_factory=dict)
    """The cards drawn, by kind: a turn's, or the final message ("end")."""
    next_id: int = 1000

    def draw(self, record: GameRecord, game: Game | None, step: Post | Edit) -> None:
        if step.card is None or game is None:
            return
        files = []
        for name in step.images or ():
            if name == "dice" and game.dice_on_table():
                files.append(image("dice.png", dice_alt(game.dice_on_table())))
            elif name == "board":
                files.append(image("board.png", board_alt(game, self.names)))
            elif name == "scoreboard":
                files.append(image("scoreboard.png", scoreboard_alt(game, self.names)))
        buttons = {"turn": views.turn_view, "end": lambda r, _: views.end_view(r)}
        drawn = buttons[step.buttons](record, game) if step.buttons else None
        kind = "end" if step.buttons == "end" else "turn"
        self.drawn.setdefault(kind, []).append(cards.layout(step.card, files, drawn))

    async def post(self, record: GameRecord, game: Game | None, step: Post) -> int:
        self.draw(record, game, step)
        self.next_id += 1
        return self.next_id

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        self.draw(record, game, step)

    async def delete(self, record: GameRecord, step: Any) -> bool:
        return True

    def locale(self, guild_id: int) -> str | None:
        return self.language


async def cards_of_a_game(tmp_path: Path, variant: str, locale: str) -> Cards:
    """Every card of a whole game of as many seats as ``variant`` takes (a person and
    computers), its server speaking ``locale``."""
    store = await Store.open(tmp_path / f"{variant}-{locale}.db")
    service = GameService(store, seeds=lambda: 11, clock=lambda: ASKED)
    host, rng = ANA, random.Random(11)
    try:
        record = await service.lobby.open(1, 2, host, variant)
        seats = type(new_game(variant, [1, 2], 1, {})).max_players
        for _ in range(seats - 1):
            record = await service.lobby.add_computer(record.id, host)
        outcome = await service.lobby.start(record.id, host)
        assert outcome.game is not None and len(outcome.game.players) == seats
        names = {p: LONG_NAMES[i % len(LONG_NAMES)] * 2 for i, p in enumerate(outcome.game.players)}
        writer = Cards(names, locale)
        publisher: Publisher = Publisher(service.channel, writer, settle=0.0)
        while True:
            await publisher.sync(outcome.record.id)
            game = outcome.game
            assert game is not None
            if game.finished:
                await publisher.reviewed()
                break
            outcome = await random_move(service, outcome, rng)
    finally:
        await store.close()
    return writer


def text_size(view: discord.ui.LayoutView) -> int:
    return sum(len(c["content"]) for c in every(view.to_components()) if c["type"] == 10)


def count(view: discord.ui.LayoutView) -> int:
    return len(every(view.to_components()))


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_the_largest_cards_of_each_kind_are_within_discords_limits(
    tmp_path: Path, variant: str, locale: str
) -> None:
    """Every seat taken, names long and in several scripts (the images' alt texts name
    them), the server in each language: the largest card of each kind, by text and by
    components, is a body Discord takes."""
    drawn = (await cards_of_a_game(tmp_path, variant, locale)).drawn
    assert len(drawn["turn"]) > 20 and len(drawn["end"]) == 2, "posted, then its accuracies"
    validator = OpenApiValidator.load()
    assert validator is not None
    for kind in drawn.values():
        for largest in {
            id(v): v for v in (max(kind, key=text_size), max(kind, key=count))
        }.values():
            assert limits.check_message(body(largest)) == []
            assert validator.validate("POST", MESSAGES, body(largest)) is None
            assert validator.validate("PATCH", MESSAGES + "/{message_id}", body(largest)) is None
        assert text_size(max(kind, key=text_size)) <= limits.MAX_LAYOUT_TEXT
        assert count(max(kind, key=count)) <= limits.MAX_LAYOUT_COMPONENTS


def test_an_open_turn_shows_its_dice_once_and_a_finished_one_keeps_their_line() -> None:
    """The open turn's dice are its image, so its card leaves out the line of the same
    dice; once over, compact and without the image, the card tells them in the line."""
    game = new_game("classic", [ANA, BEN, CEM], seed=4, options={})
    rolled = StoredEvent(1, 1, "turn", game.active, {"turn": 1, "dice": dict(game.dice)})
    white = game.dice["white1"] + game.dice["white2"]
    with using("en-US"):
        steps, _ = plan(Channel(running(game, message_id=None), game, Shown(), {1: [rolled]}))
        post = steps[-1]
        assert isinstance(post, Post) and post.card is not None and post.images == ("dice",)
        roll = next(line for line in post.content.splitlines() if line.startswith("🎲 "))
        assert f"white sum **{white}**" in roll and roll not in post.card.text.splitlines()
        assert post.card.text.splitlines() == [line for line in lines(post.content) if line != roll]
        over = turn_card(game, 1, post.content, None, over=True, events=[rolled])
        assert roll in over.text.splitlines()
