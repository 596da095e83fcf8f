"""The bot's settings, read from the environment (and a `.env` file), and the endpoint patch.

| variable | meaning | default |
| --- | --- | --- |
| `DISCORD_TOKEN` | the bot token (Developer Portal → your application → Bot) | required |
| `MAHJONG_DB` | the SQLite file, or `postgresql://…` | `mahjong.db` in the working directory |
| `DISCORD_API_BASE` | REST base with the version, e.g. `http://proxy:8080/api/v10` | Discord's |
| `DISCORD_GATEWAY_URL` | gateway websocket URL, e.g. `ws://proxy:8081` | Discord's |
| `MAHJONG_LOG_LEVEL` (or `LOG_LEVEL`) | DEBUG, INFO, WARNING, ERROR | INFO |
| `MAHJONG_SHARD_COUNT` | the shards of the bot in all (the same in every process) | unsharded |
| `MAHJONG_SHARD_IDS` | the shards this process runs, e.g. `0,1` or `0-3` | all of them |
| `MAHJONG_SHARDS` | both at once: `0-3/8` is shards 0–3 of 8 | unsharded |
| `MAHJONG_METRICS` | Prometheus `/metrics` and `/healthz` at `host:port` (a port: loopback) | off |
| `MAHJONG_DECISION_WORKERS` | the strong computer's worker processes (0: inline) | usable cores |

Variables already in the environment win over the `.env` file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.mjai_engines import (
    MJAI_SETTINGS,
    EngineConfigError,
    configured_engines,
    engine_timeout,
    max_processes,
)

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
WORKERS_SETTING = "MAHJONG_DECISION_WORKERS"


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the variable and what it expects."""


@dataclass(frozen=True, slots=True)
class BotConfig:
    token: str | None = None
    db_path: str = "mahjong.db"
    api_base: str | None = None
    gateway_url: str | None = None
    log_level: str = "INFO"
    # sharding: this process connects `shard_ids` of `shard_count` shards (README "Scaling");
    # None and None: one unsharded connection
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    edit_interval: float = 1.0  # seconds between two edits of one message
    # a claim window opens for every seated person on every discard; one with nothing to
    # claim passes after this many seconds (so a window's length does not tell who can call)
    no_call_wait: float = 2.0
    metrics: tuple[str, int] | None = None  # where /metrics and /healthz listen (bot/metrics.py)
    # processes taking the strong computer's decisions (bot/runtime/decisions.py); 0: inline.
    # `from_env` gives the cores this process may use; a config made in code decides inline
    decision_workers: int = 0

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, dotenv: str | Path | None = ".env"
    ) -> BotConfig:
        """Read the settings: the environment first, then the `.env` file for what it lacks."""
        env = dict(read_dotenv(dotenv)) if dotenv is not None else {}
        env.update(os.environ if environ is None else environ)
        if environ is None:  # bot.mjai_engines reads its settings where tables need them
            for name in MJAI_SETTINGS:
                if name in env:
                    os.environ.setdefault(name, env[name])

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        level = (get("MAHJONG_LOG_LEVEL") or get("LOG_LEVEL") or "INFO").upper()
        if level not in LEVELS:
            raise ConfigError(f"MAHJONG_LOG_LEVEL is one of {', '.join(LEVELS)}, not {level!r}")
        api_base = get("DISCORD_API_BASE")
        if api_base and not api_base.startswith(("http://", "https://")):
            raise ConfigError(
                f"DISCORD_API_BASE must be an http(s) URL such as "
                f"https://discord.com/api/v10, not {api_base!r}"
            )
        gateway = get("DISCORD_GATEWAY_URL")
        if gateway and not gateway.startswith(("ws://", "wss://")):
            raise ConfigError(
                f"DISCORD_GATEWAY_URL must be a ws(s) URL such as "
                f"wss://gateway.discord.gg, not {gateway!r}"
            )
        shard_count, shard_ids = read_shard_settings(get)
        try:
            decision_workers = read_workers(get(WORKERS_SETTING))
        except ValueError as error:
            raise ConfigError(str(error)) from None
        try:  # read again by bot.mjai_engines wherever a table needs them: wrong ones stop here
            configured_engines(env), engine_timeout(env), max_processes(env)
        except EngineConfigError as error:
            raise ConfigError(str(error)) from None
        return cls(
            token=get("DISCORD_TOKEN"),
            db_path=get("MAHJONG_DB") or "mahjong.db",
            api_base=api_base.rstrip("/") if api_base else None,
            gateway_url=gateway,
            log_level=level,
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics=read_metrics_address(get("MAHJONG_METRICS")),
            decision_workers=decision_workers,
        )

    @property
    def sharded(self) -> bool:
        """Whether the bot connects as shards (a process of several, or one of many shards)."""
        return self.shard_count is not None

    @property
    def owned_shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shards in all, the ids this process runs), when it runs some of them only: the
        tables it restores, clocks and expires are those of these shards' guilds."""
        if self.shard_count is None or self.shard_ids is None:
            return None
        return self.shard_count, self.shard_ids

    def serves(self, guild_id: int | None) -> bool:
        """Whether Discord sends this process the guild's events (DMs: shard 0's process)."""
        if self.shard_count is None:
            return True
        shard = 0 if guild_id is None else shard_of(guild_id, self.shard_count)
        return self.shard_ids is None or shard in self.shard_ids

    @property
    def log_level_number(self) -> int:
        """The logging module's number for `log_level`."""
        return int(logging.getLevelName(self.log_level))


