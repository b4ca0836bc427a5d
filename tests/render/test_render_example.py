"""The example script that draws the README images."""

from __future__ import annotations

from pathlib import Path

from bot.render.example import longo_example, qwinto_example, write_all, write_examples

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


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_docs_images_are_what_the_command_draws(tmp_path: Path) -> None:
    """docs/*.png are what ``python -m bot.render.example docs/`` (the README's command)
    draws now: the same files, pixel for pixel.

    Pixels, not bytes: the bytes depend on the deflate library and its level (the docs'
    sheets once matched their drawing pixel for pixel in other bytes), while the pixels
    came out the same under Pillow 11.0, 12.0 and 13.0 (FreeType 2.13.2 to 2.14.3). A
    tolerance would let a changed cell or word through, so none is allowed."""
    drawn = write_all(tmp_path)
    assert sorted(p.name for p in DOCS.glob("*.png")) == sorted(drawn)
    stale = []
    for name, path in sorted(drawn.items()):
        now, kept = image(path.read_bytes()), image((DOCS / name).read_bytes())
        if now.size != kept.size or now.convert("RGB").tobytes() != kept.convert("RGB").tobytes():
            stale.append(name)
    assert not stale, f"{stale} are out of date: run python -m bot.render.example docs/"
