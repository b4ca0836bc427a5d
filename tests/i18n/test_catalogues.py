"""Every language has every message, with the same placeholders, and writes it."""

from __future__ import annotations

import re

import pytest

from bot.catalogues import check, expected, forms, load, placeholders, slash_texts
from bot.i18n import ENGLISH, LOCALES, catalogue, current, language_name, using
from bot.i18n.english import EN
from bot.i18n.words import ordinal, plural, t

TRANSLATED = [loc for loc in LOCALES if loc != ENGLISH]
# Discord's rule for command and option names, in every language
NAME = re.compile(r"^[-_\w]{1,32}$")


def sample_values(key: str) -> dict[str, object]:
    """A value for each placeholder of ``key``'s English text."""
    base = key.rsplit(".", 1)[0]
    text = EN[key] if key in EN else EN[f"{base}.other"]
    return {name: f"<{name}>" for name in placeholders(text)}


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_catalogue_has_every_key_with_its_placeholders(locale: str) -> None:
    keyed, _ = load(locale)
    report = check(locale, keyed, EN)
    assert report.missing == [], f"{locale} lacks {report.missing} (python -m bot.catalogues)"
    assert report.extra == [], f"{locale} has keys English no longer has: {report.extra}"
    assert report.placeholders == [], f"{locale}: {report.placeholders}"


def test_the_check_names_missing_and_extra_keys_and_wrong_placeholders() -> None:
    english = {
        "a": "Hello {name}",
        "b": "Bye",
        "unit.x.one": "{count} x",
        "unit.x.other": "{count} xs",
    }
    report = check("pl", {"a": "Cześć {imie}", "c": "?", "unit.x.one": "{count} x"}, english)
    assert report.missing == ["b", "unit.x.few", "unit.x.many", "unit.x.other"]
    assert report.extra == ["c"]
    assert report.placeholders == ["a: wants ['name'], has ['imie']"]
    assert not report.ok
    assert set(expected("tr", english)) == {"a", "b", "unit.x.one", "unit.x.other"}


def test_plural_families_take_the_languages_cldr_categories() -> None:
    assert forms("pl", "unit.field") == ["one", "few", "many", "other"]
    assert forms("tr", "unit.field") == ["one", "other"]
    assert forms("en-US", "ordinal") == ["one", "two", "few", "other"]
    assert forms("de", "ordinal") == ["other"]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_key_renders_in_every_language(locale: str) -> None:
    with using(locale):
        for key in expected(locale, EN):
            text = t(key, **sample_values(key)) if key in EN or key in catalogue(locale) else ""
            assert text.strip(), f"{locale}: {key} renders empty"
            assert "{" not in text.replace("{{", ""), f"{locale}: {key} left {text!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_are_not_english_left_over(locale: str) -> None:
    """Long sentences differ from English (short ones may be the same: "Start", "#")."""

    def words(text: str) -> str:
        return re.sub(r"\{[^}]*\}|[^a-z]", "", text.lower())

    same = [
        k for k, v in catalogue(locale).items() if k in EN and v == EN[k] and len(words(EN[k])) > 12
    ]
    assert same == []


def test_polish_has_three_forms_and_turkish_keeps_the_noun_singular() -> None:
    with using("pl"):
        assert [plural("unit.field", n) for n in (1, 2, 4, 5, 12, 22, 25, 112)] == [
            "1 pole",
            "2 pola",
            "4 pola",
            "5 pól",
            "12 pól",
            "22 pola",
            "25 pól",
            "112 pól",
        ]
        assert [plural("end.verb", n) for n in (1, 2, 5)] == [
            "wygrywa",
            "dzielą się zwycięstwem",
            "dzielą się zwycięstwem",
        ]
    with using("tr"):
        assert [plural("unit.field", n) for n in (1, 3, 10)] == ["1 alan", "3 alan", "10 alan"]
    with using("en-US"):
        assert [plural("unit.field", n) for n in (1, 2)] == ["1 field", "2 fields"]


def test_ordinals_follow_each_languages_rules() -> None:
    with using("en-US"):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
            "1st",
            "2nd",
            "3rd",
            "4th",
            "11th",
            "12th",
            "13th",
            "21st",
            "22nd",
            "23rd",
            "101st",
            "111th",
        ]
    with using("fr"):
        assert [ordinal(n) for n in (1, 2)] == ["1re", "2e"]
    with using("pl"):
        assert ordinal(3) == "3."


def test_the_language_is_the_contexts_and_falls_back_to_english() -> None:
    assert current() == ENGLISH
    with using("pl"):
        assert t("button.join") == "Dołącz"
        with using("tr"):
            assert t("button.join") == "Katıl"
        assert current() == "pl"
    with using("en-GB"):
        assert t("button.join") == "Join"
    with using("ja"):  # a Discord language we do not speak
        assert current() == ENGLISH
    assert current() == ENGLISH
    with using("de"):
        assert language_name("tr") == "Türkisch"
        assert language_name(ENGLISH) == "Englisch"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_slash_command_text_is_translated_and_fits_discord(locale: str) -> None:
    _, slash = load(locale)
    missing = [f"[{c}] {s}" for c, s in slash_texts() if not slash.get((c, s))]
    assert missing == [], f"{locale} lacks slash texts: {missing}"
    for (context, english), text in slash.items():
        if context == "slash name":
            assert NAME.match(text) and text == text.lower(), f"{locale}: bad name {text!r}"
        else:
            assert len(text) <= 100, f"{locale}: {english!r} too long"


async def test_the_translator_maps_english_texts_to_the_catalogues() -> None:
    from discord import Locale, app_commands
    from discord.app_commands import TranslationContext, TranslationContextLocation

    from bot.i18n.translator import Translator

    translator = Translator()
    name = TranslationContext(TranslationContextLocation.command_name, None)
    description = TranslationContext(TranslationContextLocation.command_description, None)
    choice = TranslationContext(TranslationContextLocation.choice_name, None)
    ask = translator.translate
    assert await ask(app_commands.locale_str("leave"), Locale.polish, name) == "wyjdź"
    assert (
        await ask(app_commands.locale_str(EN["command.stats"]), Locale.turkish, description)
        == catalogue("tr")["command.stats"]
    )
    assert (
        await ask(app_commands.locale_str(EN["period.week"]), Locale.german, choice)
        == "Diese Woche"
    )
    assert await ask(app_commands.locale_str("leave"), Locale.british_english, name) is None
    assert await ask(app_commands.locale_str("leave"), Locale.japanese, name) is None
