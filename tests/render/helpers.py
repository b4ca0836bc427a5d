"""Game states for render tests, built by setting sheet fields directly."""

from __future__ import annotations

import copy
import io

from PIL import Image, ImageChops

from bot.rules import new_game
from bot.rules.qwinto import QwintoGame
from bot.rules.qwixx import QwixxGame, QwixxRules

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


def with_state(game: QwixxGame, player: int = 1, *, crossed: dict[str, list[int]] | None = None,
               locks: tuple[str, ...] = (), closed: tuple[str, ...] = (),
               penalties: int = 0) -> QwixxGame:
    """A copy of ``game`` with ``player``'s sheet and the closed rows set as given."""
    game = copy.deepcopy(game)
    sheet = game.sheets[player]
    for row, numbers in (crossed or {}).items():
        sheet.crossed[row] = list(numbers)
    sheet.locks = list(locks)
    sheet.penalties = penalties
    game.closed = list(closed)
    return game


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


def longo(players: int = 2, seed: int = 1,
          lucky: dict[int, tuple[int, int]] | None = None) -> QwixxGame:
    """A real Longo game, its lucky numbers replaced by ``lucky`` where given."""
    game = new_game("longo", list(range(1, players + 1)), seed)
    assert isinstance(game, QwixxGame)
    game.lucky.update(lucky or {})  # type: ignore[attr-defined]
    return game


def qwinto(players: int = 2, seed: int = 1) -> QwintoGame:
    game = new_game("qwinto", list(range(1, players + 1)), seed)
    assert isinstance(game, QwintoGame)
    return game


def with_fields(game: QwintoGame, player: int = 1, *,
                fields: dict[str, dict[int, int]] | None = None, failed: int = 0,
                dice: dict[str, int] | None = None) -> QwintoGame:
    """A copy of ``game`` with ``player``'s written numbers, failed throws and the dice set."""
    game = copy.deepcopy(game)
    sheet = game.sheets[player]
    for row, written in (fields or {}).items():
        sheet.fields[row] = dict(written)
    sheet.failed = failed
    if dice is not None:
        game.dice = dict(dice)
    return game
