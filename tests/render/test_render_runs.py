"""Sheets deflated in cached runs of rows (:class:`bot.render.png.RunCache`): the PNG
joined from the runs must give exactly the pixels of the image deflated whole, for every
variant and as a game goes on (runs found again in the cache), and the cache must stay
within its bound."""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from itertools import pairwise

import pytest
from PIL import Image

from bot.render import canvas, png, render_sheet
from bot.render.example import NAMES, play, play_qwinto, qwinto_example, start
from bot.render.sheet import SheetLayout
from bot.rules import Game, new_game

from .helpers import image


def states(variant: str, count: int = 6) -> Iterator[tuple[Game, int]]:
    """``count`` states of a ``variant`` game a few decisions apart, with the player to
    decide."""
    rng = random.Random(3)
    game: Game
    if variant == "qwinto":
        game = qwinto_example(3, turns=2)
    elif variant == "onboard":
        game = new_game("onboard", list(NAMES), 3, {"board": "A"})
    else:
        game = start(3, variant)
    for _ in range(count):
        if game.finished:
            return
        player = min(game.decision().waiting)
        yield game, player
        game = (play_qwinto(game, 5, rng) if variant == "qwinto"
                else play(game, 5, rng))  # type: ignore[arg-type]


def pixels(data: bytes) -> tuple[tuple[int, int], bytes, list[int] | None]:
    found = image(data)
    assert found.mode == "P"
    return found.size, found.tobytes(), found.getpalette()


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
@pytest.mark.parametrize("with_libdeflate", [True, False])
def test_sheets_from_runs_have_the_pixels_of_sheets_deflated_whole(
        variant: str, with_libdeflate: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not with_libdeflate:
        monkeypatch.setattr(png, "libdeflate", None)
    runs = png.RunCache(max_bytes=2**24)
    seen = 0
    for game, player in states(variant):
        moves = game.legal_moves(player)
        monkeypatch.setattr(canvas, "SHEET_RUNS", None)
        whole = render_sheet(game, player, NAMES[player], moves)
        monkeypatch.setattr(canvas, "SHEET_RUNS", runs)
        first = render_sheet(game, player, NAMES[player], moves)
        again = render_sheet(game, player, NAMES[player], moves)  # every run from the cache
        assert pixels(first) == pixels(whole)
        assert again == first
        seen += 1
    assert seen >= 4 and len(runs) > 0


def test_a_later_state_reuses_the_runs_it_shares() -> None:
    runs = png.RunCache(max_bytes=2**24)
    rows = Image.new("P", (101, 200), 3)
    raw = rows.tobytes()
    png.pixels(raw, 101, 7, runs)
    count, size = len(runs), runs.size
    changed = bytearray(raw)
    changed[-5] = 9  # the last row only
    png.pixels(bytes(changed), 101, 7, runs)
    assert len(runs) == count + 1 and runs.size > size


def test_the_run_cache_keeps_within_its_bound() -> None:
    rng = random.Random(1)
    runs = png.RunCache(max_bytes=200_000)
    kept = bytes(rng.randrange(4) for _ in range(20_000))
    for _ in range(40):
        runs.get(kept, 7)  # used all along: the least recently used go first
        runs.get(bytes(rng.randrange(8) for _ in range(20_000)), 7)
        assert runs.size <= runs.max_bytes
    assert 0 < len(runs) < 40
    assert kept in runs
    runs.clear()
    assert len(runs) == 0 and runs.size == 0


@pytest.mark.parametrize("with_libdeflate", [True, False])
@pytest.mark.parametrize("size", [0, 1, 5, 300, 40_000, 400_000])
def test_runs_join_into_one_zlib_stream(size: int, with_libdeflate: bool,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Any run, of any length and padding, and runs libdeflate deflates in several
    blocks (400 KB), join into a stream zlib reads back whole."""
    if not with_libdeflate:
        monkeypatch.setattr(png, "libdeflate", None)
    rng = random.Random(size)
    parts = [bytes(rng.randrange(k % 7 + 1) for _ in range(size // (k + 1)))
             for k in range(4)]
    stream = png.zlib_stream([png.deflate_run(part, 7) for part in parts])
    assert zlib.decompress(stream) == b"".join(parts)


def test_adler32_combines_like_zlib() -> None:
    rng = random.Random(2)
    for length in (0, 1, 65520, 65521, 200_000):
        a = rng.randbytes(rng.randrange(1000))
        b = rng.randbytes(length)
        assert png.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == \
            zlib.adler32(a + b)


@pytest.mark.parametrize("height,cuts", [(562, (67, 151, 235, 319, 403, 482)), (300, ()),
                                         (10, ()), (90, (0, 45, 45, 200))])
def test_runs_cover_every_row_once_and_start_at_each_cut(height: int,
                                                         cuts: tuple[int, ...]) -> None:
    edges = png.run_edges(height, cuts)
    assert edges[0] == 0 and edges[-1] == height
    assert all(a < b for a, b in pairwise(edges))
    assert {c for c in cuts if 0 < c < height} <= set(edges)
    assert max(b - a for a, b in pairwise(edges)) < 2 * png.RUN_ROWS


def test_a_sheet_is_cut_between_its_rows() -> None:
    game = start(3, "classic")
    layout = SheetLayout.of(game)
    cuts = layout.run_cuts
    assert len(cuts) == len(layout.rows) + 4  # name line, rows, table, sum line (3)
    for i in range(len(layout.rows)):  # no cut through a row's band
        top, bottom = layout.band_box(i)[1], layout.band_box(i)[3]
        assert not any(top <= cut < bottom for cut in cuts)
