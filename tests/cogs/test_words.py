"""The words players read most, as they should read in every language."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.channel import story, texts
from bot.cogs import views
from bot.i18n import LOCALES, using
from bot.i18n import commands as cited
from bot.messages import signed, t
from bot.players import Hint, Option
from bot.rules import PASS, new_game
from bot.service.types import StoredEvent

ANA, BEN, COMPUTER = 11, 22, -1


@pytest.fixture
def known_commands() -> Iterator[None]:
    class Synced:
        name, id = "qwixx", 9876

    cited.learn([Synced()])
    yield
    cited.forget()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_score_is_kept_apart_from_a_computer_seats_number(locale: str) -> None:
    with using(locale):
        line = story.scores_line({COMPUTER: 1, ANA: 12})
    assert "🤖 Computer 1 1" not in line and "🤖 Computer 1 1 " not in line
    assert f"<@{ANA}>: 12" in line or f"<@{ANA}> : 12" in line


@pytest.mark.parametrize("locale", LOCALES)
def test_time_running_out_speaks_of_crossing_in_qwixx_and_of_writing_in_qwinto(
        locale: str) -> None:
    expired = StoredEvent(1, 3, "expired", None, {"players": [ANA]})
    with using(locale):
        qwixx = story.event_lines(expired, [], "classic")[0]
        qwinto = story.event_lines(expired, [], "qwinto")[0]
        assert qwixx == t("event.expired.qwixx", names=f"<@{ANA}>")
    assert qwixx != qwinto
    if locale == "en-US":
        assert "crossed" in qwixx and "written" not in qwixx
        assert "written" in qwinto and "crossed" not in qwinto


def finished_solo(variant: str = "classic") -> object:
    game = new_game(variant, [ANA], seed=4, solo=True)
    rng = random.Random(4)
    while not game.finished:
        player = min(game.decision().waiting)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    return game


def test_a_solo_game_ends_on_the_personal_best_and_nobody_wins() -> None:
    game = finished_solo()
    total = game.ranking()[0].total  # type: ignore[attr-defined]
    first = texts.end_content(game, best=None)  # type: ignore[arg-type]
    assert "wins" not in first and "🏆" not in first
    assert f"<@{ANA}>: **{signed(total)}**" in first and "score to beat" in first
    assert "A new personal best" in texts.end_content(game, best=total - 3)  # type: ignore[arg-type]
    assert "equals your personal best" in texts.end_content(game, best=total)  # type: ignore[arg-type]
    below = texts.end_content(game, best=total + 7)  # type: ignore[arg-type]
    assert f"stays {signed(total + 7)}, 7 more than this game" in below


def test_a_duel_still_names_its_winner() -> None:
    game = new_game("classic", [ANA, BEN], seed=2)
    assert "🏆" in texts.end_content(game)


def test_a_hint_that_takes_a_penalty_says_it_does_so_on_purpose() -> None:
    game = new_game("classic", [ANA], seed=2, solo=True)
    cross = next(m for m in game.legal_moves(ANA) if m.kind == "cross")
    planned = Hint(PASS, (Option(PASS, 4.0, 1.0), Option(cross, 0.1, 0.0)), "")
    lines = views.hint_content(game, ANA, planned).splitlines()
    assert lines[1] == ("❌ This takes the penalty (−5) on purpose: every cross open to you "
                        "this turn is expected to cost more than that.")
    assert "100%" not in "\n".join(lines)
    qwinto = new_game("qwinto", [ANA], seed=2, solo=True)
    written = Hint(PASS, (Option(PASS, 4.0, 1.0),), "")
    assert "failed throw (−5) on purpose" in views.hint_content(qwinto, ANA, written)


def test_a_hint_never_says_zero_more_than() -> None:
    game = new_game("classic", [ANA], seed=2, solo=True)
    cross = next(m for m in game.legal_moves(ANA) if m.kind == "cross")
    tie = Hint(cross, (Option(cross, 12.04, 0.0), Option(PASS, 12.0, 0.0)), "")
    text = views.hint_content(game, ANA, tie)
    assert "0.0 more" not in text and text.endswith(", as good as Pass.")


def test_on_boards_pawn_step_asks_where_the_pawn_goes() -> None:
    game = new_game("onboard", [ANA, BEN], seed=1)
    rng = random.Random(1)
    while game.decision().phase != "action3":
        player = min(game.decision().waiting)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    text = views.sheet_content(game, game.active)
    assert "pawn" in text and "cross" not in text


def test_commands_are_cited_as_mentions_in_each_language(known_commands: object) -> None:
    with using("de"):
        text = t("lobby.hint", turn_time="24 h", variant="longo", min=2)
    assert "</qwixx rules:9876> `variante:longo`" in text
    assert "/qwixx rules variant" not in text
    with using("en-US"):
        assert "</qwixx start:9876>" in t("error.not_player")
        assert "</qwixx settings:9876> `turn_time:`" in t("settings.current",
                                                            turn_time="24 h")


def test_without_the_commands_id_citations_stay_as_written() -> None:
    cited.forget()
    assert "`/qwixx start`" in t("error.not_player")



def test_a_negative_score_has_a_minus_sign_not_a_dash() -> None:
    game = finished_solo()
    with using("en-US"):
        line = story.scores_line({ANA: -11, BEN: 3})
        end = texts.end_content(new_game("classic", [ANA, BEN], seed=2))
    assert f"<@{ANA}>: −11" in line and "-11" not in line
    assert " — -" not in end
    solo = texts.end_content(game, best=-4)  # type: ignore[arg-type]
    assert "-" not in solo.replace("—", "")
