"""What a new user found playing the Riichi presets through (issue 43, item 7): a reader that
leaves `replay` early, `score`'s manners (empty input, JSON errors, a limit hand's fu), an
option given twice, a seat count another preset plays, the standings' subtitle and the
suggested move a beginner copies. (The sanma table picture: tests/test_render_riichi.py; the
exported final line: tests/test_tenhou6_replay.py.)"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli
from bot.pipes import SIGPIPE_STATUS
from bot.runtime.errors import TableError
from bot.runtime.table import seat_count_for
from engine.actions import Action, ActionKind
from engine.computer import choose_strong, suggest
from engine.families.riichi.presets import RIICHI
from engine.formats.score_request import run_score_lines
from engine.hand import HandState
from engine.i18n import worded
from engine.options import parse_choices
from engine.presets import find_preset
from engine.tiles import format_tiles, parse_tile, parse_tiles
from render.standings import StandingRow, StandingsView, _subtitle_lines
from tests.tenhou6_logs import real_log

ROOT = Path(__file__).resolve().parent.parent


def test_a_reader_that_leaves_replay_early_is_no_fault_of_the_log() -> None:
    log = real_log("ranked_game.json")
    with subprocess.Popen(
        [sys.executable, "-m", "bot", "replay", "--tenhou6", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()
        process.stdout.close()  # as `| head -1` does
        errors = process.stderr.read().decode()
        status = process.wait()
    assert errors == "" and status == SIGPIPE_STATUS


@pytest.mark.parametrize("lines", [[], [""], ["  \n", "\n"]])
def test_score_with_no_request_is_one_error_line_and_exit_2(lines: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(lines, out, err) == 2
    assert out.getvalue() == "" and len(err.getvalue().splitlines()) == 1
    assert err.getvalue().startswith("error: no score request")


def test_a_json_error_names_its_position_whole() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_score_lines(['{"preset": "riichi", "hand": [ }'], out, err) == 2
    assert json.loads(out.getvalue()) == {
        "error": "not valid JSON (Expecting value at character 32)"
    }


def ask(request: dict[str, object], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert cli.main(["score", "--json", json.dumps(request)]) == 0
    answer: dict[str, object] = json.loads(capsys.readouterr().out)
    return answer


@pytest.mark.parametrize(
    ("hand", "limit"),
    [
        ("111m999m111p999p1s1s", "yakuman"),  # chinroutou, counted at 60 fu by the package
        ("11m22m33m44m55m66m77m", "sanbaiman"),  # at 20 fu
        ("19m19p19s1234567z1m", "yakuman"),  # kokushi, at 0 fu
    ],
)
def test_a_limit_hand_names_no_fu_as_the_replay_writes_it(
    hand: str, limit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = ask({"preset": "riichi", "hand": hand, "win": hand[-2:], "by": "self_draw"}, capsys)
    assert answer["limit"] == limit and answer["fu"] is None
    below = ask({"preset": "riichi", "hand": "123m456m789m234p5p5p", "win": "5p"}, capsys)
    assert below["limit"] is None and below["fu"] == 40


def test_an_option_given_twice_with_two_values_is_refused() -> None:
    with pytest.raises(ValueError, match="length is given twice, as east and as south"):
        parse_choices(RIICHI, ["length=east", "length=south"])
    assert parse_choices(RIICHI, ["length=east", "length:east"]) == {"length": "east"}
    code = cli.main(["play", "--preset", "riichi", "--length", "east", "--option", "length=south"])
    assert code == 2


def test_a_seat_count_the_preset_does_not_seat_names_the_one_that_does() -> None:
    with pytest.raises(TableError) as riichi:
        seat_count_for(RIICHI, 3, rated=False)
    assert worded(riichi.value.args[0], "en").endswith("for 3 players choose sanma")
    with pytest.raises(TableError) as sanma:
        seat_count_for(find_preset("sanma"), 4, rated=False)
    assert "for 4 players choose riichi, riichi-majsoul" in worded(sanma.value.args[0], "en")
    with pytest.raises(TableError) as hong_kong:
        seat_count_for(find_preset("hkos-3-v1"), 3, rated=False)
    assert "choose" not in worded(hong_kong.value.args[0], "en")


@pytest.mark.parametrize("language", ["en", "zh-CN", "zh-TW"])
def test_the_standings_subtitle_wraps_between_its_parts_never_cut(language: str) -> None:
    rows = (StandingRow(1, "Ann", 41500, 51.5), StandingRow(2, "Computer 1", 30000, 10.0))
    preset = "Riichi (Mahjong Soul rules)"
    view = StandingsView("Computer 1's table", preset, 9, rows, channel_name="mahjong-riichi")
    lines = _subtitle_lines(view, language)
    assert len(lines) == 2 and " · ".join(lines).startswith(
        f"#mahjong-riichi · Computer 1's table · {preset}"
    )
    assert not any("…" in line for line in lines)


# ------------------------------------------------------------------------------- suggestions


def dealt(*hands: str) -> HandState:
    """A Riichi hand dealt with these hands first (the dealer's 14 tiles first), the other
    seats filled from what is left."""
    rest = list(RIICHI.wall)
    for hand in hands:
        for tile in parse_tiles(hand):
            rest.remove(tile)
    rest.sort(reverse=True)
    filled = list(hands)
    while len(filled) < 4:
        filled.append(format_tiles(rest[:13]))
        rest = rest[13:]
    return HandState.arranged(RIICHI, filled)


def test_the_suggestion_throws_a_guest_wind_before_the_double_east() -> None:
    state = dealt("3m5m5m3p4p6p1s3s4s5s6s1z4z6z")  # East's lone 1z is worth 2 han to a pung
    assert choose_strong(state, 0) == Action(0, ActionKind.DISCARD, (parse_tile("1z"),))
    assert suggest(state, 0, choose_strong) == Action(0, ActionKind.DISCARD, (parse_tile("4z"),))


def test_the_suggestion_makes_no_call_into_a_hand_without_a_yaku() -> None:
    state = dealt("3m1m9m1p9p1s9s2z2z4z6z7z7z1z", "2m3m3m5m6m7p2s2s5s7s9s4z0s")
    state.apply(Action(0, ActionKind.DISCARD, (parse_tile("3m"),)))
    assert choose_strong(state, 1) == Action(1, ActionKind.PUNG, (parse_tile("3m"),))
    assert suggest(state, 1, choose_strong) == Action(1, ActionKind.PASS)
    # a pon of a dragon is a yaku: suggested as the computer chose it
    state = dealt("3m5m5m3p4p6p1s3s4s5s6s4z6z5z", "5z5z1m9m2p3p7p8p1s9s2z3z3z")
    state.apply(Action(0, ActionKind.DISCARD, (parse_tile("5z"),)))
    assert suggest(state, 1, choose_strong) == Action(1, ActionKind.PUNG, (parse_tile("5z"),))
