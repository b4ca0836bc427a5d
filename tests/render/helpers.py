"""Game states for render tests, built with tests.positions."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageChops

from bot.rules import new_game
from bot.rules.qwinto import QwintoGame
from bot.rules.qwixx import QwixxGame, QwixxRules
from tests.positions import reposition

Box = tuple[int, int, int, int]


class LongoLike(QwixxGame):
    """Longo's sheet geometry (15 numbers per row, lock span 2) for layout tests."""

    variant = "longo-test"
    title = "Qwixx Longo"
    rules = QwixxRules(faces=8, lock_span=2, lock_threshold=6)


def classic(players: int = 2, seed: int = 1) -> QwixxGame:
    game = new_game("classic", list(range(1, players + 1)), seed)
    assert isinstance(game, QwixxGame)
    return game


def with_state(
    game: QwixxGame,
    player: int = 1,
    *,
    crossed: dict[str, list[int]] | None = None,
    closed: tuple[str, ...] = (),
    penalties: int = 0,
    **state: Any,
) -> QwixxGame:
    """``game`` with ``player``'s crossed rows and penalties and the closed rows as given
    (a row holding its lock number is locked; ``state``: more of
    :func:`~tests.positions.reposition`'s keywords)."""
    sheet: dict[str, Any] = {row: list(numbers) for row, numbers in (crossed or {}).items()}
    sheet["penalties"] = penalties
    return reposition(game, sheets={player: sheet}, closed=list(closed), **state)


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def crop(data: bytes, box: Box) -> Image.Image:
    return image(data).convert("RGB").crop(box)


def changed(a: Image.Image, b: Image.Image, threshold: int = 40) -> float:
    """Fraction of pixels whose colour differs by more than ``threshold`` in some channel."""
    diff = ImageChops.difference(a, b).convert("RGB")
    bands = [band.point(lambda v: 255 if v > threshold else 0) for band in diff.split()]
    mask = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    return mask.histogram()[255] / (a.width * a.height)


def dark(img: Image.Image, limit: int = 70) -> float:
    """Fraction of near-black pixels (every channel below ``limit``)."""
    bands = [band.point(lambda v: 255 if v < limit else 0) for band in img.convert("RGB").split()]
    mask = ImageChops.darker(ImageChops.darker(bands[0], bands[1]), bands[2])
    return mask.histogram()[255] / (img.width * img.height)


def grown(box: Box, by: int) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def longo(
    players: int = 2, seed: int = 1, lucky: dict[int, tuple[int, int]] | None = None
) -> QwixxGame:
    """A real Longo game, its lucky numbers replaced by ``lucky`` where given."""
    game = new_game("longo", list(range(1, players + 1)), seed)
    assert isinstance(game, QwixxGame)
    return reposition(game, lucky=lucky) if lucky else game


def qwinto(players: int = 2, seed: int = 1) -> QwintoGame:
    game = new_game("qwinto", list(range(1, players + 1)), seed)
    assert isinstance(game, QwintoGame)
    return game


def with_fields(
    game: QwintoGame,
    player: int = 1,
    *,
    fields: dict[str, dict[int, int]] | None = None,
    failed: int = 0,
    dice: dict[str, int] | None = None,
    **state: Any,
) -> QwintoGame:
    """``game`` with ``player``'s written numbers and failed throws as given, and, where
    given, the dice thrown (the active player is then placing them; ``state``: more of
    :func:`~tests.positions.reposition`'s keywords)."""
    sheet: dict[str, Any] = {row: dict(written) for row, written in (fields or {}).items()}
    sheet["failed"] = failed
    if dice is not None:
        state = {"phase": "place", **state, "dice": dice}
    return reposition(game, sheets={player: sheet}, **state)
