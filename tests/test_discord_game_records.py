"""/mahjong history, stats, leaderboard and rating for a preset whose ratings settle per game
(Riichi), on the fake Discord, on SQLite and on PostgreSQL; and the words they use, per reader."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.discord.cogs.records import (
    counted_text,
    game_line,
    hand_outcome,
    history_lines,
    per_game,
)
from bot.discord.cogs.stats import counted_declarations, game_fields
from data import GameRecord, HandRecord, HandResult, SeatResult, Store
from engine.families.riichi.presets import RIICHI, RIICHI_MAJSOUL
from engine.presets import HKOS
from render.chart import render_rating_chart
from tests.conftest import Databases
from tests.fakediscord import FakeDiscord
from tests.game_presets import registered
from tests.rule_presets import MECHANISMS
from tests.test_discord_commands import answer, run
from tests.test_discord_e2e import make_bot
from tests.test_game_records import TENHOU_GAME, TENHOU_HANDS, game_table, play_game, seated


@pytest.fixture(autouse=True)
def riichi_known() -> Iterator[None]:
    with registered(RIICHI), registered(RIICHI_MAJSOUL):
        yield


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=5) as server:
        yield server


async def test_records_of_a_riichi_game_on_discord(fake: FakeDiscord, db: Databases) -> None:
    players = [str(u.id) for u in fake.users[:4]]
    ann, bob = fake.users[:2]
    path = db("bot")
    async with await Store.open(path) as store:
        hands, game = seated(players, TENHOU_HANDS, TENHOU_GAME)
        riichi = await game_table(store, RIICHI.id, now=1000.0, players=players)
        await play_game(store, riichi, hands, game, now=1000.0)
        hkos = await game_table(store, HKOS.id, now=2000.0, players=players)
        result = HandResult(HKOS.id, tuple(players), (True,) * 4, (8, -8, 0, 0), rated=True)
        hkos_hand = await store.start_hand(hkos, 0, 9, now=2001.0)
        await store.record_hand_result(hkos, hkos_hand, result, now=2002.0)
    async with fake.running(make_bot(path)):
        history = answer(await run(fake, ann, "history"))
        lines = [line for line in history.splitlines() if "Table #" in line]
        assert len(lines) == 2  # the hkos hand, then the game (its two hands are the game's)
        assert f"Table #{hkos} hand 1" in lines[0] and "+8" in lines[0]
        assert f"Table #{riichi} · `riichi`" in lines[1]
        assert "placed **2** · 28,900 points · final score +9 · 2 hands" in lines[1]
        assert "rating +" in lines[1]

        stats = await fake.slash(bob, "mahjong", "stats", {"user": ann, "preset": "riichi"})
        await stats.wait_responses(2)
        await fake.settle()
        (message,) = [m for m in stats.followups if m.embeds]
        said = message.text
        for figure in ("Games played", "0 / 1 / 0 / 0", "Average placement", "2.00", "+9"):
            assert figure in said
        assert "Riichi rate" in said and "50% (1 of 2)" in said  # won 1 of 2, riichi 1 of 2
        assert len(message.attachments) == 1  # the rating chart, one rated game

        everything = await fake.slash(ann, "mahjong", "stats", {})
        await everything.wait_responses(2)
        await fake.settle()
        (message,) = [m for m in everything.followups if m.embeds]
        assert "Hands played" in message.text and "Games played" in message.text
        assert "Riichi rate" not in message.text  # per preset only

        board = answer(await run(fake, bob, "leaderboard", {"preset": "riichi"}))
        assert "1 game · provisional" in board and "fewer than 10 rated games" in board
        empty = answer(await run(fake, bob, "leaderboard", {"preset": "riichi-majsoul"}))
        assert "finished a rated game of `riichi-majsoul`" in empty
        rating = answer(await run(fake, bob, "rating", {"user": ann}))
        assert "1 game" in rating and "1 hand" in rating  # riichi in games, hkos in hands

        nobody = await fake.slash(fake.users[4], "mahjong", "stats", {"preset": "riichi"})
        await nobody.wait_responses(2)
        await fake.settle()
        assert "No finished games yet" in nobody.followups[0].text


def test_the_words_of_records_are_in_the_readers_language() -> None:
    record = GameRecord(1, RIICHI.id, 0.0, 8, 40, True, TENHOU_GAME.standings, ())
    assert "第**2**名 · 28,900点 · 终局分+9 · 8局" in (game_line(record, "a", "zh-CN") or "")
    assert game_line(record, "nobody", "en") is None
    hand = HandRecord(5, 1, 0, HKOS.id, 10.0, False, "draw", (), (), (), ())
    mine = SeatResult(0, "a", True, -1500, 3)
    assert hand_outcome(hand, mine, "en") == "draw, -1,500"
    assert hand_outcome(hand, SeatResult(0, "a", True, 0, 1), "en") == "draw, +0"
    assert [str(counted_text(n, games)) for n in (1, 2) for games in (False, True)] == [
        "1 hand",
        "1 game",
        "2 hands",
        "2 games",
    ]
    assert counted_text(2, True).in_language("zh-TW") == "2場"
    # a game is listed by when it finished, among the hands
    lines = history_lines([hand], [record], "a", "en")
    assert len(lines) == 1 and "Table #1 · `riichi`" in lines[0]


def test_which_presets_count_games_and_which_declarations_their_stats_show() -> None:
    assert per_game("riichi") and per_game("riichi-majsoul") and not per_game(HKOS.id)
    assert not per_game("a-preset-no-more")
    assert counted_declarations(RIICHI) == ["riichi"]  # not nine terminals: no rate of it
    assert counted_declarations(MECHANISMS) == counted_declarations(HKOS) == []


def test_game_fields_place_and_score_and_rates_per_hand() -> None:
    from data import GameStats, PlayerStats

    hands = PlayerStats("a", "riichi", 10, 3, 2, 3, 1, 9, 4, 4)
    stats = GameStats("a", "riichi", 4, (1, 2, 0, 1), 21.6, hands, {"riichi": 4})
    fields = dict(game_fields(stats, ["riichi"]))
    assert fields == {
        "Games played": "4",
        "Placements (1st, 2nd, …)": "1 / 2 / 0 / 1",
        "Average placement": "2.25",
        "Average final score": "+5.4",  # 21.6 / 4
        "Hands played": "10",
        "Win rate": "30% (3 of 10)",
        "Deal-in rate": "20% (2 of 10)",
        "Riichi rate": "40% (4 of 10)",
    }
    assert list(dict(game_fields(stats, (), "zh-CN"))) == [
        "已打场数",
        "各顺位次数（一位起）",
        "平均顺位",
        "平均终局分",
    ]


def test_the_chart_counts_hands_or_games_in_the_catalogues_plural_forms() -> None:
    from engine.i18n import translate

    assert translate("en", "pictures.chart.hands", count=1) == "1 rated hand"
    assert translate("en", "pictures.chart.games", count=3) == "3 rated games"
    assert translate("zh-CN", "pictures.chart.games", count=1) == "1 场排位赛"
    for per_game_chart in (False, True):  # both draw
        assert render_rating_chart([1500, 1510], "R", "zh-TW", per_game=per_game_chart).size
