"""/mahjong score takes every field of the score contract: typed options for the simple ones,
`more:` (a JSON object) for the rest, and answers as `mahjong-bot score` does."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import MahjongBot
from bot.discord.cogs.reference import (
    score_embed,
    score_options_request,
    special_kongs_of,
)
from engine.formats.score_request import RequestError, run_score_lines, score_request
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord
from tests.test_discord_e2e import make_bot, private_text

HUBEI_FLUSH = {  # a full flush with a wild 9m standing for its 5s pair tile
    "preset": "hubei-laizi",
    "hand": "234s567s678s55s",
    "melds": "chow 789s from N",
    "wild": "9m",
    "min_fan": 0,
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=2) as server:
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[MahjongBot]:
    async with fake.running(make_bot(tmp_path / "bot.db")) as running:
        yield running


async def run(fake: FakeDiscord, user: FakeUser, options: dict[str, Any]) -> InteractionRecord:
    record = await fake.slash(user, "mahjong", "score", options)
    await record.wait_response()
    await fake.wait_for(lambda: not (record.original and record.original.loading))
    return record


def answer(record: InteractionRecord) -> str:
    assert record.original is not None
    return record.original.text


def cli(request: dict[str, Any]) -> dict[str, Any]:
    """What `mahjong-bot score` answers to `request` (one JSON line in, one out)."""
    out, err = io.StringIO(), io.StringIO()
    run_score_lines([json.dumps(request)], out, err)
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


def shown(embed: dict[str, Any]) -> tuple[object, ...]:
    """What an embed shows a reader: title, description, fields and footer."""
    fields = [(f["name"], f["value"]) for f in embed.get("fields", [])]
    footer = embed.get("footer", {}).get("text")
    return embed.get("title"), embed.get("description"), fields, footer


def assert_answers_as_the_cli(record: InteractionRecord, request: dict[str, Any]) -> str:
    """The public answer is the embed of the CLI's answer to `request`; its text."""
    assert record.original is not None and not record.ephemeral
    answer = cli(request)
    assert "error" not in answer, answer
    expected = score_embed(request, answer, request.get("lang", "en")).to_dict()
    assert shown(record.original.embeds[0]) == shown(dict(expected))
    return record.original.text


