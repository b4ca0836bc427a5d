"""The fixed palette of composed images: flat colours must come out exactly."""

from __future__ import annotations

from PIL import Image

from bot.render import palette, theme


def test_every_palette_colour_maps_to_itself() -> None:
    colours = palette.colours()
    assert len(colours) <= 256
    strip = Image.new("RGB", (len(colours), 1))
    for x, colour in enumerate(colours):
        strip.putpixel((x, 0), colour)
    mapped = palette.to_palette(strip).convert("RGB")
    assert [mapped.getpixel((x, 0)) for x in range(len(colours))] == list(colours)


def test_the_theme_colours_are_in_the_palette() -> None:
    wanted = [
        theme.PAPER,
        theme.INK,
        theme.MUTED,
        palette.ACTIVE_FILL,
        theme.WINNER,
        theme.SKIPPED_CELL,
        theme.COLUMN_DONE,
        theme.CLOVER,
    ]
    for row in theme.ROW_COLOURS.values():
        wanted += [row.band, row.cell, row.ink]
    assert [c for c in wanted if c not in palette.colours()] == []
