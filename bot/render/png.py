"""PNG files of palette images, written here rather than by Pillow: the pixels deflated by
libdeflate (the ``deflate`` package) when it is installed, which takes about half of
zlib's time for files no larger, and the palette cut to the colours the image uses.

Encoding is most of an image's time: a 864 x 562 sheet is 485 KB of palette indices, and
zlib at the level that keeps it small takes 5-6 ms on it. Sheets are therefore deflated
in runs of rows kept in a cache (:class:`RunCache`): after a move, only the rows that
changed are deflated again (a third of them, along a game).
"""

from __future__ import annotations

import hashlib
import io
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from itertools import pairwise
from types import ModuleType
from typing import NamedTuple

from PIL import Image

libdeflate: ModuleType | None
try:
    import deflate as libdeflate
except ImportError:  # zlib then, slower for the same size
    libdeflate = None

SIGNATURE = b"\x89PNG\r\n\x1a\n"
PALETTE_TYPE = 3  # IHDR colour type: palette indices
NO_FILTER = 0  # each row's filter byte: palette images compress best unfiltered
Raw = bytes | bytearray  # rows of pixels, as rows_of gives them, or runs of them


def compress(data: Raw, level: int) -> bytes:
    """``data`` as a zlib stream, at ``level`` (libdeflate's 1-12, or zlib's 1-9)."""
    if libdeflate is not None:
        return bytes(libdeflate.zlib_compress(data, level))
    return zlib.compress(data, min(level, 9))


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode(image: Image.Image, level: int, colours: int | None = None,
           runs: RunCache | None = None, cuts: Sequence[int] = ()) -> bytes:
    """``image`` (mode "P", no transparency) as an 8-bit palette PNG with its first
    ``colours`` palette entries (those it uses if not given); images of up to 16 colours
    go to Pillow, which packs them into fewer bits per pixel. With ``runs``, the pixels
    are deflated in runs of rows (see :func:`run_edges`), each from that cache if it has
    it."""
    if image.mode == "P" and colours is None:
        highest = image.getextrema()[1]  # one band: its (lowest, highest)
        assert not isinstance(highest, tuple)
        colours = int(highest) + 1
    if not colours or colours <= 16 or "transparency" in image.info:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=min(level, 9))
        return buffer.getvalue()
    width, height = image.size
    raw = rows_of(image)
    palette = bytes((image.getpalette() or [])[:3 * colours])
    header = struct.pack(">IIBBBBB", width, height, 8, PALETTE_TYPE, 0, 0, 0)
    return b"".join((SIGNATURE, chunk(b"IHDR", header), chunk(b"PLTE", palette),
                     chunk(b"IDAT", pixels(raw, width + 1, level, runs, cuts)),
                     chunk(b"IEND", b"")))