def request_of(options: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The CLI request the cog makes of these options."""
    return score_options_request(options, lang)


async def test_a_hubei_hand_with_its_wild_and_three_players(
    fake: FakeDiscord, bot: MahjongBot
) -> None:
    options = {
        **HUBEI_FLUSH,
        "hand": "234s567s678s5s9m",
        "melds": "chow 789s from W",  # W precedes E at a table of three
        "by": "self_draw",
        "players": 3,
    }
    record = await run(fake, fake.users[0], options)
    text = assert_answers_as_the_cli(record, request_of(options))
    assert "Full flush" in text and "E +4 · S -2 · W -2" in text and "N " not in text
    assert "S: 0 fan, pays 2" in text  # each loser's fan and payment
    without_wild = {k: v for k, v in options.items() if k != "wild"}
    assert "Not a win" in answer(await run(fake, fake.users[0], without_wild))


async def test_a_tw16_hand_is_scored_and_a_wall_it_does_not_read_is_refused(
    fake: FakeDiscord, bot: MahjongBot
) -> None:
    options = {
        "preset": "tw-16",
        "hand": "123m456m789m234p555z99s",
        "seat": "S",
        "by": "self_draw",
        "flags": "last_tile",
    }
    record = await run(fake, fake.users[0], options)
    text = assert_answers_as_the_cli(record, request_of(options))
    assert "3 tai" in text and "E -5 · S +13 · W -4 · N -4" in text
    # only the Four Winds insurance reads the wall: elsewhere it is refused, not ignored
    refused = await run(fake, fake.users[0], {**options, "wall_left": 0})
    assert refused.ephemeral and "Wall_left: tw-16 does not use it" in private_text(refused)


async def test_an_hk_fw2_hand_below_the_table_minimum(fake: FakeDiscord, bot: MahjongBot) -> None:
    chicken = {"preset": "hk-fw2", "hand": "123m456p789s222m44z", "bonus": "2f", "from": "S"}
    record = await run(fake, fake.users[0], {**chicken, "min_fan": 3})
    text = assert_answers_as_the_cli(record, request_of({**chicken, "min_fan": 3}))
    assert "Not a win" in text and "below this table's 3-faan minimum" in text
    scored = await run(fake, fake.users[0], {**chicken, "min_fan": 0})
    assert "Payment" in assert_answers_as_the_cli(scored, request_of({**chicken, "min_fan": 0}))


async def test_the_insurance_fields_reach_the_settlement(
    fake: FakeDiscord, bot: MahjongBot
) -> None:
    chow = {"preset": "hk-fw2", "hand": "123m456p789s234s55m", "from": "S"}
    late = {**chow, "wall_left": 5, "seen": 0}
    text = assert_answers_as_the_cli(await run(fake, fake.users[0], late), request_of(late))
    assert "E +16 · S -16 · W +0 · N +0" in text  # the last five tiles error: S pays all


async def test_more_adds_the_other_seats_in_the_reader_s_language(
    fake: FakeDiscord, bot: MahjongBot
) -> None:
    alice = fake.users[0]
    alice.locale = "zh-CN"
    more = '{"others": {"S": {"melds": ["pung 111p from E"]}}}'
    options = {**HUBEI_FLUSH, "by": "discard", "from": "S", "more": more}
    record = await run(fake, alice, options)
    request = request_of(options, "zh-CN")
    assert request["others"] == {"S": {"melds": ["pung 111p from E"]}}
    text = assert_answers_as_the_cli(record, request)
    assert "南家：2番，付16" in text  # the open loser's own fan counts
    assert "东 +24 · 南 -16 · 西 -4 · 北 -4" in text
    closed = await run(fake, alice, {k: v for k, v in options.items() if k != "more"})
    assert "南家：1番，付8" in answer(closed)


@pytest.mark.parametrize(
    ("more", "english", "chinese"),
    [
        (
            '{"others": ',
            "More: not valid JSON (a value was expected at character 12)",
            "more：不是有效的 JSON（第 12 个字符处缺少值）",
        ),
        (
            '{"wal_left": 3}',
            "Unknown field 'wal_left' (fields: preset, hand, win,",
            "没有 'wal_left' 这个字段",
        ),
        (
            "[3]",
            'More: must be one JSON object of score fields, such as {"wall_left": 3}.',
            'more：必须是一个由算番字段组成的 JSON 对象，例如 {"wall_left": 3}。',
        ),
        (
            '{"wild": "5p"}',
            "More: `wild` is already given by the option `wild:`; give it once.",
            "more：`wild` 已由选项 `wild:` 给出，只能给一次。",
        ),
    ],
)
async def test_a_bad_more_is_refused_with_the_specific_message(
    fake: FakeDiscord, bot: MahjongBot, more: str, english: str, chinese: str
) -> None:
    bob, alice = fake.users
    alice.locale = "zh-CN"
    options = {**HUBEI_FLUSH, "by": "self_draw", "more": more}
    for user, expected in ((bob, english), (alice, chinese)):
        record = await run(fake, user, options)
        assert record.ephemeral and expected in private_text(record), private_text(record)


def test_the_unknown_field_message_is_the_cli_s() -> None:
    request = request_of({"hand": "123m456m789m11122z", "more": '{"wal_left": 3}'})
    with pytest.raises(RequestError) as raised:
        score_request(request)
    assert cli(request)["error"] == raised.value.in_language("en")


def test_the_options_make_the_cli_request() -> None:
    options = {"hand": " 123m456m789m11122z ", "wild": None, "by": "self_draw", "lang": None}
    options |= {"melds": None, "flags": "last_tile, kong_replacement", "special_kongs": "red"}
    assert score_options_request({**options, "more": '{"round": "S"}'}, "zh-TW") == {
        "hand": "123m456m789m11122z",
        "by": "self_draw",
        "flags": ["last_tile", "kong_replacement"],
        "special_kongs": {"red": 1},
        "round": "S",
        "preset": "hkos-3-v1",
        "win": "2z",
        "lang": "zh-TW",
    }
    chosen = score_options_request({"hand": "11122z", "lang": "en"}, "zh-CN")
    assert chosen["lang"] == "en"  # the language option beats the reader's


def test_special_kongs_are_written_as_names_and_counts() -> None:
    assert special_kongs_of("red 1, wild 1") == {"red": 1, "wild": 1}
    assert special_kongs_of("red, red; green:2") == {"red": 2, "green": 2}
    assert special_kongs_of("  ") is None and special_kongs_of(None) is None
    assert special_kongs_of("red two") == {"red": "two"}  # refused by the request, by name
