"""The daily result and its share as cards: the result's lines, the sheet under them
with its alt text, how to share, the sheet in words, **Share card** under the card;
the largest of each, in every variant and language, is a body Discord takes."""

from __future__ import annotations

import io
import random
from typing import Any

import discord
import pytest

from bot.channel.cards import paragraphs
from bot.cogs import cards
from bot.cogs.daily import card_view, result_card, result_content, shared_card, shared_content
from bot.i18n import LOCALES, using
from bot.records.daily import Attempt, DailyStanding
from bot.render.describe import card_alt, sheet_alt, sheet_text
from bot.render.tally import tally
from bot.rules import Game, new_game
from bot.sandbox import limits
from bot.sandbox.records import COMPONENTS_V2, layout_text
from bot.sandbox.validation import OpenApiValidator
from bot.service.daily import Result

ANA = 1_234_567_890_123_456_789
NAME = "Zoë 👩‍👩‍👧‍👦 Łukasiewicz-Ñúñez ßä"
"""A display name of Discord's longest (32 characters)."""
MESSAGES = "/channels/{channel_id}/messages"
ORIGINAL = "/webhooks/{application_id}/{interaction_token}/messages/@original"


def played(variant: str, seed: int = 5) -> Game:
    game, rng = new_game(variant, [ANA], seed, solo=True), random.Random(seed)
    while not game.finished:
        game, _ = game.apply(ANA, rng.choice(game.legal_moves(ANA)))
    return game


def largest_result(game: Game) -> Result:
    """A result that says the most: a place among many with the share beaten, the
    server's ranking, a long streak, below par."""
    score = game.scores()[ANA].total
    attempt = Attempt("2026-12-03", game.variant, ANA, 11, 1, 5, score, 0.0)
    ranking = [(ANA + k, score) for k in range(9_999)]
    standing = DailyStanding(1_234, 98_765, 100_000)
    return Result(attempt, score, standing, ranking, score + 99, 9_999, 0.0)


def image(name: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(b"png"), filename=name, description=alt)


def taken(view: discord.ui.LayoutView) -> dict[str, Any]:
    """The card's body, once Discord's limits and description accept it as a post, an
    edit and an interaction's answer edited."""
    sent = {"flags": COMPONENTS_V2, "components": view.to_components()}
    assert limits.check_message(sent) == []
    validator = OpenApiValidator.load()  # always found in CI (tests/openapi_gate.py)
    if validator is not None:
        for method, route in (("POST", MESSAGES), ("PATCH", MESSAGES + "/{message_id}")):
            assert validator.validate(method, route, sent) is None
        assert validator.validate("PATCH", ORIGINAL, sent) is None
    return sent


def test_the_result_card_says_what_the_result_said_with_the_sheet_under_its_lines() -> None:
    game = played("classic")
    result = largest_result(game)
    with using("en-US"):
        card = result_card(result, game, NAME)
        content, words = result_content(result), sheet_text(game, ANA, NAME)
    assert card.text.splitlines() == [line for line in f"{content}\n{words}".splitlines() if line]
    first, share, sheet = card.blocks
    assert card.images_after == 0 and "Streak" in first.splitlines()[-1]
    assert share.splitlines() == paragraphs(content.splitlines())[1].splitlines()
    assert sheet == words
    view = cards.layout(card, [image("daily.png", sheet_alt(game, ANA, NAME))], card_view(7))
    container, row = taken(view)["components"]
    assert [c["type"] for c in container["components"]] == [10, 12, 10, 14, 10]
    assert [b["label"] for b in row["components"]] == ["Share card"]


@pytest.mark.openapi
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_the_largest_result_and_share_cards_are_bodies_discord_takes(
    locale: str, variant: str
) -> None:
    game = played(variant)
    result = largest_result(game)
    with using(locale):
        card = result_card(result, game, NAME)
        words = sheet_text(game, ANA, NAME)
        alt = sheet_alt(game, ANA, NAME)
        shared, said = shared_card(ANA, result, game), shared_content(ANA, result, game)
        share_alt = card_alt(tally(game, ANA), game.title)
    assert card.blocks[-1] == words, "the sheet in words: the card holds it"
    view = cards.layout(card, [image("daily.png", alt)], card_view(7))
    sent = taken(view)
    assert layout_text(sent["components"]).splitlines() == card.text.splitlines()
    [item] = sent["components"][0]["components"][1]["items"]
    assert item["media"] == {"url": "attachment://daily.png"} and item["description"] == alt
    share = cards.layout(shared, [image("daily-card.png", share_alt)], None)
    [box] = taken(share)["components"]
    assert [c["type"] for c in box["components"]] == [10, 12], "its text, the day's card"
    assert box["components"][0]["content"] == said