def pixels(raw: Raw, stride: int, level: int, runs: RunCache | None,
           cuts: Sequence[int] = ()) -> bytes:
    """The zlib stream of the rows ``raw`` (``stride`` bytes each): in one piece, or in
    runs from ``runs`` (see :func:`run_edges`)."""
    if runs is None:
        return compress(raw, level)
    edges = [row * stride for row in run_edges(len(raw) // stride, cuts)]
    return zlib_stream([runs.get(raw[a:b], level) for a, b in pairwise(edges)])


def run_edges(height: int, cuts: Sequence[int] = ()) -> list[int]:
    """Where runs of rows start, and ``height``: at each of ``cuts`` (the edges of parts
    of the image that change apart, such as a sheet's rows), and between them in runs
    of about ``RUN_ROWS``."""
    bounds = sorted({0, height, *(c for c in cuts if 0 < c < height)})
    edges = [0]
    for top, bottom in pairwise(bounds):
        count = max(1, round((bottom - top) / RUN_ROWS))
        edges += [top + (bottom - top) * k // count for k in range(1, count + 1)]
    return edges


def rows_of(image: Image.Image) -> bytearray:
    """The bytes of ``image`` (one a pixel) as a PNG's rows: each after its filter byte.

    Pillow's raw encoder, given a stride one byte longer than a row, packs each row into
    that much room (Image.tobytes("raw", mode, stride)): each row's extra byte, and one
    before the first, take the filter bytes (0: none). As fast as pasting the image into
    one a pixel wider and packing that with the encoder itself: 29 µs for a sheet's 864 x
    562, 80 µs for 1300 x 1000."""
    stride = image.width + 1
    raw = bytearray(1)
    raw += image.tobytes("raw", image.mode, stride)
    del raw[-1]
    raw[::stride] = bytes([NO_FILTER]) * image.height
    return raw


# --- runs: a palette PNG from separately deflated, cached runs of rows ------------------
#
# Unfiltered, each row of a PNG is its filter byte and its pixels, so any run of rows is
# one byte string: deflated on its own (without a final block, ending byte-aligned), runs
# join into one zlib stream. A sheet redrawn after a move changes a few runs of rows: the
# others come from a cache of their deflated bytes.

RUN_ROWS = 40  # rows per run: fewer are found again more often, and compress less
ENTRY_BYTES = 200  # a cached run's key, tuple and list links, near enough
SPLIT_FROM = 4096  # bytes: a run libdeflate deflates in several blocks is split in halves
SYNC = b"\x00\x00\xff\xff"  # an empty stored block: what a sync flush ends with
FINAL = b"\x03\x00"  # an empty final block (fixed codes): the end of the stream
PROBE = b"c\x00\x00"  # a last block (fixed codes) holding one zero byte
ZLIB_HEADER = b"\x78\xda"  # deflate, 32 KB window, best compression (a hint only)
ADLER_BASE = 65521


class Deflated(NamedTuple):
    """A run of rows deflated: non-final blocks ending byte-aligned, with the Adler-32
    and length of the bytes it holds (to join the stream's checksum)."""

    data: bytes
    adler: int
    length: int


def deflate_run(raw: Raw, level: int) -> Deflated:
    """``raw`` as deflate blocks that another run may follow."""
    adler = libdeflate.adler32(raw) if libdeflate is not None else zlib.adler32(raw)
    return Deflated(deflated(raw, level), adler, len(raw))


def deflated(raw: Raw, level: int) -> bytes:
    """``raw`` deflated by libdeflate if it gives one block (its final bit cleared, then
    an empty stored block to end on a byte), else in halves (zlib takes 3-4 times as
    long); by zlib with a sync flush without libdeflate, or for short runs libdeflate
    gives several blocks."""
    if libdeflate is not None:
        data = bytearray(libdeflate.deflate_compress(raw, level))
        data[0] &= 0xFE  # not the last block (a single block's header is the first bit)
        end = ending(bytes(data), raw)
        if end is not None:
            return bytes(data) + end
        if len(raw) >= 2 * SPLIT_FROM:
            half = len(raw) // 2
            return deflated(raw[:half], level) + deflated(raw[half:], level)
    compressor = zlib.compressobj(min(level, 9), zlib.DEFLATED, -15)
    return compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH)


def ending(data: bytes, raw: Raw) -> bytes | None:
    """What ends the non-final blocks ``data`` (libdeflate's deflated ``raw``) on a byte:
    an empty stored block, its 3-bit header in the last byte's padding if that has room,
    or in a byte more. The right one is the one after which a last block holding a zero
    byte inflates too; with neither, ``data`` is several blocks, the last still final."""
    assert libdeflate is not None
    for end in (SYNC, b"\x00" + SYNC):
        try:
            out = libdeflate.deflate_decompress(data + end + PROBE, len(raw) + 1)
        except libdeflate.DeflateError:
            continue
        if len(out) == len(raw) + 1 and out[-1] == 0 and out[:-1] == raw:
            return end
    return None


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs and the second's length
    (zlib's adler32_combine)."""
    rem = length % ADLER_BASE
    a = ((first & 0xFFFF) + (second & 0xFFFF) + ADLER_BASE - 1) % ADLER_BASE
    b = (rem * (first & 0xFFFF) + (first >> 16) + (second >> 16) + ADLER_BASE - rem) % ADLER_BASE
    return (b << 16) | a


def zlib_stream(runs: Sequence[Deflated]) -> bytes:
    """The runs joined into one zlib stream of their bytes in turn."""
    adler = 1
    for run in runs:
        adler = adler32_combine(adler, run.adler, run.length)
    return b"".join((ZLIB_HEADER, *(run.data for run in runs), FINAL,
                     struct.pack(">I", adler)))


class RunCache:
    """Deflated runs of rows by the SHA-1 of their bytes, least recently used dropped
    past ``max_bytes`` (deflated bytes and ``ENTRY_BYTES`` each). Threads may share it."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._runs: OrderedDict[tuple[int, bytes], Deflated] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, raw: Raw, level: int) -> Deflated:
        key = (level, digest(raw))
        with self._lock:
            found = self._runs.get(key)
            if found is not None:
                self._runs.move_to_end(key)
                return found
        found = deflate_run(raw, level)
        with self._lock:
            if key not in self._runs:
                self._runs[key] = found
                self.size += len(found.data) + ENTRY_BYTES
            while self.size > self.max_bytes and self._runs:
                _, run = self._runs.popitem(last=False)
                self.size -= len(run.data) + ENTRY_BYTES
        return found

    def __contains__(self, raw: Raw) -> bool:
        found = digest(raw)
        with self._lock:
            return any(key[1] == found for key in self._runs)

    def clear(self) -> None:
        with self._lock:
            self._runs.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self._runs)


def digest(raw: Raw) -> bytes:
    """A run's cache key: SHA-1 takes a third of BLAKE2's time here, and its 160 bits make
    two different runs meeting on one key beyond belief."""
    return hashlib.sha1(raw, usedforsecurity=False).digest()
