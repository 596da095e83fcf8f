"""The operator's endpoint (`MAHJONG_METRICS`, bot/metrics.py): Prometheus figures scraped from a
bot playing on the fake Discord, and `/healthz` following the gateway and the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.discord import BotConfig, MahjongBot
from bot.discord.config import ConfigError
from bot.metrics import Metrics
from bot.runtime import ManualTimers
from data import Phase
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord
from tests.test_discord_e2e import click, live, open_table, play_hand_by_clicks
from tests.test_sharding import SHARDS, START_TIMEOUT, _process_env

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def metrics_bot(path: str | Path) -> MahjongBot:
    """A bot on the fake serving its metrics on a free loopback port, with its own registry."""
    config = BotConfig(
        token="fake-token", db_path=str(path), edit_interval=0.02, metrics=("127.0.0.1", 0)
    )
    return MahjongBot(
        config,
        guild_ready_timeout=0.05,
        timers=ManualTimers(),
        seed_source=lambda: 71,
        metrics=Metrics(),
    )


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


async def get(bot: MahjongBot, path: str) -> tuple[int, str]:
    server = bot.metrics_server
    assert server is not None and server.port
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as response,
    ):
        return response.status, await response.text()


async def scrape(bot: MahjongBot) -> Samples:
    status, body = await get(bot, "/metrics")
    assert status == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_a_game_scraped_and_healthy(fake: FakeDiscord, db: Databases) -> None:
    alice = fake.users[0]
    async with fake.running(metrics_bot(db("bot"))) as bot:
        table_msg = await open_table(fake, alice, computers=3, time="untimed", level="easy")
        samples = await scrape(bot)
        preset = live(bot).preset.id
        assert value(samples, "mahjong_tables_open", preset=preset, phase="lobby") == 1
        await click(fake, alice, table_msg, label="Start")
        await fake.wait_for(lambda: live(bot).phase is Phase.PLAYING)
        samples = await scrape(bot)
        assert value(samples, "mahjong_tables_open", preset=preset, phase="playing") == 1
        assert value(samples, "mahjong_tables_open", preset=preset, phase="lobby") == 0

        await play_hand_by_clicks(fake, bot, alice)
        samples = await scrape(bot)
        assert value(samples, "mahjong_tables_open", preset=preset, phase="between_hands") == 1
        # every action of the hand counted by kind, people's and computers' alike
        counted = sum(v for (name, _), v in samples.items() if name == "mahjong_actions_total")
        assert counted == len(live(bot).hand.log) > 0  # type: ignore[union-attr]
        assert value(samples, "mahjong_actions_total", kind="discard") > 0
        # Alice's discards answered, each one's latency observed
        answered = value(samples, "mahjong_action_seconds_count", kind="discard")
        assert answered > 0
        assert value(samples, "mahjong_action_seconds_sum", kind="discard") > 0
        assert value(samples, "mahjong_computer_decision_seconds_count", level="easy") > 0
        assert value(samples, "mahjong_store_commit_seconds_count") > 0
        assert value(samples, "mahjong_dm_inbox_depth") == 0
        assert ("mahjong_scheduler_jobs_pending", frozenset()) in samples
        assert value(samples, "process_resident_memory_bytes") > 0
        build = next(labels for name, labels in samples if name == "mahjong_build_info")
        assert "version" in dict(build)
        assert await get(bot, "/healthz") == (200, "ok\n")

        # the gateway lost (its task stopped, so discord.py does not connect again): unhealthy
        connecting = fake._bots[bot]
        connecting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await connecting
        await bot.ws.close(code=4000)
        assert not bot.gateway_connected()
        assert (await get(bot, "/healthz"))[0] == 503


async def test_unhealthy_once_the_store_is_closed(fake: FakeDiscord, db: Databases) -> None:
    async with fake.running(metrics_bot(db("bot"))) as bot:
        assert (await get(bot, "/healthz"))[0] == 200
        await bot.store.close()
        assert (await get(bot, "/healthz"))[0] == 503
        await scrape(bot)  # the figures the store gives are left as they were


async def test_quickplay_queues_and_inbox_read_at_a_scrape(
    fake: FakeDiscord, db: Databases
) -> None:
    alice, bob = fake.users[:2]
    async with fake.running(metrics_bot(db("bot"))) as bot:
        for user in (alice, bob):
            await bot.runtime.quickplay("riichi", str(user.id), user.username)
        await bot.store.post_to_inbox(99, '{"id": 1}')
        samples = await scrape(bot)
        assert value(samples, "mahjong_quickplay_waiting", preset="riichi", rated="false") == 2
        assert value(samples, "mahjong_dm_inbox_depth") == 1
        assert value(samples, "mahjong_dm_inbox_oldest_seconds") >= 0


def test_the_address_is_loopback_unless_written() -> None:
    assert BotConfig.from_env({}, dotenv=None).metrics is None
    read = BotConfig.from_env({"MAHJONG_METRICS": "9108"}, dotenv=None).metrics
    assert read == ("127.0.0.1", 9108)
    assert BotConfig.from_env({"MAHJONG_METRICS": ":9108"}, dotenv=None).metrics == read
    public = BotConfig.from_env({"MAHJONG_METRICS": "0.0.0.0:9108"}, dotenv=None).metrics
    assert public == ("0.0.0.0", 9108)
    for wrong in ("localhost", "127.0.0.1:99999", "127.0.0.1:x"):
        with pytest.raises(ConfigError, match="MAHJONG_METRICS"):
            BotConfig.from_env({"MAHJONG_METRICS": wrong}, dotenv=None)


def test_retried_transactions_counted_from_the_store_log() -> None:
    metrics = Metrics()
    store_log = logging.getLogger("data.postgres")
    metrics.retry_counter.attach()
    try:
        store_log.warning("lost the PostgreSQL connection (%s); reconnecting, then retrying", "x")
        store_log.warning("reconnected to PostgreSQL after %.1f s; retrying the transaction", 1.0)
    finally:
        metrics.retry_counter.detach()
    store_log.warning("reconnected to PostgreSQL after %.1f s; retrying the transaction", 1.0)
    assert metrics.registry.get_sample_value("mahjong_store_retries_total") == 1


async def test_a_taken_port_is_a_clear_refusal(fake: FakeDiscord, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = BotConfig(
            token="fake-token", db_path=str(tmp_path / "bot.db"), metrics=("127.0.0.1", port)
        )
        with pytest.raises(ConfigError, match=f"MAHJONG_METRICS cannot listen at 127.0.0.1:{port}"):
            await fake.start_bot(MahjongBot(config, guild_ready_timeout=0.05))


async def test_a_sharded_bot_process_serves_its_metrics(tmp_path: Path) -> None:
    """`python -m bot run` with MAHJONG_METRICS set (a port alone: loopback), as an operator
    starts it: healthy once its shard is connected, its figures scraped, stopped by SIGTERM."""
    with socket.socket() as probe:  # a free port, given back to the bot
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with FakeDiscord(users=1, guilds=SHARDS) as fake:
        env = _process_env(fake, str(tmp_path / "bot.db"), 0) | {"MAHJONG_METRICS": str(port)}
        log = tmp_path / "bot.log"
        with log.open("wb") as output:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run",
                cwd=tmp_path, env=env, stdout=output, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            try:
                async with aiohttp.ClientSession() as session:

                    async def status(path: str) -> tuple[int, str]:
                        url = f"http://127.0.0.1:{port}{path}"
                        try:
                            async with session.get(url) as response:
                                return response.status, await response.text()
                        except aiohttp.ClientConnectionError:
                            return 0, ""

                    for _ in range(int(START_TIMEOUT * 10)):
                        if (await status("/healthz"))[0] == 200:
                            break
                        await asyncio.sleep(0.1)
                    else:
                        pytest.fail(f"never healthy: {log.read_text(errors='replace')[-2000:]}")
                    code, body = await status("/metrics")
                    assert code == 200 and "mahjong_scheduler_jobs_pending" in body
                    assert "process_cpu_seconds_total" in body
            finally:
                process.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(process.wait(), 30) == 0
    assert f"metrics at http://127.0.0.1:{port}/metrics" in log.read_text(errors="replace")
