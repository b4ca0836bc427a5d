"""A short soak (``benchmarks/soak_days.py``): counts, never times, so any machine passes."""

from __future__ import annotations

from pathlib import Path

from benchmarks.soak_days import soak
from bot.records.memo import KEPT
from bot.store.cache import KEPT as RECORDS_KEPT


async def test_a_short_soak_keeps_no_lock_descriptor_or_log_it_should_not(tmp_path: Path) -> None:
    figures = await soak(
        tmp_path, 4_000, tables=12, day_clicks=1_000, every=500, keep_days=2, seed=5, shown=False
    )
    counts = figures.counts
    assert counts.clicks >= 4_000 and counts.finished >= 50
    assert len(figures.samples) >= 8
    # The service keeps a game's lock only while someone holds or awaits it.
    assert figures.locks_left == 0
    assert all(s.locks <= 12 for s in figures.samples)
    # No descriptor opened per click or per game (the first sample comes before the
    # checkpointer's first checkpoint, which opens the WAL on its connection).
    assert len({s.fds for s in figures.samples[1:]}) == 1
    # Pruning the games that ended over two of the four days ago removes their logs.
    assert figures.pruned.games >= counts.finished // 4
    assert figures.pruned.moves > figures.pruned.games * 10
    assert (figures.pruned.freed_bytes or 0) > 0
    assert KEPT <= 4_096 and RECORDS_KEPT <= 4_096  # the caches the memory curve fills
