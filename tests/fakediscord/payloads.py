"""JSON shapes for the objects discord.py reads: members, guilds, the application, READY."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .models import FakeChannel, FakeRole, FakeUser

# Bit positions from Discord's permission table; members get what an ordinary server grants.
_MEMBER_PERMISSION_BITS = (6, 10, 11, 14, 15, 16, 18, 31, 35, 38)  # reactions … threads
_BOT_EXTRA_PERMISSION_BITS = (13, 34)  # manage messages, manage threads
MEMBER_PERMISSIONS = sum(1 << bit for bit in _MEMBER_PERMISSION_BITS)
BOT_PERMISSIONS = MEMBER_PERMISSIONS | sum(1 << bit for bit in _BOT_EXTRA_PERMISSION_BITS)


@dataclass(eq=False)
class FakeGuild:
    """A guild: its roles, text channels and members (the bot first)."""

    id: int
    name: str
    owner_id: int
    joined_at: str
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    members: list[FakeUser] = field(default_factory=list)
    member_roles: dict[int, list[int]] = field(default_factory=dict)
    locale: str = "en-US"  # the server's preferred locale (interaction.guild_locale)

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (same id as the guild)."""
        return next(role for role in self.roles if role.id == self.id)

    def role(self, role_id: int) -> FakeRole | None:
        """Return the role with this id, if any."""
        return next((role for role in self.roles if role.id == role_id), None)

    def has_member(self, user: FakeUser) -> bool:
        """Whether the user belongs to the guild."""
        return any(member.id == user.id for member in self.members)

    def permissions_of(self, user: FakeUser) -> int:
        """Combined role permissions of a member (no channel overwrites exist here)."""
        value = self.everyone.permissions
        for role_id in self.member_roles.get(user.id, []):
            role = self.role(role_id)
            value |= role.permissions if role else 0
        return value

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        """Return the member object (discord.py requires ``flags`` and ``roles``)."""
        data: dict[str, Any] = {
            "nick": None,
            "avatar": None,
            "roles": [str(role_id) for role_id in self.member_roles.get(user.id, [])],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.to_payload()
        return data

    def to_payload(self, *, with_members: bool = True) -> dict[str, Any]:
        """Return the guild; with members it is the GUILD_CREATE body."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "system_channel_id": str(self.channels[0].id) if self.channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "roles": [role.to_payload() for role in self.roles],
            "emojis": [],
            "stickers": [],
        }
        if with_members:
            # member_count must equal the members listed, or the members intent asks for chunks.
            data.update(
                joined_at=self.joined_at,
                large=False,
                unavailable=False,
                lazy=True,
                member_count=len(self.members),
                members=[self.member_payload(member) for member in self.members],
                channels=[channel.to_payload() for channel in self.channels],
                threads=[],
                presences=[],
                voice_states=[],
                stage_instances=[],
                guild_scheduled_events=[],
                soundboard_sounds=[],
            )
        return data


def client_user_payload(bot: FakeUser) -> dict[str, Any]:
    """Return ``GET /users/@me`` for the bot account."""
    return {
        **bot.to_payload(),
        "verified": True,
        "mfa_enabled": False,
        "flags": 0,
        "locale": "en-US",
    }


def application_payload(bot: FakeUser, owner: FakeUser) -> dict[str, Any]:
    """Return ``GET /oauth2/applications/@me``; these keys are the ones discord.py indexes."""
    return {
        "id": str(bot.id),
        "name": bot.username,
        "icon": None,
        "description": "A fake application for tests.",
        "summary": "",
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": owner.to_payload(),
        "team": None,
        "flags": 0,
        "bot": bot.to_payload(),
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "tags": [],
    }


def ready_payload(
    bot: FakeUser,
    guilds: list[FakeGuild],
    session_id: str,
    resume_url: str,
    shard: list[int] | None,
) -> dict[str, Any]:
    """Return the READY body: the guilds arrive unavailable, then GUILD_CREATE fills them in."""
    data: dict[str, Any] = {
        "v": 10,
        "user": client_user_payload(bot),
        "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "application": {"id": str(bot.id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "_trace": ["fakediscord"],
    }
    if shard is not None:
        data["shard"] = shard
    return data
