"""Saying things to the person behind an interaction: in their language, and one path for
every refusal.

`tell` answers privately in the reader's language (`bot.discord.language`). A refusal — a
`TableError` from the runtime, an `OptionError` from our checks, a `ReplayError`, a
`RequestError` from scoring — is raised by the handler and answered here once (`refuse`): by
each cog's `cog_app_command_error` for slash commands and by `guarded` for clicks.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable
from typing import Any

import discord

from bot.discord.language import reader_language
from bot.discord.options import OptionError
from bot.replay import ReplayError
from bot.runtime import TableError
from engine.formats.score_request import RequestError
from engine.i18n import Text, text, worded

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)

REFUSALS = (TableError, OptionError, ReplayError, RequestError)


def clicked_id(interaction: Interaction) -> str:
    """The custom id a component interaction names ('' for other interactions)."""
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", ""))


async def tell(interaction: Interaction, message: Text | str, **kwargs: Any) -> None:
    """Answer privately, in the reader's language: as the response if none was sent yet, else
    as a follow-up. A plain string (a link, an empty content beside an embed) is sent as it is."""
    content = worded(message, reader_language(interaction))
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


def sentence(message: str, language: str = "en") -> str:
    """A message as a sentence: the runtime's start in lower case and may lack a full stop."""
    message = message.strip()
    if language.startswith("zh"):
        return message + ("" if message.endswith(("。", "！", "？", "）", ".", ")")) else "。")
    ending = "" if message.endswith((".", "!", "?", ")")) else "."
    return message[:1].upper() + message[1:] + ending


def refusal_text(error: Exception, language: str) -> str:
    """A refusal in `language` (errors carrying a catalogue `Text` are worded in it)."""
    in_language = getattr(error, "in_language", None)
    said = in_language(language) if callable(in_language) else str(error)
    return sentence(str(said), language)


def is_refusal(error: BaseException) -> bool:
    """Whether an app-command error is a refusal its cog has answered (not a failure)."""
    return isinstance(getattr(error, "original", error), REFUSALS)


async def refuse(interaction: Interaction, error: Exception) -> None:
    """Tell the person, privately and in their language, why their request was refused."""
    await tell(interaction, refusal_text(error, reader_language(interaction)))


async def guarded(interaction: Interaction, work: Awaitable[None]) -> None:
    """Run a click's handler: a refusal is told to the clicker; an unexpected error is logged
    and the clicker told, privately, that it was on our side."""
    try:
        await work
    except REFUSALS as error:
        await refuse(interaction, error)
    except Exception:
        log.exception("handling %s failed", clicked_id(interaction))
        with contextlib.suppress(discord.HTTPException):
            await tell(interaction, text("bot.error.internal"))
