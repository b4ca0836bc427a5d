"""The dice's application emojis: uploaded once, kept across restarts, replaced when
their art changes, so that a line of the channel shows dice rather than ``🟥6``.

Each face's emoji is named by its die, its face and the art's version
(``qx_red6_1a2b``, :func:`emoji_name`), so one look at the application's emojis (one
request) tells what is there: those of the current art are used, the missing ones are
uploaded one after another (discord.py waits out Discord's rate limits), and those of
an older art are deleted once every replacement exists. A restart half-way uploads only
what is still missing. It all runs in the background once the bot is ready, and the dice
are written as text (:data:`bot.channel.dice.TEXT`) until every face has its emoji; if
Discord refuses (no permission, the application's emojis full) or fails, that is logged
once and the text form stays.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping

import discord

from bot.channel.dice import TEXT, Faces, face_key

log = logging.getLogger(__name__)

APPLICATION_LIMIT = 2000
"""Emojis an application may have (Discord's limit)."""
NAME = re.compile(r"qx_([a-z]+)(\d+)_([0-9a-f]{4})")
"""A die's emoji name: ``qx_``, colour, face, ``_`` and the art's version."""


def emoji_name(colour: str, face: int, version: str) -> str:
    """``qx_red6_1a2b``: within Discord's 2-32 characters of ``[A-Za-z0-9_]``."""
    return f"qx_{colour}{face}_{version}"


def parse_name(name: str) -> tuple[str, int, str] | None:
    """``qx_red6_1a2b`` -> ``("red", 6, "1a2b")``; None for any other emoji's name."""
    found = NAME.fullmatch(name)
    return None if found is None else (found[1], int(found[2]), found[3])


def drawn() -> tuple[dict[tuple[str, int], bytes], str]:
    """Every face's emoji (PNG) and the art's version (Pillow: call it off the loop)."""
    from bot.render.die_emoji import drawn_art

    return drawn_art()


class DiceEmojis:
    """The dice's emojis this process knows (:meth:`faces`) and the task that gets them.

    ``upload``: whether this process uploads and deletes (one process of a sharded bot
    does, the others only look)."""

    def __init__(self, upload: bool = True) -> None:
        self.upload = upload
        self._faces: Faces = TEXT
        self.task: asyncio.Task[None] | None = None
        self.uploaded = 0
        self.deleted = 0

    def faces(self) -> Faces:
        """Each face's emoji markup; empty until every face has one."""
        return self._faces

    def start(self, client: discord.Client) -> None:
        """Get the emojis in the background (once a process)."""
        if self.task is None:
            self.task = asyncio.create_task(self.sync(client), name="qwixx-dice-emojis")

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def sync(self, client: discord.Client) -> None:
        """:meth:`refresh`, logging a failure once: the dice stay text then."""
        try:
            await self.refresh(client)
        except Exception as error:  # whatever it is, the dice are written as text
            log.warning("the dice are shown as text: their emojis are unavailable (%s)", error)

    async def refresh(self, client: discord.Client) -> None:
        art, version = await asyncio.to_thread(drawn)
        listed = await client.fetch_application_emojis()
        ours = {e.name: e for e in listed if parse_name(e.name) is not None}
        wanted = {emoji_name(c, f, version): (c, f) for c, f in art}
        missing = [name for name in wanted if name not in ours]
        if missing and not self.upload:
            log.info("the dice are shown as text until their emojis are uploaded")
            return
        if len(listed) + len(missing) > APPLICATION_LIMIT:
            log.warning(
                "the dice are shown as text: the application has %d emojis, %d more would "
                "pass Discord's %d",
                len(listed),
                len(missing),
                APPLICATION_LIMIT,
            )
            return
        for name in missing:
            ours[name] = await client.create_application_emoji(name=name, image=art[wanted[name]])
            self.uploaded += 1
        self._faces = markup(ours, wanted)
        if self.upload:
            await self.delete_stale(ours, wanted)
        log.info(
            "the dice are shown as emojis (art %s: %d uploaded, %d older deleted)",
            version,
            self.uploaded,
            self.deleted,
        )

    async def delete_stale(
        self, ours: Mapping[str, discord.Emoji], wanted: Mapping[str, tuple[str, int]]
    ) -> None:
        """Delete the dice's emojis of an older art (their replacements exist)."""
        for name, stale in ours.items():
            if name not in wanted:
                await stale.delete()
                self.deleted += 1


def markup(
    emojis: Mapping[str, discord.Emoji], wanted: Mapping[str, tuple[str, int]]
) -> dict[str, str]:
    """Each wanted face's key (``red6``) -> its emoji's markup (``<:qx_red6_1a2b:…>``)."""
    return {face_key(colour, face): str(emojis[name]) for name, (colour, face) in wanted.items()}
