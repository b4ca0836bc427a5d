"""The interpreter's garbage collector and the C allocator, set for a long-running bot;
the bot's start-up (``bot.__main__``) calls both before any thread starts.

A click allocates many small containers (the rules' state, decoded JSON, its task and
futures) while the bot keeps many for long (every open game's records and sheets, the
modules, discord.py's caches). With CPython's defaults the young objects of clicks in
flight survive into the older generations, and full collections walk the whole heap in
long pauses. :func:`tune_gc` freezes what exists at start-up (modules and classes are
never garbage) and lets the young generation grow (:data:`THRESHOLDS`): most of a
click's objects are freed by reference counting long before that.

:func:`tune_malloc` keeps glibc's ``malloc`` to :data:`ARENAS` arenas: by default each
thread that allocates (the store's, Discord's, the image workers') gets an arena of its
own with its own free memory. A ``MALLOC_ARENA_MAX`` set in the environment is left as
it is. It also gives every block of :data:`MMAP_FROM` bytes or more pages of its own
(``mmap``), handed back whole when freed: glibc's default moves that threshold up to the
largest block freed so far, and then a supersampled image (a sheet's is 7.8 MB) comes
from the heap, where what it leaves behind stays resident; a block of pages of its own
also holds only the pages that are written (an image left unset, drawn in part, see
:meth:`bot.render.canvas.PrintedCard.region`). What each saves, measured, is in
docs/performance.md ("The heap").
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
from typing import Final

ARENAS: Final = 2
"""``malloc``'s arenas: the main thread's (the event loop) and one that every other
thread shares."""
M_ARENA_MAX: Final = -8
"""glibc's ``mallopt`` parameter for the most arenas (malloc.h)."""
MMAP_FROM: Final = 1 << 20
"""Blocks from this size on get pages of their own (see the module)."""
M_MMAP_THRESHOLD: Final = -3
"""glibc's ``mallopt`` parameter for that size (malloc.h); setting it stops its moving."""

THRESHOLDS: Final = (50_000, 10, 10)
"""Young generation size, then how many collections of one generation trigger one of
the next (CPython's defaults: 700, 10, 10)."""


def tune_gc() -> None:
    """Freeze what the process holds now and set :data:`THRESHOLDS`; call once, when
    start-up is done (a second call freezes what came since)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def tune_malloc(arenas: int = ARENAS) -> bool:
    """Keep glibc's ``malloc`` to ``arenas`` arenas and give large blocks pages of their
    own (see the module's docstring); call it before the threads start. False where it
    does not apply: not Linux, a C library without ``mallopt``, or ``MALLOC_ARENA_MAX``
    set by whoever runs the bot (then nothing is set)."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_FROM))
