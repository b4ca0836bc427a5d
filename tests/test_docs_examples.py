"""The docs' examples run as they read (a changed API, or a broken boundary, fails here)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
WITH_EXAMPLES = ["architecture.md"]


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_examples_run(name: str) -> None:
    result = doctest.testfile(
        str(DOCS / name), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted > 5 and result.failed == 0


def test_every_doc_with_examples_is_run() -> None:
    with_examples = sorted(p.name for p in DOCS.glob("*.md") if ">>> " in p.read_text())
    assert with_examples == sorted(WITH_EXAMPLES)
