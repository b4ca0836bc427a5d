"""The printed parts of sheets and boards come from a cache: the images must not change,
and renders from several worker threads at once must give the same bytes."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageDraw

from bot.render import render_board, render_scoreboard, render_sheet, theme
from bot.render.canvas import (
    CARD_SPRITES,
    STATIC_IMAGES,
    TILE,
    Canvas,
    ImageCache,
    PrintedCard,
    Tiles,
    merged,
)
from bot.render.example import (
    NAMES,
    longo_example,
    onboard_example,
    play,
    play_qwinto,
    qwinto_example,
    start,
)
from bot.render.sheet import SheetLayout, draw_sheet
from bot.rules import Move

from .helpers import classic, with_state


def renders() -> dict[str, Callable[[], bytes]]:
    """Sheets, boards and scoreboards in many states: crosses, struck cells, outlines,
    lucky clovers, closed and locked rows, penalties, pawns, a finished game."""
    rng = random.Random(5)
    game = play(start(5), 60, rng)
    ended = game
    while not ended.finished:
        ended = play(ended, 1, rng)
    longo = longo_example(5)
    onboard = onboard_example(5)
    closed = with_state(
        classic(3),
        2,
        crossed={"red": [2, 3, 5, 8, 10, 11, 12], "blue": [12, 9, 7]},
        closed=("red", "green"),
        penalties=3,
        end_reason="rows_locked",
    )
    ends = [
        Move("cross", "red", 16),
        Move("lucky", "yellow", 16),
        Move("cross", "blue", 2),
        Move("cross", "green", 3),
    ]  # outlines and clovers that reach over the locks
    qwinto_rng = random.Random(2)
    qwinto = play_qwinto(qwinto_example(2), 10, qwinto_rng)  # an open pentagon's ring
    qwinto_later = play_qwinto(qwinto, 3, qwinto_rng)  # a gold column
    return {
        "classic": lambda: render_sheet(game, 1, NAMES[1], game.legal_moves(1)),
        "longo-ends": lambda: render_sheet(longo, 2, NAMES[2], ends),
        "closed": lambda: render_sheet(closed, 2, "Mehmet", closed.legal_moves(2)),
        "longo": lambda: render_sheet(longo, 1, NAMES[1], longo.legal_moves(1)),
        "onboard": lambda: render_sheet(
            onboard, onboard.active, "Zofia", onboard.legal_moves(onboard.active)
        ),
        "board": lambda: render_board(onboard, NAMES, onboard.legal_moves(onboard.active)),
        "qwinto": lambda: render_sheet(qwinto, 1, NAMES[1], qwinto.legal_moves(1)),
        "qwinto-later": lambda: render_sheet(
            qwinto_later, 1, NAMES[1], qwinto_later.legal_moves(1)
        ),
        "scoreboard": lambda: render_scoreboard(ended, NAMES),
        "scoreboard-longo": lambda: render_scoreboard(longo, NAMES),
    }


def draw_directly(
    canvas: Canvas, key: object, width: float, height: float, draw: Callable[[Canvas], None]
) -> None:
    draw(canvas)


@pytest.mark.parametrize("name", list(renders()))
def test_the_cached_card_gives_the_same_pixels_as_drawing_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    render = renders()[name]
    cached = render()
    assert render() == cached  # from the cache this time
    monkeypatch.setattr(Canvas, "static", draw_directly)
    assert render() == cached


def draw_sprite_directly(canvas: Canvas, key: object, draw: Callable[[Canvas], None]) -> None:
    draw(canvas)


@pytest.mark.parametrize("name", list(renders()))
def test_sprites_give_the_same_pixels_as_drawing_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Crossed cells, outlines, names and sums pasted from the sprite cache, some drawn
    after all because something is drawn over them: the same image as drawing in turn."""
    render = renders()[name]
    CARD_SPRITES.clear()
    first = render()  # every sprite drawn once for the cache
    assert render() == first  # every sprite from the cache
    monkeypatch.setattr(Canvas, "sprite", draw_sprite_directly)
    assert render() == first


