"""A fake Discord (REST + gateway on 127.0.0.1) for end-to-end tests of discord.py bots.

See ``FakeDiscord`` for the entry point; the notes it follows are in FAKE_DISCORD_NOTES.md.
"""

from .fake import FakeDiscord, FakeDiscordError
from .messages import PayloadError
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionRecord,
    RecordedResponse,
    SentPayload,
)
from .payloads import FakeGuild

__all__ = [
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionRecord",
    "PayloadError",
    "RecordedResponse",
    "SentPayload",
]
