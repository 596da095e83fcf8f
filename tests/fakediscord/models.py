"""The fake's records: users, channels, messages, uploads and what the bot sent.

These are plain mutable objects the fake updates as the bot acts, so a test holding a
``FakeMessage`` always sees its current state (edits, deletion) without looking it up again.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .fake import FakeDiscord

EPHEMERAL = 1 << 6
LOADING = 1 << 7

Visibility = Literal["public", "ephemeral", "dm", "none"]
ResponseKind = Literal["callback", "followup", "edit", "delete"]


@dataclass(eq=False)
class FakeUser:
    """A Discord user; ``dms_open=False`` makes DMs to them fail like a user with DMs closed."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"  # the user's Discord client language (interaction.locale)

    @property
    def mention(self) -> str:
        """The ``<@id>`` form used in message content."""
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        """The name Discord shows for the user."""
        return self.global_name or self.username

    def to_payload(self) -> dict[str, Any]:
        """Return the user object (discord.py needs username, discriminator and avatar)."""
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role shares the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed_by: int | None = None

    def to_payload(self) -> dict[str, Any]:
        """Return the role object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed_by is not None,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.managed_by is not None:
            data["tags"] = {"bot_id": str(self.managed_by)}
        return data


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0) or a DM channel (type 1, one per user)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    last_message_id: int | None = None

    @property
    def is_dm(self) -> bool:
        """Whether this is a user's DM channel with the bot."""
        return self.type == 1

    def to_payload(self) -> dict[str, Any]:
        """Return the channel object as REST and GUILD_CREATE give it."""
        last = str(self.last_message_id) if self.last_message_id else None
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": last,
                "recipients": [self.recipient.to_payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeAttachment:
    """An uploaded file: the bytes the bot sent, and the attachment object Discord returns."""

    id: int
    filename: str
    content_type: str | None
    data: bytes
    url: str
    description: str | None = None
    flags: int = 0

    @property
    def size(self) -> int:
        """Length of the file in bytes."""
        return len(self.data)

    @property
    def dimensions(self) -> tuple[int, int] | None:
        """(width, height) read from a PNG header, else None."""
        if self.data[:8] != b"\x89PNG\r\n\x1a\n" or len(self.data) < 24:
            return None
        width, height = struct.unpack(">II", self.data[16:24])
        return width, height

    def to_payload(self) -> dict[str, Any]:
        """Return the attachment object, with ``url`` pointing at the fake's CDN route."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": self.flags,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.dimensions is not None:
            data["width"], data["height"] = self.dimensions
        return data


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component, depth first, through rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


@dataclass(eq=False)
class FakeMessage:
    """A message as it stands now; ``history`` keeps every payload that shaped it, in order."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    timestamp: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_timestamp: str | None = None
    visible_to: int | None = None
    interaction_id: int | None = None
    application_id: int | None = None
    mentions: list[FakeUser] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Whether only ``visible_to`` can see the message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "thinking…" message not yet filled in."""
        return bool(self.flags & LOADING)

    def can_see(self, user: FakeUser) -> bool:
        """Whether ``user`` sees the message (ephemeral ones belong to one user)."""
        return self.visible_to is None or self.visible_to == user.id

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Yield every component of the message, nested ones included."""
        return walk_components(self.components)

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """All buttons, in display order."""
        return [c for c in self.iter_components() if c.get("type") == 2]

    @property
    def custom_ids(self) -> list[str]:
        """Custom ids of every interactive component."""
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def find_component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """Return the component with this custom id or label; raise LookupError naming the rest."""
        for component in self.iter_components():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if custom_id is None and label is not None and component.get("label") == label:
                return component
        shown = [(c.get("custom_id"), c.get("label")) for c in self.iter_components()]
        raise LookupError(
            f"no component custom_id={custom_id!r} label={label!r} on message {self.id}; "
            f"it has (custom_id, label): {shown}"
        )

    @property
    def text(self) -> str:
        """Every visible string (content, embeds, text displays, labels) joined, for searching."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [embed.get("footer", {}).get("text", "")]
            for item in embed.get("fields", []):
                parts += [item.get("name", ""), item.get("value", "")]
        for component in self.iter_components():
            parts += [component.get("content", ""), component.get("label", "")]
            parts += [option.get("label", "") for option in component.get("options", [])]
        return "\n".join(part for part in parts if part)

    def attachment(self, filename: str) -> FakeAttachment:
        """Return the attachment with this file name."""
        for item in self.attachments:
            if item.filename == filename:
                return item
        names = [item.filename for item in self.attachments]
        raise LookupError(f"message {self.id} has no attachment {filename!r}; it has {names}")

    def to_payload(self) -> dict[str, Any]:
        """Return the message object the bot receives from REST (gateway events add guild data)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": bool(self.extra.get("tts", False)),
            "mention_everyone": False,
            "mentions": [user.to_payload() for user in self.mentions],
            "mention_roles": [],
            "attachments": [item.to_payload() for item in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
            data["webhook_id"] = str(self.application_id)
        for key in ("interaction_metadata", "message_reference", "poll", "sticker_items"):
            if key in self.extra:
                data[key] = self.extra[key]
        return data


@dataclass(eq=False)
class SentPayload:
    """One request body the bot sent, with uploads as bytes and where it ended up.

    ``visibility`` is "public" for guild-channel messages everyone sees, "ephemeral", "dm", or
    "none" for bodies that show nothing to users (command sync, modals, autocomplete choices).
    ``at`` is the event loop time it arrived, for checking how fast the bot edits a channel.
    """

    method: str
    path: str
    route: str
    json: Any
    files: list[FakeAttachment]
    status: int = 200
    channel_id: int | None = None
    message_id: int | None = None
    interaction_id: int | None = None
    visibility: Visibility = "none"
    at: float = 0.0

    @property
    def is_public(self) -> bool:
        """Whether every member of the guild channel can see what this body carried."""
        return self.visibility == "public"


@dataclass(eq=False)
class RecordedResponse:
    """One thing the bot did with an interaction: its callback, a follow-up, an edit, a delete."""

    kind: ResponseKind
    payload: dict[str, Any]
    type: int | None = None
    files: list[FakeAttachment] = field(default_factory=list)
    message: FakeMessage | None = None

    @property
    def ephemeral(self) -> bool:
        """Whether the response's message (or the callback's data) carries the ephemeral flag."""
        if self.message is not None:
            return self.message.ephemeral
        data = self.payload.get("data") if self.kind == "callback" else self.payload
        return bool(((data or {}).get("flags") or 0) & EPHEMERAL)


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the fake sent to the bot, and everything the bot answered."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    created_at: float
    session_id: str = ""  # the gateway session it was sent to (which shard, which client)
    responses: list[RecordedResponse] = field(default_factory=list)
    original: FakeMessage | None = None
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def summary(self) -> str:
        """A short description such as ``/demo hello by alice`` or ``click demo:x by bob``."""
        data = self.payload.get("data", {})
        if self.type in (2, 4):
            path, options = [data.get("name", "?")], data.get("options", [])
            while options and options[0].get("type") in (1, 2):
                path.append(options[0]["name"])
                options = options[0].get("options", [])
            action = "/" + " ".join(path)
        else:
            verb = {3: "component", 5: "modal"}.get(self.type, f"type {self.type}")
            action = f"{verb} {data.get('custom_id')}"
        return f"{action} by {self.user.username}"

    @property
    def callback(self) -> RecordedResponse | None:
        """The initial response (POST …/callback), if the bot sent one."""
        return next((r for r in self.responses if r.kind == "callback"), None)

    @property
    def response_type(self) -> int | None:
        """Callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        callback = self.callback
        return None if callback is None else callback.type

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response was ephemeral (flag 64)."""
        return self.callback is not None and self.callback.ephemeral

    @property
    def followups(self) -> list[FakeMessage]:
        """Messages the bot posted through the interaction webhook."""
        return [r.message for r in self.responses if r.kind == "followup" and r.message]

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9), as sent."""
        callback = self.callback
        return callback.payload.get("data") if callback and callback.type == 9 else None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices the bot offered (callback type 8)."""
        callback = self.callback
        if callback is None or callback.type != 8:
            return None
        return callback.payload.get("data", {}).get("choices", [])

    async def wait_response(self, timeout: float = 5.0) -> RecordedResponse:
        """Wait for the initial response and return it."""
        return (await self.wait_responses(1, timeout=timeout))[0]

    async def wait_responses(self, count: int, timeout: float = 5.0) -> list[RecordedResponse]:
        """Wait until the bot has made ``count`` responses (callback, follow-ups, edits)."""
        assert self._fake is not None, "record is not attached to a FakeDiscord"
        return await self._fake.wait_for(
            lambda: self.responses if len(self.responses) >= count else None,
            timeout=timeout,
            message=lambda: (
                f"interaction {self.id} (type {self.type}) got "
                f"{len(self.responses)} of {count} responses: {[r.kind for r in self.responses]}"
            ),
        )
