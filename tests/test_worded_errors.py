"""What the engine and the runtime refuse reaches a Chinese reader in Chinese (and stays English
for `str`): table options and minimums, action notation, why a table closed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bot.replay import ReplayError, ReplayLog, stored_replay
from bot.runtime import COMPUTER_PREFIX, ManualTimers, Runtime, TableError
from bot.runtime.computers import computer_for
from bot.runtime.words import CLOSED_REASONS, closed_reason_text, seat_name
from data import Store
from engine.actions import Action
from engine.formats.score_request import RequestError, run_score_lines, score_request
from engine.i18n import Text, worded
from engine.presets import PRESETS, find_preset, with_min_fan, with_options
from engine.tiles import InvalidNotationError
from tests.test_score_request import ERRORS as SCORE_ERRORS

CJK = re.compile(r"[\u4e00-\u9fff]")


def _chinese(said: str) -> bool:
    """Chinese, with nothing English beyond ids, notation and quoted values."""
    bare = re.sub(r"'[^']*'|`[^`]*`|<[^>]*>|\b[mps]\b", " ", said)
    for preset_id in sorted(PRESETS, key=len, reverse=True):  # ids stay English (longest first)
        bare = bare.replace(preset_id, " ")
    return bool(CJK.search(said)) and not re.search(r"[A-Za-z]{3,}", bare)


@pytest.mark.parametrize(
    ("refuse", "english"),
    [
        (lambda: with_options(find_preset("hubei-laizi"), ["bells"]), "has no table option"),
        (lambda: with_min_fan(find_preset("hkos-3-v1"), 5), "fixed minimum"),
        (lambda: with_min_fan(find_preset("hk-fw2"), 99), "takes a minimum of"),
        (lambda: find_preset("nope"), "unknown preset"),
        (lambda: Action.parse("0 fly 5m"), "unknown action"),
        (lambda: Action.parse("discard"), "an action is"),
        (lambda: Action.parse("0 void z"), "a void names a suit"),
    ],
)
def test_engine_refusals_carry_their_words_for_every_language(refuse, english) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises((ValueError, InvalidNotationError)) as raised:
        refuse()
    (message,) = raised.value.args
    assert isinstance(message, Text)
    assert english in str(raised.value)  # English for logs and the existing tests
    for language in ("zh-CN", "zh-TW"):
        assert _chinese(message.in_language(language)), message.in_language(language)


async def test_the_runtime_reraises_them_for_the_reader(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "bot.db")) as store:
        runtime = Runtime(store, None, ManualTimers())
        await runtime.open()
        with pytest.raises(TableError) as raised:
            await runtime.create_table("hk-fw2", creator_id="1", creator_name="Ann", min_fan=99)
        assert "takes a minimum" in str(raised.value)
        assert _chinese(raised.value.in_language("zh-CN")), raised.value.in_language("zh-CN")
        table = await runtime.create_table("hkos-3-v1", creator_id="1", creator_name="Ann")
        for _ in range(3):
            await runtime.add_computer(table.id, "1")
        await runtime.start_table(table.id, "1")
        hand = runtime.get(table.id).hand
        assert hand is not None
        with pytest.raises(TableError) as raised:
            await runtime.act(table.id, "1", "0 fly 5m", hand.version)
        assert _chinese(raised.value.in_language("zh-TW")), raised.value.in_language("zh-TW")
        await runtime.close()


async def test_a_refused_table_names_its_preset_in_the_reader_s_language(tmp_path: Path) -> None:
    """The fixed clock's and the seat count's refusals name the preset as its players do."""
    async with await Store.open(str(tmp_path / "bot.db")) as store:
        runtime = Runtime(store, None, ManualTimers())
        await runtime.open()
        with pytest.raises(TableError) as clock:
            await runtime.create_table(
                "sichuan-bb", creator_id="1", creator_name="Ann", time_control="bullet"
            )
        with pytest.raises(TableError) as seats:
            await runtime.create_table("hkos-3-v1", creator_id="1", creator_name="Ann", players=2)
        for refused, name in ((clock, "四川血战到底"), (seats, "香港旧式麻将")):
            said = refused.value.in_language("zh-CN")
            assert name in said and "Sichuan" not in said and "Hong Kong" not in said, said
        assert "Sichuan Blood Battle" in str(clock.value)
        await runtime.close()


@pytest.mark.parametrize("reason", sorted(CLOSED_REASONS))
def test_every_closing_reason_is_worded_per_language(reason: str) -> None:
    assert worded(closed_reason_text(reason), "en") == reason  # the stored English, as it was
    for language in ("zh-CN", "zh-TW"):
        assert _chinese(worded(closed_reason_text(reason), language))


def test_a_reason_the_catalogue_does_not_know_is_shown_as_it_is() -> None:
    assert closed_reason_text("moved to another channel") == "moved to another channel"


# ------------------------------------------------------------------ score requests


@pytest.mark.parametrize(
    "bad", [pytest.param(case[1], id=case[0]) for case in SCORE_ERRORS if isinstance(case[1], dict)]
)
def test_every_score_refusal_is_worded_in_chinese(bad: dict[str, object]) -> None:
    with pytest.raises(RequestError) as raised:
        score_request(bad)
    for language in ("zh-CN", "zh-TW"):
        said = raised.value.in_language(language)
        assert _chinese(said), said


def test_the_score_cli_answers_errors_in_the_request_language() -> None:
    bad = {"preset": "hkos-3-v1", "hand": "111m555p999s0z", "win": "1m"}
    lines = [
        json.dumps({**bad, "lang": "zh-TW"}),
        json.dumps(bad),
        json.dumps({**bad, "lang": "xx"}),
    ]
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(lines, out, err) == 2
    chinese, english, unknown = (json.loads(line)["error"] for line in out.getvalue().splitlines())
    assert chinese == "`hand`：沒有 0z 這張牌：字牌是 1z 到 7z（在 '111m555p999s0z' 裡）"
    assert english == "hand: no tile 0z: honours are 1z-7z (in '111m555p999s0z')"
    assert unknown == english  # a language we do not have: English
    assert "字牌" in err.getvalue().splitlines()[0]


# ------------------------------------------------------------------ replays and computers


async def test_replay_refusals_and_computer_levels_are_worded_per_reader(tmp_path: Path) -> None:
    async with await Store.open(str(tmp_path / "bot.db")) as store:
        with pytest.raises(ReplayError) as raised:
            await stored_replay(store, 999)
    assert str(raised.value) == "there is no hand 999"
    assert raised.value.in_language("zh-CN") == "没有第 999 手牌"
    with pytest.raises(ReplayError) as raised:
        ReplayLog.from_json({"format": "something else"})
    assert _chinese(raised.value.in_language("zh-TW"))
    with pytest.raises(TableError) as refused:
        computer_for("grandmaster")
    assert "easy or strong" in str(refused.value)
    assert _chinese(refused.value.in_language("zh-CN"))


def test_computers_are_named_in_the_reader_s_language_and_people_as_they_chose() -> None:
    computer = seat_name("Computer 2", f"{COMPUTER_PREFIX}2")
    assert (worded(computer, "en"), worded(computer, "zh-CN")) == ("Computer 2", "电脑 2")
    assert seat_name("Computer 2", "12345") == "Computer 2"  # a person who chose that name
