"""FakeDiscord: a local Discord (REST + gateway) that the unmodified discord.py client talks to.

Typical use::

    async with FakeDiscord(users=4) as fake:
        async with fake.running(MyBot()) as bot:
            record = await fake.slash(fake.users[0], "mahjong", "create", {"preset": "hkos-3-v1"})
            response = await record.wait_response()
            await fake.click(fake.users[1], response.message, label="Join")

Leaving the ``async with`` stops bots started through the fake, restores discord.py's URLs and,
when ``strict`` (the default), raises ``FakeDiscordError`` if the bot called a route the fake does
not serve, sent something Discord would refuse, or crashed the fake.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import socket
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

import discord
import yarl
from aiohttp import web

from . import commands
from .gateway import (
    DIRECT_MESSAGES_INTENT,
    GUILD_MESSAGES_INTENT,
    MESSAGE_CONTENT_INTENT,
    Gateway,
    GatewaySession,
)
from .ids import SnowflakeFactory, iso_now
from .interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    COMPONENT,
    MODAL_SUBMIT,
    SELECT_OPTION_TYPE,
    Resolver,
    check_modal,
    interaction_payload,
    modal_answers,
)
from .messages import apply_body, check_message, invalid_form, pick_attachments
from .models import (
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionRecord,
    RecordedResponse,
    SentPayload,
    Visibility,
)
from .payloads import BOT_PERMISSIONS, MEMBER_PERMISSIONS, FakeGuild
from .rest import DiscordError, RestApi

T = TypeVar("T")
MiB = 1024 * 1024
DEFAULT_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
# Names discord.py gives the tasks that run handlers (app commands, views, dynamic items,
# modals, events); ``settle`` waits for these, as the fake cannot see into the bot otherwise.
_HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: ",
)
MessageRef = FakeMessage | int | str | discord.abc.Snowflake


class FakeDiscordError(AssertionError):
    """The bot did something Discord would not accept, or the fake could not serve it."""


class FakeDiscord:
    """A Discord for one guild (or ``guilds`` of them) with a few text channels, N test users
    and the bot.

    Members of every guild are the bot, ``owner`` (owns the guilds and the application) and
    ``users``. Ids are real snowflakes; every id in a payload is a string, as on Discord.
    A client that IDENTIFYs with ``shard: [id, count]`` gets only the guilds of its shard,
    ``(guild_id >> 22) % count == id`` (DMs go to shard 0), as Discord shards them.
    """

    def __init__(
        self,
        users: int = 4,
        *,
        usernames: Sequence[str] | None = None,
        channels: Sequence[str] = ("general",),
        guild_name: str = "Fake Guild",
        guilds: int = 1,
        token: str | None = None,
        attachment_size_limit: int = 10 * MiB,
        ack_deadline: float = 3.0,
        strict: bool = True,
        require_answers: bool = True,
    ) -> None:
        """Build the guild; ``token`` (if given) is the only one the fake accepts.

        ``guilds`` beyond the first are named ``"{guild_name} 2"`` and so on; their ids differ
        by one in the shard bits, so N guilds land on N different shards of N or more.
        ``strict`` makes leaving ``async with`` raise on any problem; ``require_answers`` counts
        an interaction the bot never answered as a problem (users see "interaction failed").
        """
        self.new_id = SnowflakeFactory()
        names = list(usernames or DEFAULT_NAMES[:users])
        names += [f"user{index + 1}" for index in range(len(names), users)]
        self.bot_user = FakeUser(self.new_id(), "FakeBot", bot=True)
        self.application_id = self.bot_user.id
        self.guild_owner = FakeUser(self.new_id(), "owner", global_name="Owner")
        self.users = [FakeUser(self.new_id(), name, global_name=name.title()) for name in names]
        self.guild = self._build_guild(guild_name, channels)
        self.guilds = [self.guild]
        # Guild k's shard bits are the first guild's minus k (a past millisecond: no later id
        # can equal it; the low bits are more than one millisecond ever hands out).
        stamp = self.guild.id >> 22
        for index in range(1, guilds):
            name = f"{guild_name} {index + 1}"
            guild_id = ((stamp - index) << 22) | 0x3FFFFF
            self.guilds.append(self._build_guild(name, channels, guild_id))
        self.channels: dict[int, FakeChannel] = {
            c.id: c for guild in self.guilds for c in guild.channels
        }
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: list[InteractionRecord] = []
        self.commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.all_payloads: list[SentPayload] = []
        self.requests: list[str] = []
        self.unknown_routes: list[str] = []
        self.rejections: list[str] = []
        self.internal_errors: list[str] = []
        self.token = token
        self.attachment_size_limit = attachment_size_limit
        self.ack_deadline = ack_deadline
        self.strict = strict
        self.require_answers = require_answers
        self.gateway = Gateway(self)
        self._rest = RestApi(self)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._changed: asyncio.Event | None = None
        self._saved_urls: tuple[str, yarl.URL] | None = None
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}
        self._interaction_by_token: dict[str, InteractionRecord] = {}

    def _build_guild(
        self, name: str, channel_names: Sequence[str], guild_id: int | None = None
    ) -> FakeGuild:
        guild_id = guild_id or self.new_id()
        bot_role = FakeRole(self.new_id(), "FakeBot", BOT_PERMISSIONS, 1, self.bot_user.id)
        guild = FakeGuild(
            id=guild_id,
            name=name,
            owner_id=self.guild_owner.id,
            joined_at=iso_now(),
            roles=[FakeRole(guild_id, "@everyone", MEMBER_PERMISSIONS), bot_role],
            members=[self.bot_user, self.guild_owner, *self.users],
            member_roles={self.bot_user.id: [bot_role.id]},
        )
        guild.channels = [
            FakeChannel(self.new_id(), 0, channel, guild_id, position=index)
            for index, channel in enumerate(channel_names)
        ]
        return guild

    # --- addresses and lifecycle --------------------------------------------------------------

    @property
    def channel(self) -> FakeChannel:
        """The first text channel, where commands run unless told otherwise."""
        return self.guild.channels[0]

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` (the CDN lives here too)."""
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE`` (or the bot's DISCORD_API_BASE)."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket URL (DiscordWebSocket.DEFAULT_GATEWAY)."""
        return f"ws://127.0.0.1:{self._port}/ws"

    @property
    def resume_gateway_url(self) -> str:
        """The URL READY names for resuming, kept apart so tests can see a resume happen."""
        return f"ws://127.0.0.1:{self._port}/ws/resume"

    def env(self) -> dict[str, str]:
        """Environment variables that point the bot's own configuration at the fake."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    async def start(self) -> FakeDiscord:
        """Listen on a free port of 127.0.0.1."""
        self._changed = asyncio.Event()
        app = web.Application(client_max_size=64 * MiB)
        app.router.add_get("/ws", self.gateway.handle)
        app.router.add_get("/ws/resume", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        return self

    async def close(self) -> None:
        """Stop bots started here, restore discord.py's URLs and shut the server down."""
        for bot in list(self._bots):
            await self.stop_bot(bot)
        self.unpatch_discord()
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        await self.close()
        if exc_type is None and self.strict:
            self.assert_clean()

    def patch_discord(self) -> FakeDiscord:
        """Point discord.py's REST base and default gateway here until ``close``."""
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        if self._saved_urls is None:
            self._saved_urls = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = self.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        return self

    def unpatch_discord(self) -> None:
        """Restore what ``patch_discord`` replaced."""
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        if self._saved_urls is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved_urls
            self._saved_urls = None

    # --- running bots -------------------------------------------------------------------------

    async def start_bot(
        self, bot: discord.Client, *, token: str = "fake-token", timeout: float = 5.0
    ) -> discord.Client:
        """Log the bot in, connect it in a task and wait until it is ready."""
        self.patch_discord()
        try:
            await bot.login(token)
        except BaseException:
            await bot.close()
            raise
        task = asyncio.create_task(bot.connect(), name=f"fakediscord-connect-{id(bot)}")
        self._bots[bot] = task
        ready = asyncio.ensure_future(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready in done:
            return bot
        ready.cancel()
        failure = task.exception() if task.done() and not task.cancelled() else None
        await self.stop_bot(bot)
        raise FakeDiscordError(f"bot not ready within {timeout}s; {self.problems}") from failure

    async def stop_bot(self, bot: discord.Client, *, timeout: float = 5.0) -> None:
        """Let the bot finish its handlers (see ``settle``), close it, wait for its task."""
        task = self._bots.pop(bot, None)
        with contextlib.suppress(FakeDiscordError):
            await self.settle(timeout=timeout)
        await bot.close()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(task, timeout)

    @contextlib.asynccontextmanager
    async def running(self, bot: discord.Client, **kwargs: Any) -> AsyncIterator[Any]:
        """``async with fake.running(bot):`` start the bot, and always stop it afterwards."""
        await self.start_bot(bot, **kwargs)
        try:
            yield bot
        finally:
            await self.stop_bot(bot)

    async def wait_ready(self, bot: discord.Client | None = None, timeout: float = 5.0) -> None:
        """Wait until a client has IDENTIFYed and got its guild (and, given ``bot``, is ready)."""
        await self.wait_for(
            lambda: any(session.live for session in self.gateway.sessions.values()),
            timeout,
            message="no client finished IDENTIFY on the fake gateway",
        )
        if bot is not None:
            await asyncio.wait_for(bot.wait_until_ready(), timeout)

    async def settle(self, timeout: float = 5.0) -> None:
        """Wait until no bot handler task is running and no request is being served.

        A test that returns right after ``wait_response`` would otherwise close the bot while
        its command is still sending a DM. Handler tasks are found by the names discord.py
        gives them, so a handler that never returns makes this time out.
        """

        def busy() -> list[str]:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            names = [t.get_name() for t in tasks if not t.done()]
            handlers = [n for n in names if n.startswith(_HANDLER_TASK_PREFIXES)]
            return handlers + ["request"] * self._rest.in_flight

        await self.wait_for(
            lambda: not busy(), timeout, message=lambda: f"bot still busy with {busy()}"
        )

    async def reconnect_clients(self) -> None:
        """Ask connected clients to reconnect (op 7); they RESUME on the resume URL."""
        await self.gateway.reconnect_all()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a raw gateway event to every connected client."""
        await self.gateway.broadcast(event, data)

    # --- waiting and checking -----------------------------------------------------------------

    def notify(self) -> None:
        """Wake everything waiting in ``wait_for`` (called whenever the fake's state changes)."""
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def wait_for(
        self,
        predicate: Callable[[], T | Awaitable[T]],
        timeout: float = 5.0,
        *,
        message: str | Callable[[], str] | None = None,
    ) -> T:
        """Return the predicate's first truthy value; raise FakeDiscordError after ``timeout``.

        Re-checks on every change to the fake and every 20 ms, so predicates over the bot's
        own state work too. The predicate may be a coroutine function.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if inspect.isawaitable(result):
                result = await result
            if result:
                return result  # type: ignore[return-value]
            remaining = deadline - loop.time()
            if remaining <= 0:
                text = message() if callable(message) else message or repr(predicate)
                raise FakeDiscordError(f"timed out after {timeout}s: {text}; {self.problems}")
            assert self._changed is not None, "FakeDiscord is not started"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.02))

    async def wait_for_messages(
        self, where: FakeChannel | FakeUser | None = None, count: int = 1, *, timeout: float = 5.0
    ) -> list[FakeMessage]:
        """Wait until a channel (default: the first) or a user's DMs hold ``count`` messages."""

        def found() -> list[FakeMessage]:
            if isinstance(where, FakeUser):
                return self.dms(where)
            return self.channel_messages(where)

        return await self.wait_for(
            lambda: found() if len(found()) >= count else None,
            timeout,
            message=lambda: f"{count} messages in {where or self.channel}, have {len(found())}",
        )

    @property
    def unanswered(self) -> list[InteractionRecord]:
        """Interactions the bot has not (or not in time) acknowledged."""
        return [record for record in self.interactions if record.callback is None]

    @property
    def problems(self) -> list[str]:
        """Unknown routes, refused requests, fake crashes and unanswered interactions so far."""
        unanswered = self.unanswered if self.require_answers else []
        return [
            *(f"unknown route {route}" for route in self.unknown_routes),
            *(f"refused {item}" for item in self.rejections),
            *(f"fake crashed in {item}" for item in self.internal_errors),
            *(f"never answered: {record.summary}" for record in unanswered),
        ]

    def assert_clean(self) -> None:
        """Raise FakeDiscordError listing every problem, if there was any."""
        if self.problems:
            raise FakeDiscordError("fake Discord saw problems:\n" + "\n".join(self.problems))

    def record_internal_error(self, where: str, exc: BaseException) -> None:
        """Keep a crash of the fake itself, with its traceback, for ``assert_clean``."""
        trace = "".join(traceback.format_exception(exc))
        self.internal_errors.append(f"{where}: {exc!r}\n{trace}")
        self.notify()

    # --- looking things up --------------------------------------------------------------------

    def find_user(self, user_id: int) -> FakeUser | None:
        """The bot, the owner or a test user with this id."""
        everyone = [self.bot_user, self.guild_owner, *self.users]
        return next((user for user in everyone if user.id == user_id), None)

    def require_user(self, raw: Any) -> FakeUser:
        """The user with this id, or Discord's 404 Unknown User."""
        user = self.find_user(int(raw)) if str(raw).isdigit() else None
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return user

    def require_channel(self, raw: Any) -> FakeChannel:
        """The channel with this id, or Discord's 404 Unknown Channel."""
        channel = self.channels.get(int(raw)) if str(raw).isdigit() else None
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def guild_by_id(self, guild_id: int | str | None) -> FakeGuild | None:
        """The guild with this id, if the fake has it."""
        return next((g for g in self.guilds if str(g.id) == str(guild_id)), None)

    def guild_of(self, channel: FakeChannel) -> FakeGuild:
        """The guild a (guild) channel belongs to."""
        guild = self.guild_by_id(channel.guild_id)
        if guild is None:
            raise ValueError(f"channel {channel.id} belongs to no guild (a DM?)")
        return guild

    def dm_channel(self, user: FakeUser) -> FakeChannel | None:
        """The user's DM channel, if the bot has opened it."""
        return next((c for c in self.channels.values() if c.recipient is user), None)

    def open_dm(self, user: FakeUser) -> FakeChannel:
        """The user's DM channel, made on first use (one per user, type 1)."""
        channel = self.dm_channel(user)
        if channel is None:
            channel = FakeChannel(self.new_id(), 1, recipient=user)
            self.channels[channel.id] = channel
        return channel

    def message(self, ref: MessageRef) -> FakeMessage:
        """A message by FakeMessage, id, or any object with ``.id`` (e.g. a discord.Message)."""
        if isinstance(ref, FakeMessage):
            return ref
        key = int(ref) if isinstance(ref, int | str) else ref.id
        try:
            return self.messages[key]
        except KeyError:
            raise LookupError(f"the fake has no message {key}") from None

    def channel_messages(
        self,
        channel: FakeChannel | int | None = None,
        *,
        as_user: FakeUser | None = None,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages in a channel (default: the first), oldest first.

        Ephemeral messages are included unless ``as_user`` asks for what one user can see.
        """
        channel_id = self._channel_id(channel)
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id
            and (include_deleted or not m.deleted)
            and (as_user is None or m.can_see(as_user))
        ]

    def _channel_id(self, channel: FakeChannel | int | None) -> int:
        if channel is None:
            return self.channel.id
        return channel if isinstance(channel, int) else channel.id

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the user's DM channel (from the bot and from the user), oldest first."""
        channel = self.dm_channel(user)
        return [] if channel is None else self.channel_messages(channel)

    def ephemerals(self, user: FakeUser) -> list[FakeMessage]:
        """Ephemeral messages shown to this user, oldest first."""
        return [m for m in self.messages.values() if m.visible_to == user.id and not m.deleted]

    def public_payloads(self) -> list[SentPayload]:
        """Bodies whose content every member of a guild channel could see."""
        return [p for p in self.all_payloads if p.is_public]

    def command_tree(self, *, guild: bool = False) -> list[dict[str, Any]]:
        """The synced commands, global or the guild's, as stored by the fake (ids included)."""
        return self.guild_commands.get(self.guild.id, []) if guild else self.commands

    def command_paths(self, *, guild: bool = False) -> list[str]:
        """Invocable slash command paths, e.g. ``["demo hello", "demo slow"]``."""
        return commands.command_paths(self.command_tree(guild=guild))

    def visibility_of(self, message: FakeMessage) -> Visibility:
        """Who sees a message: everyone in the channel, one user, or a DM recipient."""
        if message.visible_to is not None:
            return "ephemeral"
        return "dm" if self.channels[message.channel_id].is_dm else "public"

    # --- messages (used by the REST handlers) -------------------------------------------------

    def new_attachment(
        self, filename: str, content_type: str | None, data: bytes
    ) -> FakeAttachment:
        """Store uploaded bytes under a CDN URL the bot can fetch (``Attachment.read()``)."""
        attachment_id = self.new_id()
        url = f"{self.base_url}/attachments/{attachment_id}/{quote(filename)}"
        item = FakeAttachment(attachment_id, filename, content_type, data, url)
        self.attachments[attachment_id] = item
        return item

    async def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: dict[str, Any],
        uploads: Mapping[int, FakeAttachment],
        *,
        visible_to: FakeUser | None = None,
        interaction: InteractionRecord | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        """Make a message from a create body, check it like Discord, store and announce it."""
        message = FakeMessage(self.new_id(), channel.id, channel.guild_id, author, iso_now())
        attachments = pick_attachments(body.get("attachments"), uploads, [])
        apply_body(message, body, attachments, self.find_user, creating=True)
        # Only interaction responses can be ephemeral; a channel message's flag 64 is ignored.
        message.flags &= ~EPHEMERAL
        message.flags |= (EPHEMERAL if visible_to else 0) | (LOADING if loading else 0)
        message.visible_to = visible_to.id if visible_to else None
        if interaction is not None:
            self._mark_interaction(message, interaction)
        check_message(message, self.attachment_size_limit)
        self.messages[message.id] = message
        if visible_to is None:
            channel.last_message_id = message.id
        self.notify()
        await self._announce("MESSAGE_CREATE", message)
        return message

    def _mark_interaction(self, message: FakeMessage, record: InteractionRecord) -> None:
        message.interaction_id = record.id
        message.application_id = self.application_id
        message.type = 20 if record.type == APPLICATION_COMMAND else 0
        message.extra["interaction_metadata"] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.to_payload(),
            "authorizing_integration_owners": record.payload["authorizing_integration_owners"],
        }

    async def edit_message(
        self,
        message: FakeMessage,
        body: dict[str, Any],
        uploads: Mapping[int, FakeAttachment],
        *,
        record: InteractionRecord | None = None,
    ) -> FakeMessage:
        """Apply an edit body; a refused edit leaves the message untouched."""
        candidate = dataclasses.replace(
            message, extra=dict(message.extra), history=list(message.history)
        )
        attachments = pick_attachments(body.get("attachments"), uploads, message.attachments)
        apply_body(candidate, body, attachments, self.find_user, creating=False)
        if not message.loading:
            candidate.edited_timestamp = iso_now()
        check_message(candidate, self.attachment_size_limit)
        vars(message).update(vars(candidate))
        if record is not None:
            files = list(uploads.values())
            record.responses.append(RecordedResponse("edit", body, files=files, message=message))
        self.notify()
        await self._announce("MESSAGE_UPDATE", message)
        return message

    async def delete_message(
        self, message: FakeMessage, *, record: InteractionRecord | None = None
    ) -> None:
        """Mark the message deleted (it stays in ``messages`` for inspection)."""
        message.deleted = True
        if record is not None:
            record.responses.append(RecordedResponse("delete", {}, message=message))
        self.notify()
        await self._announce("MESSAGE_DELETE", message)

    async def _announce(self, event: str, message: FakeMessage) -> None:
        # Ephemeral messages never reach the gateway; others go to clients with the intent.
        if message.visible_to is not None:
            return
        is_dm = self.channels[message.channel_id].is_dm
        intent = DIRECT_MESSAGES_INTENT if is_dm else GUILD_MESSAGES_INTENT
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            await self.gateway.broadcast(event, data, intent, guild_id=message.guild_id)
        else:
            body = lambda s: self._event_body(message, s)  # noqa: E731
            await self.gateway.broadcast(event, body, intent, guild_id=message.guild_id)

    def _event_body(self, message: FakeMessage, session: GatewaySession) -> dict[str, Any]:
        data = message.to_payload()
        if message.guild_id is None:
            return data
        data["guild_id"] = str(message.guild_id)
        guild = self.guild_by_id(message.guild_id) or self.guild
        if guild.has_member(message.author):
            data["member"] = guild.member_payload(message.author, with_user=False)
        # Without the message content intent, others' guild messages arrive blanked.
        mentioned = any(user is self.bot_user for user in message.mentions)
        if not (session.has_intent(MESSAGE_CONTENT_INTENT) or message.author.bot or mentioned):
            data |= {"content": "", "embeds": [], "attachments": [], "components": []}
        return data

    # --- interaction responses (used by the REST handlers) ------------------------------------

    def interaction_for_callback(self, raw_id: str, token: str) -> InteractionRecord:
        """The interaction a callback answers; refuse unknown, repeated and late callbacks."""
        record = self._interaction_by_token.get(token)
        if record is None or str(record.id) != raw_id:
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.callback is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        late = asyncio.get_running_loop().time() - record.created_at
        if late > self.ack_deadline:
            detail = f"answered after {late:.2f}s, Discord allows {self.ack_deadline}s"
            raise DiscordError(404, 10062, "Unknown interaction", detail=detail)
        return record

    def interaction_for_webhook(self, app_id: str, token: str) -> InteractionRecord:
        """The interaction behind a follow-up/edit webhook (usable only after the callback)."""
        record = self._interaction_by_token.get(token)
        if record is None or app_id != str(self.application_id):
            raise DiscordError(404, 10015, "Unknown Webhook")
        if record.callback is None:
            detail = "the interaction has not been acknowledged yet"
            raise DiscordError(404, 10015, "Unknown Webhook", detail=detail)
        return record

    def interaction_message(self, record: InteractionRecord, raw_id: str) -> FakeMessage:
        """``@original`` or a follow-up of this interaction."""
        if raw_id == "@original":
            message = record.original
        else:
            message = self.messages.get(int(raw_id)) if raw_id.isdigit() else None
            ours = message is record.original or (message and message.interaction_id == record.id)
            message = message if ours else None
        if message is None or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def respond_to_interaction(
        self, record: InteractionRecord, body: dict[str, Any], uploads: Mapping[int, FakeAttachment]
    ) -> tuple[FakeMessage | None, FakeMessage | None]:
        """Act on a callback; return (message to echo back, message it refers to)."""
        kind, data = body.get("type"), body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[record.type]:
            detail = f"callback type {kind} for interaction type {record.type}"
            raise invalid_form({"type": detail})
        message: FakeMessage | None = None
        target: FakeMessage | None = None
        if kind in (4, 5):
            visible_to = record.user if (data.get("flags") or 0) & EPHEMERAL else None
            channel = self.channels[record.channel_id]
            content = data if kind == 4 else {}
            message = await self.create_message(
                channel, self.bot_user, content, uploads,
                visible_to=visible_to, interaction=record, loading=kind == 5,
            )  # fmt: skip
            target = record.original = message
        elif kind in (6, 7):
            target = record.original = self._interacted_message(record)
            if kind == 7:
                message = await self.edit_message(target, data, uploads)
        elif kind == 9:
            check_modal(data)
        files = list(uploads.values())
        record.responses.append(
            RecordedResponse("callback", body, type=kind, files=files, message=message or target)
        )
        self.notify()
        return message, target

    def _interacted_message(self, record: InteractionRecord) -> FakeMessage:
        raw = record.payload.get("message")
        if raw is None:
            raise invalid_form({"type": "callback types 6 and 7 need a message to update"})
        return self.messages[int(raw["id"])]

    async def send_followup(
        self, record: InteractionRecord, body: dict[str, Any], uploads: Mapping[int, FakeAttachment]
    ) -> FakeMessage:
        """Post a follow-up; the first one after a type 5 deferral fills the "thinking…" message."""
        original = record.original
        files = list(uploads.values())
        if record.response_type == 5 and original and original.loading and not record.followups:
            # The deferral already chose visibility; the follow-up's flags cannot change it.
            content = {key: value for key, value in body.items() if key != "flags"}
            message = await self.edit_message(original, content, uploads)
        else:
            visible_to = record.user if (body.get("flags") or 0) & EPHEMERAL else None
            channel = self.channels[record.channel_id]
            message = await self.create_message(
                channel, self.bot_user, body, uploads, visible_to=visible_to, interaction=record
            )
        record.responses.append(RecordedResponse("followup", body, files=files, message=message))
        self.notify()
        return message

    # --- injecting interactions ---------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        channel: FakeChannel | None = None,
        dm: bool = False,
        wait_sync: float = 2.0,
    ) -> InteractionRecord:
        """Run a synced slash command as ``user``; ``name`` may hold the whole path.

        ``fake.slash(u, "mahjong", "create", {"preset": "x"})`` equals
        ``fake.slash(u, "mahjong create", options={"preset": "x"})``. Values are checked against
        the synced option types and choices. Users, channels and roles may be given as fake
        objects or ids, attachments as ``(filename, bytes)``.
        """
        return await self._command_interaction(
            APPLICATION_COMMAND, user, name, subcommand, options, None, channel, dm, wait_sync
        )

    async def autocomplete(
        self,
        user: FakeUser,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        channel: FakeChannel | None = None,
        dm: bool = False,
    ) -> InteractionRecord:
        """Ask for autocomplete choices while ``user`` types the ``focused`` option."""
        return await self._command_interaction(
            AUTOCOMPLETE, user, name, subcommand, options, focused, channel, dm, 2.0
        )

    async def _command_interaction(
        self,
        kind: int,
        user: FakeUser,
        name: str,
        subcommand: str | None,
        options: Mapping[str, Any] | None,
        focused: str | None,
        channel: FakeChannel | None,
        dm: bool,
        wait_sync: float,
    ) -> InteractionRecord:
        parts = name.split() + (subcommand.split() if subcommand else [])
        command = await self._synced_command(parts[0], dm, wait_sync)
        chain, defs = commands.resolve_path(command, parts[1:])
        where = self.open_dm(user) if dm else channel or self.channel
        resolver = Resolver(self, guild=None if dm else self.guild_of(where))
        leaf = commands.build_options(defs, options or {}, resolver.option, focused=focused)
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": commands.nest_options(chain, leaf),
        }
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if resolver.resolved:
            data["resolved"] = resolver.resolved
        return await self._inject(kind, user, where, data)

    async def _synced_command(self, name: str, dm: bool, wait_sync: float) -> dict[str, Any]:
        def lookup() -> dict[str, Any] | None:
            found = None if dm else commands.find_command(self.command_tree(guild=True), name)
            return found or commands.find_command(self.commands, name)

        synced = self.command_paths() + self.command_paths(guild=True)
        command = await self.wait_for(
            lookup,
            wait_sync,
            message=f"/{name} is not synced (synced: {synced}); did the bot call tree.sync()?",
        )
        contexts = command.get("contexts")
        if dm and (command.get("dm_permission") is False or (contexts and 1 not in contexts)):
            raise LookupError(f"/{name} is not available in DMs")
        if not dm and contexts and 0 not in contexts:
            raise LookupError(f"/{name} is not available in guilds")
        return command

    async def click(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
    ) -> InteractionRecord:
        """Press a button (found by custom id or label) on a message, as ``user``."""
        target = self._clickable(user, message)
        button = target.find_component(custom_id, label=label)
        if button.get("type") != 2:
            raise ValueError(f"{button.get('custom_id')!r} is not a button; use select()")
        if button.get("disabled") or "custom_id" not in button:
            raise ValueError(f"button {button.get('label')!r} is disabled or is a link button")
        data: dict[str, Any] = {"custom_id": button["custom_id"], "component_type": 2}
        if "id" in button:
            data["id"] = button["id"]
        return await self._inject(COMPONENT, user, self.channels[target.channel_id], data, target)

    async def select(
        self, user: FakeUser, message: MessageRef, custom_id: str, values: Sequence[Any]
    ) -> InteractionRecord:
        """Choose ``values`` in a select menu (string values, or users/roles/channels)."""
        target = self._clickable(user, message)
        menu = target.find_component(custom_id)
        kind = menu.get("type")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if kind not in (3, *SELECT_OPTION_TYPE) or menu.get("disabled"):
            raise ValueError(f"{custom_id!r} is not an enabled select menu")
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}-{high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        channel = self.channels[target.channel_id]
        if kind == 3:
            offered = [option["value"] for option in menu.get("options", [])]
            if not set(values) <= set(offered):
                raise ValueError(f"{custom_id!r} offers {offered}, got {list(values)}")
            data["values"] = list(values)
        else:
            resolver = Resolver(self, guild=None if channel.is_dm else self.guild_of(channel))
            data["values"] = [resolver.entity(SELECT_OPTION_TYPE[kind], v) for v in values]
            data["resolved"] = resolver.resolved
        return await self._inject(COMPONENT, user, channel, data, target)

    def _clickable(self, user: FakeUser, ref: MessageRef) -> FakeMessage:
        message = self.message(ref)
        channel = self.channels[message.channel_id]
        if message.deleted or not message.can_see(user):
            raise ValueError(f"{user.username} cannot see message {message.id}")
        if channel.is_dm and channel.recipient is not user:
            raise ValueError(f"message {message.id} is in another user's DMs")
        return message

    async def submit_modal(
        self,
        opened: InteractionRecord,
        values: Mapping[str, str | Sequence[str]],
        *,
        user: FakeUser | None = None,
    ) -> InteractionRecord:
        """Fill in and submit the modal the bot opened in answer to ``opened``.

        ``values`` maps custom ids to text (text inputs) or lists (selects inside labels).
        """
        modal = opened.modal
        if modal is None:
            raise ValueError(f"interaction {opened.id} was not answered with a modal")
        unused = set(values)
        answers = modal_answers(modal.get("components", []), values, unused)
        if unused:
            raise ValueError(f"the modal has no inputs {sorted(unused)}")
        data = {"custom_id": modal["custom_id"], "components": answers}
        channel = self.channels[opened.channel_id]
        source = opened.payload.get("message")
        message = self.messages.get(int(source["id"])) if source else None
        return await self._inject(MODAL_SUBMIT, user or opened.user, channel, data, message)

    async def post_message(
        self, user: FakeUser, content: str, *, channel: FakeChannel | None = None
    ) -> FakeMessage:
        """Have a user write in a channel (default: the first); the bot gets MESSAGE_CREATE."""
        where = channel or self.channel
        if where.is_dm and where.recipient is not user:
            raise ValueError(f"{user.username} cannot write in another user's DMs")
        return await self.create_message(where, user, {"content": content}, {})

    async def _inject(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> InteractionRecord:
        session = self.gateway.current(channel.guild_id)
        if session is None:
            raise RuntimeError(
                "no bot is connected to the fake gateway for this guild's shard; await wait_ready()"
            )
        payload = interaction_payload(self, kind, user, channel, data, message)
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            payload=payload,
            session_id=session.session_id,
            created_at=asyncio.get_running_loop().time(),
            _fake=self,
        )
        self.interactions.append(record)
        self._interaction_by_token[record.token] = record
        await session.dispatch("INTERACTION_CREATE", payload)
        return record
