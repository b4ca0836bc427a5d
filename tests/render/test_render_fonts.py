"""Names in any script: every character drawn by a bundled font that has its glyph."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from bot.render import fonts, theme
from bot.render.canvas import Canvas

from .helpers import changed

WORLD = [
    "さくら",
    "王小明",
    "김민준",
    "Zoë 🎲",
    "🦊 Fuchs",
    "Ana 🇧🇷",
    "Łukasz Żółć",
    "Çağrı Şahin",
    "João Conceição",
    "Ренат",
    "Νίκος",
    "👨‍👩‍👧 family",
    "❤️ Lia",
    "👍🏽 ok",
    "1️⃣ first",
    "Noël ✨",
]
EVERY_FONT = {fonts.MAIN: theme.FONT_BOLD, fonts.CJK: fonts.CJK_FONT, fonts.EMOJI: fonts.EMOJI_FONT}


@pytest.mark.parametrize("name", WORLD)
@pytest.mark.parametrize("bold", [True, False])
def test_every_character_of_a_name_has_a_glyph_in_the_font_that_draws_it(
    name: str, bold: bool
) -> None:
    main = theme.font_path(bold)
    drawn = fonts.runs(name, main)
    assert "".join(part for _, part in drawn) == name  # nothing replaced
    for kind, part in drawn:
        have = fonts.coverage(main if kind == fonts.MAIN else EVERY_FONT[kind])
        for cluster in fonts.clusters(part):
            # Joiners and selectors may be shaped away; the base character must be there.
            assert ord(cluster[0]) in have, (name, kind, cluster)


def test_scripts_go_to_the_fonts_that_have_them() -> None:
    main = theme.FONT_BOLD
    assert fonts.runs("王小明", main) == ((fonts.CJK, "王小明"),)
    assert fonts.runs("김민준", main) == ((fonts.CJK, "김민준"),)
    assert fonts.runs("Zoë 🎲", main) == ((fonts.MAIN, "Zoë "), (fonts.EMOJI, "🎲"))
    assert fonts.runs("Ana 🇧🇷", main) == ((fonts.MAIN, "Ana "), (fonts.EMOJI, "🇧🇷"))
    assert fonts.runs("❤️", main) == ((fonts.EMOJI, "❤️"),)  # the emoji, not DejaVu's heart
    assert fonts.runs("❤", main) == ((fonts.MAIN, "❤"),)  # text presentation
    assert fonts.plain("Mehmet −5 ▶", main)
    assert not fonts.plain("🦊", main)


def test_a_script_no_font_has_is_drawn_as_replacement_characters() -> None:
    assert fonts.runs("ไทย", theme.FONT_BOLD) == ((fonts.MAIN, "���"),)


def test_clusters_keep_flags_families_skin_tones_and_accents_whole() -> None:
    assert fonts.clusters("Ana 🇧🇷🇵🇱") == ("A", "n", "a", " ", "🇧🇷", "🇵🇱")
    assert fonts.clusters("👨‍👩‍👧x") == ("👨‍👩‍👧", "x")
    assert fonts.clusters("👍🏽1️⃣") == ("👍🏽", "1️⃣")
    assert fonts.clusters("e\u0301a") == ("e\u0301", "a")


def test_names_are_whole_up_to_16_characters_then_cut_after_the_12th() -> None:
    assert fonts.short_name("A" * 16) == "A" * 16
    assert fonts.short_name("abcdefghijklmnopq") == "abcdefghijkl…"
    assert fonts.short_name("🇧🇷" * 17) == "🇧🇷" * 12 + "…"  # a flag is one character


def cell_of(text: str, bold: bool = True) -> Image.Image:
    canvas = Canvas.new(300, 50)
    canvas.text((10, 25), text, 24, theme.INK, bold=bold, anchor="lm")
    return canvas.image.reduce(theme.SUPERSAMPLE)


def tofu(bold: bool) -> Image.Image:
    """What a character that DejaVu lacks looks like drawn with DejaVu alone."""
    canvas = Canvas.new(300, 50)
    face = theme.font(canvas.px(24), bold)
    canvas.draw.text(canvas.point((10, 25)), "王", font=face, fill=theme.INK, anchor="lm")
    return canvas.image.reduce(theme.SUPERSAMPLE)


@pytest.mark.parametrize("bold", [True, False])
def test_cjk_and_emoji_are_not_drawn_as_dejavus_missing_glyph(bold: bool) -> None:
    box = tofu(bold)
    for name in ["王", "さ", "김", "🦊", "🎲"]:
        drawn = cell_of(name, bold)
        assert drawn.getbbox() != (0, 0, 0, 0)
        assert changed(drawn, box) > 0.01, name


def test_different_characters_in_other_scripts_draw_differently() -> None:
    assert changed(cell_of("王小明"), cell_of("王小朋")) > 0.002
    assert changed(cell_of("김민준"), cell_of("김민중")) > 0.002
    assert changed(cell_of("Ana 🇧🇷"), cell_of("Ana 🇵🇱")) > 0.002


def test_emoji_keep_their_colours() -> None:
    drawn = cell_of("🦊").convert("RGB")
    colours = {drawn.getpixel((x, y)) for x in range(drawn.width) for y in range(drawn.height)}
    assert any(r > 200 and 80 < g < 180 and b < 80 for r, g, b in colours)  # orange fur


def test_widths_count_every_run() -> None:
    canvas = Canvas.new(10, 10)
    alone = canvas.text_width("Ana", 24, True)
    assert canvas.text_width("Ana 🇧🇷", 24, True) > alone + 15
    assert canvas.text_width("王小明", 24, True) > 3 * 20


@pytest.mark.parametrize("anchor", ["mm", "ls", "rs", "lt", "rm", "la"])
@pytest.mark.parametrize("bold,condensed", [(False, False), (True, False), (True, True)])
def test_text_from_a_cached_mask_has_the_pixels_of_imagedraw_text(
    anchor: str, bold: bool, condensed: bool
) -> None:
    """Canvas.text draws a mask made once per text, font and sub-pixel start: the same
    pixels as ImageDraw.text at the same point, wherever it falls (off the image too)."""
    rng = random.Random(anchor)
    for text in ["8", "12", "Total", "−3", "gy", "ÀÉ", " "]:
        for size in (7, 19, 40):
            x, y = rng.uniform(-30, 90), rng.uniform(-30, 90)
            ours, theirs = (Image.new("RGB", (140, 120), theme.PAPER) for _ in range(2))
            Canvas(ours, (x, y)).text(
                (0, 0), text, size, theme.INK, bold=bold, anchor=anchor, condensed=condensed
            )
            ImageDraw.Draw(theirs).text(
                Canvas(theirs, (x, y)).point((0, 0)),
                text,
                fill=theme.INK,
                font=theme.font(size, bold, condensed),
                anchor=anchor,
            )
            assert ours.tobytes() == theirs.tobytes(), (text, size, x, y)


def test_a_fonts_code_points_are_its_character_maps_runs() -> None:
    codes = fonts.CodePoints([70, 65, 66, 67, 0x1F600, 69])
    assert [c for c in range(60, 75) if c in codes] == [65, 66, 67, 69, 70]
    assert 0x1F600 in codes and 0x1F5FF not in codes and 0x1F601 not in codes
    assert 0 not in fonts.CodePoints([])
    dejavu = fonts.coverage(theme.FONT_REGULAR)
    assert ord("ł") in dejavu and ord("王") not in dejavu and 0x10FFFF not in dejavu
