"""``/qwixx stats``' last scores in every language, and the leaderboard's ranks and medals."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.cogs.stats_words import (
    alt_text,
    board_table,
    daily_field,
    last_scores,
    practice_line,
    rating_alt_text,
    rating_table,
    stats_field,
    stats_footer,
)
from bot.i18n import LOCALES, using
from bot.records.daily import DailyBest
from bot.render.leaderboard import MEDALS, Layout, render_leaderboard, width_for
from bot.service.daily import DailyRecord
from bot.service.rated import RatingBoard, RatingLine
from bot.service.ratings import Rating, read, standings
from bot.service.stats import Accuracy, BoardLine, Leaderboard, PlayerStats, VariantStats
from bot.store.stats import PracticeBest

LAST_GAME = {
    "en-US": "Last game: −4",
    "de": "Letztes Spiel: −4",
    "fr": "Dernière partie : −4",
    "pl": "Ostatnia gra: −4",
    "pt-BR": "Último jogo: −4",
    "tr": "Son oyun: −4",
}
LAST_THREE = {
    "en-US": "Last 3 games: 12 · −4 · 30",
    "de": "Letzte 3 Spiele: 12 · −4 · 30",
    "fr": "3 dernières parties : 12 · −4 · 30",
    "pl": "Ostatnie 3 gry: 12 · −4 · 30",
    "pt-BR": "Últimos 3 jogos: 12 · −4 · 30",
    "tr": "Son 3 oyun: 12 · −4 · 30",
}


def test_every_language_is_checked() -> None:
    assert set(LAST_GAME) == set(LOCALES) == set(LAST_THREE)


@pytest.mark.parametrize("locale", LOCALES)
def test_one_last_score_reads_as_the_last_game(locale: str) -> None:
    with using(locale):
        assert last_scores((-4,)) == LAST_GAME[locale]
        _, value = stats_field(VariantStats(None, 1, 0, -4, -4, (-4,)))
    assert value.endswith("\n" + LAST_GAME[locale])


@pytest.mark.parametrize("locale", LOCALES)
def test_several_last_scores_take_the_plural(locale: str) -> None:
    with using(locale):
        assert last_scores((12, -4, 30)) == LAST_THREE[locale]


def test_polish_counts_five_games_in_its_many_form() -> None:
    with using("pl"):
        assert last_scores((1, 2, 3, 4, 5)) == "Ostatnich 5 gier: 1 · 2 · 3 · 4 · 5"


# --- the leaderboard -----------------------------------------------------------------


def board(lines: tuple[BoardLine, ...], sort: str = "wins") -> Leaderboard:
    return Leaderboard(None, "all", sort, None, 3, lines, None, len(lines), 0)


def test_no_medals_for_nobodys_zero_wins_and_ties_listed_by_average() -> None:
    # Two people who lost to a computer: 0 wins each, truly tied on wins.
    minus = BoardLine(1, 11, "Minus", 1, 0, -4, -4)
    plus = BoardLine(1, 22, "Plus", 1, 0, 21, 21)
    table = board_table(board((minus, plus)), caller=11)
    assert [row.name for row in table.rows] == ["Plus", "Minus"]  # 21 above −4
    assert [row.rank for row in table.rows] == ["1", "1"]  # tied on the sort: one rank
    assert not any(row.medal or row.leader for row in table.rows)
    assert alt_text(board((minus, plus))).splitlines()[1].startswith("1. Plus:")


def test_real_standings_keep_their_medals() -> None:
    lines = (
        BoardLine(1, 1, "Ana", 4, 3, 120, 40),
        BoardLine(2, 2, "Ben", 4, 1, 90, 30),
        BoardLine(3, 3, "Cem", 4, 0, 80, 25),
    )
    table = board_table(board(lines), caller=99)
    assert [row.medal for row in table.rows] == [True, True, False]  # Cem has no win
    assert table.rows[0].leader
    by_best = board_table(board(lines, "best"), caller=99)
    assert all(row.medal for row in by_best.rows)  # any best score is a standing
    assert not any(row.medal for row in board_table(board(lines, "rate"), 99).rows[2:])


def medal_pixels(data: bytes, line: int, table: object) -> int:
    """Pixels of any medal colour in line ``line``'s rank cell."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    layout = Layout(5, table.rows, 1, width_for(table))  # type: ignore[attr-defined]
    x0, y0, x1, y1 = (round(v) for v in layout.cell(line, 0))
    colours = image.crop((x0, y0, x1, y1)).getcolors(10_000) or []
    return sum(
        n
        for n, c in colours
        if any(max(abs(a - b) for a, b in zip(c, m, strict=True)) < 8 for m in MEDALS.values())
    )


def test_the_image_draws_no_medal_without_a_standing() -> None:
    lines = (BoardLine(1, 11, "Minus", 1, 0, -4, -4), BoardLine(1, 22, "Plus", 1, 0, 21, 21))
    table = board_table(board(lines), caller=99)
    data = render_leaderboard(table)
    assert medal_pixels(data, 1, table) < 5  # an anti-aliased digit's edge at most
    won = board_table(board((BoardLine(1, 11, "Ana", 1, 1, 30, 30),)), caller=99)
    assert medal_pixels(render_leaderboard(won), 1, won) > 200


