"""PNG files written by :mod:`bot.render.png`: the pixels and colours of the image, read
back by Pillow, with libdeflate or with zlib."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render import png


def palette_image(colours: int, size: tuple[int, int] = (37, 23)) -> Image.Image:
    rng = random.Random(colours)
    image = Image.new("P", size)
    image.putdata([rng.randrange(colours) for _ in range(size[0] * size[1])])
    image.putpalette([rng.randrange(256) for _ in range(3 * 256)])
    return image


def read(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("colours", [2, 16, 17, 120, 256])
@pytest.mark.parametrize("with_libdeflate", [True, False])
def test_a_palette_image_reads_back_the_same(
    colours: int, with_libdeflate: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not with_libdeflate:
        monkeypatch.setattr(png, "libdeflate", None)
    image = palette_image(colours)
    back = read(png.encode(image, 7))
    assert back.format == "PNG" and back.size == image.size
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_the_palette_keeps_only_the_colours_up_to_the_last_used() -> None:
    image = palette_image(40)
    back = read(png.encode(image, 7))
    assert back.mode == "P"
    assert back.getpalette() == (image.getpalette() or [])[: 3 * 40]
    assert back.tobytes() == image.tobytes()


def test_other_modes_go_to_pillow() -> None:
    image = Image.new("RGB", (5, 4), (10, 200, 30))
    back = read(png.encode(image, 7))
    assert back.convert("RGB").getpixel((2, 2)) == (10, 200, 30)


@pytest.mark.parametrize("size", [(1, 1), (3, 2), (300, 7), (2000, 40)])
def test_the_rows_are_the_image_rows_each_after_a_filter_byte(size: tuple[int, int]) -> None:
    image = palette_image(200, size)
    for k in range(size[1]):  # rows that end in non-zero bytes, where the filter bytes go
        image.putpixel((size[0] - 1, k), 255)
    width, data = size[0], image.tobytes()
    expected = b"".join(
        bytes([png.NO_FILTER]) + data[k * width : (k + 1) * width] for k in range(size[1])
    )
    assert png.rows_of(image) == expected


def test_rows_are_written_in_a_buffer_kept_between_images() -> None:
    """A buffer large enough is written from its start, whatever it held; a smaller one
    is left for a new one; PNGs from a buffer that held a larger image are the same."""
    small, large = palette_image(120, (9, 4)), palette_image(120, (40, 30))
    buffer = bytearray(b"\xff" * 2000)
    raw = png.rows_of(small, buffer)
    assert raw.obj is buffer and raw == png.rows_of(small)
    assert png.rows_of(large, bytearray(10)).obj is not buffer
    png.ROWS.give(buffer)
    assert read(png.encode(small, 7)).tobytes() == small.tobytes()
    assert read(png.encode(large, 7)).tobytes() == large.tobytes()
    assert read(png.encode(small, 7)).tobytes() == small.tobytes()
    assert len(png.ROWS) <= png.ROWS.keep


def test_the_kept_buffers_are_bounded() -> None:
    buffers = png.Buffers(keep=2)
    for _ in range(4):
        buffers.give(bytearray(8))
    assert len(buffers) == 2
    assert buffers.take() is not None and buffers.take() is not None
    assert buffers.take() is None
