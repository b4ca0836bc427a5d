"""The fast lane: every test but the long ones carries no ``slow`` mark.

``python -m pytest -m "not slow"`` runs the fast lane (the rules, the store and service
on SQLite, the channel's words, images, languages, the command line); the README's
command runs everything. A test is ``slow`` when it is one of:

* ``e2e``: the real bot against the Discord stand-in (``tests/e2e``, the stand-in games
  of ``tests/truth`` and the fuzzer);
* ``postgres``: it needs the PostgreSQL server the tests start (the ``postgres``
  fixture, a ``postgresql`` parameter of ``database``, or a module about PostgreSQL);
* ``packaging``: it builds or installs the package, or runs pytest or ``.ci/run`` again;

and a few long checks mark themselves ``slow`` where they stand (the channel's truth over
a hundred games a variant, whose fast-lane sample runs apart; a fresh interpreter per
module of the import graph).
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
E2E = ("e2e", "fuzz", "truth/test_stand_in_truth.py")
PACKAGING = ("test_package.py", "test_openapi_gate.py", "test_readme.py")


def lanes(item: pytest.Item) -> list[str]:
    """The marks that keep ``item`` out of the fast lane."""
    where = Path(str(item.path)).relative_to(TESTS).as_posix()
    params = getattr(getattr(item, "callspec", None), "params", {})
    found = []
    if any(where == e or where.startswith(f"{e}/") for e in E2E):
        found.append("e2e")
    if (
        "postgres" in getattr(item, "fixturenames", ())
        or "postgresql" in params.values()
        or "postgres" in Path(where).stem
    ):
        found.append("postgres")
    if Path(where).name in PACKAGING:
        found.append("packaging")
    return found


def mark_lanes(items: list[pytest.Item]) -> None:
    for item in items:
        for lane in lanes(item):
            item.add_marker(lane)
        if lanes(item):
            item.add_marker("slow")