def test_a_variants_field_shows_the_average_accuracy_and_the_rating() -> None:
    stats = VariantStats("classic", 4, 1, 100, 40, ())
    with using("en-US"):
        name, value = stats_field(stats, Accuracy(0.834, 3), Rating(30.0, 3.0, 4))
    assert name == "Qwixx"
    assert value.splitlines()[1:] == [
        "Accuracy **83%** over 3 reviewed games",
        "Rating **1647?** after 4 rated games",
    ]
    with using("en-US"):
        _, settled = stats_field(stats, Accuracy(1.0, 1), Rating(30.0, 3.0, 5))
    assert settled.splitlines()[1:] == [
        "Accuracy **100%** over 1 reviewed game",
        "Rating **1647** after 5 rated games",
    ]


@pytest.mark.parametrize("locale", LOCALES)
def test_accuracy_and_rating_read_in_every_language(locale: str) -> None:
    stats = VariantStats(None, 12, 3, 300, 60, ())
    with using(locale):
        _, value = stats_field(stats, Accuracy(0.5, 5), Rating(25.0, 2.0, 12))
        footer = stats_footer(
            PlayerStats(
                1,
                stats,
                (),
                accuracies={"classic": Accuracy(0.5, 5)},
                ratings={"classic": Rating(25.0, 2.0, 12)},
            )
        )
    accuracy, rating = value.splitlines()[1:]
    assert "50" in accuracy and "5" in accuracy and "**" in accuracy
    assert "**1500**" in rating  # as every language reads a rating: no separator
    assert "?" not in rating  # not provisional after 12 games
    assert "5" in footer and "1500" in footer and "?" in footer and footer.count(".") >= 3


def test_the_footer_explains_accuracy_and_rating_only_when_they_are_shown() -> None:
    practice_only = PlayerStats(
        1,
        None,
        (),
        practice=(PracticeBest("classic", 1, 20, 20),),
        accuracies={"classic": Accuracy(0.5, 1)},
    )
    counted = VariantStats("classic", 1, 1, 20, 20, (20,))
    both = PlayerStats(
        1,
        counted,
        (counted,),
        accuracies={"classic": Accuracy(0.5, 1)},
        ratings={"classic": Rating(25.0, 8.0, 1)},
    )
    nowhere = PlayerStats(1, None, (), accuracies={"classic": Accuracy(0.5, 1)})
    with using("en-US"):
        assert "Accuracy:" in stats_footer(practice_only)  # shown with the solo games
        assert practice_line(practice_only.practice[0], practice_only).endswith(
            " · Accuracy **50%** over 1 reviewed game"
        )
        assert "Accuracy" not in practice_line(
            practice_only.practice[0],
            PlayerStats(
                1,
                counted,
                (counted,),
                practice=practice_only.practice,
                accuracies={"classic": Accuracy(0.5, 1)},
            ),
        )  # the counted games' field shows it
        assert "Accuracy:" not in stats_footer(nowhere)
        assert "Accuracy:" in stats_footer(both) and "Rating:" in stats_footer(both)


def test_a_variants_accuracy_is_shown_once_where_its_games_are() -> None:
    """With the counted games, else the solo practice, else the other uncounted games."""
    longo, qwinto = PracticeBest("longo", 2, 80, 70), PracticeBest("qwinto", 1, -3, -3)
    accuracies = {"longo": Accuracy(0.6, 2), "qwinto": Accuracy(0.4, 1)}
    stats = PlayerStats(
        1, None, (), practice=(longo,), uncounted=(longo, qwinto), accuracies=accuracies
    )
    with using("en-US"):
        assert "Accuracy **60%**" in practice_line(longo, stats)
        assert "Accuracy" not in practice_line(longo, stats, "uncounted")  # shown already
        assert (
            practice_line(qwinto, stats, "uncounted")
            == "Qwinto: best **−3** · games 1 · last −3 · Accuracy **40%** over 1 reviewed game"
        )
        assert "against computers only" in stats_footer(stats)


def test_the_rating_leaderboard_reads_each_rating_as_the_final_message_does() -> None:
    """The image's rating column and the alt text show the number the final message and
    the stats show (``?`` while provisional), ranked by it."""
    ratings = {11: Rating(27.0, 6.0, 2), 22: Rating(31.0, 3.0, 9), 33: Rating(22.0, 5.0, 6)}
    names = {11: "Ana", 22: "Ben", 33: "Cem"}
    lines = tuple(RatingLine(r, p, names[p], rating) for r, p, rating in standings(ratings))
    board = RatingBoard("classic", lines, None, 3)
    with using("en-US"):
        table, words = rating_table(board, caller=11), rating_alt_text(board)
    assert [(row.rank, row.values) for row in table.rows] == [
        ("1", ("1677", "9")),
        ("2", ("1559?", "2")),
        ("3", ("1412", "6")),
    ]
    assert [row.values[0] for row in table.rows] == [read(r) for _, _, r in standings(ratings)]
    assert words.splitlines()[1:4] == [
        "1. Ben: rating 1677, games 9",
        "2. Ana: rating 1559? (provisional), games 2",
        "3. Cem: rating 1412, games 6",
    ]
    assert "starts at 1500" in table.footer and "? provisional: fewer than 5 games" in words


def test_ones_daily_challenge_in_words_with_true_minus_signs() -> None:
    record = DailyRecord([DailyBest("classic", 3, 41, 27.25), DailyBest("longo", 1, -6, -6.0)], 2)
    name, value = daily_field(record)
    assert name == "📅 Daily challenge"
    assert value.splitlines() == [
        "Qwixx: 3 days · best **41** · average **27.2**",
        "Qwixx Longo: 1 day · best **−6** · average **−6.0**",
        "🔥 Streak: **2 days** in a row",
    ]
