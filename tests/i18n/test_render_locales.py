"""Words drawn on the images come from the catalogue and fit their boxes in every language.

Every word from the catalogue is drawn through ``label`` (Canvas or compact Surface),
which is given the width of its box; these tests record each drawn word with its width
and its room while every image is rendered in every language.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bot.i18n import LOCALES, using
from bot.i18n.words import inline, t
from bot.render import canvas as canvas_module
from bot.render import (
    compact,
    render_board,
    render_card,
    render_dice,
    render_scoreboard,
    render_sheet,
    render_table,
)
from bot.render.dice import colour_of
from bot.render.example import (
    NAMES,
    TABLE_NAMES,
    longo_example,
    onboard_example,
    play,
    play_qwinto,
    qwinto_example,
    start,
    table_example,
)
from bot.render.leaderboard import BoardRow, BoardTable, render_leaderboard
from bot.render.tally import tally
from bot.rules import Game
from bot.rules.onboard import OnBoardGame
from bot.rules.qwixx import QwixxGame
from tests.positions import reposition

SEED = 22
LONG_NAMES = {**NAMES, 1: "Anastasia Konstantynopolitańczykiewicz"}


@dataclass(frozen=True)
class Drawn:
    text: str
    width: float
    room: float


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every catalogue word drawn from here on (caches emptied, so cards are drawn)."""
    found: list[Drawn] = []
    for cls in (canvas_module.Canvas, compact.Surface):
        original = cls.label

        def label(
            self: object,
            p: object,
            text: str,
            size: float,
            room: float,
            *args: object,
            _original: object = original,
            **kwargs: object,
        ) -> float:
            width = _original(self, p, text, size, room, *args, **kwargs)  # type: ignore[operator]
            found.append(Drawn(text, width, room))
            return width

        monkeypatch.setattr(cls, "label", label)
    for cache in (canvas_module.STATIC_IMAGES, canvas_module.CARD_PALETTE_IMAGES, compact.SPRITES):
        cache.clear()
    yield found
    for cache in (canvas_module.STATIC_IMAGES, canvas_module.CARD_PALETTE_IMAGES, compact.SPRITES):
        cache.clear()


def finished(game: Game, rng: random.Random) -> Game:
    while not game.finished:
        game = play_qwinto(game, 1, rng) if game.variant == "qwinto" else play(game, 1, rng)
    return game


def games() -> dict[str, Game]:
    """One game of each kind in the states that draw the most words."""
    rng = random.Random(SEED)
    classic = play(start(SEED), 60, rng)
    locked = reposition(classic, sheets={1: "red: 2 3 4 5 6 12"}, closed=["red"])  # locked
    onboard = onboard_example(SEED)
    assert isinstance(onboard, OnBoardGame)
    # The player before the active one reached the finish: the active player and the
    # next play the final round.
    before = onboard.players[(onboard.turn - 2) % len(onboard.players)]
    finish = next(
        at
        for at in range(onboard.board.finish_from, onboard.board.last + 1)
        if at not in onboard.pawns.values()
    )
    final_round = reposition(
        onboard, pawns={before: finish}, final_turn=onboard.turn + 1, finish_by=before
    )
    # The widest lucky numbers: two of two digits (the badge's words get the least room).
    wide = next(s for s in range(1000) if min(start(s, "longo").lucky_numbers(1)) >= 10)
    return {
        "classic": locked,
        "longo": longo_example(SEED),
        "longo-wide": start(wide, "longo"),
        "onboard": final_round,
        "qwinto": qwinto_example(SEED),
        "classic-over": finished(classic, rng),
        "qwinto-over": finished(qwinto_example(SEED), rng),
    }


GAMES = games()


def leaderboard() -> BoardTable:
    """A leaderboard as the stats cog builds it: every caption from the catalogue."""
    columns = ("games", "wins", "rate", "average", "best")
    rows = tuple(
        BoardRow(str(rank), name, ("12", "7", "58%", "61.5", "98"), leader=rank == 1)
        for rank, name in enumerate(LONG_NAMES.values(), start=1)
    )
    return BoardTable(
        t("leaderboard.image_title", scope=t("leaderboard.all_games"), period=t("period.month")),
        t("leaderboard.subtitle", sort=t("sort.average"), count=len(rows)),
        t("column.rank"),
        t("column.player"),
        tuple(t(f"column.{c}") for c in columns),
        rows,
        t("leaderboard.rule", min=3),
        sorted_column=3,
    )


def render_everything() -> None:
    for key, game in GAMES.items():
        names = LONG_NAMES
        if not key.endswith("-over"):
            render_sheet(game, 1, names[1], game.legal_moves(1))
            render_table(game, {**TABLE_NAMES, **names}, {})
        else:
            render_scoreboard(game, names)
        if isinstance(game, OnBoardGame):
            render_board(game, names, game.legal_moves(game.active))
    table, latest = table_example(SEED)
    render_table(table, TABLE_NAMES, latest)
    render_leaderboard(leaderboard())
    for key in ("classic", "longo", "qwinto-over"):  # the daily share cards
        game = GAMES[key]
        render_card(tally(game, 1), t("image.daily_card", title=game.title))
    assert isinstance(GAMES["classic"], QwixxGame)
    render_dice(GAMES["classic"].dice)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_word_overflows_its_box(locale: str, drawn: list[Drawn]) -> None:
    with using(locale):
        render_everything()
    over = [
        f"{d.text!r}: {d.width:.1f} px in {d.room:.1f}" for d in drawn if d.width > d.room + 0.01
    ]
    assert over == [], f"{locale}: {over}"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_images_words_are_the_languages(locale: str, drawn: list[Drawn]) -> None:
    with using(locale):
        render_everything()
        wanted = {
            t(f"image.{key}")
            for key in (
                "crosses",
                "points",
                "penalty_caption",
                "lucky",
                "locked",
                "start",
                "finish",
                "total",
                "to_play",
                "penalties",
                "failed",
                "throw",
                "bonus",
                "rank",
                "player",
            )
        }
        wanted |= set(t("image.failed_caption").split("\n"))
        wanted |= {t(f"column.{c}") for c in ("player", "games", "wins", "rate", "best")}
        wanted |= {
            t("image.final_round", turn=GAMES["onboard"].turn + 1),
            t("image.final_scores", title="Qwixx"),
            t("image.daily_card", title="Qwixx Longo"),
            t("letter.red"),
            t("letter.purple"),
            *(inline(t(f"row.{colour_of(die)}")) for die in GAMES["classic"].dice),  # dice
        }
    texts = {d.text for d in drawn}
    assert wanted - texts == set()
