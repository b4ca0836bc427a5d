"""PNG files of palette images, written here rather than by Pillow: the pixels deflated in
one piece by libdeflate (the ``deflate`` package), which takes about half of zlib's time
for files no larger, and the palette cut to the colours the image uses.

Deflating is most of an image's time: a 864 x 562 sheet is 485 KB of palette indices,
which libdeflate at level 7 deflates to 22.7 KB in 2.2 ms of CPU; zlib gives 23.4 KB in
3.0 ms at level 6, 21.3 KB in 28 ms at level 9. The whole image is deflated in one
piece: deflating runs of rows apart and keeping them for the next render of the sheet
cost more on a sheet seen for the first time than it saved on the next ones.
"""

from __future__ import annotations

import io
import struct
import threading
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


def compress(data: bytes | bytearray | memoryview, level: int) -> bytes:
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
        highest = image.getextrema()[1]  # one band: its (lowest, highest)
        assert not isinstance(highest, tuple)
        colours = int(highest) + 1
    if not colours or colours <= 16 or "transparency" in image.info:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=min(level, 9))
        return buffer.getvalue()
    width, height = image.size
    palette = bytes((image.getpalette() or [])[: 3 * colours])
    header = struct.pack(">IIBBBBB", width, height, 8, PALETTE_TYPE, 0, 0, 0)
    raw = rows_of(image, ROWS.take())
    try:
        pixels = compress(raw, level)
    finally:
        ROWS.give(raw.obj)
    return b"".join(
        (
            SIGNATURE,
            chunk(b"IHDR", header),
            chunk(b"PLTE", palette),
            chunk(b"IDAT", pixels),
            chunk(b"IEND", b""),
        )
    )


def rows_of(image: Image.Image, buffer: bytearray | None = None) -> memoryview:
    """The bytes of ``image`` (one a pixel) as a PNG's rows, each after its filter byte:
    written at the start of ``buffer`` if it is large enough, else of a new one.

    Pillow's raw encoder, given a stride one byte longer than a row, packs each row into
    that much room (Image.tobytes("raw", mode, stride)): each row's extra byte, and one
    before the first, take the filter bytes (0: none)."""
    stride = image.width + 1
    size = stride * image.height
    if buffer is None or len(buffer) < size:
        buffer = bytearray(size)
    buffer[1:size] = memoryview(image.tobytes("raw", image.mode, stride))[: size - 1]
    buffer[0:size:stride] = bytes([NO_FILTER]) * image.height
    return memoryview(buffer)[:size]


class Buffers:
    """Buffers to write a PNG's rows in, kept between images: a new one of a megabyte or
    more is fresh memory each time, whose page faults cost more than writing it (1-2 ms
    of a 5-player Longo scoreboard's 12). At most ``keep``, each as large as the largest
    image it held; each thread takes its own."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._buffers: list[bytearray] = []
        self._lock = threading.Lock()

    def take(self) -> bytearray | None:
        with self._lock:
            return self._buffers.pop() if self._buffers else None

    def give(self, buffer: object) -> None:
        if isinstance(buffer, bytearray):
            with self._lock:
                if len(self._buffers) < self.keep:
                    self._buffers.append(buffer)

    def __len__(self) -> int:
        return len(self._buffers)


# Two buffers, as large as the largest images (a 5-player Longo scoreboard's 1.6 MB).
ROWS = Buffers(keep=2)
