"""The example script that draws the README images."""

from __future__ import annotations

from pathlib import Path

from bot.render.example import write_examples

from .helpers import image


def test_example_writes_three_small_images(tmp_path: Path) -> None:
    paths = write_examples(tmp_path)
    assert sorted(paths) == ["dice.png", "scoreboard.png", "sheet.png"]
    assert all(path.exists() for path in paths.values())
    assert paths["sheet.png"].stat().st_size < 60_000
    assert image(paths["sheet.png"].read_bytes()).width <= 1000
