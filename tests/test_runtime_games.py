"""Games that end, through the runtime: the hand that ends a preset's game moves the table to
a game-over phase with final standings, stored with the hand in one commit, per-game ratings
settled once, and the front ends (public snapshot, Discord surface, terminal) showing them."""

from __future__ import annotations

import io
from argparse import Namespace
from collections.abc import Iterator

import pytest

from bot.discord.surface import table_surface
from bot.runtime.errors import NoSuchTableError
from bot.runtime.manager import Runtime
from bot.runtime.snapshots import PublicSnapshot
from bot.runtime.timers import ManualTimers
from bot.terminal import play
from data import Phase, Store
from engine.i18n import worded
from render.standings import StandingsView
from tests.game_presets import SHORT_GAME, registered
from tests.test_runtime import PLAYERS, Recorder, never_wins, play_out, wins_when_it_can


class Keeper(Recorder):
    """A recorder that keeps the public snapshots too."""

    def __init__(self) -> None:
        super().__init__()
        self.public: list[PublicSnapshot] = []

    async def table_changed(self, snapshot: PublicSnapshot) -> None:
        self.public.append(snapshot)
        await super().table_changed(snapshot)


@pytest.fixture(autouse=True)
def short_game() -> Iterator[None]:
    with registered(SHORT_GAME):
        yield


async def _four(runtime: Runtime, **options: object):
    table = await runtime.create_table(
        SHORT_GAME.id, creator_id=PLAYERS[0][0], creator_name=PLAYERS[0][1], **options
    )
    for player_id, name in PLAYERS[1:]:
        await runtime.join(table.id, player_id, name)
    await runtime.start_table(table.id, PLAYERS[0][0])
    return table


async def _ready_all(runtime: Runtime, table_id: int) -> None:
    for player_id, _ in PLAYERS:
        await runtime.ready(table_id, player_id)


async def test_a_rated_short_game_ends_with_standings_and_rates_once(store: Store) -> None:
    front = Keeper()
    runtime = Runtime(store, front, ManualTimers(), seed_source=lambda: 31)
    await runtime.open()
    table = await _four(runtime, rated=True, guild_id=1, channel_id=2)
    await play_out(runtime, table, wins_when_it_can)
    assert table.phase is Phase.BETWEEN_HANDS
    assert table.last_result is not None and table.last_result.rating_changes == ()
    assert [await store.ratings_of(p) for p, _ in PLAYERS] == [[]] * 4  # no rating per hand
    await _ready_all(runtime, table.id)
    await play_out(runtime, table, never_wins)

    assert table.phase is Phase.GAME_OVER and table.id not in runtime.tables
    session = table.session
    assert session is not None and session.over and session.hand_number == 2
    stored = await store.game_result(table.id)
    assert stored is not None and stored.rates and stored.rated and stored.hands == 2
    standings = session.standings()
    assert [s.place for s in stored.standings] == [s.place for s in standings]
    assert [s.score for s in stored.standings] == [s.score for s in standings]
    changes = {c.player_id: c for c in table.last_result.rating_changes}
    assert sorted(changes) == sorted(p for p, _ in PLAYERS)
    for seat, standing in enumerate(stored.standings):
        change = changes[PLAYERS[seat][0]]
        assert change.placement == standing.place and change.games == 1
    winner = next(s for s in stored.standings if s.place == 1)
    assert changes[winner.player_id].delta > 0
    assert (await store.table_row(table.id)).phase is Phase.CLOSED
    with pytest.raises(NoSuchTableError, match="no open table"):
        await runtime.ready(table.id, PLAYERS[0][0])

    last = front.public[-1]
    assert last.phase is Phase.GAME_OVER and last.ended
    assert isinstance(last.standings, StandingsView)
    assert [row.place for row in last.standings.rows] == [1, 2, 3, 4]
    assert "game is over" in last.status
    lines = [worded(line, "en") for line in last.events]
    assert "Final standings" in lines and any(line.startswith("1. ") for line in lines)
    surface = table_surface(last, "mahjong", "en")
    assert surface.view is None and surface.picture is not None
    assert surface.filename == f"standings-{table.id}.png"
    assert surface.embed is not None and "Final standings" in str(surface.embed.to_dict())


async def test_a_game_abandoned_before_its_end_keeps_no_standings(store: Store) -> None:
    runtime = Runtime(store, Recorder(), ManualTimers(), seed_source=lambda: 31)
    await runtime.open()
    table = await _four(runtime, rated=True)
    await play_out(runtime, table, never_wins)
    await runtime.close_table(table.id, PLAYERS[0][0])
    assert await store.game_result(table.id) is None
    assert [await store.ratings_of(p) for p, _ in PLAYERS] == [[]] * 4


async def test_the_terminal_plays_a_short_game_to_its_standings(tmp_path) -> None:
    out = io.StringIO()
    answers = iter([""] * 2000)
    args = Namespace(
        preset=SHORT_GAME.id, seed=5, images=str(tmp_path), hands=0, time=None,
        players=None, level="easy", lang="en", min_fan=None,
    )  # fmt: skip
    code = await play(args, lambda: next(answers), out, ManualTimers())
    text = out.getvalue()
    assert code == 0
    assert "Final standings" in text and "The game is over. Goodbye." in text
    assert (tmp_path / "standings.png").exists()


async def test_a_game_restored_between_hands_carries_on_to_its_end(tmp_path) -> None:
    path = str(tmp_path / "bot.db")
    timers = ManualTimers()
    store = await Store.open(path, clock=timers.now)
    runtime = Runtime(store, Recorder(), timers, seed_source=lambda: 31)
    await runtime.open()
    table = await _four(runtime, rated=True)
    await play_out(runtime, table, wins_when_it_can)
    await runtime.ready(table.id, PLAYERS[0][0])
    await runtime.close()
    await store.close()

    store = await Store.open(path, clock=timers.now)
    again = Runtime(store, Recorder(), timers, seed_source=lambda: 31)
    await again.open()
    restored = again.get(table.id)
    assert restored.preset == SHORT_GAME and restored.phase is Phase.BETWEEN_HANDS
    assert restored.session is not None and not restored.session.over
    assert restored.ready == {0}  # the press before the restart is kept
    for player_id, _ in PLAYERS[1:]:
        await again.ready(table.id, player_id)
    await play_out(again, restored, never_wins)
    assert restored.phase is Phase.GAME_OVER
    stored = await store.game_result(table.id)
    assert stored is not None and stored.hands == 2
    assert [len(await store.ratings_of(p)) for p, _ in PLAYERS] == [1] * 4
    loaded, _ = await store.load_active_tables()
    assert table.id not in [item.table.id for item in loaded]
    await again.close()
    await store.close()
