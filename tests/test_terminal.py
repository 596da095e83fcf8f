"""`mahjong-bot play`: the terminal front end on the real runtime, driven by scripted input."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from bot.terminal import parse_choice, play
from engine.actions import Action


def scripted(lines: list[str]):
    answers = iter(lines)
    return lambda: next(answers, None)


async def test_enter_plays_the_suggestions_through_two_hands_and_writes_pictures(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    args = argparse.Namespace(
        preset="hkos-3-v1", seed=3, images=str(tmp_path), hands=2, time="untimed"
    )
    code = await play(args, scripted([""] * 2000), out)
    text = out.getvalue()
    assert code == 0
    assert text.count("=== hand over ===") == 2
    assert "Your hand (" in text and "<- suggested (Enter)" in text
    for name in ("hand.png", "table.png", "result-1.png", "result-2.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")


async def test_quit_and_end_of_input_stop_cleanly() -> None:
    out = io.StringIO()
    args = argparse.Namespace(preset="hkos-3-v1", seed=5, images=None, hands=0, time="untimed")
    assert await play(args, scripted(["q"]), out) == 0
    assert await play(args, scripted([]), io.StringIO()) == 0


def test_menu_answers() -> None:
    actions = [Action.parse(t) for t in ("0 discard 5m", "0 discard 7z", "0 win")]
    suggestion = actions[1]
    assert parse_choice("", actions, suggestion) == suggestion
    assert parse_choice("1", actions, suggestion) == actions[0]
    assert parse_choice("7z", actions, suggestion) == actions[1]
    assert parse_choice("WIN", actions, suggestion) == actions[2]
    assert parse_choice("9", actions, suggestion) is None
    assert parse_choice("discard", actions, suggestion) is None  # ambiguous
    chows = [Action.parse("1 chow 345m"), Action.parse("1 chow 456m"), Action.parse("1 pass")]
    assert parse_choice("chow 456m", chows, chows[2]) == chows[1]
