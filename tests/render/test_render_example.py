"""The example script that draws the README images."""

from __future__ import annotations

from pathlib import Path

from bot.render.example import longo_example, qwinto_example, write_examples

from .helpers import image

SHEETS = ["sheet-longo.png", "sheet-qwinto.png", "sheet.png"]


def test_example_writes_six_small_images(tmp_path: Path) -> None:
    paths = write_examples(tmp_path)
    assert sorted(paths) == ["dice.png", "scoreboard.png", *SHEETS, "table.png"]
    assert all(path.exists() for path in paths.values())
    for name in SHEETS:
        assert paths[name].stat().st_size < 60_000
        assert image(paths[name].read_bytes()).width <= 1050  # Longo's readable cells


def test_examples_show_what_they_are_meant_to_show() -> None:
    longo = longo_example(22)
    assert not longo.finished
    assert any(m.kind == "lucky" for m in longo.legal_moves(1))
    qwinto = qwinto_example(22)
    assert not qwinto.finished
    assert sum(m.kind == "place" for m in qwinto.legal_moves(1)) >= 3
