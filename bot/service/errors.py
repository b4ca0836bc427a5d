"""The service's refusals: each names a catalogue message for the person who asked."""

from __future__ import annotations

from bot.i18n.words import t


class ServiceError(Exception):
    """A refusal to show the user: ``key`` and ``values`` fill a catalogue message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def text(self) -> str:
        return t(self.key, **self.values)
