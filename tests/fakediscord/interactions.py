"""Building what a user's action looks like to the bot: INTERACTION_CREATE bodies, resolved
users/roles/channels/attachments, and modal submissions mirroring the modal's layout."""

from __future__ import annotations

import mimetypes
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import commands
from .messages import invalid_form
from .models import FakeAttachment, FakeChannel, FakeMessage, FakeUser
from .payloads import BOT_PERMISSIONS, MEMBER_PERMISSIONS, FakeGuild

if TYPE_CHECKING:
    from .fake import FakeDiscord

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# Callback types each interaction type accepts (6 and 7 also need a message to act on).
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}
# Entity select menus (user, role, mentionable, channel) resolve like these option types.
SELECT_OPTION_TYPE = {5: 6, 6: 8, 7: 9, 8: 7}
USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT = 6, 7, 8, 9, 11


def interaction_payload(
    fake: FakeDiscord,
    kind: int,
    user: FakeUser,
    channel: FakeChannel,
    data: dict[str, Any],
    message: FakeMessage | None,
) -> dict[str, Any]:
    """Return the INTERACTION_CREATE body (discord.py indexes every key set here)."""
    payload: dict[str, Any] = {
        "id": str(fake.new_id()),
        "application_id": str(fake.application_id),
        "type": kind,
        "token": secrets.token_urlsafe(48),
        "version": 1,
        "data": data,
        "channel": channel.to_payload(),
        "channel_id": str(channel.id),
        "locale": user.locale,
        "app_permissions": str(BOT_PERMISSIONS),
        "attachment_size_limit": fake.attachment_size_limit,
        "entitlements": [],
        "entitlement_sku_ids": [],
    }
    if channel.is_dm:
        payload |= {"user": user.to_payload(), "context": 1}
        payload["authorizing_integration_owners"] = {"0": "0"}
    else:
        payload |= _guild_part(fake.guild_of(channel), user)
        payload["channel"]["permissions"] = payload["member"]["permissions"]
    if message is not None:
        payload["message"] = message.to_payload()
    return payload


def _guild_part(guild: FakeGuild, user: FakeUser) -> dict[str, Any]:
    if not guild.has_member(user):
        raise ValueError(f"{user.username} is not a member of the guild")
    permissions = str(guild.permissions_of(user))
    return {
        "guild_id": str(guild.id),
        "guild_locale": guild.locale,
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "member": guild.member_payload(user) | {"permissions": permissions},
        "context": 0,
        "authorizing_integration_owners": {"0": str(guild.id)},
    }


class Resolver:
    """Turns option and select values into ids, collecting the ``resolved`` objects Discord adds.

    Users, roles and channels may be given as fake objects or ids; attachments as a
    FakeAttachment or ``(filename, bytes)``.
    """

    def __init__(self, fake: FakeDiscord, *, guild: FakeGuild | None) -> None:
        """`guild` is where the interaction happens (None: a DM)."""
        self._fake = fake
        self._guild = guild
        self.resolved: dict[str, dict[str, Any]] = {}

    def option(self, definition: dict[str, Any], value: Any) -> Any:
        """Check or resolve one slash command option value."""
        kind = definition["type"]
        if kind in (commands.STRING, commands.INTEGER, commands.BOOLEAN, commands.NUMBER):
            return commands.check_primitive(definition, value)
        if kind == ATTACHMENT:
            return self._attachment(value)
        return self.entity(kind, value)

    def _attachment(self, value: FakeAttachment | tuple[str, bytes]) -> str:
        if isinstance(value, FakeAttachment):
            item = value
        else:
            filename, data = value
            item = self._fake.new_attachment(filename, mimetypes.guess_type(filename)[0], data)
        self.resolved.setdefault("attachments", {})[str(item.id)] = item.to_payload()
        return str(item.id)

    def entity(self, kind: int, value: Any) -> str:
        """Resolve a user (6), channel (7), role (8) or mentionable (9); return its id."""
        fake = self._fake
        raw = value.id if hasattr(value, "id") else int(value)
        user = fake.find_user(raw) if kind in (USER, MENTIONABLE) else None
        guild = self._guild or fake.guild
        role = guild.role(raw) if kind in (ROLE, MENTIONABLE) else None
        channel = fake.channels.get(raw) if kind == CHANNEL else None
        if user is not None:
            self._add_user(user)
        elif role is not None:
            self.resolved.setdefault("roles", {})[str(raw)] = role.to_payload()
        elif channel is not None:
            entry = channel.to_payload() | {"permissions": str(MEMBER_PERMISSIONS)}
            self.resolved.setdefault("channels", {})[str(raw)] = entry
        else:
            raise ValueError(f"{value!r} is not a user, role or channel of the fake (type {kind})")
        return str(raw)

    def _add_user(self, user: FakeUser) -> None:
        guild = self._guild
        self.resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
        if guild is not None and guild.has_member(user):
            member = guild.member_payload(user, with_user=False)
            member["permissions"] = str(guild.permissions_of(user))
            self.resolved.setdefault("members", {})[str(user.id)] = member


def check_modal(data: dict[str, Any]) -> None:
    """Raise the 400 Discord gives for a modal it cannot show."""
    errors = {}
    if not data.get("custom_id") or len(data["custom_id"]) > 100:
        errors["data.custom_id"] = "a modal needs a custom_id of 1-100 characters"
    if not 1 <= len(data.get("title", "")) <= 45:
        errors["data.title"] = "a modal needs a title of 1-45 characters"
    if not 1 <= len(data.get("components", [])) <= 5:
        errors["data.components"] = "a modal holds 1-5 components"
    if errors:
        raise invalid_form(errors)


def modal_answers(
    components: list[dict[str, Any]], values: Mapping[str, Any], unused: set[str]
) -> list[dict[str, Any]]:
    """Mirror the modal's layout with the user's answers, as Discord's client submits it.

    Custom ids that were answered are removed from ``unused``, so the caller can reject typos.
    """
    answers: list[dict[str, Any]] = []
    for component in components:
        kind, custom_id = component.get("type"), component.get("custom_id", "")
        unused.discard(custom_id)
        if kind == 1:
            inner = modal_answers(component["components"], values, unused)
            answers.append({"type": 1, "components": inner})
        elif kind == 18:
            (inner_one,) = modal_answers([component["component"]], values, unused)
            answers.append({"type": 18, "component": inner_one})
        elif kind == 4:
            text = values.get(custom_id, component.get("value") or "")
            if component.get("required", True) and not text:
                raise ValueError(f"text input {custom_id!r} is required")
            answers.append({"type": 4, "custom_id": custom_id, "value": text})
        elif custom_id:
            chosen = list(values.get(custom_id, []))
            answers.append({"type": kind, "custom_id": custom_id, "values": chosen})
    return answers
