"""The translated catalogues measured against the English source, and kept in step.

``python -m bot.catalogues`` rewrites every ``messages.po``: new English keys are
added untranslated (and listed), keys no longer in English are dropped, and each entry
carries the English text as a comment for translators. ``--new <locale>`` starts a
catalogue for a new language.

Two kinds of entries: catalogue keys (msgid ``turn.header``, the texts of
:data:`bot.i18n.english.EN`), and the slash commands' English names, descriptions and
choices (msgid the English text, msgctxt ``slash name``, ``slash description`` or
``slash choice``), which discord.py needs in the code when the commands are declared.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.cogs.qwixx import QwixxCog
from bot.i18n import LOCALES, babel_locale, folder, po_path
from bot.i18n.english import EN
from bot.i18n.translator import NO_DESCRIPTION, english_keys

FORMS = ("zero", "one", "two", "few", "many", "other")
ORDINALS = frozenset({"ordinal"})  # families chosen by the ordinal, not cardinal, rules
SLASH_CONTEXTS = ("slash name", "slash description", "slash choice")
SlashKey = tuple[str, str]  # (msgctxt, English text)
STAMP = datetime(2026, 1, 1)  # fixed, so rewriting an unchanged catalogue changes nothing
HEADER = """\
# {name} catalogue of qwixx-bot. msgid: a key of bot/i18n/english.py EN (the comment above
# each entry is its English text), or a slash command's English text (msgctxt slash ...).
# Keep every {{placeholder}}; `python -m bot.catalogues` adds new keys and lists them."""


def placeholders(text: str) -> set[str]:
    """The names of ``text``'s ``{placeholders}``."""
    return {
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(text)
        if name is not None
    }


def families(keys: Iterable[str]) -> dict[str, str]:
    """Keys of texts with one form per plural category: ``unit.field.one`` → ``unit.field``."""
    keys = set(keys)
    bases = {k.rsplit(".", 1)[0] for k in keys if k.endswith(".other")}
    return {
        k: k.rsplit(".", 1)[0]
        for k in keys
        if k.rsplit(".", 1)[0] in bases and k.rsplit(".", 1)[-1] in FORMS
    }


def forms(locale: str, base: str) -> list[str]:
    """The plural categories ``locale`` writes ``base`` in (``other`` always)."""
    rule = babel_locale(locale)
    tags = (rule.ordinal_form if base in ORDINALS else rule.plural_form).tags
    return [f for f in FORMS if f in tags or f == "other"]


def expected(locale: str, english: Mapping[str, str]) -> dict[str, set[str]]:
    """Every key ``locale`` needs, with the placeholders its text must use."""
    family = families(english)
    needed: dict[str, set[str]] = {}
    for key, text in english.items():
        if key not in family:
            needed[key] = placeholders(text)
            continue
        base = family[key]
        wanted = placeholders(english[f"{base}.other"])
        needed.update({f"{base}.{form}": wanted for form in forms(locale, base)})
    return needed


@dataclass
class Report:
    """What a catalogue lacks or has too much of."""

    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)  # "key: wanted {a}, has {b}"

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.placeholders)


def check(locale: str, texts: Mapping[str, str], english: Mapping[str, str]) -> Report:
    """Compare ``locale``'s keyed texts with what English asks of it."""
    needed = expected(locale, english)
    report = Report(
        sorted(k for k in needed if not texts.get(k)), sorted(k for k in texts if k not in needed)
    )
    for key, text in texts.items():
        if key in needed and text and placeholders(text) != needed[key]:
            report.placeholders.append(
                f"{key}: wants {sorted(needed[key])}, has {sorted(placeholders(text))}"
            )
    return report


def load(locale: str) -> tuple[dict[str, str], dict[SlashKey, str]]:
    """A catalogue's keyed texts and slash-command texts, translated or not."""
    path = po_path(locale)
    if not path.exists():
        return {}, {}
    with path.open("rb") as file:
        po = read_po(file, locale=folder(locale))
    keyed = {str(m.id): str(m.string or "") for m in po if m.id and not m.context}
    slash = {
        (str(m.context), str(m.id)): str(m.string or "")
        for m in po
        if m.id and m.context in SLASH_CONTEXTS
    }
    return keyed, slash


def save(
    locale: str,
    keyed: Mapping[str, str],
    slash: Mapping[SlashKey, str],
    english: Mapping[str, str],
    slash_english: Iterable[SlashKey],
) -> None:
    """Write ``locale``'s catalogue: the entries English asks for, in English's order,
    each with the English text as a comment."""
    catalog = Catalog(
        locale=folder(locale),
        project="qwixx-bot",
        version="1",
        header_comment=HEADER.format(name=babel_locale(locale).english_name),
        msgid_bugs_address="",
        last_translator="qwixx-bot",
        language_team=babel_locale(locale).english_name,
        creation_date=STAMP,
        revision_date=STAMP,
        fuzzy=False,
    )
    family = families(english)
    for key in expected(locale, english):
        source = english.get(key) or english[f"{family.get(key, key.rsplit('.', 1)[0])}.other"]
        catalog.add(key, keyed.get(key, ""), auto_comments=[source])
    for context, text in slash_english:
        catalog.add(text, slash.get((context, text), ""), context=context)
    path = po_path(locale)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=0, sort_output=False, omit_header=False)


def slash_texts() -> list[SlashKey]:
    """Every English text of the ``/qwixx`` commands that needs a slash entry, as
    (msgctxt, text), in the order the commands declare them (the catalogue texts
    among them are translated by their keys)."""
    # No handlers: only the commands the cog declares are read, and they need none.
    group = QwixxCog(None).app_command  # type: ignore[arg-type]
    assert group is not None
    found: list[SlashKey] = [("slash name", group.name), ("slash description", group.description)]
    for command in group.walk_commands():
        found += [("slash name", command.name), ("slash description", command.description)]
        for option in getattr(command, "parameters", []):
            found += [("slash name", option.name), ("slash description", option.description)]
            found += [("slash choice", choice.name) for choice in option.choices]
    texts = english_keys()
    unique = dict.fromkeys(
        (c, s) for c, s in found if s != NO_DESCRIPTION and (c == "slash name" or s not in texts)
    )
    return list(unique)


def sync(locales: Iterable[str]) -> dict[str, Report]:
    """Rewrite each catalogue in step with English; what each still lacks."""
    slash_english = slash_texts()
    reports = {}
    for locale in locales:
        keyed, slash = load(locale)
        save(locale, keyed, slash, EN, slash_english)
        report = check(locale, keyed, EN)
        report.extra = []  # dropped by save
        report.missing += [f"[{c}] {s}" for c, s in slash_english if not slash.get((c, s))]
        reports[locale] = report
    return reports


def main(argv: list[str]) -> int:
    new = argv[1:2] if argv[:1] == ["--new"] else []
    locales = [*(loc for loc in LOCALES if loc != "en-US"), *new]
    for locale, report in sync(locales).items():
        print(
            f"{locale}: {len(report.missing)} untranslated, {len(report.placeholders)} "
            "with other placeholders"
        )
        for line in report.missing + report.placeholders:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
