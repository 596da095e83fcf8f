"""A throwaway PostgreSQL server for the tests: initdb in a fresh temporary folder, listening on
127.0.0.1 (a free port) and a socket in that folder, stopped and deleted at the end.

PostgreSQL refuses to run as root, so when the tests run as root the server runs as the
`postgres` user (Debian's package creates it). `MAHJONG_TEST_PG=postgresql://…` names a server
you already have instead; each test then gets a fresh database on it, dropped afterwards.

    python -m tests.pg_server      # start one and print its address, for trying things by hand
    python -m tests.pg_server --durable   # fsync on, as a real server (for bench/load.py)
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

# Debian installs PostgreSQL's programs in a versioned folder that is not on PATH
BIN_GLOBS = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin")


class NoServerError(RuntimeError):
    """No PostgreSQL server could be started (not installed, or it would not start)."""


def find_bin() -> str:
    """The folder holding initdb and pg_ctl (the newest version when several are installed)."""
    on_path = shutil.which("initdb")
    if on_path:
        return os.path.dirname(on_path)
    for pattern in BIN_GLOBS:
        found = sorted(glob.glob(pattern), key=_version_key)
        found = [f for f in found if os.path.exists(os.path.join(f, "pg_ctl"))]
        if found:
            return found[-1]
    raise NoServerError(
        "PostgreSQL is not installed (no initdb): apt-get install postgresql, "
        "or set MAHJONG_TEST_PG=postgresql://… to a server you have"
    )


def _version_key(path: str) -> tuple[int, ...]:
    parts = [p for p in path.split("/") if p.isdigit()]
    return tuple(int(p) for p in parts)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running throwaway server; `dsn` reaches its `postgres` database as its superuser."""

    folder: str
    data: str
    port: int
    user: str
    bin: str
    as_user: str | None  # the system user it runs as, when not us
    durable: bool = False  # fsync on; the tests' server skips it (nothing kept outlives them)

    @property
    def dsn(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        kwargs: dict[str, object] = {}
        if self.as_user is not None:
            entry = pwd.getpwnam(self.as_user)
            kwargs["user"] = entry.pw_uid
            kwargs["group"] = entry.pw_gid
            kwargs["extra_groups"] = []
        return subprocess.run(
            cmd,
            check=check,
            capture_output=True,
            text=True,
            cwd=self.folder,
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
            timeout=120,
            **kwargs,  # type: ignore[call-overload]
        )

    def pg_ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return self._run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, *args, check=check)

    def start(self) -> None:
        log = os.path.join(self.folder, "server.log")
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} "
            f"-c unix_socket_directories={self.folder} "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        if not self.durable:  # a test server: a power cut loses nothing anyone keeps
            options += " -c fsync=off -c full_page_writes=off"
        result = self.pg_ctl("-l", log, "-o", options, "-w", "-t", "60", "start", check=False)
        if result.returncode != 0:
            tail = ""
            with contextlib.suppress(OSError), open(log) as f:
                tail = f.read()[-2000:]
            raise NoServerError(f"the test PostgreSQL server did not start: {result.stderr}{tail}")

    def stop(self, mode: str = "fast") -> None:
        self.pg_ctl("-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        """Stop (fast: the connections are cut, as in a real restart) and start again."""
        self.stop()
        self.start()


def start_server(durable: bool = False) -> Server:
    """initdb + start in a fresh temporary folder; NoServerError says why not."""
    binary = find_bin()
    as_user = None
    user = "mahjong"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise NoServerError(
                "running as root, and PostgreSQL refuses root: create a `postgres` user "
                "(Debian's postgresql package does)"
            ) from None
        as_user = "postgres"
    folder = tempfile.mkdtemp(prefix="mahjong-pg-")
    data = os.path.join(folder, "data")
    if as_user is not None:
        entry = pwd.getpwnam(as_user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        os.chmod(folder, 0o700)
    server = Server(folder, data, _free_port(), user, binary, as_user, durable)
    try:
        server._run(
            os.path.join(binary, "initdb"),
            "-D",
            data,
            "-U",
            user,
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
    except subprocess.CalledProcessError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServerError(f"initdb failed: {error.stderr.strip()[-500:]}") from None
    try:
        server.start()
    except NoServerError:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server


def remove(server: Server) -> None:
    server.stop("immediate")
    shutil.rmtree(server.folder, ignore_errors=True)


def remove_on_sigterm(server: Server) -> None:
    """On SIGTERM (a killed test run, a CI time-out) stop and delete `server` first, then end
    as the signal would have: pytest runs no fixture teardown on a signal, and a server left
    running keeps its port, its memory and a temporary folder."""
    previous = signal.getsignal(signal.SIGTERM)

    def stop_then_end(signum: int, frame: object) -> None:
        remove(server)
        signal.signal(signum, previous if callable(previous) else signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, stop_then_end)


@contextlib.contextmanager
def running(durable: bool = False) -> Iterator[Server]:
    server = start_server(durable)
    try:
        yield server
    finally:
        remove(server)


if __name__ == "__main__":
    # stopped by a signal, it still stops and deletes its server (a background job ignores ^C)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with running("--durable" in sys.argv[1:]) as s:
        print(s.dsn, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            sys.exit(0)
