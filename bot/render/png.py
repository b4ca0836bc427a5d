"""PNG files of palette images, written here rather than by Pillow: the pixels deflated by
libdeflate (the ``deflate`` package) when it is installed, which takes about half of
zlib's time for files no larger, and the palette cut to the colours the image uses.

Encoding is most of an image's time: a 864 x 562 sheet is 485 KB of palette indices, and
zlib at the level that keeps it small takes 5-6 ms on it.
"""

from __future__ import annotations

import io
import struct
import zlib
from types import ModuleType

from PIL import Image

libdeflate: ModuleType | None
try:
    import deflate as libdeflate
except ImportError:  # zlib then, slower for the same size
    libdeflate = None

SIGNATURE = b"\x89PNG\r\n\x1a\n"
PALETTE_TYPE = 3  # IHDR colour type: palette indices
NO_FILTER = 0  # each row's filter byte: palette images compress best unfiltered


def compress(data: bytes, level: int) -> bytes:
    """``data`` as a zlib stream, at ``level`` (libdeflate's 1-12, or zlib's 1-9)."""
    if libdeflate is not None:
        return bytes(libdeflate.zlib_compress(data, level))
    return zlib.compress(data, min(level, 9))


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(image: Image.Image, level: int, colours: int | None = None) -> bytes:
    """``image`` (mode "P", no transparency) as an 8-bit palette PNG with its first
    ``colours`` palette entries (those it uses if not given); images of up to 16 colours
    go to Pillow, which packs them into fewer bits per pixel."""
    if image.mode == "P" and colours is None:
        colours = int(image.getextrema()[1]) + 1  # type: ignore[index, arg-type]
    if not colours or colours <= 16 or "transparency" in image.info:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=min(level, 9))
        return buffer.getvalue()
    width, height = image.size
    rows = Image.new("P", (width + 1, height), NO_FILTER)  # a filter byte before each row
    rows.im.paste(image.im, (1, 0, width + 1, height))
    palette = bytes((image.getpalette() or [])[:3 * colours])
    header = struct.pack(">IIBBBBB", width, height, 8, PALETTE_TYPE, 0, 0, 0)
    return b"".join((SIGNATURE, chunk(b"IHDR", header), chunk(b"PLTE", palette),
                     chunk(b"IDAT", compress(raw_bytes(rows), level)), chunk(b"IEND", b"")))


def raw_bytes(image: Image.Image) -> bytes:
    """``image.tobytes()`` in one piece: Image.tobytes packs 64 KB at a time, which takes
    20 times as long for a scoreboard's 1.3 MB."""
    size = image.width * image.height * len(image.getbands())
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        _, status, data = encoder.encode(size + 1)
    finally:
        encoder.cleanup()
    return data if status > 0 and len(data) == size else image.tobytes()
