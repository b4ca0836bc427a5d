"""What the statistics commands show: the leaderboard image and its words, stats, history."""

from __future__ import annotations

import io

from PIL import Image

from bot.cogs.buttons import FinalButton
from bot.cogs.stats_words import (
    ALT_TEXT,
    alt_text,
    board_table,
    footer,
    history_line,
    stats_field,
)
from bot.records.stats import HistoryGame, HistoryLine
from bot.render.leaderboard import Layout, render_leaderboard
from bot.service.stats import BoardLine, Leaderboard, VariantStats


def board(
    sort: str = "wins", own_rank: int | None = 14, unranked: int = 0, names: str = "Player"
) -> Leaderboard:
    lines = tuple(
        BoardLine(k + 1, 100 + k, f"{names} {k}", 10, 10 - k, 400 - 7 * k, 80 - k)
        for k in range(10)
    )
    own = BoardLine(own_rank, 999, "Me", 2, 1, -30, 5)
    return Leaderboard(None, "month", sort, 0.0, 3, lines, own, 20, unranked)


def test_the_image_shows_the_top_and_the_callers_line_apart() -> None:
    table = board_table(board(), caller=999)
    assert table.title == "All games — This month"
    assert [row.rank for row in table.rows] == [*map(str, range(1, 11)), "14"]
    assert table.rows[-1].detached and table.rows[-1].you and not table.rows[0].you
    assert table.rows[0].leader and not table.rows[1].leader
    assert table.rows[-1].values == ("2", "1", "50%", "−15.0", "5")
    assert table.sorted_column == 1  # wins
    data = render_leaderboard(table)
    image = Image.open(io.BytesIO(data))
    layout = Layout(len(table.headers), table.rows, 1)
    assert image.size == (820, layout.height) and len(data) < 80_000


def test_rate_sorts_state_the_rule_and_who_is_left_out() -> None:
    lb = board("rate", own_rank=None, unranked=4)
    assert footer(lb) == (
        "Win rate and average rank only players with at least 3 games. "
        "4 with fewer than 3 games not ranked."
    )
    assert footer(board("wins")) == "Win rate and average rank only players with at least 3 games."
    table = board_table(lb, caller=999)
    assert table.rows[-1].rank == "–" and table.sorted_column == 2
    text = alt_text(lb).splitlines()
    assert text[0] == "All games leaderboard, this month, by win rate:"
    assert text[-2] == "–. Me: games 2, wins 1 (50%), average -15.0, best 5"


def test_alt_text_stays_within_discords_limit() -> None:
    assert len(alt_text(board())) < ALT_TEXT
    text = alt_text(board(names="x" * 90))
    assert len(text) == ALT_TEXT and text.endswith("…")


def test_stats_and_history_lines() -> None:
    name, value = stats_field(VariantStats("longo", 4, 1, 203, 88, (50, 88, 40)))
    assert name == "Qwixx Longo"
    assert value == (
        "Games **4** · Wins **1** (25%) · Average **50.8** · Best **88**\n"
        "Last 3 games: 50 · 88 · 40"
    )
    assert stats_field(VariantStats(None, 1, 0, 5, 5, ()))[0] == "All games"
    game = HistoryGame(
        7,
        1,
        "classic",
        0.0,
        1_767_225_600.0,
        21,
        False,
        (HistoryLine(1, 40, 1, True), HistoryLine(2, 40, 1, True), HistoryLine(3, -5, 3, False)),
    )
    assert history_line(2, game) == (
        "**2.** <t:1767225600:d> · Qwixx · 🏆 <@1> 40 · 🏆 <@2> 40 · <@3> -5 (not counted)"
    )


def test_the_final_sheets_button_is_restart_proof() -> None:
    button = FinalButton(12345, "Sheets 1")
    assert button.custom_id == "qx:12345:final"
    assert FinalButton.__discord_ui_compiled_template__.fullmatch("qx:12345:final")
    for other in ("qx:1:2:sheet", "qx:1:lobby:join", "qx:1:2:action1:pass"):
        assert not FinalButton.__discord_ui_compiled_template__.fullmatch(other)


def test_ordinals_read_like_english() -> None:
    from bot.i18n.words import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
    ]
