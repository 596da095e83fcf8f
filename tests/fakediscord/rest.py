"""The REST side: a small router, body parsing, and one handler per route the client uses.

Every request goes through ``RestApi.handle`` so that unknown routes, refused bodies and the
fake's own crashes are all recorded where a test can see them.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import re
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import commands
from .messages import PayloadError
from .models import FakeAttachment, FakeChannel, FakeMessage, SentPayload
from .payloads import application_payload, client_user_payload

if TYPE_CHECKING:
    from .fake import FakeDiscord
    from .payloads import FakeGuild

_API_PREFIX = re.compile(r"^/api/v\d+")
_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


def json_response(data: Any, status: int = 200) -> web.Response:
    """Answer with JSON; the header must be exactly application/json or discord.py reads text."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    """Answer 204 with no JSON type, as Discord does."""
    return web.Response(status=204)


class DiscordError(Exception):
    """An error answer in Discord's shape: ``{"message": …, "code": …}``."""

    def __init__(
        self, status: int, code: int, message: str, *, misuse: bool = True, detail: str = ""
    ) -> None:
        super().__init__(f"{status} {code} {message}{f' ({detail})' if detail else ''}")
        self.status, self.code, self.message = status, code, message
        # misuse=False marks answers a correct bot can get (a user with DMs closed).
        self.misuse = misuse

    def response(self) -> web.Response:
        """The HTTP answer for this error."""
        return json_response({"message": self.message, "code": self.code}, self.status)


@dataclass
class Call:
    """One request as a handler sees it, plus the record of its body."""

    request: web.Request
    params: dict[str, str]
    body: Any = None
    uploads: dict[int, FakeAttachment] = field(default_factory=dict)
    record: SentPayload | None = None

    @property
    def query(self) -> Any:
        """The query string parameters."""
        return self.request.query

    def flag(self, name: str) -> bool:
        """Read a boolean query flag the way Discord does (1/true)."""
        return self.query.get(name, "").lower() in ("1", "true")

    def note(self, message: FakeMessage | None = None, **fields: Any) -> None:
        """Fill in where the body ended up (channel, message, interaction, visibility)."""
        if self.record is None:
            return
        for key, value in fields.items():
            setattr(self.record, key, value)
        if message is not None:
            self.record.channel_id = message.channel_id
            self.record.message_id = message.id


