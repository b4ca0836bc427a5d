"""How far long work is, and how long is left, for a person at a terminal.

``with stage("copying rows", total, "rows") as advance: ... advance(n)`` draws a bar
(tqdm) on standard error while standard error is a terminal, and nothing otherwise: a
service's journal, ``docker logs``, a pipe or a test never fill with bars. The work
itself logs what it did, once, as it always has.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

Advance = Callable[[int], None]
"""Tell the bar that ``n`` more units are done."""
MIN_INTERVAL = 0.5
"""A bar is redrawn at most once in this many seconds (a terminal is slow to write to)."""


def watched() -> bool:
    """Whether a bar would be seen (standard error is a terminal): work may skip counting
    its total otherwise."""
    return sys.stderr.isatty()


def note(text: str, *, stream: TextIO | None = None) -> None:
    """``text`` on a line of its own, on a terminal only: a step that cannot be measured
    (one long query) but should not leave the screen silent."""
    out = sys.stderr if stream is None else stream
    if out.isatty():
        print(text, file=out, flush=True)


def _nothing(done: int) -> None:
    """The advance of work no one watches."""


@contextmanager
def stage(
    what: str, total: int, unit: str = "", *, eta: bool = True, stream: TextIO | None = None
) -> Iterator[Advance]:
    """A bar for ``total`` units of ``what`` on ``stream`` (standard error) if it is a
    terminal. ``eta``: whether the time left can be told from the units (not when one
    unit may take far longer than another)."""
    out = sys.stderr if stream is None else stream
    if not out.isatty() or total <= 0:
        yield _nothing
        return
    from tqdm import tqdm

    counts = "{n_fmt}/{total_fmt}{unit}"  # the unit written with its space, but for bytes
    shape = (
        f"{{desc}}: {{percentage:3.0f}}% |{{bar}}| {counts} "
        "[{elapsed}<{remaining}, {rate_fmt}]"
        if eta
        else f"{{desc}}: {counts} [{{elapsed}}]"
    )
    shown_unit = unit if unit == "B" else f" {unit or 'steps'}"
    with tqdm(
        total=total,
        desc=what,
        unit=shown_unit,
        file=out,
        mininterval=MIN_INTERVAL,
        dynamic_ncols=True,
        unit_scale=unit == "B" or total >= 100_000,
        unit_divisor=1000,
        bar_format=shape,
        leave=True,
    ) as bar:

        def advance(done: int) -> None:
            bar.update(done)

        yield advance
