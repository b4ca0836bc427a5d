"""The dice: derived from the game's seed and a position in the game, never drawn from a
global generator, so the same seed and moves always roll the same dice.

Four derivations exist, and a game keeps the one it started with (``dice_version`` in
its JSON; a game stored without the field uses version 1):

1. ``random.Random`` seeded with the text ``"<seed>:<salt>:..."``, one
   ``randint(1, faces)`` per die in order. Every game stored before version 2 rolls
   this way, and keeps doing so.
2. The BLAKE2b (64-byte) hash of that same text, its bytes turned into faces in order
   by rejection sampling (a byte counts only below the largest multiple of ``faces``,
   so every face is equally likely); should one hash not hold enough, the hashes of
   ``"<text>#1"``, ``"<text>#2"``, ... follow. About ten times cheaper than seeding a
   Mersenne Twister for every throw.
3. Version 2's dice; what else the seed deals (Longo's lucky numbers, :func:`deal`)
   comes from the same hash too, each face naming one of the choices, a face drawn again
   skipped (versions 1 and 2 deal with ``random.Random``: a Mersenne Twister seeded for
   one deal a game cost a Longo game a sixth of its rules' time).
4. Version 3's deals, and every die keeps its own face: a throw's hash (as in version 2)
   gives faces to the variant's every die in its canonical order (``among``: white1,
   white2, red, yellow, green, blue in the Qwixx games; orange, yellow, purple in
   Qwinto), and the dice in play, or chosen to be thrown, take theirs. A die's face thus
   depends on the seed, the throw's place in the game and the die alone, never on which
   other dice are in play: versions 2 and 3 hand the faces in order to the dice in play,
   so once a row closes the later dice's faces shift (the yellow die gets the face red
   would have had), and two solo games on one seed throw alike only while the same rows
   are open. With every die in play, version 4 throws what version 3 throws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from hashlib import blake2b
from typing import TypeVar

T = TypeVar("T")
DICE_V1 = 1
DICE_V2 = 2
DICE_V3 = 3
DICE_V4 = 4
DICE_VERSIONS = (DICE_V1, DICE_V2, DICE_V3, DICE_V4)
DICE_VERSION = DICE_V4  # the derivation of new games


def dice_key(seed: int, *salt: object) -> str:
    """The text both derivations start from: ``"<seed>:<salt>:..."``."""
    return ":".join(map(str, (seed, *salt)))


def dice_rng(seed: int, *salt: object) -> random.Random:
    """A generator derived from the game's seed and a position in the game.

    Seeding with a string is stable across processes and Python versions, so a
    replay rolls exactly what the original game rolled.
    """
    return random.Random(dice_key(seed, *salt))


def roll(rng: random.Random, dice: Sequence[str], faces: int) -> dict[str, int]:
    """One ``rng.randint(1, faces)`` per die, in order.

    ``randint(1, faces)`` is ``1 + _randbelow(faces)`` (CPython's ``randrange`` fast
    path); calling the latter directly draws the very same numbers at half the cost.
    """
    # Private to random.Random (tests/test_dependencies.py names it): the v1 dice's speed.
    draw = rng._randbelow  # type: ignore[attr-defined]
    return {die: 1 + draw(faces) for die in dice}


@cache
def face_table(faces: int) -> bytes:
    """``bytes.translate`` table: a byte below the largest multiple of ``faces`` becomes
    its face (1..faces), any other byte 0 (rejected)."""
    if not 1 <= faces <= 255:
        raise ValueError(f"dice have 1-255 faces, not {faces}")
    limit = 256 - 256 % faces
    return bytes(b % faces + 1 if b < limit else 0 for b in range(256))


FACE_TABLES = {faces: face_table(faces) for faces in (6, 8)}


def hashed_faces(key: str, count: int, faces: int) -> bytes:
    """``count`` uniform faces from the BLAKE2b hash of ``key`` (derivation 2)."""
    table = FACE_TABLES.get(faces) or face_table(faces)
    found = blake2b(key.encode()).digest().translate(table).replace(b"\0", b"")
    block = 0
    while len(found) < count:  # 64 bytes of a hash hold enough but for a fluke
        block += 1
        more = blake2b(f"{key}#{block}".encode()).digest()
        found += more.translate(table).replace(b"\0", b"")
    return found[:count]


def deal(version: int, choices: Sequence[T], count: int, seed: int, *salt: object) -> list[T]:
    """``count`` different ``choices``, dealt at the position ``salt`` names by derivation
    ``version``."""
    if not 1 <= count <= len(choices):
        raise ValueError(f"cannot deal {count} of {len(choices)} choices")
    if version in (DICE_V4, DICE_V3):
        key, drawn = dice_key(seed, *salt), count
        while True:  # hashed_faces(key, n) begins hashed_faces(key, n + count)
            faces = dict.fromkeys(hashed_faces(key, drawn, len(choices)))  # each face once
            if len(faces) >= count:
                return [choices[face - 1] for face in list(faces)[:count]]
            drawn += count
    if version in (DICE_V1, DICE_V2):
        return dice_rng(seed, *salt).sample(choices, count)
    raise ValueError(f"unknown dice version {version!r}")


def throw(
    version: int,
    dice: Sequence[str],
    faces: int,
    seed: int,
    *salt: object,
    among: Sequence[str] | None = None,
) -> dict[str, int]:
    """Die -> face for ``dice``, in order, by derivation ``version``.

    ``among``: the variant's every die in canonical order, ``dice`` among them in that
    order (None: ``dice`` are every die); version 4 gives each die its face there.
    """
    if version == DICE_V1:
        return roll(dice_rng(seed, *salt), dice, faces)
    if version not in DICE_VERSIONS:
        raise ValueError(f"unknown dice version {version!r}")
    # dice_key, inline (once per throw; "%s" is str(), and formats faster than a join)
    key = ("%s" + ":%s" * len(salt)) % (seed, *salt)
    every = dice if among is None or version != DICE_V4 else among
    found = hashed_faces(key, len(every), faces)  # exactly one face per die
    if len(dice) == len(every):  # every die is thrown: in order
        # (zip's ``strict`` keyword alone, even False, doubles the cost of this line.)
        return dict(zip(dice, found))  # noqa: B905
    return {die: found[every.index(die)] for die in dice}
