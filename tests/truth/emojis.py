"""The dice's emojis of an application, made up for games shown without Discord: what
the bot would know once they are uploaded (face -> markup) and what Discord would list
(id -> name)."""

from __future__ import annotations

from bot.channel.dice import Faces, face_key
from bot.cogs.emojis import emoji_name
from bot.render.die_emoji import every_face
from tests.truth.reading import Emojis

FIRST_ID = 1_400_000_000_000_000_000


def application_emojis(version: str = "1a2b") -> tuple[Faces, Emojis]:
    """Every face's emoji of the art ``version``, with ids of their own."""
    faces, listed = {}, {}
    for index, (colour, face) in enumerate(every_face()):
        name, emoji_id = emoji_name(colour, face, version), FIRST_ID + index
        faces[face_key(colour, face)] = f"<:{name}:{emoji_id}>"
        listed[emoji_id] = name
    return faces, listed
