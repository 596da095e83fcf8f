"""/mahjong stats against figures counted by hand on a fixture database of five hands."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from PIL import Image

from bot.discord.cogs.stats import share, stats_fields
from data import HandResult, SeatRow, Store, StoredWin, TableOptions
from data.rating import display
from render.chart import CHART_SIZE, render_rating_chart
from render.style import GOLD
from tests.fakediscord import FakeDiscord
from tests.test_discord_e2e import make_bot

# Five hands of the same four players (seats 0-3 = A, B, C, D):
#   1 hkos rated:    A wins 3 on B's discard
#   2 hkos rated:    C wins 5 by self draw
#   3 hkos rated:    a wall draw
#   4 sichuan-bb:    A wins 2 by self draw, then B wins 4 on A's discard
#   5 hkos rated:    A wins 6 robbing B's kong
HANDS: list[tuple[str, bool, tuple[int, ...], tuple[StoredWin, ...]]] = [
    ("hkos-3-v1", True, (24, -24, 0, 0), (StoredWin(0, 3, by="discard", discarder=1),)),
    ("hkos-3-v1", True, (-16, -16, 48, -16), (StoredWin(2, 5, by="self_draw"),)),
    ("hkos-3-v1", True, (0, 0, 0, 0), ()),
    (
        "sichuan-bb",
        False,
        (2, 2, -2, -2),
        (StoredWin(0, 2, by="self_draw"), StoredWin(1, 4, by="discard", discarder=0)),
    ),
    ("hkos-3-v1", True, (48, -48, 0, 0), (StoredWin(0, 6, by="robbing_kong", discarder=1),)),
]


async def fill(store: Store, players: Sequence[str]) -> list[int]:
    """The five hands, one table each; returns their hand ids."""
    hand_ids = []
    for number, (preset, rated, deltas, wins) in enumerate(HANDS):
        seats = [SeatRow(seat, player, True) for seat, player in enumerate(players)]
        table = await store.create_table(
            preset, options=TableOptions(rated=rated), seats=seats, now=number * 100.0
        )
        hand_id = await store.start_hand(table, 0, number, now=number * 100.0 + 1)
        result = HandResult(preset, tuple(players), (True,) * 4, deltas, wins, rated=rated)
        await store.record_hand_result(table, hand_id, result, now=number * 100.0 + 2)
        hand_ids.append(hand_id)
    return hand_ids


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    async with await Store.open(":memory:") as s:
        yield s


async def test_figures_over_all_presets_match_the_hand_count(store: Store) -> None:
    ids = await fill(store, ["a", "b", "c", "d"])
    a = await store.player_stats("a")
    assert (a.hands, a.hands_won, a.hands_dealt_in) == (5, 3, 1)  # won 1, 4, 5; dealt in 4
    assert (a.wins, a.self_draws, a.fan_total) == (3, 1, 11)
    assert a.win_rate == pytest.approx(0.6) and a.deal_in_rate == pytest.approx(0.2)
    assert a.average_fan == pytest.approx(11 / 3) and a.self_draw_share == pytest.approx(1 / 3)
    assert (a.best_hand_id, a.best_fan) == (ids[4], 6)
    b = await store.player_stats("b")  # dealt in on hand 1, robbed on hand 5
    assert (b.hands, b.hands_won, b.hands_dealt_in, b.wins, b.self_draws) == (5, 1, 2, 1, 0)
    assert (b.best_hand_id, b.best_fan, b.average_fan) == (ids[3], 4, 4.0)
    c = await store.player_stats("c")
    assert (c.hands_won, c.hands_dealt_in, c.self_draw_share) == (1, 0, 1.0)
    d = await store.player_stats("d")
    assert (d.hands, d.hands_won, d.wins, d.best_hand_id, d.average_fan) == (5, 0, 0, None, 0.0)
    assert (await store.player_stats("nobody")).hands == 0


async def test_figures_of_one_preset(store: Store) -> None:
    ids = await fill(store, ["a", "b", "c", "d"])
    a = await store.player_stats("a", "hkos-3-v1")
    assert (a.hands, a.hands_won, a.hands_dealt_in, a.wins, a.fan_total) == (4, 2, 0, 2, 9)
    assert (a.self_draws, a.best_hand_id) == (0, ids[4])
    bb = await store.player_stats("b", "sichuan-bb")
    assert (bb.hands, bb.hands_won, bb.hands_dealt_in, bb.best_hand_id) == (1, 1, 0, ids[3])


async def test_rating_history_follows_each_rated_hand(store: Store) -> None:
    ids = await fill(store, ["a", "b", "c", "d"])
    points = await store.rating_history("a", "hkos-3-v1")
    assert [p.hand_id for p in points] == [ids[0], ids[1], ids[2], ids[4]]
    (now,) = [r for r in await store.ratings_of("a") if r.preset == "hkos-3-v1"]
    assert points[-1].rating == now.rating
    for point in points:  # each point is the rating after that hand, as its history says
        record = await store.hand_record(point.hand_id)
        assert record is not None
        (change,) = [c for c in record.rating_changes if c.player_id == "a"]
        assert point.rating == change.after and point.display == display(change.after)
    assert await store.rating_history("a", "sichuan-bb") == []  # casual


async def test_the_fields_say_the_figures(store: Store) -> None:
    ids = await fill(store, ["a", "b", "c", "d"])
    fields = dict(stats_fields(await store.player_stats("a"), "fan"))
    assert fields == {
        "Hands played": "5",
        "Win rate": "60% (3 of 5)",
        "Deal-in rate": "20% (1 of 5)",
        "Average fan of wins": "3.7",
        "Self-draw share": "33% (1 of 3)",
        "Best hand": f"6 · `/mahjong replay hand:{ids[4]}`",
    }
    assert share(0, 0) == "—"


def _golden(picture: Image.Image) -> int:
    """Pixels of the line's colour (give or take its smoothed edges)."""
    bands = len(picture.getbands())
    values = iter(picture.tobytes())  # not getdata(): deprecated from Pillow 12
    return sum(
        1
        for pixel in zip(*[values] * bands, strict=True)
        if sum(abs(a - b) for a, b in zip(pixel, GOLD, strict=True)) < 60
    )


