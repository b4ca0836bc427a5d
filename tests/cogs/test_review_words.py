"""``/qwixx review``'s answer in words: accuracy per person, the costliest decisions with
hard's move and why, the definition of accuracy; in every language."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.channel.texts import end_content
from bot.cogs.review import review_content
from bot.i18n import LOCALES, using
from bot.players import hint
from bot.rules import PASS, Game, Move, new_game
from bot.service.games import GameService
from bot.service.review import Review, ReviewService
from bot.service.stats import StatsService
from tests.service.helpers import play

GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22


@pytest.fixture
def seeds() -> Callable[[], int]:
    """A seed of its own for each game (900 on), so that no two games are dealt the same dice."""
    return iter(range(900, 10_000)).__next__


@pytest.fixture
def reviews(service: GameService) -> ReviewService:
    return ReviewService(service.keeper, StatsService(service.store, clock=service.clock))


def passes_early(game: Game, player: int) -> Move:
    """Hard's moves, but every white sum of the first five turns passed."""
    if game.turn <= 5 and game.decision().phase == "action1" and player == game.active:
        return PASS
    return hint(game, player).move


async def reviewed(service: GameService, reviews: ReviewService) -> Review:
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(lobby.id, BEN)
    await service.lobby.add_computer(lobby.id, ANA, "normal")
    await service.lobby.start(lobby.id, ANA)
    await play(service, lobby.id, passes_early)
    return await reviews.review(GUILD, CHANNEL, lobby.id)


async def test_the_answer_in_every_language(service: GameService, reviews: ReviewService) -> None:
    review = await reviewed(service, reviews)
    names = {ANA: "Ana", BEN: "Ben", -1: "Computer 1"}
    for locale in LOCALES:
        with using(locale):
            text, shown = review_content(review, ANA, names)
            assert len(text) <= 2000 and "{" not in text, (locale, text)
            assert f"<@{ANA}>" in text and f"<@{BEN}>" in text and "<@-1>" not in text
            assert shown == review.costliest(ANA) and shown
            assert "**1. " in text  # the costliest decision, numbered
    with using("en-US"):
        text, shown = review_content(review, ANA, names)
    assert "Your costliest decisions:" in text and "Accuracy: 100% minus" in text
    assert f"Turn {shown[0].turn}**" in text and "expected points lost" in text
    assert "💡" in text  # hard's move and why, as the Hint button says it
    with using("en-US"):  # a spectator sees each person's costliest decision
        text, shown = review_content(review, 999, names)
    assert "Each player's costliest decision:" in text
    assert {r.player for r in shown} <= {ANA, BEN} and len(shown) <= 2


SCOREBOARD_ACCURACY = {
    "en-US": "🎯 Accuracy against the Hard computer player's choices: <@22> 75% · <@11> 50%",
    "de": "🎯 Genauigkeit gemessen an der Wahl des Computerspielers Schwer: <@22> 75 % · "
    "<@11> 50 %",
    "fr": "🎯 Précision par rapport aux choix de l’ordinateur Difficile : <@22> 75 % · <@11> 50 %",
    "pl": "🎯 Trafność względem wyborów komputera Trudny: <@22> 75% · <@11> 50%",
    "pt-BR": "🎯 Precisão em relação às escolhas do computador Difícil: <@22> 75% · <@11> 50%",
    "tr": "🎯 Zor bilgisayar oyuncusunun seçimlerine göre isabet: <@22> %75 · <@11> %50",
}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_final_scoreboards_accuracy_line_in_every_language(locale: str) -> None:
    """People in the ranking's order (the computer has none), each language's percent."""
    game = new_game("classic", [ANA, BEN, -1], 5)
    while not game.finished:  # Ana passes into penalties; Ben and the computer play
        player = sorted(game.decision().waiting)[0]
        move = PASS if player == ANA else hint(game, player).move
        game, _ = game.apply(player, move)
    order = [s.player for s in game.ranking() if s.player > 0]
    assert order == [BEN, ANA]
    with using(locale):
        text = end_content(game, (), {}, None, {}, {ANA: 0.5, BEN: 0.75})
    line = text.splitlines()[-1].replace("\u202f", " ").replace("\xa0", " ")
    assert line == SCOREBOARD_ACCURACY[locale]
