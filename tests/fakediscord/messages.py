"""Turning message bodies into message state, with the limits Discord enforces.

The limits matter because real Discord answers 400 where a lenient fake would let a bug through
(a sixth button in a row, a 2001-character message, two buttons with one custom id).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .models import EPHEMERAL, LOADING, FakeAttachment, FakeMessage, FakeUser, walk_components

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15
_SETTABLE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
_EDITABLE_FLAGS = SUPPRESS_EMBEDS | COMPONENTS_V2
_MENTION = re.compile(r"<@!?(\d+)>")


class PayloadError(ValueError):
    """A body Discord would refuse; carries the status and JSON error Discord sends."""

    def __init__(self, code: int, message: str, errors: dict[str, str] | None = None) -> None:
        detail = "; ".join(f"{path}: {text}" for path, text in (errors or {}).items())
        super().__init__(f"{message} ({code}){': ' + detail if detail else ''}")
        self.code = code
        self.message = message
        self.errors = errors or {}

    def to_json(self) -> dict[str, Any]:
        """Return Discord's error body, errors nested by path the way discord.py flattens them."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = _nest_errors(self.errors)
        return body


def _nest_errors(errors: dict[str, str]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path, text in errors.items():
        node = root
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": text})
    return root


def invalid_form(errors: dict[str, str]) -> PayloadError:
    """Return the 50035 Invalid Form Body error."""
    return PayloadError(50035, "Invalid Form Body", errors)


def pick_attachments(
    spec: list[dict[str, Any]] | None,
    uploads: Mapping[int, FakeAttachment],
    existing: Sequence[FakeAttachment],
) -> list[FakeAttachment]:
    """Resolve a body's ``attachments``: kept ids, new ``files[n]`` by index, the rest appended.

    Without an ``attachments`` key Discord keeps what the message had and adds the new files.
    """
    fresh = dict(uploads)
    if spec is None:
        return [*existing, *fresh.values()]
    kept = {item.id: item for item in existing}
    result: list[FakeAttachment] = []
    for position, entry in enumerate(spec):
        key = int(entry["id"])
        if key in kept:
            result.append(kept[key])
        elif key in fresh:
            item = fresh.pop(key)
            item.description = entry.get("description", item.description)
            result.append(item)
        else:
            raise invalid_form({f"attachments.{position}.id": f"unknown attachment {key}"})
    return result + list(fresh.values())


def apply_body(
    message: FakeMessage,
    body: dict[str, Any],
    attachments: list[FakeAttachment],
    find_user: Callable[[int], FakeUser | None],
    *,
    creating: bool,
) -> None:
    """Copy a create/edit body onto the message; fields missing from an edit stay as they were."""
    if "content" in body:
        message.content = body["content"] or ""
        message.mentions = _mentions(message.content, find_user)
    if "embeds" in body:
        message.embeds = [{"type": "rich", **embed} for embed in body["embeds"] or []]
    if "components" in body:
        message.components = body["components"] or []
    flags = body.get("flags") or 0
    if creating:
        message.flags |= flags & _SETTABLE_FLAGS
    elif "flags" in body:
        message.flags = (message.flags & ~_EDITABLE_FLAGS) | (flags & _EDITABLE_FLAGS)
    # Any edit fills in a deferred "thinking…" message.
    message.flags &= ~LOADING
    message.attachments = attachments
    for key in ("tts", "poll", "sticker_ids", "message_reference"):
        if key in body:
            message.extra[key] = body[key]
    message.history.append(body)


def _mentions(content: str, find_user: Callable[[int], FakeUser | None]) -> list[FakeUser]:
    found = (find_user(int(raw)) for raw in dict.fromkeys(_MENTION.findall(content)))
    return [user for user in found if user is not None]


def check_message(message: FakeMessage, size_limit: int) -> None:
    """Raise PayloadError where Discord would refuse the message as it now stands."""
    if not (
        message.content
        or message.embeds
        or message.attachments
        or message.components
        or "poll" in message.extra
        or message.extra.get("sticker_ids")
        or message.loading
    ):
        raise PayloadError(50006, "Cannot send an empty message")
    errors: dict[str, str] = {}
    if len(message.content) > 2000:
        errors["content"] = "Must be 2000 or fewer in length."
    errors |= _embed_errors(message.embeds)
    errors |= _component_errors(message.components, v2=bool(message.flags & COMPONENTS_V2))
    if message.flags & COMPONENTS_V2 and (message.content or message.embeds):
        errors["content"] = "content and embeds cannot be used with IS_COMPONENTS_V2"
    if len(message.attachments) > 10:
        errors["attachments"] = "Must be 10 or fewer in length."
    for position, item in enumerate(message.attachments):
        if item.size > size_limit:
            errors[f"attachments.{position}"] = f"file is {item.size} bytes, limit {size_limit}"
    if errors:
        raise invalid_form(errors)


_EMBED_LIMITS = {"title": 256, "description": 4096}


def _embed_errors(embeds: list[dict[str, Any]]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if len(embeds) > 10:
        errors["embeds"] = "Must be 10 or fewer in length."
    total = 0
    for index, embed in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                errors[f"embeds.{index}.{key}"] = f"Must be {limit} or fewer in length."
        fields = embed.get("fields", [])
        if len(fields) > 25:
            errors[f"embeds.{index}.fields"] = "Must be 25 or fewer in length."
        for number, item in enumerate(fields):
            total += len(item.get("name", "")) + len(item.get("value", ""))
            if len(item.get("name", "")) > 256 or len(item.get("value", "")) > 1024:
                errors[f"embeds.{index}.fields.{number}"] = "name ≤ 256 and value ≤ 1024"
        total += len((embed.get("footer") or {}).get("text", ""))
    if total > 6000:
        errors["embeds"] = "Embed size exceeds maximum size of 6000"
    return errors


def _component_errors(components: list[dict[str, Any]], *, v2: bool) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not v2:
        if len(components) > 5:
            errors["components"] = "Must be 5 or fewer in length."
        for index, row in enumerate(components):
            errors |= _row_errors(f"components.{index}", row)
    elif sum(1 for _ in walk_components(components)) > 40:
        errors["components"] = "Must be 40 or fewer components in total."
    seen: set[str] = set()
    for component in walk_components(components):
        errors |= _item_errors(component, seen)
    return errors


def _row_errors(path: str, row: dict[str, Any]) -> dict[str, str]:
    if row.get("type") != 1:
        return {path: "top-level components must be action rows without IS_COMPONENTS_V2"}
    children = row.get("components", [])
    selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
    if not children or len(children) > 5 or (selects and len(children) > 1):
        return {path: "an action row holds 1-5 buttons or exactly one select menu"}
    return {}


def _item_errors(component: dict[str, Any], seen: set[str]) -> dict[str, str]:
    custom_id = component.get("custom_id")
    where = f"component {custom_id or component.get('label')!r}"
    errors: dict[str, str] = {}
    if custom_id is not None:
        if len(custom_id) > 100:
            errors[where] = "custom_id must be 100 or fewer in length"
        if custom_id in seen:
            errors[where] = "custom_id must be unique within a message"
        seen.add(custom_id)
    if component.get("type") == 2:
        if len(component.get("label") or "") > 80:
            errors[where] = "button label must be 80 or fewer in length"
        style = component.get("style")
        needs_id = style not in (5, 6)  # link and premium buttons raise no interaction
        if (style == 5) != ("url" in component) or (needs_id and not custom_id):
            errors[where] = "link buttons need a url, other buttons a custom_id"
    if component.get("type") == 3:
        options = component.get("options", [])
        if not 1 <= len(options) <= 25:
            errors[where] = "a select menu needs 1-25 options"
        if any(len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100 for o in options):
            errors[where] = "option labels and values must be 100 or fewer in length"
    return errors