def read_shard_settings(
    get: Callable[[str], str | None],
) -> tuple[int | None, tuple[int, ...] | None]:
    """`MAHJONG_SHARDS=0-3/8` (shards 0-3 of 8), or `MAHJONG_SHARD_COUNT` and
    `MAHJONG_SHARD_IDS` apart; not both ways at once.

    >>> read_shard_settings({"MAHJONG_SHARDS": "0-3/8"}.get)
    (8, (0, 1, 2, 3))
    """
    both = get("MAHJONG_SHARDS")
    if both is None:
        return read_shards(get("MAHJONG_SHARD_COUNT"), get("MAHJONG_SHARD_IDS"))
    if get("MAHJONG_SHARD_COUNT") is not None or get("MAHJONG_SHARD_IDS") is not None:
        raise ConfigError(
            "MAHJONG_SHARDS says both the shards and their count: drop MAHJONG_SHARD_COUNT "
            "and MAHJONG_SHARD_IDS"
        )
    ids, slash, count = both.partition("/")
    if not slash:
        raise ConfigError(f"MAHJONG_SHARDS reads like 0-3/8 (shards 0-3 of 8), not {both!r}")
    return read_shards(count.strip(), ids.strip())


def read_shards(
    count_text: str | None, ids_text: str | None
) -> tuple[int | None, tuple[int, ...] | None]:
    """`MAHJONG_SHARD_COUNT` and `MAHJONG_SHARD_IDS` as (count, ids); (None, None) if unset.

    Ids are numbers and ranges separated by commas (`0,1`, `4-7`), each below the count.

    >>> read_shards("4", "0, 2-3")
    (4, (0, 2, 3))
    >>> read_shards("2", None)
    (2, None)
    """
    if count_text is None:
        if ids_text is not None:
            raise ConfigError("MAHJONG_SHARD_IDS needs MAHJONG_SHARD_COUNT (the shards in all)")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"MAHJONG_SHARD_COUNT is a whole number of 1 or more, not {count_text!r}")
    count = int(count_text)
    if ids_text is None:
        return count, None
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(
                f"MAHJONG_SHARD_IDS lists shards such as 0,1 or 0-3, not {ids_text!r}"
            )
        ids.update(range(int(first), int(last if dash else first) + 1))
    if not ids or max(ids) >= count:
        raise ConfigError(
            f"MAHJONG_SHARD_IDS must name shards 0 to {count - 1} "
            f"(MAHJONG_SHARD_COUNT is {count}), not {ids_text!r}"
        )
    return count, tuple(sorted(ids))


def read_metrics_address(text: str | None) -> tuple[str, int] | None:
    """`MAHJONG_METRICS` as (host, port): a port alone (or `:port`) listens on loopback only, so
    a public address is one the operator wrote.

    >>> read_metrics_address("9108"), read_metrics_address("0.0.0.0:9108")
    (('127.0.0.1', 9108), ('0.0.0.0', 9108))
    """
    if text is None:
        return None
    host, colon, port = text.rpartition(":")
    host = host.strip("[]") if colon else ""
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"MAHJONG_METRICS is host:port such as 127.0.0.1:9108, not {text!r}")
    return host or "127.0.0.1", int(port)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to: `(guild_id >> 22) % shard_count`."""
    return (guild_id >> 22) % shard_count


def read_dotenv(path: str | Path) -> dict[str, str]:
    """Parse `KEY=VALUE` lines of a `.env` file (missing file: nothing).

    Blank lines and `#` comments are skipped, an `export ` prefix is allowed, and one pair of
    matching quotes around a value is removed.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / ".env"
    >>> _ = p.write_text("# bot\\nexport DISCORD_TOKEN='abc'\\nMAHJONG_DB = x.db\\n")
    >>> read_dotenv(p)
    {'DISCORD_TOKEN': 'abc', 'MAHJONG_DB': 'x.db'}
    """
    file = Path(path)
    if not file.is_file():
        return {}
    values: dict[str, str] = {}
    for line in file.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if key:
            values[key] = value
    return values


def point_discord_at(config: BotConfig) -> None:
    """Send discord.py's REST calls and gateway connection where the config says.

    discord.py reads `Route.BASE` whenever it builds a request (webhooks and interaction
    responses too) and `DiscordWebSocket.DEFAULT_GATEWAY` when it connects; a plain `Client`
    never asks `/gateway/bot`. Unset settings leave Discord's own addresses.
    """
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    if config.api_base:
        Route.BASE = config.api_base
    if config.gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


def usable_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    return len(os.sched_getaffinity(0))


def read_workers(value: str | None) -> int:
    """`MAHJONG_DECISION_WORKERS` as a count: unset or empty is `usable_cores()`; ValueError
    for anything but a whole number from 0."""
    if value is None or not value.strip():
        return usable_cores()
    try:
        count = int(value)
    except ValueError:
        count = -1
    if count < 0:
        raise ValueError(
            f"{WORKERS_SETTING} is a number of worker processes (0: decide inline), not {value!r}"
        )
    return count