@pytest.mark.parametrize("name", list(renders()))
def test_a_cards_tiles_give_its_pixels(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sprite not cached yet is drawn over the card's pixels in its box, from the
    card's tiles: the whole card's pixels, wherever a box lies."""
    used: dict[object, PrintedCard] = {}
    original = PrintedCard.tiles

    def tiles(card: PrintedCard) -> Tiles:
        used[card.key] = card
        return original(card)

    monkeypatch.setattr(PrintedCard, "tiles", tiles)
    CARD_SPRITES.clear()
    renders()[name]()
    if not name.startswith(("board", "scoreboard")):  # a pasted track; compact blocks
        assert used
    for card in used.values():
        whole = card.image()
        width, height = whole.size
        for box in ((0, 0, width, height), (TILE - 2, 2, TILE + 2, 2 * TILE + 1)):
            pasted = Image.new("RGB", whole.size)
            card.tiles().paste(pasted, box)
            assert pasted.crop(box).tobytes() == whole.crop(box).tobytes(), (card.key, box)


def test_renders_from_many_threads_match_one_thread() -> None:
    calls = list(renders().values()) * 3
    STATIC_IMAGES.clear()
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = list(pool.map(lambda call: call(), calls))
    alone = [call() for call in calls]
    assert together == alone


def test_a_view_between_even_pixels_draws_instead_of_pasting() -> None:
    game = classic()
    layout = SheetLayout.of(game)
    STATIC_IMAGES.clear()
    canvas = Canvas.new(layout.width, layout.height)
    draw_sheet(canvas.view(0.5, 0, 0.5), game, 1, "Ana")  # origin x = 1 pixel: odd
    assert len(STATIC_IMAGES) == 0
    draw_sheet(canvas.view(1, 0, 0.5), game, 1, "Ana")
    assert len(STATIC_IMAGES) == 1


def test_the_cache_keeps_the_latest_images_up_to_its_size() -> None:
    cache: ImageCache[Image.Image] = ImageCache(maxsize=2)
    built: list[int] = []

    def build(k: int) -> Callable[[], Image.Image]:
        def make() -> Image.Image:
            built.append(k)
            return Image.new("RGB", (1, 1))

        return make

    first = cache.get(1, build(1))
    assert cache.get(1, build(1)) is first
    cache.get(2, build(2))
    cache.get(1, build(1))  # 1 is now the latest, 2 the oldest
    cache.get(3, build(3))
    assert len(cache) == 2
    assert cache.get(1, build(1)) is first
    cache.get(2, build(2))
    assert built == [1, 2, 3, 2]


def test_the_cache_keeps_the_latest_images_up_to_its_bytes() -> None:
    """Images of 10 x 10 palette pixels (100 bytes) and RGB ones (400): at most 500 bytes,
    the oldest dropped first; a build that gives None (a sprite that draws nothing) is
    kept too, and holds nothing."""
    cache: ImageCache[Image.Image | None] = ImageCache(maxsize=100, max_bytes=500)
    built: list[int] = []

    def build(k: int, mode: str | None = "P") -> Callable[[], Image.Image | None]:
        def make() -> Image.Image | None:
            built.append(k)
            return Image.new(mode, (10, 10)) if mode else None

        return make

    for k in range(5):
        cache.get(k, build(k))
    assert (len(cache), cache.bytes) == (5, 500)
    cache.get(5, build(5, "RGB"))  # 900 bytes: the four oldest go
    assert (len(cache), cache.bytes) == (2, 500)
    assert cache.get(6, build(6, None)) is None
    assert cache.get(6, build(6)) is None
    assert built == [0, 1, 2, 3, 4, 5, 6]
    cache.clear()
    assert (len(cache), cache.bytes) == (0, 0)


def test_drawn_boxes_merge_per_strip_on_whole_blocks() -> None:
    boxes = [(-5.0, 3.0, 10.5, 9.0), (20.0, 5.0, 31.0, 40.0), (50.0, 70.0, 90.0, 200.0)]
    assert merged(boxes, (80, 100), 2) == [
        (0, 0, 32, 32),
        (20, 32, 32, 64),
        (50, 64, 80, 96),
        (50, 96, 80, 100),
    ]
    assert merged([], (80, 100), 2) == []


@pytest.mark.parametrize("at", [(40.0, 40.0), (40.25, 39.5), (37.75, 41.125)])
def test_ringed_digits_from_cached_masks_match_pillows_stroked_text(
    at: tuple[float, float],
) -> None:
    """A crossed number's digits and their ring (Canvas.text with a halo) are the pixels
    ImageDraw.text draws with a stroke, at whole and fractional positions."""
    size, stroke = 76, 3
    ours = Image.new("RGB", (80, 80), (240, 200, 200))
    Canvas(ours).text(
        at,
        "16",
        size,
        (178, 20, 30),
        bold=True,
        condensed=True,
        halo=(250, 220, 220),
        halo_width=stroke,
    )
    pillows = Image.new("RGB", (80, 80), (240, 200, 200))
    ImageDraw.Draw(pillows).text(
        at,
        "16",
        fill=(178, 20, 30),
        anchor="mm",
        font=theme.font(size, True, True),
        stroke_width=stroke,
        stroke_fill=(250, 220, 220),
    )
    assert ours.tobytes() == pillows.tobytes()
