"""Which language each reader gets: replies and DMs in the person's, table messages in the
server's.

A person's language is the one they chose with `/mahjong language` (stored), else their Discord
client's locale (`interaction.locale`, noted at each interaction so a DM sent later uses it); a
server's is the one its admins chose (stored), else the server's community locale
(`interaction.guild_locale`, or the guild's `preferred_locale`). Both are read synchronously from
memory: the stored choices are loaded once, when the cogs load, and kept in step on each change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord

from data import Store
from engine.i18n import DEFAULT_LANGUAGE, language_of

Interaction = discord.Interaction[Any]
GUILD, USER = "guild", "user"
SEEN = "_seen"  # the stored scope of a locale seen rather than chosen


def reader_language(interaction: Interaction) -> str:
    """The language of everything said to the person behind `interaction`."""
    languages = getattr(interaction.client, "languages", None)
    if not isinstance(languages, Languages):  # a client without stored choices: its locale
        return language_of(interaction.locale)
    return languages.of_reader(interaction)


class Languages:
    """The stored language choices, and the locales seen in interactions."""

    def __init__(self, guild_locale: Callable[[int], object | None] = lambda _: None) -> None:
        """`guild_locale(guild_id)` is a server's Discord locale when no interaction said it."""
        self._chosen: dict[tuple[str, str], str] = {}
        self._seen: dict[tuple[str, str], str] = {}  # the Discord locales, as our languages
        self._guild_locale = guild_locale
        self._store: Store | None = None
        self._writes: set[asyncio.Task[None]] = set()  # seen locales being stored

    async def load(self, store: Store) -> None:
        """Read the stored choices (once, at start-up) and keep `store` for later changes."""
        self._store = store
        stored = await store.languages()
        self._chosen = {key: lang for key, lang in stored.items() if key[0] in (GUILD, USER)}
        self._seen = {
            (scope.removesuffix(SEEN), subject): lang
            for (scope, subject), lang in stored.items()
            if scope.endswith(SEEN)
        }

    def note(self, interaction: Interaction) -> None:
        """Remember the locales an interaction carries (for DMs and table messages sent later)."""
        if interaction.locale is not None:
            self._saw((USER, str(interaction.user.id)), language_of(interaction.locale))
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._saw((GUILD, str(interaction.guild_id)), language_of(interaction.guild_locale))

    def _saw(self, key: tuple[str, str], language: str) -> None:
        """Note a locale's language; a change is stored, so a restart keeps it."""
        if self._seen.get(key) == language:
            return
        self._seen[key] = language
        if self._store is not None:
            scope, subject = key
            write = self._store.set_language(scope + SEEN, subject, language)
            task = asyncio.get_running_loop().create_task(write)
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)

    async def settled(self) -> None:
        """Wait until every seen locale noted so far is stored (tests, shutdown)."""
        while self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)

    def of_reader(self, interaction: Interaction) -> str:
        """The language of everything said to the person behind `interaction`."""
        self.note(interaction)
        return self.of_user(interaction.user.id)

    def of_user(self, user_id: int | str) -> str:
        """A person's language (for their DMs): chosen, else their client's, else English."""
        key = (USER, str(user_id))
        return self._chosen.get(key) or self._seen.get(key) or DEFAULT_LANGUAGE

    def of_guild(self, guild_id: int | None) -> str:
        """A server's language (for its public table messages); English outside servers."""
        if guild_id is None:
            return DEFAULT_LANGUAGE
        key = (GUILD, str(guild_id))
        found = self._chosen.get(key) or self._seen.get(key)
        return found or language_of(self._guild_locale(guild_id))

    def chosen(self, scope: str, subject: int | str) -> str | None:
        """What a server (`GUILD`) or person (`USER`) chose, if anything."""
        return self._chosen.get((scope, str(subject)))

    async def choose(self, scope: str, subject: int | str, language: str | None) -> None:
        """Store a server's or a person's choice (None: back to the Discord locale)."""
        if self._store is None:
            raise RuntimeError("the language choices are not loaded (load() has not run)")
        await self._store.set_language(scope, str(subject), language)
        if language is None:
            self._chosen.pop((scope, str(subject)), None)
        else:
            self._chosen[(scope, str(subject))] = language