def test_the_rating_chart_draws_a_line_over_the_ratings_range() -> None:
    rising = render_rating_chart([1500, 1510, 1540, 1530], "Rating")
    assert rising.size == CHART_SIZE
    line = _golden(rising)
    dot = _golden(render_rating_chart([1500], "Rating"))
    assert line > 5 * dot > 0  # one rating is a dot, several a line
    with pytest.raises(ValueError):
        render_rating_chart([], "Rating")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


async def test_stats_on_discord(fake: FakeDiscord, tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    players = [str(u.id) for u in fake.users[:4]]
    async with await Store.open(str(path)) as store:
        ids = await fill(store, players)
    async with fake.running(make_bot(path)):
        record = await fake.slash(fake.users[1], "mahjong", "stats", {"user": fake.users[0]})
        await record.wait_responses(2)
        await fake.settle()
        (message,) = [m for m in record.followups if m.embeds]
        assert message.ephemeral
        text = message.text
        assert "60% (3 of 5)" in text and "20% (1 of 5)" in text and "33% (1 of 3)" in text
        assert f"hand:{ids[4]}" in text
        (chart,) = message.attachments
        with Image.open(io.BytesIO(chart.data)) as picture:
            assert picture.size == CHART_SIZE
        mine = await fake.slash(fake.users[1], "mahjong", "stats", {"preset": "sichuan-bb"})
        await mine.wait_responses(2)
        await fake.settle()
        (only,) = [m for m in mine.followups if m.embeds]
        assert "100% (1 of 1)" in only.text and not only.attachments  # casual: no rating
        nobody = await fake.slash(fake.users[4], "mahjong", "stats", {})
        await nobody.wait_responses(2)
        await fake.settle()
        assert "No finished hands yet" in nobody.followups[0].text
