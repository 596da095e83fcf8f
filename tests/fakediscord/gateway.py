"""The gateway websocket: HELLO, heartbeat ACKs, IDENTIFY → READY + GUILD_CREATE, RESUME, events.

Frames go out as text JSON: discord.py asks for zlib-stream but only inflates binary frames,
so compression need not be emulated.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .payloads import ready_payload

if TYPE_CHECKING:
    from .fake import FakeDiscord

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
GUILDS_INTENT = 1 << 0
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15
# A client closing with these codes ends its session; other closes leave it resumable.
_FINAL_CLOSE_CODES = (1000, 1001)
EVERY_SHARD = -1  # `broadcast` to every session, whatever guilds it owns

EventData = dict[str, Any] | Callable[["GatewaySession"], dict[str, Any]]


class GatewaySession:
    """One identified session: its sequence, a backlog for RESUME, the socket it is on now."""

    def __init__(self, session_id: str, identify: dict[str, Any]) -> None:
        self.session_id = session_id
        self.identify = identify
        self.intents: int = identify.get("intents", 0)
        self.shard: list[int] | None = identify.get("shard")
        self.ws: web.WebSocketResponse | None = None
        self.seq = 0
        self.backlog: deque[dict[str, Any]] = deque(maxlen=2000)
        self.resumable = True
        self.ready = False
        self._lock = asyncio.Lock()

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the guild's events (DMs: shard 0's)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    @property
    def live(self) -> bool:
        """Whether a client is on this session now and has its guild."""
        return self.ready and self.ws is not None and not self.ws.closed

    def has_intent(self, intent: int) -> bool:
        """Whether the client asked for this intent in IDENTIFY."""
        return bool(self.intents & intent)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an op 0 event, numbered and kept for a later RESUME."""
        async with self._lock:
            self.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
            self.backlog.append(frame)
            await self.send(frame)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a frame if a client is attached; a client that is away gets it on RESUME."""
        if self.ws is not None and not self.ws.closed:
            with contextlib.suppress(ConnectionResetError):
                await self.ws.send_str(json.dumps(frame))


class Gateway:
    """Serves the websocket and keeps the sessions; ``frames`` holds what clients sent."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self._sockets: set[web.WebSocketResponse] = set()

    def current(self, guild_id: int | None = None) -> GatewaySession | None:
        """The most recently identified live session that owns the guild (its shard's), the
        one that gets injected interactions; ``guild_id`` None: a DM, shard 0's."""
        live = [s for s in self.sessions.values() if s.live and s.owns(guild_id)]
        return live[-1] if live else None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Run one websocket connection until the client leaves."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        self.connections.append(request.path)
        session: GatewaySession | None = None
        try:
            hello = {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fakediscord"]}
            await ws.send_str(json.dumps({"op": HELLO, "d": hello, "s": None, "t": None}))
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    session = await self._on_frame(ws, json.loads(message.data), session)
        except Exception as exc:
            self._fake.record_internal_error(f"gateway {request.path}", exc)
        finally:
            self._sockets.discard(ws)
            self._detach(ws, session)
        return ws

    def _detach(self, ws: web.WebSocketResponse, session: GatewaySession | None) -> None:
        if session is not None and session.ws is ws:
            session.ws = None
            session.resumable = ws.close_code not in _FINAL_CLOSE_CODES
        self._fake.notify()

    async def _on_frame(
        self, ws: web.WebSocketResponse, frame: dict[str, Any], session: GatewaySession | None
    ) -> GatewaySession | None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            await ws.send_str(json.dumps({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None}))
            return session
        self.frames.append(frame)
        if op == IDENTIFY:
            return await self._identify(ws, data)
        if op == RESUME:
            return await self._resume(ws, data)
        if op == REQUEST_MEMBERS and session is not None:
            await self._send_members(session, data)
        return session

    async def _identify(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        fake = self._fake
        if fake.token is not None and data.get("token") != fake.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = GatewaySession(secrets.token_hex(16), data)
        session.ws = ws
        self.sessions[session.session_id] = session
        guilds = [guild for guild in fake.guilds if session.owns(guild.id)]
        ready = ready_payload(
            fake.bot_user, guilds, session.session_id, fake.resume_gateway_url, session.shard
        )
        await session.dispatch("READY", ready)
        if session.has_intent(GUILDS_INTENT):
            for guild in guilds:
                await session.dispatch("GUILD_CREATE", guild.to_payload())
        session.ready = True
        fake.notify()
        return session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not session.resumable:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
            return None
        session.ws = ws
        seen = data.get("seq") or 0
        for frame in [f for f in session.backlog if f["s"] > seen]:
            await session.send(frame)
        await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        self._fake.notify()
        return session

    async def _send_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self._fake.guild_by_id(data.get("guild_id")) or self._fake.guild
        wanted = {int(x) for x in data.get("user_ids") or []}
        prefix = (data.get("query") or "").lower()
        members = [
            guild.member_payload(user)
            for user in guild.members
            if (not wanted or user.id in wanted) and user.username.lower().startswith(prefix)
        ]
        chunk = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def broadcast(
        self,
        event: str,
        data: EventData,
        intent: int | None = None,
        *,
        guild_id: int | None = EVERY_SHARD,
    ) -> None:
        """Dispatch to every live session (with ``intent``, only those that asked for it; with
        ``guild_id``, only the shard that owns that guild, None meaning a DM).

        ``data`` may be a function of the session, for events that differ by intents.
        """
        for session in list(self.sessions.values()):
            if guild_id != EVERY_SHARD and not session.owns(guild_id):
                continue
            if session.live and (intent is None or session.has_intent(intent)):
                await session.dispatch(event, data(session) if callable(data) else data)

    async def reconnect_all(self) -> None:
        """Send op 7 RECONNECT: clients drop the socket and RESUME on resume_gateway_url."""
        for session in list(self.sessions.values()):
            if session.live:
                await session.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        """Close every socket (clients should have been stopped first)."""
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"fake discord shutting down")
