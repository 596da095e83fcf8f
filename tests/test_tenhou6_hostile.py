"""`replay --tenhou6` on hostile files (issue 40.6): one line on stderr and exit 2, never a
traceback; what is read is bounded; `-o` leaves nothing of a failed run; memory is flat in the
number of hands."""

from __future__ import annotations

import copy
import errno
import gc
import io
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

import tests.tenhou6_hands as written
from bot.replay_tenhou6 import run_tenhou6
from engine.formats.tenhou6 import log as log_module
from engine.formats.tenhou6.log import NAME_LENGTH, from_json
from engine.hand import HandState


def run(path: Path, output: Path | None = None, check: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_tenhou6(str(path), check, out, err, None if output is None else str(output))
    return code, out.getvalue(), err.getvalue()


def refused(path: Path, words: str) -> None:
    code, _, err = run(path)
    assert code == 2 and err.count("\n") == 1 and words in err, err


def with_win_texts(*texts: str) -> str:
    hand = copy.deepcopy(written.RIICHI_URA)
    hand[16][2] = [*hand[16][2][:3], *texts]
    return json.dumps(written.log(hand))


def with_final(last: str) -> str:
    """The log with an `sc` line whose last entry is `last` as written."""
    text = json.dumps(written.log(written.RIICHI_URA) | {"sc": [0] * 8})
    return text.replace("0]}", last + "]}")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"name": [], "rule": {}, "log": [], "x": ' + "9" * 5000 + "}", "5000 digits"),
        ('{"name": [], "rule": {}, "log": [], "x": 1' + "0" * 5000 + ".5}", "not a number"),
        (with_win_texts("30符1飜" + "1" * 5000 + "点", "立直(1飜)"), "not a points line"),
        (with_win_texts("30符1飜1000点", "立直(" + "1" * 5000 + "飜)"), "not a yaku with its han"),
        (with_final("NaN"),
         "NaN is not a number"),
        (with_final("-Infinity"),
         "-Infinity is not a number"),
        (with_final("1e999"),
         "not a number"),
        ("\udcff".encode("utf-8", "surrogateescape").decode("latin-1"), "not JSON"),
    ],
    ids=["deep", "long-int", "long-float", "long-points", "long-han", "nan",
         "infinity", "overflow", "latin"],
)  # fmt: skip
def test_a_hostile_log_is_one_line_and_exit_2(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    refused(path, words)


@pytest.mark.parametrize(("slot", "item"), [(6, "r²6"), (6, "f²4"), (5, "p1²1111")])
def test_a_superscript_in_a_tile_string_is_no_tile(tmp_path: Path, slot: int, item: str) -> None:
    """`"²".isdigit()` is true and `int("²")` refuses it."""
    data = copy.deepcopy(written.log(written.RIICHI_URA))
    data["log"][0][slot][0] = item
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    refused(path, f"{item!r} is not a call")


def test_bytes_that_are_not_utf8_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b'{"name": "\xff"}')
    refused(path, "not UTF-8")


def test_what_is_read_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refused(Path("/dev/zero"), "longer than 16 MB")
    monkeypatch.setattr(log_module, "MAX_LOG_BYTES", 1 << 20)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def endless() -> None:
        with open(fifo, "wb") as pipe, pytest.raises(BrokenPipeError):
            for _ in range(1 << 12):  # 4 GB at most: the reader stops long before
                pipe.write(b"[" * (1 << 20))

    writer = threading.Thread(target=endless)
    writer.start()
    refused(fifo, "longer than 1 MB")
    writer.join(timeout=10)
    assert not writer.is_alive()


def test_a_name_is_cut_to_what_a_picture_shows() -> None:
    data = copy.deepcopy(written.log(written.RIICHI_URA))
    data["name"][0] = "名" * 20_000
    log = from_json(data)
    assert log.names[0] == "名" * NAME_LENGTH and log.names[1] == "B"


def many_hands(count: int) -> dict[str, Any]:
    """`count` hands of nine terminals by the dealer, each one honba more."""
    hands = []
    for honba in range(count):
        hand = copy.deepcopy(written.NINE_TERMINALS)
        hand[0] = [0, honba, 0]
        hands.append(hand)
    return written.log(*hands)


def hand_states_alive() -> int:
    return sum(isinstance(o, HandState) for o in gc.get_objects())


class CountingStates(io.StringIO):
    """Counts the hand states alive at every 25th line written (a report a hand), beyond those
    other tests in this process left alive before it began (a worker runs many tests)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines = 0
        self.most = 0
        gc.collect()
        self.before = hand_states_alive()

    def write(self, text: str) -> int:
        self.lines += text.count("\n")
        if self.lines % 25 == 0:
            self.most = max(self.most, hand_states_alive() - self.before)
        return super().write(text)


def test_memory_is_flat_in_the_number_of_hands_without_output(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(many_hands(150)))
    out, err = CountingStates(), io.StringIO()
    assert run_tenhou6(str(path), False, out, err) == 0
    assert err.getvalue() == "150 of 150 hands replay to the log's results\n"
    assert out.lines == 151 and out.most <= 2


def test_output_is_written_under_scratch_names_and_renamed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(many_hands(3)))
    directory = tmp_path / "out"
    code, _, err = run(path, directory)
    assert code == 0 and err.splitlines()[-1] == f"wrote 4 file(s) to {directory}"
    names = sorted(p.name for p in directory.iterdir())
    assert names == ["hand-001.png", "hand-002.png", "hand-003.png", "replay.tenhou6.json"]


def test_a_failed_output_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(many_hands(3)))
    directory = tmp_path / "made" / "here"

    def full(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    code, _, err = run(path, directory)
    assert code == 2 and err == f"error: {path}: [Errno 28] No space left on device\n"
    assert not (tmp_path / "made").exists()
    monkeypatch.undo()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "mine.txt").write_text("mine")
    differing = many_hands(2)
    differing["log"][1][0] = [0, 5, 0]  # not the deal our engine gives after the first hand
    path.write_text(json.dumps(differing))
    code, _, err = run(path, kept)
    assert code == 2 and err.count("\n") == 1 and "the deal after hand 1" in err
    assert [p.name for p in kept.iterdir()] == ["mine.txt"]
