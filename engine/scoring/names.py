"""Pattern names in each variant's own terms, for every front end (pictures, snapshots, terminal,
`score`): one function names a pattern, so a name reads the same everywhere.

A pattern id (`half_flush`) is the same in every language and in every answer; its name depends
on the family that scored it as well as the language, because players of each variant name the
same hand differently: all pungs is 對對糊 to a Hong Kong table, 碰碰胡 to a Taiwanese or Hubei
one, 大对子 to a Sichuan one. The names live in the catalogue (domain `patterns`, keys
`pattern.<family>.<id>`); English words each id as the pictures always have ("Little three
dragons"). An id no family names (a name a test passes through a view) keeps those words from
the id in every language.
"""

from __future__ import annotations

from engine.i18n import Text, has, keys

UNNAMED = "pattern.unnamed"


def pattern_words(pattern_id: str) -> str:
    """'little_three_dragons' -> 'Little three dragons'; already pretty names pass unchanged."""
    words = " ".join(pattern_id.replace("_", " ").split())
    return words[:1].upper() + words[1:]


def pattern_key(family: str, pattern_id: str) -> str:
    return f"pattern.{family}.{pattern_id}"


def pattern_text(family: str, pattern_id: str) -> Text:
    """The name of a pattern of this family (`preset.family`), not yet in a language."""
    key = pattern_key(family, pattern_id)
    if has(key):
        return Text(key)
    return Text(UNNAMED, {"words": pattern_words(pattern_id)})


def pattern_name(family: str, pattern_id: str, language: str) -> str:
    """The name of a pattern of this family in `language` (en, zh-CN, zh-TW)."""
    return pattern_text(family, pattern_id).in_language(language)


def named_patterns(family: str) -> list[str]:
    """The pattern ids the catalogue names for this family, in catalogue order."""
    prefix = f"pattern.{family}."
    return [key.removeprefix(prefix) for key in keys("en") if key.startswith(prefix)]
