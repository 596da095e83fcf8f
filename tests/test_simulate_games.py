"""`mahjong-bot simulate --games N`: whole games with their standings and a summary, the same for
the same seed; and why a game ended (engine.game.game_end) for each kind of end."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from engine.game import GameEnd, GameProgress, GameRule, game_end

HANCHAN = GameRule(rounds=2, target=30000, extension=1, bust_below=0, leader_stop=True)
LEADER = (31000, 25000, 24000, 20000)
EVEN = (25000, 25000, 25000, 25000)


def test_each_kind_of_game_end_is_named() -> None:
    def end(changes: int, points: tuple[int, ...], **more: object) -> GameEnd | None:
        return game_end(HANCHAN, GameProgress(1, changes, points, **more))  # type: ignore[arg-type]

    assert end(3, (60000, 40001, 0, -1)) is GameEnd.BUST
    assert end(8, LEADER) is GameEnd.LENGTH  # South 4 passed the deal on, someone at 30,000
    assert end(8, EVEN) is None  # into West
    assert end(9, LEADER) is GameEnd.EXTENSION  # reached in West
    assert end(8, LEADER, dealer_kept=True) is GameEnd.EXTENSION  # West 1's dealer kept it
    assert end(12, EVEN) is GameEnd.EXTENSION  # West 4: at the latest
    last = {"dealer_kept": True, "dealer": 0}
    assert end(7, LEADER, **last) is GameEnd.LEADER_STOP
    assert end(7, (25000, 31000, 24000, 20000), **last) is None  # the dealer is not leading
    assert game_end(GameRule(hands=3), GameProgress(3, 0, EVEN)) is GameEnd.LENGTH
    assert game_end(GameRule(), GameProgress(999, 999, EVEN)) is None


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


GAME_LINE = re.compile(r"^game (\d+) \(seed (\d+)\): (\d+) hands, ended by (\w+)$")
STANDING_LINE = re.compile(r"^  ([1-4])\. player ([0-3])  points +(-?[\d,]+)  score ([+-]\d+\.\d)$")


def test_simulate_games_prints_standings_per_game_and_a_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--preset", "riichi", "--games", "2", "--seed", "5")
    assert code == 0 and err == ""
    lines = out.splitlines()
    games = [GAME_LINE.match(lines[start]) for start in (0, 5)]
    assert [(g.group(1), g.group(2)) for g in games if g] == [("1", "5"), ("2", "6")]
    assert all(g and g.group(4) in {e.value for e in GameEnd} for g in games)
    for start in (0, 5):
        standings = [STANDING_LINE.match(line) for line in lines[start + 1 : start + 5]]
        assert all(standings), lines[start : start + 5]
        assert [s.group(1) for s in standings if s] == ["1", "2", "3", "4"]
        assert sorted(s.group(2) for s in standings if s) == ["0", "1", "2", "3"]
        scores = [float(s.group(4)) for s in standings if s]
        assert abs(sum(scores)) < 0.05  # Tenhou's final scores sum to zero (first takes the rest)
        points = [int(s.group(3).replace(",", "")) for s in standings if s]
        assert sum(points) == 100_000  # the pot left goes to the leader
    summary = lines[10:]
    hands = sum(int(g.group(3)) for g in games if g)
    assert summary[0] == "preset: riichi"
    assert summary[1] == f"games: 2  hands: {hands}  hands per game: {hands / 2:.1f}"
    assert re.fullmatch(r"average placement per seat: (\d: \d\.\d\d  ){3}\d: \d\.\d\d", summary[2])
    assert summary[3].startswith("game ends: ") and summary[4].startswith("games_per_s: ")


def test_simulate_games_is_the_same_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--preset", "riichi-majsoul", "--games", "2", "--seed", "11", "--json")
    first = run(capsys, *argv)[1]
    assert first == run(capsys, *argv)[1]
    games = [json.loads(line) for line in first.splitlines()]
    assert [g["game"] for g in games] == [1, 2] and [g["seed"] for g in games] == [11, 12]
    assert games[0]["standings"] != games[1]["standings"]
    other = run(capsys, "--preset", "riichi-majsoul", "--games", "1", "--seed", "12", "--json")[1]
    assert json.loads(other)["standings"] == games[1]["standings"]  # game i is seeded SEED+i


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--preset", "riichi", "--games", "0"), "--games must be at least 1"),
        (("--preset", "riichi", "--games", "1", "--hands", "5"), "give --hands or --games"),
        (("--preset", "hkos-3-v1", "--games", "1"), "hkos-3-v1 games never end: use --hands"),
    ],
)
def test_simulate_games_refuses_what_it_cannot_play(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err
