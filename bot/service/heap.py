"""The interpreter's garbage collector and the C allocator, set for a long-running bot.

A click allocates many small containers (the rules' state, the decoded JSON, its
task and futures) and the bot keeps many for long (the games, records and sheets of
every open game, the modules, discord.py's caches). With CPython's defaults (a young
collection every 700 net allocations) the young objects of clicks in flight survive
into the older generations, and every few seconds a full collection walks the whole
heap; measured with 1,000 games and 2,000 clicks/s arriving (``bench_click``), that
was a third or more of the run's time, in pauses up to 200 ms.

:func:`tune_gc` moves what exists at start-up out of the collector's sight
(:func:`gc.freeze`: modules and classes are never garbage) and lets the young
generation grow to 50,000 objects before it is collected: most of a click's objects
are freed by reference counting long before that, so fewer survive to be walked again.
With 1,000 clicks in flight at once (``bench_click``'s burst), their live objects alone
are tens of thousands: a young generation of 10,000 found most of them alive at each
collection and moved them on to be walked again, 15% of the burst's time (0.13-0.19 s
of 5,000 clicks) against 1.5-5% (0.014-0.046 s) with 50,000, and 0.135 against 0.12 ms
of CPU a click.

:func:`limit_arenas` keeps glibc's ``malloc`` to :data:`ARENAS` arenas: by default each
thread that allocates gets an arena of its own (up to eight per core), each keeping its
own free memory, and the store's reader and writer threads, Discord's and those that
draw images all allocate (rows, JSON text, images). With 1,000 games open the process
holds 1.4 MB less (``bench_startup``: 66.0 -> 64.5 MB) with no change in a click's CPU
(``bench_click``). The bot's start-up (``bot.__main__``) calls it before any thread
starts; a ``MALLOC_ARENA_MAX`` set in the environment is left as it is.
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

THRESHOLDS: Final = (50_000, 10, 10)
"""Young generation size, then how many collections of one generation trigger one of
the next (CPython's defaults: 700, 10, 10)."""


def tune_gc() -> None:
    """Freeze what the process holds now and set :data:`THRESHOLDS`; call once, when
    start-up is done (a second call freezes what came since)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Keep glibc's ``malloc`` to ``arenas`` arenas (see the module's docstring); call it
    before the threads start. False where it does not apply: not Linux, a C library
    without ``mallopt``, or ``MALLOC_ARENA_MAX`` set by whoever runs the bot."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))
