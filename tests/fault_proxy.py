"""A TCP proxy on 127.0.0.1 in front of the tests' PostgreSQL that lies as a network does
(issue 40.1, 40.2): it loses the server's reply to a COMMIT (the link cut right after the
server committed), delays that reply past the statement timeout, cuts the link as the client
sends its next statement, or goes silent without closing anything (a half-open connection).

It runs on a loop of its own (a thread), so a store blocked on its own worker thread, or a test
on the event loop, sees it as a remote host. Each fault is armed once and fires on the next
connection that meets it; `fired` counts the faults that happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import urllib.parse
from collections.abc import Iterator
from enum import Enum

# The server's CommandComplete message for a COMMIT: 'C', its length (4 + 7), "COMMIT\0".
COMMIT_DONE = b"C\x00\x00\x00\x0bCOMMIT\x00"
CHUNK = 65536


class Fault(Enum):
    LOSE_COMMIT_REPLY = "lose"  # the server commits; its reply never arrives, the link is cut
    LATE_COMMIT_REPLY = "late"  # the server commits; its reply comes after `late_by` seconds
    CUT_NEXT_STATEMENT = "cut"  # what the client sends next never arrives, the link is cut
    SILENCE = "silence"  # nothing more passes either way, and nothing is closed


class FaultProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.armed: Fault | None = None
        self.late_by = 0.0
        self.pass_first = 0  # CUT_NEXT_STATEMENT: sends let through before the cut
        self.fired: list[Fault] = []
        self.silent = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._lock = threading.Lock()
        self.port = 0

    @classmethod
    @contextlib.contextmanager
    def before(cls, dsn: str) -> Iterator[tuple[FaultProxy, str]]:
        """A proxy in front of the server of `dsn`, and the address that goes through it."""
        parts = urllib.parse.urlsplit(dsn)
        assert parts.hostname is not None and parts.port is not None
        proxy = cls(parts.hostname, parts.port)
        proxy.start()
        try:
            user = f"{parts.username}@" if parts.username else ""
            yield proxy, parts._replace(netloc=f"{user}127.0.0.1:{proxy.port}").geturl()
        finally:
            proxy.stop()

    def start(self) -> None:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, "127.0.0.1", 0), self._loop
        )
        self._server = future.result(10)
        self.port = self._server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        async def close() -> None:
            assert self._server is not None
            self._server.close()
            for writer in list(self._writers):
                writer.transport.abort()
            # the links' tasks end here, not destroyed pending with the loop
            links = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in links:
                task.cancel()
            await asyncio.gather(*links, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def arm(self, fault: Fault, late_by: float = 0.0, pass_first: int = 0) -> None:
        with self._lock:
            self.armed, self.late_by, self.pass_first = fault, late_by, pass_first
            self.silent = fault is Fault.SILENCE

    def heal(self) -> None:
        """New connections pass again (a silent link's old connections stay silent)."""
        with self._lock:
            self.armed = None
            self.silent = False

    def _take(self, fault: Fault) -> bool:
        with self._lock:
            if self.armed is not fault:
                return False
            if fault is Fault.CUT_NEXT_STATEMENT and self.pass_first:
                self.pass_first -= 1
                return False
            self.armed = None
            self.fired.append(fault)
            return True

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(*self.target)
        except OSError:
            client_w.transport.abort()
            return
        self._writers |= {client_w, server_w}
        link = _Link(client_w, server_w)
        await asyncio.gather(
            self._upstream(client_r, server_w, link),
            self._downstream(server_r, client_w, link),
            return_exceptions=True,
        )
        self._writers -= {client_w, server_w}

    async def _upstream(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: _Link
    ) -> None:
        while data := await reader.read(CHUNK):
            if link.silent or self.silent:
                link.silent = True
                continue  # swallowed: the far end never hears of it, and nothing closes
            if self._take(Fault.CUT_NEXT_STATEMENT):
                link.cut()
                return
            writer.write(data)
            await writer.drain()
        link.cut()

    async def _downstream(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: _Link
    ) -> None:
        while data := await reader.read(CHUNK):
            if link.silent or self.silent:
                link.silent = True
                continue
            if COMMIT_DONE in data:
                if self._take(Fault.LOSE_COMMIT_REPLY):
                    link.cut()
                    return
                if self._take(Fault.LATE_COMMIT_REPLY):
                    await asyncio.sleep(self.late_by)
            writer.write(data)
            await writer.drain()
        link.cut()


class _Link:
    """One client connection and its server connection."""

    def __init__(self, client: asyncio.StreamWriter, server: asyncio.StreamWriter) -> None:
        self.client, self.server = client, server
        self.silent = False

    def cut(self) -> None:
        self.client.transport.abort()
        self.server.transport.abort()
