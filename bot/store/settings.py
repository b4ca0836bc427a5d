"""A server's settings: its default turn time (and the one for games played live) and the
language of its public messages.

Read once per server and kept in memory (every click asks for the language), the kept
values replaced by the store's own writes: a server's settings are changed through the
process that serves it (its shard's), so no other process's write is missed.
"""

from __future__ import annotations

from typing import Final

from .changes import check_int
from .engine import Engine, first

KEPT: Final = 10_000
"""Servers whose settings are kept; when full, the memory starts again empty."""
COLUMNS: Final = "turn_time, language, live_time"
Kept = tuple[int | None, str | None, int | None]
"""A server's turn time, language and live turn time, as stored (None: not chosen)."""


class SettingsRepository:
    """The servers' settings of one store (``store.settings``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._kept: dict[int, Kept] = {}

    async def _settings(self, guild_id: int) -> Kept:
        kept = self._kept.get(guild_id)
        if kept is None:
            row = first(
                await self._engine.fetch(
                    f"SELECT {COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
                )
            )
            kept = (None, None, None) if row is None else (row[0], row[1], row[2])
            self._keep(guild_id, kept)
        return kept

    def _keep(self, guild_id: int, settings: Kept) -> None:
        if len(self._kept) >= KEPT and guild_id not in self._kept:
            self._kept.clear()
        self._kept[guild_id] = settings

    async def turn_time(self, guild_id: int) -> int | None:
        """The server's default turn time in seconds, if one was set."""
        seconds = (await self._settings(guild_id))[0]
        return None if seconds is None else int(seconds)

    async def language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages, if it chose one."""
        return (await self._settings(guild_id))[1]

    async def live_time(self, guild_id: int) -> int | None:
        """The server's turn time in seconds for games played live, if one was set."""
        seconds = (await self._settings(guild_id))[2]
        return None if seconds is None else int(seconds)

    async def set_live_time(self, guild_id: int, seconds: int) -> None:
        check_int("guild_id", guild_id)
        await self._set(guild_id, "live_time", seconds)

    async def set_turn_time(self, guild_id: int, seconds: int) -> None:
        check_int("guild_id", guild_id)
        await self._set(guild_id, "turn_time", seconds)

    async def set_language(self, guild_id: int, language: str) -> None:
        check_int("guild_id", guild_id)
        await self._set(guild_id, "language", language)

    async def _set(self, guild_id: int, column: str, value: int | str) -> None:
        rows = await self._engine.transact(
            lambda tx: tx.fetch(
                f"INSERT INTO guild_settings (guild_id, {column}) VALUES (?, ?) "
                f"ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column} "
                f"RETURNING {COLUMNS}",
                (guild_id, value),
            )
        )
        self._keep(guild_id, (rows[0][0], rows[0][1], rows[0][2]))

    def forget(self, guild_id: int) -> None:
        """Let go of what is kept of ``guild_id`` (its rows were deleted)."""
        self._kept.pop(guild_id, None)
