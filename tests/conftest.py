"""Fixtures shared by several test files.

`db` and `store` run each test that uses them twice: on SQLite and on PostgreSQL (a throwaway
server this run starts, tests/pg_server.py, or the one `MAHJONG_TEST_PG=postgresql://…` names;
each test gets fresh databases on it, dropped afterwards). Without PostgreSQL installed the
PostgreSQL half is skipped with the reason, except under CI (CI=true), where it fails: CI
always runs both.
"""

from __future__ import annotations

import asyncio
import gc
import os
import threading
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from data import Store
from tests import pg_server

T = TypeVar("T")

DATABASES = ("sqlite", "postgresql")


def run_apart(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to its end on a loop of its own (a thread), from sync or async code."""
    out: list[Any] = []

    def target() -> None:
        try:
            out.append((True, asyncio.run(make())))  # type: ignore[arg-type]
        except BaseException as error:
            out.append((False, error))

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    ok, value = out[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


class PgAdmin:
    """Makes and drops the tests' databases on a PostgreSQL server (`dsn` is its admin
    database); `server` when this run started it (tests may restart it)."""

    def __init__(self, dsn: str, server: pg_server.Server | None) -> None:
        self.dsn = dsn
        self.server = server

    def dsn_of(self, name: str) -> str:
        base, _, _ = self.dsn.rpartition("/")
        return f"{base}/{name}"

    async def _sql(self, *statements: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.dsn)
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    def create(self) -> str:
        name = "mjtest_" + uuid.uuid4().hex[:16]
        run_apart(lambda: self._sql(f"CREATE DATABASE {name}"))
        return name

    def drop(self, names: list[str]) -> None:
        if names:
            run_apart(
                lambda: self._sql(*(f"DROP DATABASE IF EXISTS {n} WITH (FORCE)" for n in names))
            )


@pytest.fixture(scope="session")
def postgres() -> Iterator[PgAdmin | None]:
    """The PostgreSQL server of this run; None (PostgreSQL tests skipped) when there is none
    and not under CI."""
    given = os.environ.get("MAHJONG_TEST_PG")
    if given:
        yield PgAdmin(given, None)
        return
    try:
        server = pg_server.start_server()
    except pg_server.NoServerError as error:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"CI runs every test on PostgreSQL too, but: {error}", pytrace=False)
        yield None
        return
    pg_server.remove_on_sigterm(server)  # a killed run leaves no server behind either
    try:
        yield PgAdmin(server.dsn, server)
    finally:
        pg_server.remove(server)


class Databases:
    """Where a test keeps its databases, by name: `place("bot")` is a file in the test's
    folder (SQLite) or a fresh database on the test server (PostgreSQL); the same name gives
    the same place again (to open it after a restart)."""

    def __init__(self, kind: str, folder: Path, admin: PgAdmin | None) -> None:
        self.kind = kind
        self.folder = folder
        self.admin = admin
        self._made: dict[str, str] = {}

    @property
    def postgres(self) -> bool:
        return self.kind == "postgresql"

    def __call__(self, name: str) -> str:
        if not self.postgres:
            return str(self.folder / f"{name}.db")
        assert self.admin is not None
        if name not in self._made:
            self._made[name] = self.admin.create()
        return self.admin.dsn_of(self._made[name])

    def cleanup(self) -> None:
        if self.admin is not None:
            self.admin.drop(list(self._made.values()))


@pytest.fixture(params=DATABASES)
def db(
    request: pytest.FixtureRequest, tmp_path: Path, postgres: PgAdmin | None
) -> Iterator[Databases]:
    """The test's databases, once on SQLite and once on PostgreSQL."""
    kind = request.param
    if kind == "postgresql" and postgres is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) nor MAHJONG_TEST_PG")
    places = Databases(kind, tmp_path, postgres if kind == "postgresql" else None)
    try:
        yield places
    finally:
        places.cleanup()


def memory_or(db: Databases, name: str) -> str:
    """SQLite's in-memory database (quick), or a fresh PostgreSQL one."""
    return db(name) if db.postgres else ":memory:"


@pytest.fixture
async def store(db: Databases) -> AsyncIterator[Store]:
    """An empty store, on SQLite (in memory) and on PostgreSQL (a test file may define its own,
    with a clock)."""
    s = await Store.open(memory_or(db, "store"))
    yield s
    await s.close()


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cycle collector off for the test: what is freed is freed by reference counting."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
