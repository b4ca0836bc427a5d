"""The dice's emojis: every face a game can show, each a small square PNG within
Discord's limits, legible at the size Discord shows an emoji in a line, named by a
version that follows the drawing."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from bot.render import die_emoji
from bot.render.dice import colour_of
from bot.rules import VARIANTS, new_game

INLINE = 22
"""Pixels Discord shows an emoji at in a line of text."""
LIGHT, DARK = (255, 255, 255), (49, 51, 56)
"""Discord's light and dark themes' message backgrounds."""


def shown_faces(variant: str, games: int = 6) -> set[tuple[str, int]]:
    """Every (colour, face) the dice showed in ``games`` games played at random."""
    seen: set[tuple[str, int]] = set()
    for seed in range(games):
        rng, players = random.Random(seed), [1, 2, 3]
        game = new_game(variant, players, seed=seed)
        for _ in range(2000):
            if game.finished:
                break
            seen |= {(colour_of(d), f) for d, f in game.dice_on_table().items()}
            waiting = sorted(game.decision().waiting)
            game, _ = game.apply(waiting[0], rng.choice(game.legal_moves(waiting[0])))
    return seen


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_face_a_game_shows_has_an_emoji(variant: str) -> None:
    assert shown_faces(variant) <= set(die_emoji.every_face())


def test_the_faces_are_the_qwixx_dice_longos_eight_faces_and_qwintos_dice() -> None:
    faces = set(die_emoji.every_face())
    assert len(faces) == len(die_emoji.every_face()) == 5 * 8 + 2 * 6
    assert {("white", 8), ("blue", 7), ("orange", 6), ("purple", 1)} <= faces
    assert not {("orange", 7), ("purple", 8), ("red", 9), ("red", 0)} & faces


def test_each_emoji_is_a_small_transparent_square_png() -> None:
    for data in die_emoji.emoji_art().values():
        assert len(data) <= 256 * 1024
        picture = Image.open(io.BytesIO(data))
        assert picture.format == "PNG" and picture.mode == "RGBA"
        assert picture.size == (die_emoji.SIZE, die_emoji.SIZE)
        assert picture.getpixel((0, 0))[3] == 0  # the corner shows the theme behind it


def inline(colour: str, face: int, background: tuple[int, int, int]) -> Image.Image:
    """The emoji as a reader sees it in a line: 22 pixels over the theme's background."""
    small = die_emoji.draw(colour, face).resize((INLINE, INLINE), Image.Resampling.LANCZOS)
    seen = Image.new("RGB", small.size, background)
    seen.paste(small, (0, 0), small)
    return seen


def difference(a: Image.Image, b: Image.Image) -> int:
    """How far apart the two pictures are where they differ most (0-255, a pixel's
    channels averaged): a pip that is there in one and not the other counts fully."""
    return int(max(ImageChops.difference(a, b).convert("L").getextrema()))


@pytest.mark.parametrize("background", [LIGHT, DARK], ids=["light", "dark"])
def test_at_inline_size_every_face_differs_from_the_die_s_other_faces(
    background: tuple[int, int, int],
) -> None:
    """At 22 pixels each face still differs from every other face of its die, and every
    die from the theme around it (a white die keeps its edge on white)."""
    plain = Image.new("RGB", (INLINE, INLINE), background)
    faces = die_emoji.every_face()
    for colour in {c for c, _ in faces}:
        seen = {f: inline(colour, f, background) for c, f in faces if c == colour}
        for face, picture in seen.items():
            assert difference(picture, plain) > 100, (colour, face)
            for other, next_picture in seen.items():
                if other != face:
                    assert difference(picture, next_picture) > 80, (colour, face, other)


def test_the_version_follows_the_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    version = die_emoji.art_version()
    assert len(version) == 4 and int(version, 16) >= 0
    monkeypatch.setattr(die_emoji, "EDGE", die_emoji.EDGE + 2)
    die_emoji.drawn_art.cache_clear()
    try:
        assert die_emoji.art_version() != version
    finally:
        monkeypatch.undo()
        die_emoji.drawn_art.cache_clear()
    assert die_emoji.art_version() == version
