"""The collector's settings for a long-running bot."""

from __future__ import annotations

import gc
import platform
import subprocess
import sys
from collections.abc import Iterator

import pytest

from bot.heap import THRESHOLDS, tune_gc, tune_malloc


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
    assert not tune_malloc()
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert tune_malloc() is glibc


CHILD = """
import subprocess
import sys
from bot.heap import tune_malloc

def anon_mb():
    with open("/proc/self/status") as status:
        return int(next(l for l in status if l.startswith("RssAnon:")).split()[1]) / 1024

if sys.argv[1] == "tuned":
    assert tune_malloc()
for _ in range(2):  # glibc's default keeps the second block in the heap once freed
    block = bytearray(16 * 2**20)
    del block
print(anon_mb())
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc's malloc",
)
def test_a_large_block_freed_is_given_back_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)

    def held(how: str) -> float:
        run = [sys.executable, "-c", CHILD, how]
        return float(subprocess.run(run, check=True, capture_output=True, text=True).stdout)

    assert held("default") - held("tuned") > 8  # MB: the 16 MB block stayed without it
