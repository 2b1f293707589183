"""The client's one translation mechanism: gettext catalogs for English and Brazilian Portuguese.

Every word the client shows goes through `_`, `ngettext` or `pgettext` here, with the message
written as a string literal (or marked with `N_` where it is written, and given to `_` when it is
shown) so that `python -m client.i18n_catalogs` can extract it into the
catalogs (`client/locale/<lang>/LC_MESSAGES/coup.po`, compiled to `.mo` beside them). The three
functions always read the language chosen last by `set_language` (at import: the environment's
locale), so the language can change while the program runs. The wire never carries text:
`card_name`, `action_name` and `faction_name` turn the engine's language-neutral ids into
words, and nothing outside the client ever calls this module.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable
from pathlib import Path

from engine.cards import (
    AMBASSADOR, ASSASSIN, ASSASSINATE, CAPTAIN, CONTESSA, CONVERT, COUP, DUKE, EMBEZZLE,
    EXAMINE, EXCHANGE, FOREIGN_AID, INCOME, INQUISITOR, LOYALIST, REFORMIST, STEAL, TAX,
)

DOMAIN = "coup"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: Every language with a catalog; the first is the language the messages are written in.
LANGUAGES: tuple[str, ...] = ("en", "pt_BR")

#: The variables gettext reads to find the user's language; the first one set decides.
_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: Each catalog by its bare language, so that any Portuguese (pt, pt_PT, pt-BR) reads pt_BR.
_BY_LANGUAGE = {code.split("_")[0].lower(): code for code in LANGUAGES}

_translations: gettext.NullTranslations
_language: str


def _catalog_for(locale_name: str) -> str | None:
    """The catalog for a locale name such as "pt_BR.UTF-8", "pt-BR" or "en", if there is one."""
    code = locale_name.split(".")[0].split("@")[0].replace("-", "_")
    return _BY_LANGUAGE.get(code.split("_")[0].lower())


def _from_environment() -> str:
    for variable in _ENVIRONMENT:
        value = os.environ.get(variable)
        if value:
            # LANGUAGE may hold a list of preferences, "pt_BR:en".
            for name in value.split(":"):
                if (code := _catalog_for(name)) is not None:
                    return code
            break
    return LANGUAGES[0]


def set_language(lang: str | None) -> str:
    """Choose the catalog every message is read from, and return its code ("en" or "pt_BR").

    None reads the environment like gettext does (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) and falls
    back to English for a language without a catalog; an explicit unsupported `lang` (a `--lang`
    the user typed) raises ValueError with a sentence naming the supported languages.
    """
    global _translations, _language  # noqa: PLW0603 — the process's one language
    if lang is None:
        code = _from_environment()
    elif (found := _catalog_for(lang)) is not None:
        code = found
    else:
        raise ValueError(
            f"There is no {lang!r} translation; the languages are: {', '.join(LANGUAGES)}."
        )
    _translations = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
    _language = code
    return code


def language() -> str:
    """The code of the language messages are read in now ("en" or "pt_BR")."""
    return _language


def _(text: str) -> str:
    """`text` in the current language."""
    return _translations.gettext(text)


def N_(text: str) -> str:
    """Mark `text` for the catalogs and return it as it is, for `_` to translate when shown.

    For text fixed before the language is chosen, such as a class's key bindings.
    """
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for `n` things in the current language, with its plural rule."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """`text` in the current language, as meant in `context` (a word with several senses)."""
    return _translations.pgettext(context, text)


# Lambdas keep each name a literal call the extractor finds, translated when asked for.
_CARD_NAMES: dict[str, Callable[[], str]] = {
    DUKE: lambda: pgettext("card", "Duke"),
    ASSASSIN: lambda: pgettext("card", "Assassin"),
    CAPTAIN: lambda: pgettext("card", "Captain"),
    AMBASSADOR: lambda: pgettext("card", "Ambassador"),
    INQUISITOR: lambda: pgettext("card", "Inquisitor"),
    CONTESSA: lambda: pgettext("card", "Contessa"),
}

_ACTION_NAMES: dict[str, Callable[[], str]] = {
    INCOME: lambda: pgettext("action", "Income"),
    FOREIGN_AID: lambda: pgettext("action", "Foreign Aid"),
    COUP: lambda: pgettext("action", "Coup"),
    TAX: lambda: pgettext("action", "Tax"),
    ASSASSINATE: lambda: pgettext("action", "Assassinate"),
    STEAL: lambda: pgettext("action", "Steal"),
    EXCHANGE: lambda: pgettext("action", "Exchange"),
    EXAMINE: lambda: pgettext("action", "Examine"),
    CONVERT: lambda: pgettext("action", "Convert"),
    EMBEZZLE: lambda: pgettext("action", "Embezzle"),
}


_FACTION_NAMES: dict[str, Callable[[], str]] = {
    LOYALIST: lambda: pgettext("faction", "Loyalist"),
    REFORMIST: lambda: pgettext("faction", "Reformist"),
}


def card_name(card_id: str) -> str:
    """The name of a character (an id of engine.CHARACTERS) in the current language."""
    return _CARD_NAMES[card_id]()


def action_name(action_id: str) -> str:
    """The name of an action (an id of engine.ACTIONS) in the current language."""
    return _ACTION_NAMES[action_id]()


def faction_name(faction_id: str) -> str:
    """The name of a Reformation faction (an id of engine.FACTIONS) in the current
    language."""
    return _FACTION_NAMES[faction_id]()


set_language(None)
