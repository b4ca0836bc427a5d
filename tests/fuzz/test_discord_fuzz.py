"""Property-based fuzzing of the Discord layer: random member actions through the
stand-in, with the invariants of :mod:`tests.fuzz.fuzzer` checked after every one.

Bounded for CI (a few examples, derandomized so every run tries the same ones);
``python -m benchmarks.soak`` runs the same actions by the ten thousand.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from .fuzzer import TEXTS, run

TEXT = st.one_of(
    st.sampled_from(TEXTS),
    st.text(max_size=40),
    st.text(alphabet="0123456789smhd٣５ ", max_size=12),
)


class Drawn:
    """Choices drawn from hypothesis, so a failing sequence shrinks."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def index(self, size: int) -> int:
        return self.data.draw(st.integers(0, size - 1)) if size > 1 else 0

    def text(self) -> str:
        return self.data.draw(TEXT)


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # CI reports the drawn sequence unshrunk
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_member_actions_keep_every_invariant(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(Path(folder) / "qwixx.db", Drawn(data), actions=25))
    assert figures.interactions > 0
