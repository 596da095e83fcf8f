"""MAHJONG_DB as an address (issue 40.5): whatever asyncpg could not read is one line and exit
2 in `run` and `db copy`, and no secret is shown wherever an address is printed or logged."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from bot.app import run_bot
from bot.cli import main
from data import Store, StoreError, check_database
from data.postgres import check_address, redact
from tests.conftest import PgAdmin

SECRET = "s3cret"


@pytest.mark.parametrize(
    ("address", "shown"),
    [
        ("postgresql://bot:s3cret@db/mahjong", "postgresql://bot:***@db/mahjong"),
        ("postgres://bot:s3cret@db:5433/mahjong", "postgres://bot:***@db:5433/mahjong"),
        ("postgresql://bot:s3cret@h1:5432,h2:5433/mahjong",
         "postgresql://bot:***@h1:5432,h2:5433/mahjong"),
        ("postgresql://bot:s3cret@[::1]:5432/mahjong", "postgresql://bot:***@[::1]:5432/mahjong"),
        ("postgresql://bot:s3%40cret@db/mahjong", "postgresql://bot:***@db/mahjong"),
        ("postgresql://:s3cret@db/mahjong", "postgresql://:***@db/mahjong"),
        ("postgresql://bot@db/mahjong?password=s3cret", "postgresql://bot@db/mahjong?password=***"),
        ("postgresql:///mahjong?host=/run/postgresql&password=s3cret&user=bot",
         "postgresql:///mahjong?host=/run/postgresql&password=***&user=bot"),
        ("postgresql://bot@db/mahjong?sslmode=require&sslpassword=s3cret",
         "postgresql://bot@db/mahjong?sslmode=require&sslpassword=***"),
        ("postgresql://bot:s3@cret@db/mahjong", "postgresql://bot:***@db/mahjong"),
        ("postgresql://bot:s3/cret@db/mahjong", "postgresql://bot:***@db/mahjong"),
        ("postgresql://bot:s3?cret@db/mahjong", "postgresql://bot:***@db/mahjong"),
        ("postgresq://bot:s3cret@db/mahjong", "postgresq://bot:***@db/mahjong"),
        ("postgresql://bot@db/mahjong", "postgresql://bot@db/mahjong"),
        ("/var/lib/mahjong/bot.db", "/var/lib/mahjong/bot.db"),
    ],
)  # fmt: skip
def test_every_secret_is_redacted(address: str, shown: str) -> None:
    assert redact(address) == shown


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("postgresql://bot:s3cret@db:port/mahjong", "the port 'port' is not from 1 to 65535"),
        ("postgresql://bot:s3cret@db:65536/mahjong", "the port '65536' is not from 1 to 65535"),
        ("postgresql://bot:s3cret@db:5432,db2:x/mahjong", "the port 'x'"),
        ("postgresql://bot@db/mahjong?port=99999&password=s3cret", "the port '99999'"),
        ("postgresql://bot:s3cret@[::1:5432/mahjong", "without its closing ]"),
        ("postgresql://bot@db/mahjong?password", "not key=value pairs"),
        ("postgresq://bot:s3cret@db/mahjong", "not an address the bot reads"),
    ],
)
def test_an_address_asyncpg_cannot_read_is_one_line(address: str, words: str) -> None:
    with pytest.raises(StoreError, match=words) as caught:
        check_database(address)
    assert SECRET not in str(caught.value) and "\n" not in str(caught.value)
    err = io.StringIO()
    assert run_bot({"DISCORD_TOKEN": "x", "MAHJONG_DB": address}, stderr=err) == 2
    assert err.getvalue().count("\n") == 1 and words in err.getvalue()
    assert SECRET not in err.getvalue()


@pytest.mark.parametrize(
    "address", ["postgresql://bot:s3cret@db:99999/m", "postgresq://bot:s3cret@db/m"]
)
def test_db_copy_says_a_bad_address_in_one_line(
    tmp_path: Path, address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / "copy.db")
    assert main(["db", "copy", "--from", address, "--to", target]) == 2
    assert main(["db", "copy", "--from", target, "--to", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and err.startswith("error: ") and SECRET not in err
    assert not (tmp_path / "copy.db").exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "address", ["postgresql://localhost:5432,[::1]/m", "postgres:///m?host=/tmp&port=5433"]
)
def test_the_forms_asyncpg_reads_pass(address: str) -> None:
    check_address(address)


async def test_a_server_s_messages_and_logs_show_no_secret(
    postgres: PgAdmin | None, caplog: pytest.LogCaptureFixture
) -> None:
    if postgres is None:
        pytest.skip("PostgreSQL is not installed")
    name = postgres.create()
    try:
        base = postgres.dsn_of(name)  # the server trusts every local user: the password is unused
        async with await Store.open(f"{base}?password={SECRET}") as store:
            assert SECRET not in redact(store.path)
        missing = postgres.dsn_of("no_such_database").replace("://", f"://postgres:{SECRET}@", 1)
        with caplog.at_level(logging.DEBUG), pytest.raises(StoreError) as caught:
            await Store.open(missing + f"?sslpassword={SECRET}")
        assert "no_such_database" in str(caught.value) and SECRET not in str(caught.value)
        assert SECRET not in caplog.text
    finally:
        postgres.drop([name])


@pytest.mark.parametrize("what", [["1"], ["--export", "table:1"]])
def test_replay_shows_no_secret(what: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", *what, "--db", "postgresq://bot:s3cret@db/m"]) in (1, 2)  # its codes
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an address the bot reads" in err and SECRET not in err
