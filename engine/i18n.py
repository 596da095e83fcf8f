"""Every word a player reads, in English, Simplified and Traditional Chinese.

The catalogue is gettext `.po` files under `engine/locale/<language>/<domain>.po`: the format
translators' tools (Poedit, Weblate, Crowdin) open directly, read with Babel (no compiled `.mo`
files). As gettext reads them: a fuzzy entry is not a translation (the English is shown), an
entry with a `msgctxt` is its own message (`in_context`), and an entry with plural forms
chooses its form by its `count` field under the language's plural rule. A message id is a stable
dotted key (`table.seat_taken`), never English text, so that fixing an English sentence does not
orphan its translations. Placeholders are `str.format` fields (`{seat}`) and must be the same in
every language; `tests/test_i18n.py` fails when a language lacks a key or a placeholder differs.

Code that words something for a player builds a `Text` (a key and its fields) and leaves the
language to whoever shows it: a Discord reply uses the interaction's locale, a table message the
guild's, the terminal its `--lang`. A field may itself be a `Text` (a pattern name inside a
result line) and is put in the same language; a `Number` (points) is written as that language
writes numbers (Babel: 25,000).
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, PoFileParser
from babel.numbers import format_decimal

LANGUAGES: tuple[str, ...] = ("en", "zh-CN", "zh-TW")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "zh-CN": "简体中文", "zh-TW": "繁體中文"}

LOCALE_DIR = Path(__file__).with_name("locale")

# Discord's locales (and POSIX ones such as zh_TW.UTF-8) that read one of our languages.
_TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")


def language_of(locale: object | None) -> str:
    """Our language for a Discord `Locale`, a locale string or None: English unless Chinese."""
    if locale is None:
        return DEFAULT_LANGUAGE
    name = str(getattr(locale, "value", locale)).replace("_", "-").split(".")[0].lower()
    if name.startswith(_TRADITIONAL):
        return "zh-TW"
    if name.startswith("zh"):
        return "zh-CN"
    return DEFAULT_LANGUAGE


def _directory(language: str) -> Path:
    return LOCALE_DIR / language.replace("-", "_")


# gettext's separator between a message's context and its id (as in a compiled .mo file)
CONTEXT_SEPARATOR = "\x04"
PLURAL_FIELD = "count"


def in_context(context: str, key: str) -> str:
    """The catalogue key of `key` under `msgctxt context` (kept apart from `key` alone)."""
    return f"{context}{CONTEXT_SEPARATOR}{key}"


@dataclass(frozen=True)
class Messages:
    """One language's messages as read: each key's forms (one, or one per plural form) and
    the rule choosing a plural form for a count."""

    forms: Mapping[str, tuple[str, ...]]
    plural: Callable[[int], int]


class _OnceEach(Catalog):
    """A catalogue refusing a message defined twice (Babel would merge the two silently)."""

    def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:
        if id and self.get(id, message.context) is not None:
            raise ValueError(f"{self.domain}: {_first(id)!r} is defined twice")
        super().__setitem__(id, message)


def _first(id: str | tuple[str, ...] | list[str]) -> str:
    """A message's id (a plural message's singular)."""
    return id if isinstance(id, str) else id[0]


def read_messages(text: str, source: str = "<po>") -> Messages:
    """The translated messages of one `.po` file: untranslated and fuzzy entries left out,
    a context kept in the key (`in_context`), plural forms kept in order."""
    catalog = _OnceEach(domain=source)
    try:
        PoFileParser(catalog, ignore_obsolete=True, abort_invalid=True).parse(text.splitlines())
    except PoFileError as error:
        raise ValueError(f"{source}: cannot read the catalogue: {error}") from error
    forms: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        msgid = _first(message.id)
        key = in_context(message.context, msgid) if message.context else msgid
        said = message.string
        strings = (said,) if isinstance(said, str) else tuple(said or ())
        if strings and all(strings):
            forms[key] = tuple(strings)
    return Messages(forms, gettext.c2py(catalog.plural_expr))


@cache
def messages(language: str) -> Messages:
    """Every message of one language, from all its domain files."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    forms: dict[str, tuple[str, ...]] = {}
    plural = gettext.c2py("n != 1")  # every file of a language names the same rule
    for path in sorted(_directory(language).glob("*.po")):
        read = read_messages(path.read_text(encoding="utf-8"), str(path))
        for key in read.forms.keys() & forms.keys():
            raise ValueError(f"{path}: {key!r} is also defined in another domain")
        forms.update(read.forms)
        plural = read.plural
    return Messages(forms, plural)


