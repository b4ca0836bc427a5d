"""Which language a text is written in, and the translated catalogues.

The English catalogue is :data:`bot.i18n.english.EN`; every other language is a gettext
catalogue ``bot/locales/<locale>/LC_MESSAGES/messages.po`` whose msgids are the
catalogue keys (``turn.header``), read with Babel when first needed.

The language of the text being written is a context variable: an interaction's
handler runs :func:`using` with the member's Discord locale, the publisher with the
server's language, so :func:`bot.i18n.words.t` needs no locale argument.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from babel import Locale

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

ENGLISH = "en-US"
# Discord's locale codes we speak, in the order /qwixx settings language lists them.
LOCALES: tuple[str, ...] = (ENGLISH, "de", "fr", "pl", "pt-BR", "tr")
ALIASES = {"en-GB": ENGLISH, "en": ENGLISH, "pt": "pt-BR"}
NAMES = {
    ENGLISH: "English",
    "de": "Deutsch",
    "fr": "Français",
    "pl": "Polski",
    "pt-BR": "Português (Brasil)",
    "tr": "Türkçe",
}
CAPITALISED_NOUNS = frozenset({"de"})  # languages whose nouns keep a capital mid-sentence
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("locale", default=ENGLISH)


def supported(locale: object) -> str | None:
    """Our code for a Discord locale (``discord.Locale`` or its value), if we speak it."""
    code = str(getattr(locale, "value", locale or ""))
    code = ALIASES.get(code, code)
    return code if code in LOCALES else None


def resolve(locale: object) -> str:
    """:func:`supported`, falling back to English."""
    return supported(locale) or ENGLISH


def current() -> str:
    """The language texts are being written in now."""
    return _current.get()


@contextmanager
def using(locale: object) -> Iterator[str]:
    """Write texts in ``locale`` (a Discord locale; unsupported ones mean English)."""
    token = _current.set(resolve(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def set_locale(locale: object) -> str:
    """Write in ``locale`` for the rest of the running task (an interaction's task)."""
    code = resolve(locale)
    _current.set(code)
    return code


def folder(locale: str) -> str:
    """The catalogue folder of a locale: gettext spells ``pt-BR`` as ``pt_BR``."""
    return locale.replace("-", "_")


@cache
def babel_locale(locale: str) -> Locale:
    return Locale.parse(folder(locale))


def po_path(locale: str) -> Path:
    return LOCALE_DIR / folder(locale) / "LC_MESSAGES" / "messages.po"


def read_catalogue(locale: str) -> Catalog:
    """``locale``'s gettext catalogue as Babel reads it. Babel's reader (and the date
    formatting it brings) is imported here, at the first language other than English
    read, not with this module."""
    from babel.messages.pofile import read_po

    with po_path(locale).open("rb") as file:
        return read_po(file, locale=folder(locale))


@cache
def catalogue(locale: str) -> dict[str, str]:
    """The translated texts of ``locale`` by key; untranslated keys are left out."""
    if locale == ENGLISH:
        return {}
    po = read_catalogue(locale)
    return {
        str(m.id): str(m.string) for m in po if m.id and m.string and not m.fuzzy and not m.context
    }


@cache
def slash_catalogue(locale: str) -> dict[tuple[str, str], str]:
    """The slash commands' translated texts by (msgctxt, English text)."""
    if locale == ENGLISH:
        return {}
    po = read_catalogue(locale)
    return {
        (str(m.context), str(m.id)): str(m.string)
        for m in po
        if m.id and m.string and not m.fuzzy and m.context
    }


def language_name(locale: str) -> str:
    """``locale``'s name in the current language: ``Türkisch``, ``turc``, ``Turkish``."""
    code = "en" if locale == ENGLISH else folder(locale)
    return Locale.parse(code).get_display_name(babel_locale(current())) or locale
