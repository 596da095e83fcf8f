"""Points are written as each reader writes numbers (Babel): 25,000, +1,500, −1,500."""

from __future__ import annotations

import pytest

from bot.runtime.words import payment_text, standing_lines
from render.result import _amount
from render.standings import StandingRow, StandingsView


def test_a_payment_line_groups_thousands_and_keeps_the_sign() -> None:
    paid = payment_text([1500, -1500, 0, 8], ["Ann", "Bob", "Cy", "Di"])
    assert paid.in_language("en") == "Ann +1,500, Bob -1,500, Di +8"


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "1. Ann: 25,000 points, final score +60"),
        ("zh-CN", "第 1 名 Ann：25,000 分，终局得分 +60"),
    ],
)
def test_the_final_standings_write_points_as_the_reader_does(language: str, line: str) -> None:
    view = StandingsView("table", "riichi", 8, (StandingRow(1, "Ann", 25000, 60.0),))
    assert [text.in_language(language) for text in standing_lines(view)] == [line]


def test_the_result_pictures_amounts_group_thousands_with_a_true_minus() -> None:
    assert [_amount(d, "zh-TW") for d in (12000, -1500, 0)] == ["+12,000", "−1,500", "0"]
