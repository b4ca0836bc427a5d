"""The collector's settings for a long-running bot."""

from __future__ import annotations

import gc
import platform
import sys
from collections.abc import Iterator

import pytest

from bot.heap import THRESHOLDS, limit_arenas, tune_gc


@pytest.fixture
def restored() -> Iterator[None]:
    """Put the collector back as it was, for the tests that follow."""
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_start_up_objects_are_frozen_and_the_young_generation_grows(restored: None) -> None:
    kept = [[n] for n in range(100)]
    tune_gc()
    assert gc.get_threshold() == THRESHOLDS and THRESHOLDS[0] > 700
    assert gc.get_freeze_count() >= len(kept)
    assert gc.is_tracked(kept[0])
    assert all(found is not kept[0] for found in gc.get_objects())  # out of the walks


def test_malloc_keeps_to_two_arenas_unless_the_environment_sets_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert not limit_arenas()
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert limit_arenas() is glibc