@cache
def catalogue(language: str) -> Mapping[str, str]:
    """Every message of one language by key: its template (a plural message's first form)."""
    return {key: forms[0] for key, forms in messages(language).forms.items()}


def placeholders(template: str) -> set[str]:
    """The field names a template fills in."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def has(key: str) -> bool:
    """Whether the English catalogue (the reference) defines `key`."""
    return key in catalogue(DEFAULT_LANGUAGE)


def translate(language: str, key: str, /, **fields: object) -> str:
    """`key` in `language` with its fields filled in; English where the language lacks it.

    A key no catalogue has is a programming error: it raises rather than showing a player
    a dotted identifier.
    """
    template = _template(language, key, fields) or _template(DEFAULT_LANGUAGE, key, fields)
    if template is None:
        raise KeyError(f"no message {key!r} in the catalogue")
    return template.format_map({name: _in(language, value) for name, value in fields.items()})


def _template(language: str, key: str, fields: Mapping[str, object]) -> str | None:
    """The form of `key` that `language` uses for these fields (a plural message's by
    `count`); None where the language does not translate it."""
    found = messages(language)
    forms = found.forms.get(key)
    if forms is None or len(forms) == 1:
        return forms[0] if forms else None
    count = fields.get(PLURAL_FIELD)
    if isinstance(count, Number):
        count = count.value
    if not isinstance(count, int):
        raise TypeError(f"{key!r} has plural forms: it needs an integer {PLURAL_FIELD!r} field")
    return forms[min(found.plural(count), len(forms) - 1)]


@dataclass(frozen=True)
class Number:
    """A number a reader reads (points, a score): written as their language writes it
    (25,000), with its sign when `signed` (a change: +8, -1,500)."""

    value: int
    signed: bool = False
    thousands: bool = False  # in thousands with one decimal: 25000 -> 25.0 (24300 -> 24.3)

    def in_language(self, language: str) -> str:
        digits = "#,##0.0" if self.thousands else "#,##0"
        pattern = f"+{digits};-{digits}" if self.signed else digits if self.thousands else None
        value = Decimal(self.value) / 1000 if self.thousands else self.value
        return format_decimal(value, format=pattern, locale=_babel_locale(language))

    def __str__(self) -> str:
        return self.in_language(DEFAULT_LANGUAGE)


def _babel_locale(language: str) -> str:
    return language.replace("-", "_")


def _in(language: str, value: object) -> object:
    if isinstance(value, Text | Number):
        return value.in_language(language)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Text) for v in value):
        return separator(language).join(v.in_language(language) for v in value)
    return value


def separator(language: str) -> str:
    """How a list of items is joined in running text."""
    return "、" if language.startswith("zh") else ", "


@dataclass(frozen=True)
class Text:
    """A message not yet put in any language: a catalogue key and the fields it fills in."""

    key: str
    fields: Mapping[str, object] = field(default_factory=dict)

    def in_language(self, language: str) -> str:
        return translate(language, self.key, **self.fields)

    def __hash__(self) -> int:  # a Text in a frozen view keys the picture caches
        return hash((self.key, tuple(sorted((k, _frozen(v)) for k, v in self.fields.items()))))

    def __str__(self) -> str:
        return self.in_language(DEFAULT_LANGUAGE)


def _frozen(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def text(key: str, /, **fields: object) -> Text:
    """A `Text` for `key` (checked now, so a typo fails where it is written)."""
    if not has(key):
        raise KeyError(f"no message {key!r} in the catalogue")
    return Text(key, fields)


def worded(value: Text | str, language: str) -> str:
    """A `Text` in `language`; a plain string (a name, a tile) as it is."""
    return value.in_language(language) if isinstance(value, Text) else value


class WordedError(ValueError):
    """An error whose message a player reads: a catalogue `Text` worded in each reader's
    language (`in_language`), or a plain string shown as it is; `str(error)` is English."""

    def __init__(self, message: Text | str = "") -> None:
        super().__init__(message)
        self.message = message

    def in_language(self, language: str) -> str:
        return worded(self.message, language)

    def __str__(self) -> str:
        return self.in_language(DEFAULT_LANGUAGE)


def keys(language: str) -> Iterable[str]:
    return catalogue(language).keys()
