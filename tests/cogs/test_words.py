"""The words players read most, as they should read in every language."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.channel import story, texts
from bot.cogs import views
from bot.i18n import LOCALES, using
from bot.i18n import commands as cited
from bot.i18n.words import signed, t
from bot.players import Hint, Option
from bot.records.games import GameRecord, StoredEvent
from bot.records.options import Options
from bot.rules import PASS, new_game
from bot.service.results import game_results
from tests.cogs.records import game_record

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
def test_time_running_out_speaks_of_crossing_in_qwixx_and_of_writing_in_qwinto(locale: str) -> None:
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


def started(players: list[int], **options: object) -> GameRecord:
    return game_record(players, status="running", version=2, host=ANA, **options)


def played(record: GameRecord) -> object:
    """The record's game played to its end by random legal moves."""
    game = new_game(record.variant, record.players, seed=4, solo=bool(record.options.get("solo")))
    rng = random.Random(4)
    while not game.finished:
        player = min(game.decision().waiting)
        game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
    return game


@pytest.mark.parametrize(
    ("players", "options"),
    [
        ([ANA, COMPUTER, -2], {}),
        ([ANA, BEN, COMPUTER], {}),
        ([ANA, BEN], {"hints": True}),
        ([ANA, BEN], {}),
        ([ANA, COMPUTER], {"hints": True}),
    ],
)
def test_the_start_says_when_a_game_will_not_count(
    players: list[int], options: dict[str, object]
) -> None:
    """The start message says the game will not count exactly when the stats will not
    count it: fewer than two people, or hints."""
    record = started(players, **options)
    text = texts.lobby_closed_content(record, "lobby.started", ANA)
    results = game_results(
        played(record),
        counted=Options.of(record.options).counted,  # type: ignore[arg-type]
        hints=bool(options.get("hints")),
    )
    assert ("does not count for the leaderboard" in text) == (not results.counted), text
    assert ("Only one person plays" in text) == (sum(p > 0 for p in players) < 2)
    assert ("played with hints" in text) == bool(options.get("hints"))


def test_solo_practice_says_it_in_its_lobby_not_again_at_the_start() -> None:
    record = started([ANA], solo=True)
    assert "does not count for the leaderboard" in views.lobby_content(record)
    assert "does not count" not in texts.lobby_closed_content(record, "lobby.started", ANA)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_computers_levels_show_at_the_start_and_in_the_ranking(locale: str) -> None:
    record = started([ANA, COMPUTER, -2], levels={"-1": "hard", "-2": "easy"})
    game = played(record)
    with using(locale):
        start = texts.lobby_closed_content(record, "lobby.started", ANA)
        end = texts.end_content(game, options=Options.of(record.options))  # type: ignore[arg-type]
        hard, easy = t("level.hard"), t("level.easy")
        one = t("lobby.computer", name=story.mention(COMPUTER), level=hard)
        two = t("lobby.computer", name=story.mention(-2), level=easy)
        assert one in start and two in start and t("lobby.uncounted.people") in start
    ranking = end.splitlines()[1:4]
    assert sum(one in line for line in ranking) == 1 and sum(two in line for line in ranking) == 1
    assert not any(f"<@{ANA}> (" in line for line in ranking), "a person has no level"
    assert f"({hard})" not in end.splitlines()[4], "the winner's line names the seat only"


def test_a_hint_that_takes_a_penalty_says_it_does_so_on_purpose() -> None:
    game = new_game("classic", [ANA], seed=2, solo=True)
    cross = next(m for m in game.legal_moves(ANA) if m.kind == "cross")
    planned = Hint(PASS, (Option(PASS, 4.0, 1.0), Option(cross, 0.1, 0.0)), "")
    lines = views.hint_content(game, ANA, planned).splitlines()
    assert lines[1] == (
        "❌ This takes the penalty (−5) on purpose: every cross open to you "
        "this turn is expected to cost more than that."
    )
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
        assert "</qwixx settings:9876> `turn_time:`" in t("settings.current", turn_time="24 h")


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
