"""Every word a player reads, in English, Simplified and Traditional Chinese.

The catalogue is gettext `.po` files under `engine/locale/<language>/<domain>.po`: the format
translators' tools (Poedit, Weblate, Crowdin) open directly, read here by a small parser so
the project needs no compiled `.mo` files and no extra dependency. A message id is a stable
dotted key (`table.seat_taken`), never English text, so that fixing an English sentence does not
orphan its translations. Placeholders are `str.format` fields (`{seat}`) and must be the same in
every language; `tests/test_i18n.py` fails when a language lacks a key or a placeholder differs.

Code that words something for a player builds a `Text` (a key and its fields) and leaves the
language to whoever shows it: a Discord reply uses the interaction's locale, a table message the
guild's, the terminal its `--lang`. A field may itself be a `Text` (a pattern name inside a
result line) and is put in the same language.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

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


_PO_LINE = re.compile(r'^(msgctxt|msgid|msgstr)\s+(".*")\s*$')


def parse_po(text: str, source: str = "<po>") -> dict[str, str]:
    """The msgid → msgstr pairs of one `.po` file (comments, fuzzy flags and the header aside)."""
    entries: dict[str, str] = {}
    current: dict[str, str] = {}
    last: str | None = None

    def finish() -> None:
        key = current.get("msgid")
        if key:  # the empty msgid is the file's header
            if key in entries:
                raise ValueError(f"{source}: {key!r} is defined twice")
            entries[key] = current.get("msgstr", "")
        current.clear()

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line and current:
                finish()
                last = None
            continue
        match = _PO_LINE.match(line)
        if match:
            word, quoted = match.groups()
            if word in ("msgctxt", "msgid") and "msgstr" in current:
                finish()
            current[word] = ast.literal_eval(quoted)
            last = word
        elif line.startswith('"') and last is not None:
            current[last] += ast.literal_eval(line)
        else:
            raise ValueError(f"{source}:{number}: cannot read {raw!r}")
    if current:
        finish()
    return entries


@cache
def catalogue(language: str) -> Mapping[str, str]:
    """Every message of one language, from all its domain files."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    messages: dict[str, str] = {}
    for path in sorted(_directory(language).glob("*.po")):
        for key, value in parse_po(path.read_text(encoding="utf-8"), str(path)).items():
            if key in messages:
                raise ValueError(f"{path}: {key!r} is also defined in another domain")
            if value:
                messages[key] = value
    return messages


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
    template = catalogue(language).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        raise KeyError(f"no message {key!r} in the catalogue")
    return template.format_map({name: _in(language, value) for name, value in fields.items()})


def _in(language: str, value: object) -> object:
    if isinstance(value, Text):
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
