"""`mahjong-bot run`: settings from the environment and .env, the missing-token help, endpoints
pointed at a proxy (here the fake), and a clean stop on request and on SIGTERM."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.app import run_bot, serve
from bot.cli import main
from bot.discord import BotConfig, ConfigError, read_dotenv
from bot.runtime import ManualTimers
from data import Store
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


def test_dotenv_and_environment(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# the bot\n"
        "export DISCORD_TOKEN='from-file'\n"
        'MAHJONG_DB = "tables.db"\n'
        "MAHJONG_LOG_LEVEL=debug\n"
        "not a setting\n"
    )
    assert read_dotenv(env_file) == {
        "DISCORD_TOKEN": "from-file",
        "MAHJONG_DB": "tables.db",
        "MAHJONG_LOG_LEVEL": "debug",
    }
    assert read_dotenv(tmp_path / "missing") == {}
    config = BotConfig.from_env({"DISCORD_TOKEN": "from-env"}, dotenv=env_file)
    assert config.token == "from-env"  # the environment wins over the file
    assert config.db_path == "tables.db" and config.log_level == "DEBUG"
    assert config.api_base is None and config.gateway_url is None
    defaults = BotConfig.from_env({}, dotenv=None)
    assert defaults.token is None and defaults.db_path == "mahjong.db"
    assert defaults.log_level == "INFO" and defaults.edit_interval == 1.0


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"MAHJONG_LOG_LEVEL": "loud"}, "MAHJONG_LOG_LEVEL is one of DEBUG"),
        ({"DISCORD_API_BASE": "discord.com/api"}, "DISCORD_API_BASE must be an http"),
        ({"DISCORD_GATEWAY_URL": "http://x"}, "DISCORD_GATEWAY_URL must be a ws"),
    ],
)
def test_bad_settings_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        BotConfig.from_env(env, dotenv=None)
    err = io.StringIO()
    assert run_bot({"DISCORD_TOKEN": "x", **env}, stderr=err) == 2
    assert message in err.getvalue()


def test_without_a_token_it_says_how_to_get_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    text = capsys.readouterr().err
    assert "DISCORD_TOKEN" in text and "discord.com/developers/applications" in text
    assert "mahjong-bot play" in text
    assert not (tmp_path / "mahjong.db").exists()


async def test_serve_uses_the_configured_endpoints_and_stops_cleanly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    frozen: list[bool] = []  # whether the database was open (the tables restored) at freezing
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(path.exists()))
    path = tmp_path / "bot.db"
    async with FakeDiscord(users=1) as fake:
        fake.patch_discord()  # remembers discord.py's own URLs; `serve` is pointed by config
        from bot.discord import point_discord_at

        env = {**fake.env(), "DISCORD_TOKEN": "fake-token", "MAHJONG_DB": str(path)}
        config = BotConfig.from_env(env, dotenv=None)
        assert config.api_base == fake.api_base
        point_discord_at(config)
        stop = asyncio.Event()
        task = asyncio.create_task(
            serve(
                config,
                stop=stop,
                handle_signals=False,
                timers=ManualTimers(),
                guild_ready_timeout=0.05,
            )
        )
        await fake.wait_ready()
        record = await fake.slash(fake.users[0], "mahjong", "rules")
        await record.wait_response()
        await fake.settle()
        await fake.wait_for(lambda: frozen)
        assert frozen == [True]  # once ready: the restored tables skip full collections
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
    # the database was closed: it opens again in this process
    async with await Store.open(str(path)) as store:
        assert await store.load_active_tables() == ([], [])


async def test_a_refused_token_ends_with_an_error(tmp_path: Path) -> None:
    async with FakeDiscord(users=1, token="the-right-token") as fake:
        fake.patch_discord()
        config = BotConfig(token="a-wrong-token", db_path=str(tmp_path / "bot.db"))
        code = await asyncio.wait_for(serve(config, handle_signals=False), 10)
        assert code == 1
        assert fake.rejections == ["GET /users/@me: 401 0 401: Unauthorized"]
        fake.rejections.clear()  # provoked on purpose


async def test_no_network_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from discord.http import Route

    monkeypatch.setattr(Route, "BASE", "http://127.0.0.1:9/api/v10")  # nothing listens there
    config = BotConfig(token="some-token", db_path=str(tmp_path / "bot.db"))
    code = await asyncio.wait_for(serve(config, handle_signals=False), 20)
    assert code == 1
    (record,) = [r for r in caplog.records if r.levelname == "ERROR" and r.name == "bot"]
    assert record.getMessage().startswith("cannot reach Discord: ")
    assert record.exc_info is None  # no traceback


async def test_sigterm_stops_the_process_cleanly(tmp_path: Path) -> None:
    async with FakeDiscord(users=1) as fake:
        env = {
            **os.environ,
            **fake.env(),
            "DISCORD_TOKEN": "fake-token",
            "MAHJONG_DB": str(tmp_path / "bot.db"),
            "MAHJONG_LOG_LEVEL": "INFO",
            "PYTHONPATH": str(ROOT),
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await fake.wait_for(lambda: fake.command_paths(), timeout=30)
            await fake.wait_ready(timeout=30)
            record = await fake.slash(fake.users[0], "mahjong", "rules")
            await record.wait_response(timeout=10)
            process.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(process.communicate(), 20)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        log = err.decode()
        assert process.returncode == 0, log
        assert "stopping" in log and "invite link: https://discord.com/oauth2/authorize" in log
