"""`mahjong-bot play`: the terminal front end on the real runtime and its snapshots, driven by
scripted input (and a clock that moves when told)."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import sys
import threading
from pathlib import Path

import pytest

from bot.runtime import Decision, ManualTimers, TableError
from bot.runtime.words import in_person
from bot.terminal import Ask, image_dir, play, read_answer, terminal_language
from engine.actions import Action
from engine.i18n import Number, text
from engine.presets import PRESETS
from engine.tiles import parse_tiles
from tests.rule_presets import SMALL_HK, TRIO_BLOOD


def scripted(lines: list[str]):
    answers = iter(lines)
    return lambda: next(answers, None)


def decision(*notations: str, suggestion: int = 0, kind: str = "turn") -> Decision:
    actions = tuple(Action.parse(n) for n in notations)
    return Decision(3, kind, actions, None, actions[suggestion])


def options(**values: object) -> argparse.Namespace:
    defaults: dict[str, object] = {
        "preset": "hkos-3-v1",
        "seed": 3,
        "images": None,
        "hands": 0,
        "time": None,
        "players": None,
        "level": "easy",
        "lang": "en",
    }
    return argparse.Namespace(**{**defaults, **values})


async def test_enter_plays_the_suggestions_through_two_hands_and_writes_pictures(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    code = await play(options(images=str(tmp_path), hands=2), scripted([""] * 2000), out)
    text = out.getvalue()
    assert code == 0
    assert "Result of hand 1:" in text and "Result of hand 2:" in text
    assert "Your hand (" in text and "<- suggested (Enter)" in text
    assert "Press Enter for the next hand" in text
    assert "Standings: 1. " in text  # the final standings when it stops
    # one line per public event, in words
    assert "You discard " in text and "Computer 1 discards " in text
    assert "(total " in text  # running totals after each hand
    for name in ("hand.png", "table.png", "result-1.png", "result-2.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")


async def test_a_win_is_told_with_its_patterns_in_words_and_its_payment() -> None:
    out = io.StringIO()
    await play(options(hands=1), scripted([""] * 500), out)
    text = out.getvalue()
    win = next(line for line in text.splitlines() if " won by " in line and "(" in line)
    assert "_" not in win  # pattern names in words, not ids
    assert "Payment: " in text or "A draw" in text


async def test_sichuan_tells_the_swap_the_tiles_received_and_the_voids() -> None:
    out = io.StringIO()
    await play(options(preset="sichuan-swap3", seed=8, hands=1), scripted([""] * 500), out)
    text = out.getvalue()
    assert "Swap: everyone passes three tiles " in text
    assert "You received " in text
    assert "Void suits: You " in text


async def test_a_three_seat_test_preset_plays_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(PRESETS, TRIO_BLOOD.id, TRIO_BLOOD)
    out = io.StringIO()
    args = options(preset=TRIO_BLOOD.id, seed=4, hands=2, images=str(tmp_path))
    assert await play(args, scripted([""] * 1000), out) == 0
    text = out.getvalue()
    assert "Result of hand 1:" in text and "Result of hand 2:" in text
    assert "Computer 2 " in text and "Computer 3" not in text  # you and two computers
    assert "Swap: everyone passes three tiles to the " in text
    totals = [line for line in text.splitlines() if line.startswith("  ") and "(total " in line]
    assert len(totals) == 2 * 3  # a line per seat after each hand
    assert (tmp_path / "table.png").read_bytes().startswith(b"\x89PNG")


async def test_players_and_level_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PRESETS, SMALL_HK.id, SMALL_HK)
    with pytest.raises(TableError, match="played by 4 players, not 3"):
        await play(options(players=3), scripted([]), io.StringIO())
    with pytest.raises(TableError, match="easy or strong"):
        await play(options(level="hard"), scripted([]), io.StringIO())
    out = io.StringIO()
    args = options(preset=SMALL_HK.id, players=2, hands=1)
    assert await play(args, scripted([""] * 500), out) == 0
    assert "Computer 1 " in out.getvalue() and "Computer 2" not in out.getvalue()


async def test_quit_and_end_of_input_stop_cleanly() -> None:
    out = io.StringIO()
    assert await play(options(seed=5), scripted(["q"]), out) == 0
    assert "Bye." in out.getvalue()
    assert await play(options(seed=5), scripted([]), io.StringIO()) == 0


async def test_an_answer_typed_before_a_timeout_is_refused_and_the_menu_shown_again() -> None:
    """The clock plays for you while you type: your answer was for that earlier menu."""
    timers = ManualTimers()
    out = io.StringIO()
    typed = threading.Event()
    answers = ["1", "q"]
    calls = 0

    def read() -> str | None:
        nonlocal calls
        calls += 1
        if calls == 1:
            typed.wait(10)  # the player is still typing when the clock runs out
        return answers.pop(0) if answers else None

    task = asyncio.create_task(play(options(time="bullet"), read, out, timers=timers))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if "<- suggested" in out.getvalue():
            break
    first_menu = out.getvalue()
    assert "You have 7 s" in first_menu  # bullet: 2 s + 5 s reserve on a turn
    await timers.advance(8)
    await asyncio.sleep(0.05)
    assert "Time's up: discard " in out.getvalue() and "was played for you" in out.getvalue()
    assert "Press Enter to go on." in out.getvalue()
    typed.set()
    assert await asyncio.wait_for(task, 10) == 0
    text = out.getvalue()
    assert "That was for an earlier moment" in text
    after = text.split("That was for an earlier moment", 1)[1]
    assert "<- suggested" in after  # the current menu was shown again
    # exactly one discard of ours: the clock's; the stale "1" was not applied
    assert text.count("You discard ") == 1


async def test_on_a_terminal_what_was_being_typed_is_dropped_and_the_new_menu_shown() -> None:
    """On a real terminal the clock's move flushes the half-typed line: the new menu appears at
    once and the next line answers it."""
    master, slave = os.openpty()
    timers = ManualTimers()
    out = io.StringIO()
    original = sys.stdin
    try:
        sys.stdin = os.fdopen(slave, "r", closefd=False)
        task = asyncio.create_task(play(options(time="bullet"), None, out, timers=timers))
        for _ in range(200):
            await asyncio.sleep(0.01)
            if "<- suggested" in out.getvalue():
                break
        os.write(master, b"99")  # half typed: not a line yet
        await asyncio.sleep(0.05)
        await timers.advance(8)
        await asyncio.sleep(0.05)
        text = out.getvalue()
        assert "Time's up: discard " in text
        assert text.count("<- suggested") >= 2  # the next menu is on screen already
        assert "Press Enter to go on." not in text
        os.write(master, b"q\n")  # "99q" was never sent whole: only "q" arrives
        assert await asyncio.wait_for(task, 10) == 0
        assert "There is no choice 99" not in out.getvalue() and "Bye." in out.getvalue()
    finally:
        sys.stdin = original
        os.close(master)
        os.close(slave)


def test_menu_answers() -> None:
    turn = decision("0 discard 5m", "0 discard 7z", "0 win", suggestion=1)
    assert read_answer("", turn) == turn.actions[1]
    assert read_answer("1", turn) == turn.actions[0]
    assert read_answer("7z", turn, tuple(parse_tiles("5m7z"))) == turn.actions[1]
    assert read_answer("WIN", turn) == turn.actions[2]
    assert read_answer("9", turn) == Ask("There is no choice 9: type a number from 1 to 3.")
    assert isinstance(read_answer("discard", turn), Ask)  # which one?
    assert read_answer("5z", turn, tuple(parse_tiles("5m7z"))) == Ask("You don't hold 5z.")
    assert read_answer("xyz", turn).text.startswith("I do not understand")  # type: ignore[union-attr]
    no_win = decision("0 discard 5m")
    assert read_answer("win", no_win) == Ask("No win is available.")
    chows = decision("1 chow 345m", "1 chow 456m", "1 pass", suggestion=2, kind="claim")
    assert read_answer("chow 456m", chows) == chows.actions[1]
    assert read_answer("chow 654m", chows) == chows.actions[1]  # tiles in any order
    assert read_answer("chow", chows).text == "Which chow? Type 'chow 345m' or 'chow 456m'."  # type: ignore[union-attr]


def test_kongs_voids_and_three_tile_picks() -> None:
    held = tuple(parse_tiles("5555z1m"))
    turn = decision("0 discard 5z", "0 discard 1m", "0 concealed_kong 5z")
    assert read_answer("kong", turn) == turn.actions[2]
    assert read_answer("kong 5z", turn) == turn.actions[2]
    assert read_answer("5z", turn, held) == Ask(
        "Which one? Type 'discard 5z' or 'concealed kong 5z'."
    )
    assert read_answer("kong 1m", turn, held) == Ask("You cannot kong 1m now.")
    void = decision("0 void m", "0 void p", "0 void s", kind="opening")
    assert read_answer("void m", void) == void.actions[0]
    assert read_answer("p", void) == void.actions[1]
    assert read_answer("bamboo", void) == void.actions[2]
    swap = decision("0 swap 139p", "0 swap 123m", kind="opening")
    assert read_answer("931p", swap) == swap.actions[0]
    assert read_answer("pass on 913p", swap) == swap.actions[0]  # as the menu says it
    assert read_answer("swap 456s", swap, tuple(parse_tiles("139p123m"))) == Ask(
        "You don't hold 456s."
    )
    voided = decision("0 discard 1m", "0 discard 2m")
    held = tuple(parse_tiles("12m5p"))
    assert read_answer("5p", voided, held, "m") == Ask(
        "You must discard your void suit (characters) first."
    )


def test_second_person_for_the_player_in_every_language() -> None:
    """Sentences are built per person from the catalogue, not by replacing words."""

    def said(key: str, who: str, language: str = "en", **fields: object) -> str:
        return in_person(text(key, who=who, **fields), "You").in_language(language)

    assert said("bot.event.discard", "You", tile="5m") == "You discard 5m."
    assert said("bot.event.locked", "You").startswith("Your hand is locked: you draw")
    assert said("bot.event.discard", "Computer 1", tile="5m") == "Computer 1 discards 5m."
    assert said("bot.event.pung.riichi", "You", tile="5z") == "You call pon on 5z."
    assert said("bot.event.discard", "You", "zh-CN", tile="5m") == "你打出5m。"
    assert said("bot.event.added_kong", "You", tile="5m") == (
        "You add 5m to your pung (a kong that may be robbed)."
    )
    deal = text("bot.event.deal.riichi", hand="East 2", dealer="You")
    assert str(in_person(deal, "You")) == "East 2 · You deal."
    sticks = text("bot.result.pot_taken", name="You", points=Number(3000))
    assert str(in_person(sticks, "You")) == "Riichi sticks: You take 3,000 from the pot."
    won = text("bot.result.winning_hand", name="You", tiles="123m", tile="5z")
    assert str(in_person(won, "You")) == "Your winning hand: 123m + 5z"
    assert in_person(won, "你").in_language("zh-TW") == "You的和牌：123m + 5z"  # not the reader


def test_images_must_name_a_directory(tmp_path: Path) -> None:
    existing = tmp_path / "file.png"
    existing.write_bytes(b"x")
    with pytest.raises(TableError, match="is a file, not a directory"):
        image_dir(str(existing))
    assert image_dir(str(tmp_path / "new")) == tmp_path / "new"


# ------------------------------------------------------------------ in the reader's language


async def test_play_in_simplified_chinese_prints_the_terminals_own_lines_in_chinese(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    args = options(preset="sichuan-bb", seed=3, hands=1, lang="zh-CN", images=str(tmp_path))
    assert await play(args, scripted([""] * 800), out) == 0
    text = out.getvalue()
    assert text.startswith("四川血战到底（sichuan-bb），种子 3。你是「你」；输入 q 退出。")
    assert "--- 东风圈 · 余牌 " in text
    assert "你的手牌（东）：" in text and "  <- 建议（Enter）" in text
    assert "还有 40 秒，时间到了由电脑代打。" in text  # the Sichuan table clock
    seat_lines = [line for line in text.splitlines() if line[1:2] in "东南西北" and " 分 " in line]
    assert seat_lines and all("副露 " in line and "牌河 " in line for line in seat_lines)
    assert "排名：1. " in text
    standings = next(line for line in text.splitlines() if "排名：" in line)
    assert "电脑 1" in standings and "电脑 3" in standings  # the computers' names too
    for english in ("Your hand", "round · wall", "suggested", "Standings", "pts", "Computer"):
        assert english not in text
    # the menu and the melds are worded too, only the tiles in notation
    assert ". 打出" in text
    english_words = set(re.findall(r"\b(?:discard|pung|chow|kong|pass|win|void)\b", text))
    assert english_words == set()
    assert (tmp_path / "table.png").read_bytes().startswith(b"\x89PNG")


async def test_traditional_chinese_and_the_quit_line() -> None:
    out = io.StringIO()
    assert await play(options(seed=5, lang="zh-TW"), scripted(["q"]), out) == 0
    text = out.getvalue()
    assert text.startswith("香港舊式麻雀（hkos-3-v1）") and "再見。" in text
    assert "--- 東風圈 · 餘牌 " in text


def test_refusals_are_in_the_players_language_and_chinese_call_words_are_read() -> None:
    turn = decision("0 discard 5m", "0 discard 7z", "0 kong 5m")
    assert read_answer("9", turn, language="zh-CN") == Ask("没有第 9 项：请输入 1 到 3 的数字。")
    assert read_answer("win", turn, language="zh-TW") == Ask("現在不能胡。")
    held = tuple(parse_tiles("5m5m5m5m7z"))
    assert read_answer("杠", turn, held) == Action.parse("0 kong 5m")
    claim = decision("1 pung 5m", "1 pass", kind="claim")
    assert read_answer("碰", claim) == Action.parse("1 pung 5m")
    assert read_answer("过", claim) == Action.parse("1 pass")
    assert read_answer("碰 7z", claim, language="zh-CN") == Ask("现在不能碰 7z。")
    voids = decision("0 void m", "0 void p", "0 void s")
    assert read_answer("缺 万", voids) == Action.parse("0 void m")
    assert read_answer("条", voids) == Action.parse("0 void s")


def test_the_language_comes_from_lang_then_the_posix_locale_then_english() -> None:
    assert terminal_language("zh-TW", {"LANG": "zh_CN.UTF-8"}) == "zh-TW"
    assert terminal_language(None, {"LANG": "zh_CN.UTF-8"}) == "zh-CN"
    assert terminal_language(None, {"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}) == "zh-TW"
    assert terminal_language(None, {"LANG": "C.UTF-8"}) == "en"
    assert terminal_language(None, {}) == "en"


def test_play_takes_lang_on_the_command_line_and_refuses_another() -> None:
    from bot.cli import _parser

    assert _parser().parse_args(["play", "--lang", "zh-CN"]).lang == "zh-CN"
    with pytest.raises(SystemExit):
        _parser().parse_args(["play", "--lang", "fr"])
