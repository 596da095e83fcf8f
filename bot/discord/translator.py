"""Slash-command descriptions, option descriptions and choice names in each user's client
language, from the catalogue (`bot.command.<command>.description`,
`bot.command.<command>.option.<option>`, `bot.choice.<option>.<value>`).

Discord asks once, at sync, for every string in every locale and shows each user their own.
Command and option NAMES stay English: they are identifiers people type (`/mahjong create
preset:`), the same in every language, as the README says.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from engine.i18n import DEFAULT_LANGUAGE, catalogue, language_of, translate


def command_key(command_name: str) -> str:
    return f"bot.command.{command_name}.description"


def option_key(command_name: str, option: str) -> str:
    return f"bot.command.{command_name}.option.{option}"


def choice_key(option: str, value: object) -> str:
    return f"bot.choice.{option}.{str(value).lower()}"


def choice(option: str, value: str, english: str, **fields: object) -> app_commands.Choice[str]:
    """A choice whose name the translator finds by key (`bot.choice.<option>.<value>`); its
    English name is the one written here, with `fields` filled in."""
    key = choice_key(option, value)
    name = app_commands.locale_str(english.format(**fields), key=key, fields=fields)
    return app_commands.Choice(name=name, value=value)


class CatalogueTranslator(app_commands.Translator):
    """Answers descriptions and choice names from the catalogue; names stay as written."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None  # the English written in the code is Discord's default
        key = self.key(string, context)
        if key is None or key not in catalogue(language):
            return None
        return translate(language, key, **string.extras.get("fields", {}))

    @staticmethod
    def key(
        string: app_commands.locale_str, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """The catalogue key of one string Discord asks about (None: names, kept English)."""
        if "key" in string.extras:
            return str(string.extras["key"])
        data = context.data
        if context.location in (Where.command_description, Where.group_description):
            return command_key(data.name)
        if context.location is Where.parameter_description:
            return option_key(data.command.name, data.display_name)  # type: ignore[union-attr]
        return None  # names; a choice carries its key (`choice`)
