"""Words in the current language: :func:`t` fills in a catalogue text, the others write
rows, counts, numbers, days and percentages as that language does.

The language is the one :func:`bot.i18n.using` set for the text being written; texts come
from :data:`bot.i18n.english.EN` or, for another language, its gettext catalogue.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from bot.i18n import CAPITALISED_NOUNS, ENGLISH, babel_locale, catalogue, current, resolve
from bot.i18n.commands import cite
from bot.i18n.english import EN

ROW_EMOJI = {
    "red": "🟥",
    "yellow": "🟨",
    "green": "🟩",
    "blue": "🟦",
    "white": "⚪",
    "orange": "🟧",
    "purple": "🟪",
}


def text(key: str, locale: str | None = None) -> str:
    """The unformatted text of ``key`` in ``locale`` (default: the current one),
    English where the catalogue has no translation."""
    return catalogue(resolve(locale) if locale else current()).get(key) or EN[key]


def t(key: str, **values: object) -> str:
    """The text for ``key`` in the current language with ``values`` filled in; commands
    it cites are clickable mentions (:mod:`bot.i18n.commands`)."""
    return cite(text(key).format(**values), current())


def emoji(row: str) -> str:
    """The colour's square (``white1`` and ``white2`` are both white dice)."""
    return ROW_EMOJI.get(row.rstrip("0123456789"), "")


def row_name(row: str) -> str:
    """A row's colour in words (``Red``), for those who cannot tell the colours apart."""
    return t(f"row.{row}") if f"row.{row}" in EN else row


def inline(word: str) -> str:
    """A word from a title or a list used inside a sentence: ``Wins`` → ``wins``; German
    keeps its nouns (and the colours' names) capitalised."""
    return word if current() in CAPITALISED_NOUNS else word.lower()


def _form(key: str, count: int, ordinal: bool = False) -> str:
    """The form of ``key`` for ``count`` (``key.one``, ``key.few``...) by the current
    language's CLDR cardinal or ordinal rules, English's form where it has none."""

    found = catalogue(current()).get(f"{key}.{category(current(), count, ordinal)}")
    return found if found is not None else EN[f"{key}.{category(ENGLISH, count, ordinal)}"]


@lru_cache(maxsize=4096)
def category(locale: str, count: int, ordinal: bool = False) -> str:
    """``count``'s CLDR plural (or ordinal) category in ``locale``: ``one``, ``few``...
    (kept: Babel evaluates its rule afresh on every call, and a turn's message asks
    for the same few counts many times)."""
    rules = babel_locale(locale)
    return (rules.ordinal_form if ordinal else rules.plural_form)(count)


def plural(key: str, count: int) -> str:
    """``plural("unit.field", 3)`` → ``3 fields``, ``3 pola``, ``3 alan``: the language's
    CLDR plural category (Polish one/few/many, Turkish one/other...) picks the key."""
    return _form(key, count).format(count=count)


def ordinal(count: int) -> str:
    """``1st``, ``2.``, ``1re``: the ordinal number by the language's CLDR ordinal rules."""
    return _form("ordinal", count, ordinal=True).format(count=count)


def signed(value: int) -> str:
    """``12``, ``−4``: a score with a true minus sign (a hyphen reads as a dash)."""
    return f"−{-value}" if value < 0 else str(value)


def decimal(value: float, digits: int = 1) -> str:
    """``12.5`` / ``12,5``: a number with ``digits`` decimals, written the language's way."""
    from babel.numbers import format_decimal

    pattern = "0." + "0" * digits if digits else "0"
    return format_decimal(value, pattern, locale=babel_locale(current()))


def whole(value: int) -> str:
    """``1,234`` / ``1.234`` / ``−56``: a whole number grouped the language's way, with a
    true minus sign."""
    from babel.numbers import format_decimal

    return format_decimal(value, "#,##0", locale=babel_locale(current())).replace("-", "−")


def change(value: int) -> str:
    """``+23``, ``−5``, ``±0``: how much a figure moved."""
    return "±0" if value == 0 else (f"+{whole(value)}" if value > 0 else whole(value))


def calendar_day(iso: str) -> str:
    """``2026-11-27`` as the language writes a day: ``Nov 27, 2026``, ``27.11.2026``."""
    from babel.dates import format_date

    return format_date(date.fromisoformat(iso), "medium", locale=babel_locale(current()))


def percent(fraction: float) -> str:
    """``50%`` / ``50 %`` / ``%50``: a whole percentage, written the language's way."""
    from babel.numbers import format_percent

    return format_percent(fraction, locale=babel_locale(current()))