Handler = Callable[[Call], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Route:
    """A method and path template such as ``/channels/{channel_id}/messages``."""

    method: str
    template: str
    handler: Handler
    auth: bool
    pattern: re.Pattern[str]


class Router:
    """Match method + path against templates, in the order they were added."""

    def __init__(self) -> None:
        self.routes: list[Route] = []

    def add(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        """Serve ``method template``; ``auth`` routes need a ``Bot`` Authorization header."""
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        self.routes.append(Route(method, template, handler, auth, re.compile(f"^{regex}$")))

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        """Return the first route serving this request, with its path parameters."""
        for route in self.routes:
            found = route.pattern.match(path)
            if found and route.method == method:
                return route, found.groupdict()
        return None


async def read_body(call: Call, fake: FakeDiscord) -> None:
    """Parse a JSON or multipart (``payload_json`` + ``files[n]``) body into the call."""
    request = call.request
    if request.content_type == "application/json":
        text = await request.text()
        call.body = json.loads(text) if text else None
    elif request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            matched = _FILE_FIELD.match(part.name or "")
            if matched:
                data = await part.read(decode=False)
                filename = part.filename or f"file{matched[1]}"
                kind = mimetypes.guess_type(filename)[0] or part.headers.get("Content-Type")
                call.uploads[int(matched[1])] = fake.new_attachment(filename, kind, bytes(data))
            elif part.name == "payload_json":
                call.body = json.loads(await part.text())


class RestApi:
    """The routes discord.py calls, answered from the fake's state."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self.in_flight = 0
        self.router = Router()
        self._add_routes()

    def _add_routes(self) -> None:
        add = self.router.add
        add("GET", "/users/@me", self.get_me)
        add("GET", "/users/{user_id}", self.get_user)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/gateway", self.get_gateway, auth=False)
        add("GET", "/gateway/bot", self.get_gateway)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            add("GET", f"{prefix}/commands", self.get_commands)
            add("PUT", f"{prefix}/commands", self.sync_commands)
            add("POST", f"{prefix}/commands", self.upsert_command)
            add("DELETE", f"{prefix}/commands/{{command_id}}", self.delete_command)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, auth=False)
        add("POST", "/webhooks/{app_id}/{token}", self.followup, auth=False)
        for method in ("GET", "PATCH", "DELETE"):
            path = "/webhooks/{app_id}/{token}/messages/{message_id}"
            add(method, path, self.webhook_message, auth=False)
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("GET", "/channels/{channel_id}/messages", self.history)
        add("POST", "/channels/{channel_id}/messages", self.send_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_roles)
        add("GET", "/guilds/{guild_id}/members", self.list_members)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)

    # --- dispatch -----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Serve any request: CDN files, known routes, or a recorded unknown route."""
        fake = self._fake
        if request.method == "GET" and request.path.startswith("/attachments/"):
            return self._cdn(request)
        path = _API_PREFIX.sub("", request.path)
        found = self.router.match(request.method, path)
        if found is None:
            fake.unknown_routes.append(f"{request.method} {path}")
            fake.notify()
            return json_response({"message": "404: Not Found", "code": 0}, 404)
        route, params = found
        call = Call(request, params)
        self.in_flight += 1
        try:
            response = await self._run(route, call, path)
        finally:
            self.in_flight -= 1
        fake.requests.append(f"{request.method} {path} -> {response.status}")
        if call.record is not None:
            call.record.status = response.status
        fake.notify()
        return response

    async def _run(self, route: Route, call: Call, path: str) -> web.StreamResponse:
        fake = self._fake
        try:
            if route.auth:
                self._check_auth(call.request)
            if call.request.can_read_body:
                await read_body(call, fake)
                call.record = SentPayload(
                    call.request.method,
                    path,
                    f"{route.method} {route.template}",
                    call.body,
                    list(call.uploads.values()),
                    at=asyncio.get_running_loop().time(),
                )
                fake.all_payloads.append(call.record)
            return await route.handler(call)
        except DiscordError as error:
            if error.misuse:
                fake.rejections.append(f"{call.request.method} {path}: {error}")
            return error.response()
        except PayloadError as error:
            fake.rejections.append(f"{call.request.method} {path}: {error}")
            return json_response(error.to_json(), 400)
        except Exception as exc:
            fake.record_internal_error(f"{call.request.method} {path}", exc)
            # 400, not 500: discord.py retries 5xx with sleeps, which would stall the test.
            body = {"message": f"fake discord crashed: {exc!r}", "code": 0}
            return json_response(body | {"trace": traceback.format_exc()}, 400)

    def _check_auth(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        expected = self._fake.token
        if not header.startswith("Bot ") or (expected is not None and header != f"Bot {expected}"):
            raise DiscordError(401, 0, "401: Unauthorized")

    def _cdn(self, request: web.Request) -> web.StreamResponse:
        parts = request.path.split("/")
        item = self._fake.attachments.get(int(parts[2])) if parts[2].isdigit() else None
        if item is None:
            self._fake.unknown_routes.append(f"GET {request.path}")
            return web.Response(status=404)
        kind = item.content_type or "application/octet-stream"
        return web.Response(body=item.data, headers={"Content-Type": kind})

    # --- users, application, gateway ----------------------------------------------------------

    async def get_me(self, call: Call) -> web.Response:
        """GET /users/@me: the bot account (this is what login checks)."""
        return json_response(client_user_payload(self._fake.bot_user))

    async def get_user(self, call: Call) -> web.Response:
        """GET /users/{id}."""
        return json_response(self._fake.require_user(call.params["user_id"]).to_payload())

    async def open_dm(self, call: Call) -> web.Response:
        """POST /users/@me/channels: the user's one DM channel, made on first use."""
        user = self._fake.require_user((call.body or {}).get("recipient_id", ""))
        return json_response(self._fake.open_dm(user).to_payload())

    async def get_application(self, call: Call) -> web.Response:
        """GET /oauth2/applications/@me."""
        fake = self._fake
        return json_response(application_payload(fake.bot_user, fake.guild_owner))

    async def get_gateway(self, call: Call) -> web.Response:
        """GET /gateway and /gateway/bot (only AutoShardedClient asks)."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response(
            {"url": self._fake.gateway_url, "shards": 1, "session_start_limit": limit}
        )

    # --- application commands -----------------------------------------------------------------

    def _command_list(self, call: Call) -> list[dict[str, Any]]:
        fake = self._fake
        if call.params["app_id"] != str(fake.application_id):
            raise DiscordError(403, 50001, "Missing Access")
        if "guild_id" not in call.params:
            return fake.commands
        guild = fake.guild_by_id(call.params["guild_id"])
        if guild is None:
            raise DiscordError(403, 50001, "Missing Access")
        return fake.guild_commands.setdefault(guild.id, [])

    def _guild_of(self, call: Call) -> int | None:
        return int(call.params["guild_id"]) if "guild_id" in call.params else None

    async def get_commands(self, call: Call) -> web.Response:
        """GET …/commands."""
        return json_response(self._command_list(call))

    async def sync_commands(self, call: Call) -> web.Response:
        """PUT …/commands: bulk overwrite, what ``tree.sync()`` sends."""
        fake = self._fake
        current = self._command_list(call)
        stored = commands.store_sync(
            call.body or [], current, fake.new_id, fake.application_id, self._guild_of(call)
        )
        current[:] = stored
        return json_response(stored)

    async def upsert_command(self, call: Call) -> web.Response:
        """POST …/commands: create or replace one command by name."""
        fake = self._fake
        current = self._command_list(call)
        body = call.body or {}
        key = (body.get("name"), body.get("type", 1))
        same = [c for c in current if (c["name"], c.get("type", 1)) == key]
        (stored,) = commands.store_sync(
            [body], same, fake.new_id, fake.application_id, self._guild_of(call)
        )
        current[:] = [c for c in current if c not in same] + [stored]
        return json_response(stored, 200 if same else 201)

    async def delete_command(self, call: Call) -> web.Response:
        """DELETE …/commands/{id}."""
        current = self._command_list(call)
        kept = [c for c in current if c["id"] != call.params["command_id"]]
        if len(kept) == len(current):
            raise DiscordError(404, 10063, "Unknown application command")
        current[:] = kept
        return no_content()

    # --- interactions -------------------------------------------------------------------------

    async def callback(self, call: Call) -> web.Response:
        """POST /interactions/{id}/{token}/callback: the initial response."""
        fake = self._fake
        record = fake.interaction_for_callback(call.params["interaction_id"], call.params["token"])
        call.note(interaction_id=record.id)
        body = call.body or {}
        message, target = await fake.respond_to_interaction(record, body, call.uploads)
        if message is not None:
            call.note(message, visibility=fake.visibility_of(message))
        if not call.flag("with_response"):
            return no_content()
        summary: dict[str, Any] = {"id": str(record.id), "type": record.type}
        resource: dict[str, Any] = {"type": body.get("type")}
        if target is not None:
            summary["response_message_id"] = str(target.id)
            summary["response_message_loading"] = target.loading
            summary["response_message_ephemeral"] = target.ephemeral
        if message is not None:
            resource["message"] = message.to_payload()
        return json_response({"interaction": summary, "resource": resource})

    async def followup(self, call: Call) -> web.Response:
        """POST /webhooks/{app}/{token}: a follow-up message (the first one fills a deferral)."""
        fake = self._fake
        record = fake.interaction_for_webhook(call.params["app_id"], call.params["token"])
        message = await fake.send_followup(record, call.body or {}, call.uploads)
        call.note(message, interaction_id=record.id, visibility=fake.visibility_of(message))
        return json_response(message.to_payload()) if call.flag("wait") else no_content()

    async def webhook_message(self, call: Call) -> web.Response:
        """GET/PATCH/DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        fake = self._fake
        record = fake.interaction_for_webhook(call.params["app_id"], call.params["token"])
        message = fake.interaction_message(record, call.params["message_id"])
        method = call.request.method
        call.note(message, interaction_id=record.id, visibility=fake.visibility_of(message))
        if method == "GET":
            return json_response(message.to_payload())
        if method == "DELETE":
            await fake.delete_message(message, record=record)
            return no_content()
        edited = await fake.edit_message(message, call.body or {}, call.uploads, record=record)
        return json_response(edited.to_payload())

    # --- channels and messages ----------------------------------------------------------------

    async def get_channel(self, call: Call) -> web.Response:
        """GET /channels/{id}."""
        return json_response(self._fake.require_channel(call.params["channel_id"]).to_payload())

    async def typing(self, call: Call) -> web.Response:
        """POST /channels/{id}/typing."""
        self._fake.require_channel(call.params["channel_id"])
        return no_content()

    async def history(self, call: Call) -> web.Response:
        """GET /channels/{id}/messages: newest first, honouring limit/before/after."""
        channel = self._fake.require_channel(call.params["channel_id"])
        found = [m for m in self._fake.channel_messages(channel) if m.visible_to is None]
        if "before" in call.query:
            found = [m for m in found if m.id < int(call.query["before"])]
        if "after" in call.query:
            found = [m for m in found if m.id > int(call.query["after"])]
        limit = int(call.query.get("limit", 50))
        newest = sorted(found, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([m.to_payload() for m in newest])

    async def send_message(self, call: Call) -> web.Response:
        """POST /channels/{id}/messages (a DM to a user with DMs closed gets 403 50007)."""
        fake = self._fake
        channel = fake.require_channel(call.params["channel_id"])
        call.note(channel_id=channel.id, visibility="dm" if channel.is_dm else "public")
        if channel.recipient is not None and not channel.recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user", misuse=False)
        message = await fake.create_message(channel, fake.bot_user, call.body or {}, call.uploads)
        call.note(message)
        return json_response(message.to_payload())

    def _channel_message(self, call: Call) -> tuple[FakeChannel, FakeMessage]:
        fake = self._fake
        channel = fake.require_channel(call.params["channel_id"])
        message = fake.messages.get(int(call.params["message_id"]))
        if message is None or message.channel_id != channel.id or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        if message.visible_to is not None:
            raise DiscordError(404, 10008, "Unknown Message")
        return channel, message

    async def get_message(self, call: Call) -> web.Response:
        """GET /channels/{id}/messages/{id}."""
        return json_response(self._channel_message(call)[1].to_payload())

    async def edit_message(self, call: Call) -> web.Response:
        """PATCH /channels/{id}/messages/{id}: only the bot's own messages."""
        fake = self._fake
        channel, message = self._channel_message(call)
        call.note(message, visibility="dm" if channel.is_dm else "public")
        if message.author is not fake.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        edited = await fake.edit_message(message, call.body or {}, call.uploads)
        return json_response(edited.to_payload())

    async def delete_message(self, call: Call) -> web.Response:
        """DELETE /channels/{id}/messages/{id}."""
        _, message = self._channel_message(call)
        await self._fake.delete_message(message)
        return no_content()

    # --- guild --------------------------------------------------------------------------------

    def _guild(self, call: Call) -> FakeGuild:
        guild = self._fake.guild_by_id(call.params["guild_id"])
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, call: Call) -> web.Response:
        """GET /guilds/{id} (with_counts adds approximate counts)."""
        guild = self._guild(call)
        data = guild.to_payload(with_members=False)
        if call.flag("with_counts"):
            data |= {
                "approximate_member_count": len(guild.members),
                "approximate_presence_count": 0,
            }
        return json_response(data)

    async def get_guild_channels(self, call: Call) -> web.Response:
        """GET /guilds/{id}/channels."""
        guild = self._guild(call)
        return json_response([channel.to_payload() for channel in guild.channels])

    async def get_roles(self, call: Call) -> web.Response:
        """GET /guilds/{id}/roles."""
        guild = self._guild(call)
        return json_response([role.to_payload() for role in guild.roles])

    async def list_members(self, call: Call) -> web.Response:
        """GET /guilds/{id}/members (limit, after)."""
        guild = self._guild(call)
        after = int(call.query.get("after", 0))
        members = [u for u in sorted(guild.members, key=lambda u: u.id) if u.id > after]
        limit = int(call.query.get("limit", 1))
        return json_response([guild.member_payload(u) for u in members[:limit]])

    async def get_member(self, call: Call) -> web.Response:
        """GET /guilds/{id}/members/{user_id}."""
        guild = self._guild(call)
        user = self._fake.find_user(int(call.params["user_id"]))
        if user is None or not guild.has_member(user):
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(guild.member_payload(user))
