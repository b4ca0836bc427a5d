"""A server's settings for its games: the default turn time (and the one of games played
live), and the language of what its channels show (read from memory once known: every
click's public text needs it)."""

from __future__ import annotations

from bot.durations import DurationError, parse_duration
from bot.i18n import resolve, supported
from bot.service.errors import ServiceError
from bot.service.timing import DEFAULT_LIVE_TIME, DEFAULT_TURN_TIME
from bot.store import Store
from bot.text import quote


class ServerSettings:
    """The servers' choices (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def turn_time(self, guild_id: int, requested: str | None) -> int:
        """The turn time for a new game: as asked, else the server's default, else 24h."""
        if requested:
            try:
                return parse_duration(requested)
            except DurationError as error:
                raise ServiceError("error.duration", problem=str(error)) from None
        return await self.store.settings.turn_time(guild_id) or DEFAULT_TURN_TIME

    async def set_turn_time(self, guild_id: int, requested: str) -> int:
        seconds = await self.turn_time(guild_id, requested)
        await self.store.settings.set_turn_time(guild_id, seconds)
        return seconds

    async def live_time(self, guild_id: int, requested: str | None = None) -> int:
        """The turn time of a game played live: as asked, else the server's, else
        :data:`~bot.service.timing.DEFAULT_LIVE_TIME`."""
        if requested:
            try:
                return parse_duration(requested)
            except DurationError as error:
                raise ServiceError("error.duration", problem=str(error)) from None
        return await self.store.settings.live_time(guild_id) or DEFAULT_LIVE_TIME

    async def set_live_time(self, guild_id: int, requested: str) -> int:
        seconds = await self.live_time(guild_id, requested)
        await self.store.settings.set_live_time(guild_id, seconds)
        return seconds

    async def language(self, guild_id: int, preferred: object = None) -> str:
        """The language of a server's public messages and images: its choice, else its
        Discord preferred locale (``preferred``) when we speak it, else English."""
        chosen = await self.store.settings.language(guild_id)
        return resolve(chosen or preferred)

    async def set_language(self, guild_id: int, language: str) -> str:
        """Choose a server's language (one of :data:`bot.i18n.LOCALES`)."""
        code = supported(language)
        if code is None:
            raise ServiceError("error.unknown_language", language=quote(language))
        await self.store.settings.set_language(guild_id, code)
        return code
